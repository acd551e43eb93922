"""The hall's domain: accounts, beans, levels, leaderboards, games and their storage.

Everything the hall server needs below the web layer, as async functions over a
``Database`` (``cardhall.hall.db``). No web framework is imported here, and the
library layers (``cardhall.rules``, ``cardhall.games``, ``cardhall.bots``) never import
this package: it needs the ``server`` extra (``pip install cardhall[server]``).
"""
