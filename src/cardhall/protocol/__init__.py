"""The wire: every message that crosses a socket, typed (pydantic v2) at the edges.

``messages``: what a client sends (``hello``, ``join``, ``act``, …) and what the hall
sends back (``welcome``, ``state``, ``settled``, ``error``, …), the fixed wire
contract of docs/protocol.md; ``peer``: what hall processes say to each other over
Redis. The hall's domain never imports these (``tests/test_boundaries.py``) except
the live tables and the cluster, which build the messages they send.
"""
