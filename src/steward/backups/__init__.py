"""Backups of the database while the server runs, and their restore (``steward backup``,
``steward restore``; docs/install.md).

A backup is a directory: the database (SQLite: a copy made with SQLite's online backup API,
consistent while the server writes; PostgreSQL: ``pg_dump --format=custom``) and
``manifest.json`` (Steward's version, the schema revision, the database kind, each file's size
and SHA-256, and the fingerprints of the master keys that open its secrets). The master key is
never in it: a backup without its key file cannot decrypt a single secret, and a stolen backup
without the key gives none away.

A restore checks before it replaces anything: the files are those the manifest names (sizes and
hashes), the schema is one this Steward knows (not a newer one's), and the key file in use holds
a key the backup's secrets were sealed with. The server must be stopped; it migrates the restored
database at its next start when the backup is older.
"""
