"""``steward doctor``: checks of the installation an operator is about to run, one line each.

Each check is a function of the settings returning a ``findings.Finding`` (ok, warn or FAIL, its
name, a detail naming the cause and the fix); ``report.CHECKS`` lists them in the order they are
printed, ``report.examine`` runs them side by side (every one bounded by a short timeout). The
checks live by what they look at: ``disk`` (the data dir), ``storage`` (database, master key),
``tools`` (git, ssh, ansible-core), ``selftest`` (the run sandbox, with a real run), ``peers``
(host metrics' pmproxies, the broker). Only FAIL makes the command exit non-zero. The doctor
makes nothing that stays: run as another user than the service's, it must not make the
service's directories its own.
"""
