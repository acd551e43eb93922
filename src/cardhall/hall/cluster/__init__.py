"""Several hall processes over Redis: leases, presence, queues, forwarded calls.

``coordinator`` is the interface the lobby uses (and its one-process version);
``redis_coordinator`` runs it over Redis with the peer messages of
``cardhall.protocol.peer``.
"""
