"""Where the server itself may connect: one guard (``outbound.network.Guard``) for every
destination a user names (notification URLs and SMTP hosts, pmproxy endpoints, Galaxy servers,
git servers). Loopback, link-local, "this network", multicast and reserved addresses and the
server's own listen address are refused unless an admin allows them
(``STEWARD_OUTBOUND_ALLOWED_NETWORKS``); private ranges too when
``STEWARD_OUTBOUND_BLOCK_PRIVATE`` is on."""
