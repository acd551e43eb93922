"""Alembic migrations of the hall's database (applied by ``cardhall.hall.store.db.upgrade``)."""
