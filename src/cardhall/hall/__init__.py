"""The hall: accounts, beans, levels, leaderboards, live tables and their storage.

Everything the hall server needs below the web layer, by concern:

- ``domain``: the platform's rules and settings as plain code (the bean economy,
  levels, names, rate limits, the config file, the hall's typed refusals);
- ``store``: the database (``store.db``, its models and Alembic migrations) and
  everything kept in it (accounts, sessions, the ledger, game rows and their log);
- ``live``: this process's live tables, the lobby and its queues, the bot pool;
- ``cluster``: what several processes share over Redis (leases, presence, forwarding);
- ``service``: the ``Hall`` the server talks to, taking the wire's typed messages.

No web framework is imported here, and the library layers (``cardhall.rules``,
``cardhall.games``, ``cardhall.bots``) never import this package: it needs the
``server`` extra (``pip install cardhall[server]``).
"""
