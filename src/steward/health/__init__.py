"""Health of a project's hosts on the port Ansible uses: TCP connect and SSH banner times."""
