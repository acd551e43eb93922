"""The hall's rules as plain code: beans, levels, names, limits, settings, refusals.

Nothing here touches a database, a socket or the wire (``tests/test_boundaries.py``):
the store and the live tables build on it, never the other way round.
"""
