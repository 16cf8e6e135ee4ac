from __future__ import annotations

from alembic import context
from sqlalchemy import ForeignKeyConstraint

from steward.db import make_engine
from steward.models import Base

config = context.config
url = config.get_main_option("sqlalchemy.url")
if not url:
    raise RuntimeError("sqlalchemy.url must be set by steward.migrations.alembic_config")

# Foreign keys SQLite added with a column (ALTER TABLE ADD COLUMN … REFERENCES, so that the table
# is not copied: a copy loses its AUTOINCREMENT, and dropping the original with foreign keys on
# would cascade): SQLite reflects them without their name and ON DELETE, so on SQLite they are
# compared on PostgreSQL only (tests/test_migrations.py).
INLINE_SQLITE_FKS = {("runs", "plan_id")}


def _include_object(
    obj: object, name: str | None, type_: str, reflected: bool, _to: object
) -> bool:
    if type_ != "foreign_key_constraint" or not isinstance(obj, ForeignKeyConstraint):
        return True
    return (obj.table.name, *obj.column_keys) not in INLINE_SQLITE_FKS


engine = make_engine(url)
with engine.connect() as connection:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        include_object=_include_object if connection.dialect.name == "sqlite" else None,
    )
    with context.begin_transaction():
        context.run_migrations()
engine.dispose()
