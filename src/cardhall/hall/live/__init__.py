"""This process's live tables: the lobby, each table's queue, seats, timers and bots.

A table is the one place a game changes (``live.table``); what it tells players are
the wire's server messages (``cardhall.protocol.messages``), the only wire types
this layer may build. Its refusals are the hall's own (``hall.domain.errors``).
"""
