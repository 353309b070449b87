"""Alembic's entry point. Store.migrate passes an open connection (inside its transaction, under
its lock); the `alembic` command line passes `-x url=...` instead."""

from alembic import context
from sqlalchemy import create_engine

connection = context.config.attributes.get("connection")
if connection is not None:
    context.configure(connection=connection)
    with context.begin_transaction():
        context.run_migrations()
else:
    with create_engine(context.get_x_argument(as_dictionary=True)["url"]).begin() as connection:
        context.configure(connection=connection)
        with context.begin_transaction():
            context.run_migrations()
