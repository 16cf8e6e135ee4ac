"""``steward doctor``: checks of the installation an operator is about to run, one line each.

Each check is a function of the settings returning a ``findings.Finding`` (ok, warn or FAIL, its
name, a detail naming the cause and the fix); ``report.CHECKS`` lists them in the order they are
printed, ``report.examine`` runs them side by side (every one bounded by a short timeout). The
checks live by what they look at: ``storage`` (data dir, database, master key), ``tools`` (git,
ssh, ansible-core), ``selftest`` (the run sandbox, with a real run), ``peers`` (host metrics'
pmproxies, the broker). Only FAIL makes the command exit non-zero.
"""
