"""cardhall's nine games as PettingZoo AEC environments (docs/rl.md).

    >>> from cardhall.rl import env
    >>> e = env("ddz3")
    >>> e.reset(seed=7)
    >>> obs, reward, terminated, truncated, info = e.last()
    >>> e.unwrapped.action_text(e.agent_selection, int(obs["action_mask"].argmax()))
    'pass'

This package needs the ``rl`` extra (``pip install 'cardhall[rl]'``: numpy,
gymnasium, pettingzoo); the rest of cardhall does not.
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - the message is the point
    raise ImportError(
        f"cardhall.rl needs numpy, gymnasium and pettingzoo ({exc.name} is missing): "
        "pip install 'cardhall[rl]'") from exc

from cardhall.rl.actions import SIZE, TOKENS
from cardhall.rl.env import VERSION, CardhallEnv, env
from cardhall.rl.observation import PHASES, ROLES, Layout

__all__ = ["PHASES", "ROLES", "SIZE", "TOKENS", "VERSION", "CardhallEnv", "Layout", "env"]
