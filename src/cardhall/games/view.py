"""The one shape of every variant's view, result and events (typed; JSON Schema in ``schema``).

A client that knows no variant can still draw any table from the common core
of a ``View``: whose turn it is (``acting``: several seats at once in the
windows that are answered together), its own cards as suited card text, every
seat's card count, role as this seat knows it, last action and public cards
played, the play or trick on the table, the multiplier with its causes, the
options in force and its legal actions. What only one game has is in
``detail``.

A view is a snapshot, not a log: its size stays bounded however long the game
runs (the conformance suite and ``benchmarks/view_bench.py`` hold every view
under 16 KB). Legal plays are listed one by one while the list is short; a long
list (a wildcard lead has thousands) is replaced by ``plays``, an index from
which any selection of cards can be judged (``Plays``, below).
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

Number = int | float
Ended = Literal["finished", "escape", "unscored", "dissolved"]


class Multiplier(TypedDict):
    """The stake so far: ``total`` is the product of the factors in ``causes``."""

    total: Number
    causes: dict[str, Number]


class Played(TypedDict):
    seat: int
    cards: str


class Table(TypedDict):
    """What lies on the table: the play to beat, or the trick so far.

    ``seat`` holds the table (played what now wins), ``cards`` and ``kind``
    are that play; ``leader`` led the trick. Trick games add every ``plays``
    so far; climbing games add ``acted``, the seats that acted in this trick
    (played or passed) in the order they first did: the seats whose ``last``
    belongs to it (the others' is from an earlier trick or the bidding).
    """

    seat: int
    cards: str
    kind: str
    leader: int
    plays: NotRequired[list[Played]]
    acted: NotRequired[list[int]]


class Plays(TypedDict):
    """Every legal play as a layered decision diagram over the hand's card labels.

    ``labels`` are the distinct cards of the hand in order (ranks in the
    climbing games: ``"3"``, ``"X"``). To judge a selection, start at node
    ``root`` and, for each label in turn, go to ``nodes[node][k]`` where ``k``
    is how many cards of that label are selected (a missing entry is node 0).
    Node 0 rejects, node 1 accepts: the selection is a legal play exactly when
    the walk ends at node 1 after the last label. ``count`` is how many legal
    plays (card multisets) there are.
    """

    labels: list[str]
    nodes: list[list[int]]
    root: int
    count: int


class Result(TypedDict):
    """How a game ended, in one shape for every variant.

    ``points`` are the game's scores per seat (zero-sum); ``penalties`` are
    kept by nobody (保皇/找朋友's −40 for a forced quit). ``ended``: a natural
    end (``finished``), a player's escape, a natural end with every seat on
    托管 (``unscored``: no points, no beans), or a table that dissolved
    without a game (4-player's three passed-out deals). ``dissolve`` says the
    table breaks up after settlement (a seat was on 托管 at the end).
    """

    variant: str
    version: int
    ended: Ended
    winners: list[int]
    points: list[Number]
    penalties: list[int]
    multiplier: Multiplier
    auto: list[bool]
    dissolve: bool
    beans: NotRequired[list[int]]
    detail: dict[str, Any]


class View(TypedDict):
    """Exactly what one seat may know now."""

    variant: str
    version: int
    seat: int
    phase: str
    acting: list[int]
    to_act: int | None
    hand: list[str]
    counts: list[int]
    roles: list[str | None]
    table: Table | None
    played: list[str]
    last: list[str | None]
    warnings: list[int]
    multiplier: Multiplier
    options: dict[str, Any]
    auto: list[bool]
    auto_locked: list[bool]
    left: list[bool]
    legal: list[str]
    legal_complete: bool
    plays: NotRequired[Plays]
    result: Result | None
    detail: dict[str, Any]


class EventCore(TypedDict):
    """Every event has a ``type``; most name the ``seat`` it is about.

    Events are the story told as it happens (for animation and logs); the
    view alone is enough to draw the table. ``events_for`` gives a seat only
    its own private events, without their audience list.
    """

    type: str
    seat: NotRequired[int]


def multiplier(causes: dict[str, Number], total: Number | None = None) -> Multiplier:
    """A ``Multiplier`` from its factors (``total`` given only where it is not their product)."""
    if total is None:
        total = 1
        for factor in causes.values():
            total *= factor
    return {"total": total, "causes": dict(causes)}


def plays_index(labels: list[str], selections: list[tuple[int, ...]],
                counts: list[int]) -> Plays:
    """Build ``Plays``: ``selections`` are count vectors over ``labels``, at most ``counts``.

    Nodes are shared wherever two partial selections admit the same
    completions, which keeps a thousand-play wildcard lead to a few KB.
    """
    registry: dict[tuple[int, tuple[int, ...]], int] = {}
    nodes: list[list[int]] = [[], []]

    def build(level: int, group: list[tuple[int, ...]]) -> int:
        if not group:
            return 0
        if level == len(labels):
            return 1
        by_count: dict[int, list[tuple[int, ...]]] = {}
        for sel in group:
            by_count.setdefault(sel[level], []).append(sel)
        kids = [build(level + 1, by_count.get(k, [])) for k in range(counts[level] + 1)]
        while kids and kids[-1] == 0:
            kids.pop()
        key = (level, tuple(kids))
        node = registry.get(key)
        if node is None:
            node = registry[key] = len(nodes)
            nodes.append(kids)
        return node

    unique = sorted(set(selections))
    root = build(0, unique)
    return {"labels": labels, "nodes": nodes, "root": root, "count": len(unique)}


def judge(plays: Plays, selection: dict[str, int]) -> bool:
    """Whether a selection (label → count) is a legal play, as a client would walk ``plays``."""
    if set(selection) - set(plays["labels"]):
        return False
    node = plays["root"]
    for label in plays["labels"]:
        kids = plays["nodes"][node] if node > 1 else []
        k = selection.get(label, 0)
        node = kids[k] if k < len(kids) else 0
        if node == 0:
            return False
    return node == 1


def expand(plays: Plays) -> list[list[str]]:
    """Every legal play in ``plays``, each as its cards (labels repeated), in label order."""
    out: list[list[str]] = []
    labels = plays["labels"]

    def walk(level: int, node: int, taken: list[str]) -> None:
        if level == len(labels):
            if node == 1:
                out.append(list(taken))
            return
        kids = plays["nodes"][node] if node > 1 else []
        for k, child in enumerate(kids):
            if child:
                walk(level + 1, child, taken + [labels[level]] * k)

    walk(0, plays["root"], [])
    return out
