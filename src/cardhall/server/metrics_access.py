"""Who may read ``/metrics``: the holder of a token kept in a file, nobody else.

The metrics tell how many play, where, and how loaded the hall is: nothing a player
needs, much an attacker could use to time an attack. So ``GET /metrics`` answers
only a request with ``Authorization: Bearer <token>``, the token read at start from
the file named by ``[metrics] token_file`` (docs/operations.md); without that
setting it answers nobody. The token is compared in constant time.
"""

from __future__ import annotations

import hmac
from pathlib import Path

from cardhall.hall.domain.config import ConfigError

#: A token shorter than this is refused at start: it could be guessed.
MIN_TOKEN = 16


def read_token(path: str | None) -> str | None:
    """The token in ``path`` (surrounding whitespace stripped), None without a path;
    ConfigError when the file cannot be read or the token is too short."""
    if path is None:
        return None
    try:
        token = Path(path).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"metrics.token_file: cannot read {path}: {exc}") from None
    if len(token) < MIN_TOKEN or any(c.isspace() for c in token):
        raise ConfigError(f"metrics.token_file: {path} must hold one token of at least "
                          f"{MIN_TOKEN} characters without spaces")
    return token


def refusal(expected: str | None, sent: str | None) -> tuple[str, str] | None:
    """Why a request sending ``sent`` may not read the metrics (code, sentence), or
    None when it may."""
    if expected is None:
        return ("forbidden", "metrics are not served here: the operator sets "
                             "[metrics] token_file to read them with its token")
    if sent is None:
        return ("not_authenticated", "send Authorization: Bearer <the metrics token>")
    if not hmac.compare_digest(sent.encode(), expected.encode()):
        return ("forbidden", "that is not the metrics token")
    return None
