"""A person at one seat in the terminal, bots at the others; saved games step by step.

Everything the player is shown comes from his seat's view (``observe``) and
the events his seat may be sent (``events_for``), in words: the seats with
their roles, cards left and last action, the play to beat or the trick so far,
the multiplier with its causes, the variant's own facts (kitty, wild rank,
五人's revealed card, 找朋友's trump and friend call), and his hand, grouped
(找朋友: by trump and suit). Game over is a table of seats, roles and points.

What the player types: a play in card notation, bare or lower case (``33344+5``,
``tt``, ``play j``), any other action of the game (``pass``, ``bid 2``), ``hint``
for the legal actions, ``auto on`` / ``auto off`` (托管: the 托管 bot plays his
seat until he takes it back; typed lines are read between its moves) and
``leave`` (both sent as ``@SEAT ...``: leaving a Dou Dizhu game is an escape and
ends it), ``quit`` to stop without leaving. Ctrl-C and the end of input stop too.
"""

from __future__ import annotations

import codecs
import os
import select
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TextIO

from cardhall import bots
from cardhall.bots.view import detail, legal_texts
from cardhall.cards import RANK_CHARS, SUIT_CHARS, SUIT_SYMBOLS, Card, format_card, parse_card
from cardhall.games import GameState, IllegalAction, new_game, replay, variant
from cardhall.games.errors import Unreadable
from cardhall.rules.trick import GROUPS, TRUMP, trumps
from cardhall.sim import seat_bots

#: Every verb of every game: a typed line starting with one is sent as it is.
VERBS = frozenset((
    "pass", "play", "bid", "call", "no-call", "rob", "no-rob", "double", "no-double", "show",
    "no-show", "start", "take", "reveal", "decline", "accept", "cede", "solo", "no-solo",
    "hidden-solo", "redeal", "rob-solo", "no", "open", "hidden", "rebel", "no-rebel",
    "declare", "bury", "call-friend", "eye", "auto", "leave"))
#: Typed lines read by the terminal itself.
HINT, QUIT, HELP = ("hint", "?", "h"), ("quit", "exit"), ("help",)
#: A play typed without its verb starts with one of these (``10`` for a ten, 小/大 for jokers).
_CARD_START = set(RANK_CHARS + RANK_CHARS.lower() + "1小大")
#: Legal actions shown by ``hint`` before "… and N more".
HINT_LIMIT = 40
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}
INTRO = ("Type a play in card notation ('33344+5', 'tt', 'play j'), any other action "
         "('pass', 'bid 2'), 'hint' for the legal actions, 'auto on' / 'auto off' for 托管, "
         "'leave' to leave the table, 'quit' to stop.")


# -- reading what the player types --------------------------------------------------------


class Lines:
    """The player's lines; ``pending`` says, without waiting, whether one has been typed.

    A real stream is read from its file descriptor (Python's own buffering
    would hide typed lines from ``select``); any other (a test's ``StringIO``)
    line by line.
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.lines: list[str] = []
        self.partial = ""
        self.eof = False
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        try:
            self.fd: int | None = stream.fileno()
        except (AttributeError, OSError, ValueError):
            self.fd = None

    def _fill(self, block: bool) -> None:
        if self.eof:
            return
        if self.fd is None:
            line = self.stream.readline()
            if line:
                self.lines.append(line)
            else:
                self.eof = True
            return
        while not self.lines and not self.eof:
            if not block and not select.select([self.fd], [], [], 0)[0]:
                return
            data = os.read(self.fd, 4096)
            if not data:
                self.eof = True
                if self.partial:
                    self.lines.append(self.partial)
                    self.partial = ""
                return
            text = self.partial + self.decoder.decode(data)
            *done, self.partial = text.split("\n")
            self.lines.extend(line + "\n" for line in done)
            if not block:
                return

    def readline(self) -> str | None:
        """The next line, waiting for it; None at the end of input."""
        if not self.lines:
            self._fill(block=True)
        return self.lines.pop(0) if self.lines else None

    def pending(self) -> bool:
        if not self.lines:
            self._fill(block=False)
        return bool(self.lines)


def command(text: str, seat: int, variant_id: str) -> str:
    """The action a typed line means: ``auto``/``leave`` for this seat, bare cards a play."""
    words = text.split(None, 1)
    verb = words[0].lower()
    if verb in ("auto", "leave"):
        return f"@{seat} {text.lower()}"
    suited = variant(variant_id).suits  # plays name suited cards (the others: ranks)
    if verb == "play" and len(words) > 1:
        return f"play {cards_typed(words[1], suited)}"
    if verb in VERBS or verb.startswith("@") or text[0] not in _CARD_START:
        return text
    return f"play {cards_typed(text, suited)}"


def cards_typed(text: str, suited: bool) -> str:
    """Card text as typed, in the engine's case: ranks upper, suits lower (``ah`` → ``Ah``)."""
    if not suited:
        return text.upper()
    out: list[str] = []
    for ch in text:
        low = ch.lower()
        prev = out[-1] if out else ""
        if low in SUIT_CHARS and prev and prev in RANK_CHARS[:13] + "0":
            out.append(low)
        else:
            out.append(ch.upper())
    return "".join(out)


# -- what the player sees -----------------------------------------------------------------


def number(x: Any) -> str:
    return str(int(x)) if isinstance(x, float) and x.is_integer() else str(x)


def multiplier_text(m: Mapping[str, Any] | None) -> str:
    """``×12 (contract ×3, bombs ×4)``: the total and the causes that are not ×1."""
    if not m:
        return "×1"
    causes = [f"{name.replace('_', ' ')} ×{number(f)}" for name, f in m["causes"].items()
              if f != 1]
    return f"×{number(m['total'])}" + (f" ({', '.join(causes)})" if causes else "")


def card_text(text: str) -> str:
    """One card for the eye: ``A♥``, ``BJ`` / ``SJ`` for the jokers."""
    if text in ("X", "D"):
        return {"X": "SJ", "D": "BJ"}[text]
    rank, suit = text[:-1], text[-1]
    return rank + SUIT_SYMBOLS[SUIT_CHARS.index(suit)] if suit in SUIT_CHARS else text


def friend_call_text(call: Mapping[str, Any] | None) -> str | None:
    """The 找朋友 call in words: ``whoever plays the 1st A♥ is the dealer's friend``."""
    if not call:
        return None
    n = int(call["n"])
    return f"whoever plays the {ORDINALS.get(n, f'{n}th')} {card_text(call['card'])} " \
           "is the dealer's friend"


def grouped_ranks(hand: Sequence[str]) -> str:
    """A climbing hand as its ranks, equal ranks together: ``33 5 TT JJJ X D``."""
    groups: list[str] = []
    for text in hand:
        r = text[0]
        if groups and groups[-1][0] == r:
            groups[-1] += r
        else:
            groups.append(r)
    return " ".join(groups)


def grouped_suits(hand: Sequence[str], words: Mapping[str, Any]) -> list[str]:
    """A 找朋友 hand by trumps and suits, strongest first, one line each."""
    cards = [parse_card(t) for t in hand]
    level = words.get("level")
    suit = words.get("trump")
    if level is None or suit is None:
        by: dict[int, list[Card]] = {}
        for c in cards:
            group = TRUMP if c >= 52 or (level and RANK_CHARS[c // 4] == level) else c % 4
            by.setdefault(group, []).append(c)
        order = sorted(by, key=lambda g: (g != TRUMP, g))
        return [_group_line(g, sorted(by[g], reverse=True)) for g in order]
    ctx = trumps(RANK_CHARS.index(level), SUIT_CHARS.index(suit))
    lines = []
    for g in (TRUMP, *range(GROUPS - 1)):
        mine = sorted((c for c in cards if ctx.group[c] == g), key=lambda c: -ctx.strength[c])
        if mine:
            lines.append(_group_line(g, mine))
    return lines


def _group_line(group: int, cards: Iterable[Card]) -> str:
    faces = [card_text(format_card(c)) for c in cards]
    if group == TRUMP:
        return f"trumps: {' '.join(faces)}"
    return f"{SUIT_SYMBOLS[group]} ({SUIT_CHARS[group]}): " + " ".join(f[:-1] for f in faces)


def _seats_text(seats: Sequence[int]) -> str:
    return "seat " + str(seats[0]) if len(seats) == 1 else \
        "seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"


def describe(obs: Mapping[str, Any]) -> str:
    """What a player reads at his turn: the seats, the table, the stakes, his hand."""
    words = detail(obs)
    me = obs["seat"]
    v = variant(obs["variant"])
    whose = "your turn" if me in obs.get("acting", ()) else "waiting"
    lines = [f"[{v.name} {v.id}] {obs['phase']}: {whose} (seat {me})"]
    roles = obs.get("roles") or []
    for seat, n in enumerate(obs.get("counts", [])):
        role = roles[seat] if seat < len(roles) and roles[seat] else ""
        last = (obs.get("last") or [None] * (seat + 1))[seat] or "-"
        flags = ""
        if seat in obs.get("warnings", ()):
            flags += f"  ! 报警 {n} left"
        if obs.get("auto", [False] * (seat + 1))[seat]:
            flags += "  (托管)"
        if obs.get("left", [False] * (seat + 1))[seat]:
            flags += "  (left)"
        you = " (you)" if seat == me else ""
        lines.append(f"  seat {seat}{you:6} {role:9} {n:2d} cards   last: {last}{flags}")
    lines.extend(_table_lines(obs))
    lines.append(f"  multiplier: {multiplier_text(obs.get('multiplier'))}")
    lines.extend(_detail_lines(obs, words))
    hand = obs.get("hand") or []
    if v.display.sort == "trump":  # trumps first, then suit by suit (the variant's hint)
        lines.append("  your hand:")
        lines.extend("    " + line for line in grouped_suits(hand, words))
    else:
        lines.append(f"  your hand: {grouped_ranks(hand)}")
    return "\n".join(lines)


def _table_lines(obs: Mapping[str, Any]) -> list[str]:
    table = obs.get("table")
    if not table:
        return []
    plays = table.get("plays")
    if plays:
        parts = []
        for entry in plays:
            seat, cards = (entry["seat"], entry["cards"]) if isinstance(entry, Mapping) \
                else (entry[0], entry[1])
            parts.append(f"seat {seat} {cards}")
        return [f"  trick so far: {', '.join(parts)}; seat {table['seat']} is winning it"]
    kind = str(table.get("kind", "")).replace("_", " ")
    stands = f" as {table['as']}" if table.get("as") else ""
    return [f"  to beat: {table['cards']}{stands} ({kind}) by seat {table['seat']}"]


def _detail_lines(obs: Mapping[str, Any], words: Mapping[str, Any]) -> list[str]:
    """The variant's own facts, in words (nothing shown raw)."""
    out = []
    roles = obs.get("roles") or []
    if words.get("contract"):
        out.append(f"  contract: {words['contract']}")
    if words.get("kitty"):
        out.append(f"  kitty: {words['kitty']}")
    if words.get("wild"):
        out.append(f"  wild rank: {words['wild']}")
    if words.get("revealed_card"):
        out.append(f"  revealed card: {card_text(words['revealed_card'])}")
        lords = [s for s, r in enumerate(roles) if r == "landlord"]
        hidden = words.get("hidden_landlord")
        if hidden is not None:
            out.append(f"  second landlord: seat {hidden}"
                       + (" (revealed)" if words.get("revealed") else ""))
        elif len(lords) > 1:
            out.append(f"  landlords: {_seats_text(lords)}")
        elif words.get("single_landlord"):
            out.append("  the landlord plays alone")
    for shown in words.get("shown") or ():
        if isinstance(shown, Mapping) and shown.get("seat") != obs["seat"]:
            out.append(f"  seat {shown['seat']} shows: {shown.get('hand', '')}")
    partner = words.get("partner")
    if isinstance(partner, Mapping) and partner.get("seat") is not None:
        out.append(f"  your partner, seat {partner['seat']}, holds: {partner.get('hand', '')}")
    if words.get("called"):
        out.append(f"  guard card called: {card_text(words['called'])}")
    if words.get("level"):
        trump = words.get("trump")
        suit = card_text("A" + trump)[1:] if trump else "not declared yet"
        out.append(f"  level: {words['level']}   trump: {suit}")
    call = friend_call_text(words.get("friend_call"))
    if call:
        friend = words.get("friend")
        out.append(f"  friend: {call}" + (f" (seat {friend})" if friend is not None else ""))
    if words.get("attacker_points") is not None:
        out.append(f"  attackers' points: {words['attacker_points']}")
    return out


def event_lines(events: Iterable[Mapping[str, Any]]) -> list[str]:
    """The events worth a line of their own (a trick won, a landlord made, a friend found)."""
    out = []
    for e in events:
        kind = e.get("type")
        if kind == "trick":
            out.append(f"  seat {e['winner']} wins trick {e.get('number', '')} "
                       f"({e.get('points', 0)} points)".replace("trick  ", "trick "))
        elif kind == "friend":
            out.append(f"  seat {e['seat']} is the friend (played the "
                       f"{ORDINALS.get(int(e.get('n', 1)), str(e.get('n')) + 'th')} "
                       f"{card_text(e['card'])})")
        elif kind == "call-friend":
            out.append(f"  seat {e['seat']} calls: {friend_call_text(e)}")
        elif kind == "trump":
            out.append(f"  trump {card_text('A' + e['suit'])[1:]}, level {e.get('level', '')}")
        elif kind == "landlord":
            out.append(f"  seat {e['seat']} is the landlord")
        elif kind == "revealed-card":
            out.append(f"  the revealed card is {card_text(e['card'])}")
        elif kind == "reveal":
            out.append(f"  seat {e['seat']} is revealed as the second landlord")
        elif kind == "wild":
            out.append(f"  the wild rank is {e['rank']}")
        elif kind == "kitty" and e.get("cards"):
            out.append(f"  kitty: {e['cards']}")
        elif kind in ("redeal", "void"):
            out.append("  the cards are dealt again")
        elif kind == "out":
            out.append(f"  seat {e['seat']} is out (place {e.get('place')})")
        elif kind == "leave":
            out.append(f"  seat {e['seat']} left the table")
        elif kind == "auto":
            out.append(f"  seat {e['seat']}: 托管 {'on' if e.get('on') else 'off'}"
                       + (" (locked)" if e.get("locked") else ""))
    return out


def result_lines(state: GameState, me: int | None = None) -> list[str]:
    """Game over as a table: every seat's role and points, the winners, the multiplier."""
    result = state.result()
    if result is None:
        return [f"the game is not over ({len(state.actions)} actions so far)"]
    roles = state.observe(me if me is not None else 0)["roles"]
    winners = list(result["winners"])
    ended = {"finished": "finished", "escape": "a player escaped",
             "unscored": "every seat on 托管: not scored",
             "dissolved": "the table dissolved"}.get(result["ended"], result["ended"])
    head = f"game over ({ended})"
    if winners:
        head += f": {_seats_text(winners)} won"
    lines = [head, f"  {'seat':9} {'role':10} {'points':>7}" +
             (f" {'beans':>8}" if "beans" in result else "")]
    for seat, points in enumerate(result["points"]):
        you = " (you)" if seat == me else ""
        role = roles[seat] or "-"
        row = f"  {str(seat) + you:9} {role:10} {signed(points):>7}"
        if "beans" in result:
            row += f" {signed(result['beans'][seat]):>8}"
        if result["penalties"][seat]:
            row += f"   penalty {result['penalties'][seat]}"
        if seat in winners:
            row += "   won"
        lines.append(row)
    lines.append(f"  multiplier: {multiplier_text(result['multiplier'])}")
    return lines


def signed(x: Any) -> str:
    text = number(x)
    return text if text.startswith("-") or text == "0" else "+" + text


# -- the game -----------------------------------------------------------------------------


class Terminal:
    """One game as ``seat`` against bots (see the module docstring)."""

    def __init__(self, state: GameState, seat: int, players: list[bots.Bot], stdin: TextIO,
                 stdout: TextIO) -> None:
        self.state = state
        self.seat = seat
        self.players = players
        self.lines = Lines(stdin)
        self.stdout = stdout
        self.helper = bots.make("tuoguan", state.variant.id, seat, state.seed)

    def out(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def play(self) -> None:
        """Until the game is over or the player stops."""
        state, me = self.state, self.seat
        while not state.over:
            if me in state.acting and not state.auto[me]:
                if not self.ask():
                    return
                continue
            if me in state.acting and not state.left[me] and self.lines.pending():
                if not self.typed_on_auto():
                    return
                continue
            actor = me if me in state.acting else state.to_act
            assert actor is not None
            bot = self.helper if actor == me else self.players[actor]
            text = bot.act(state.observe(actor))
            events = state.apply(text)
            self.tell(actor, text, events)

    def tell(self, actor: int, text: str, events: list[dict[str, Any]]) -> None:
        """The action and its events, as the player's seat may know them."""
        me = self.seat
        if actor == me:
            shown = text.partition(" ")[2] if text.startswith("@") else text
            self.out(f"seat {me} (you{', 托管' if self.state.auto[me] else ''}): {shown}")
        else:
            last = self.state.observe(me)["last"][actor]
            self.out(f"seat {actor}: {last if last else 'has answered'}")
        for line in event_lines(self.state.events_for(events, me)):
            self.out(line)

    def ask(self) -> bool:
        """The player's turn: read lines until one is an accepted action; False to stop."""
        state, me = self.state, self.seat
        obs = state.observe(me)
        self.out(describe(obs))
        while True:
            self.stdout.write("> ")
            self.stdout.flush()
            line = self.lines.readline()
            if line is None:
                self.out("\n(end of input: you left the table)")
                return False
            text = line.strip()
            if not text:
                continue
            low = text.lower()
            if low in HINT:
                self.out(self.hint(obs))
                continue
            if low in HELP:
                self.out(INTRO)
                continue
            if low in QUIT:
                self.out("(you stopped the game)")
                return False
            action = command(text, me, state.variant.id)
            try:
                events = state.apply(action, me)
            except IllegalAction as exc:
                self.out(f"not allowed: {exc}")
                continue
            self.tell(me, action, events)
            return True

    def typed_on_auto(self) -> bool:
        """A line typed while 托管 plays this seat: take it back, leave, or stop."""
        line = self.lines.readline() or ""
        text = line.strip()
        low = text.lower()
        if low in QUIT:
            self.out("(you stopped the game)")
            return False
        if low.split(None, 1)[:1] in (["auto"], ["leave"]):
            try:
                events = self.state.apply(command(text, self.seat, self.state.variant.id),
                                          self.seat)
            except IllegalAction as exc:
                self.out(f"not allowed: {exc}")
                return True
            self.tell(self.seat, text.lower(), events)
        elif text:
            self.out("(托管 is playing for you: type 'auto off' to play again)")
        return True

    def hint(self, obs: Mapping[str, Any]) -> str:
        texts = [t.partition(" ")[2] if t.startswith("@") else t for t in legal_texts(obs)]
        shown = ", ".join(texts[:HINT_LIMIT])
        more = len(texts) - HINT_LIMIT
        return "legal: " + shown + (f" … and {more} more" if more > 0 else "")


def terminal(variant_id: str, seat: int, seed: int, names: Iterable[str], stdin: TextIO,
             stdout: TextIO, options: dict[str, Any] | None = None,
             save: Callable[[dict[str, Any]], None] | None = None) -> GameState:
    """Play one game as ``seat`` against bots, reading the player's lines from ``stdin``.

    The game is saved (``save``) however it ends: over, left, stopped, Ctrl-C.
    """
    state = new_game(variant_id, seed=seed, options=options)
    if not 0 <= seat < state.players:
        raise Unreadable("no_such_seat", f"{variant_id} has seats 0 to {state.players - 1}",
                         seat=str(seat), players=state.players)
    names = list(names)
    players = seat_bots(variant_id, names, state.players, seed)
    table = Terminal(state, seat, players, stdin, stdout)
    table.out(f"{state.variant.name} ({variant_id}), seed {seed}: replay this deal with "
              f"--seed {seed}. You are seat {seat}; bots: {', '.join(dict.fromkeys(names))}.")
    table.out(INTRO)
    try:
        table.play()
    except KeyboardInterrupt:
        table.out("\n(interrupted: you left the table)")
    if state.over:
        table.out("\n".join(result_lines(state, seat)))
    if save is not None:
        save(state.record())
    return state


def replay_steps(record: dict[str, Any], stdout: TextIO, seat: int | None = None) -> GameState:
    """Print a saved game step by step, from the table's view or one seat's."""
    final = replay(record)  # validates the whole record first
    state = new_game(record["variant"], seed=record["seed"], options=record.get("options"))
    for i, text in enumerate(record["actions"]):
        actor = state.to_act
        state.apply(text)
        who = "" if actor is None or text.startswith("@") else f"seat {actor}: "
        stdout.write(f"{i + 1:4d}. {who}{text}\n")
        if seat is not None:
            stdout.write("      " + describe(state.observe(seat)).replace("\n", "\n      ") + "\n")
    stdout.write("\n".join(result_lines(final, seat)) + "\n")
    return state
