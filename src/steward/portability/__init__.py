"""Project export and import: one JSON document, objects by name, no secret."""
