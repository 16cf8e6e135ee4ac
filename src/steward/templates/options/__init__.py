"""Dynamic survey choices: a choice question's options read from a source.

A question's ``source`` (``sources.OptionSource``) is one of: the template's inventory (hosts or
groups matching a pattern, or the values of a host variable: ``inventory``), a URL answering
JSON (``url``, through the outbound guard, with a key of the key store), or a script of the
template's repository run in the sandbox (``script``). A source may name earlier answers
(``{answer.<variable>}``: ``cascade``), substituted as data. ``resolver`` reads the options
(a TTL cache per template, source and earlier answers) for the launch dialog
(``POST …/survey/options``) and for ``templates.launch.resolve_launch``, which every launch
passes: an answer not among the current options is a 422 naming ``survey.<variable>``.
"""
