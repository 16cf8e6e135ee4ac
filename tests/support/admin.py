"""The bootstrap admin every test database is seeded with (see support.databases)."""

from steward.auth.tokens import TOKEN_PREFIX

ADMIN_PASSWORD = "admin-password-for-tests"
# seeded once into the template databases, so a test does not pay two argon2 computations
# (hash at bootstrap, verify at login) just to get an authenticated client
ADMIN_TOKEN = TOKEN_PREFIX + "seeded-admin-token-of-the-test-suite"
