"""What the hall keeps in its database: players, sessions, beans, games and their log.

Async functions over a ``Database`` (``store.db``); the schema is the Alembic
migrations' (``store/migrations``), the models say the same (``store.models``).
Nothing here speaks the wire (``tests/test_boundaries.py``).
"""
