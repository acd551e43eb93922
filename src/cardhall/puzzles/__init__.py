"""残局 (endgame puzzles): two or three open hands, find the forced win.

``classic`` holds the built-in set, ``mine`` finds new ones in finished games,
``position`` plays a puzzle out against the exact solver (``rules.solve``),
``position3`` and ``attempt3`` a three-hand one against ``rules.solve3``.
"""
