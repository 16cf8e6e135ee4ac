"""Where the tests' servers let Steward connect (``STEWARD_OUTBOUND_ALLOWED_NETWORKS``)."""

from __future__ import annotations

# the receivers, git servers, pmproxies and Galaxy servers tests start listen on 127.0.0.1:
# allowed the way an admin would allow a network, never by weakening the default
LOOPBACK_ALLOWED = ("127.0.0.1", "::1")
