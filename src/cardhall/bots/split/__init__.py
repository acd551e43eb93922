"""The split search: the best split of a climbing-game hand into plays, and what it is worth.

``hands.Planner`` is the search and its Python reference; ``splits``, ``moves``,
``steps``, ``packed`` and ``dead`` are its state and moves; ``mirror`` and
``relaxed`` run it from the low ranks up and with kickers relaxed (the policy's
bounds); ``own`` and ``wild_worth`` are the worths the planning policy asks of it;
``sift`` reads a decision's plays for it. The C loop (``_search*.c``, seen through
``native``) runs the same search faster where it is built: an accelerator only,
whose answers are the Python loop's.
"""
