"""The dummy hash a login of an unknown user is verified against: written in the code (making
one costs ~0.4 s of CPU at every process start), with the hasher's own parameters, so verifying
it costs what verifying a user's hash costs and timing does not tell which usernames exist."""

from __future__ import annotations

from argon2 import PasswordHasher

from steward.auth import passwords


def test_the_written_dummy_hash_has_the_real_hashers_parameters() -> None:
    real = PasswordHasher()  # the module's _hasher is the tests' cheap one (support.isolation)
    assert not real.check_needs_rehash(passwords._PRECOMPUTED)


def test_a_hasher_of_other_parameters_makes_a_dummy_of_its_own() -> None:
    cheap = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    assert cheap.check_needs_rehash(passwords._PRECOMPUTED)  # the condition the module asks
    made = cheap.hash("steward-dummy-password")
    assert not cheap.check_needs_rehash(made)
    assert not passwords.verify_password(None, "steward-dummy-password")
