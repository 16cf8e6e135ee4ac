"""Ansible plugins Steward ships: this directory goes on ``ANSIBLE_CALLBACK_PLUGINS``."""
