"""Typed refusals (games.errors) and their sentences (games.reasons).

Every refusal a game makes is one of the typed kinds with a reason of the
closed table, and that reason reads in Chinese and in English:

- statically: every reason code written in games/ (and the follow reasons of
  rules/trick_follow.py) is in the table, and every entry of the table is
  written somewhere (no dead entry);
- at run time: seeded random games of every variant are fuzzed with junk,
  other variants' verbs, mutated plays, other seats' answers and out-of-turn
  actions, and each refusal is checked (kind, code, params as plain JSON,
  both sentences, ``check`` equal to its message).
"""

from __future__ import annotations

import ast
import json
import pickle
import random
import string
from collections.abc import Callable
from pathlib import Path

import pytest

from cardhall.games import VARIANTS, GameState, new_game, replay
from cardhall.games.errors import (
    KINDS,
    Ambiguous,
    BadSetup,
    Illegal,
    IllegalAction,
    NotInWindow,
    NotYourTurn,
    Unreadable,
)
from cardhall.games.reasons import LANGUAGES, REASONS, render, sentence

SRC = Path(__file__).resolve().parents[2] / "src" / "cardhall"
#: Reasons whose wire code changed when refusals were typed: their English text holds
#: "turn" (it is the player's turn: an action of another step), which the hall's old
#: reading of the text took for ``not_your_turn``. They are ``illegal`` now.
WAS_READ_AS_TURN = {"wrong_step", "eye_not_now"}


def _written_reasons() -> set[str]:
    """Reason codes passed to a typed refusal (or a FollowRefusal) anywhere in the source."""
    kinds = {*(cls.__name__ for cls in KINDS.values()), "FollowRefusal"}
    found: set[str] = set()
    files = [*sorted((SRC / "games").glob("*.py")), SRC / "rules" / "trick_follow.py"]
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in kinds and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.add(first.value)
            if isinstance(node, ast.IfExp):  # Illegal("a" if x else "b", ...)
                for side in (node.body, node.orelse):
                    if isinstance(side, ast.Constant) and isinstance(side.value, str) \
                            and side.value in REASONS:
                        found.add(side.value)
    return found


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_raise_gives_the_params_its_sentences_need() -> None:
    """Each typed refusal written in the source passes every param that its reason's
    sentences use, in both languages (a refusal the fuzzing never reaches included)."""
    kinds = {cls.__name__ for cls in KINDS.values()}
    checked = 0
    files = [*sorted((SRC / "games").glob("*.py")), SRC / "rules" / "trick_follow.py",
             SRC / "terminal.py", SRC / "arena.py", SRC / "hall" / "service.py"]
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.args and node.func.id in {*kinds, "FollowRefusal"}):
                continue
            first = node.args[0]
            options = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]
            reasons = [o.value for o in options
                       if isinstance(o, ast.Constant) and isinstance(o.value, str)]
            if node.func.id == "FollowRefusal":
                given = {k.value for k in node.args[2].keys  # type: ignore[attr-defined]
                         if isinstance(k, ast.Constant)}
            elif any(k.arg is None for k in node.keywords):
                continue  # Illegal(reason, text, **params): the FollowRefusal's, checked above
            else:
                given = {k.arg for k in node.keywords if k.arg is not None}
            for reason in reasons:
                need = _fields(REASONS[reason].zh) | _fields(REASONS[reason].en)
                assert need <= given, (path.name, node.lineno, reason, need - given)
                checked += 1
    assert checked > 100


def test_every_written_reason_is_in_the_table_and_no_entry_is_dead() -> None:
    written = _written_reasons()
    assert len(written) > 40  # the walk found the raises (not an empty pass)
    assert written - set(REASONS) == set()
    implicit = {"ambiguous", "illegal_action"}  # Ambiguous's own; the untyped base's
    assert set(REASONS) - written - implicit == set()


@pytest.mark.parametrize("reason", sorted(REASONS))
def test_every_reason_has_both_languages(reason: str) -> None:
    entry = REASONS[reason]
    assert entry.kind in {*KINDS, "illegal_action"}
    assert entry.zh and entry.en and entry.zh != entry.en
    assert any("\u4e00" <= ch <= "\u9fff" for ch in entry.zh), entry.zh  # Chinese text
    for template in (entry.zh, entry.en):  # bare fields: the browser renders them too
        for _, name, spec, conversion in string.Formatter().parse(template):
            assert name is None or (name.isidentifier() and not spec and conversion is None)
    assert set(LANGUAGES) == {"zh", "en"}


def test_render_names_phases_and_suits_per_language() -> None:
    params: dict[str, object] = {"phase": "bid", "text": "play 3", "allowed": ["pass", "bid 1"]}
    assert render("wrong_step", params, "zh") == "现在是叫分阶段：可以 pass、bid 1"  # type: ignore[arg-type]
    assert render("wrong_step", params, "en") == "this is bidding: pass, bid 1"  # type: ignore[arg-type]
    follow = {"group": "h", "need": 2}
    assert render("must_follow_pair", follow, "zh") == "你必须出 2 对红桃来跟这手牌"  # type: ignore[arg-type]
    assert render("must_follow_pair", follow, "en") == (  # type: ignore[arg-type]
        "you must play 2 pairs of ♥ to follow this lead")
    with pytest.raises(KeyError):
        render("must_follow_pair", {"need": 2}, "en")  # a param missing is an error
    assert sentence(IllegalAction("outside any game"), "zh") == "现在不能这样做"


# -- fuzzing every variant -----------------------------------------------------------------

JUNK = ["", "   ", "@", "@x pass", "@99 pass", "@1", "x", "pass now", "auto", "auto maybe",
        "leave x", "bid 9", "bid 0", "bid", "take", "take zz", "play", "play zz", "play 3+",
        "call", "call 7s", "call BJ", "call zz", "eye", "eye 1", "eye 1 3", "eye 1 1",
        "declare", "declare zz", "declare 3s", "bury", "bury 3s", "call-friend",
        "call-friend 9 As", "call-friend 1 zz", "call-friend 1 As", "reveal", "decline",
        "double", "no-double", "rob", "no-rob", "no-call", "accept", "cede", "solo",
        "hidden-solo", "no-solo", "redeal", "rob-solo", "no", "open", "hidden", "rebel",
        "start", "show", "no-show", "show-start", "auto off", "x" * 300, "play " + "3" * 60,
        "@0 auto on", "@0 auto off", "@1 leave x", "pass"]


def _card_words(hand: list[str], suits: bool) -> list[str]:
    if suits:
        return hand
    return [c[:-1] if len(c) > 1 and c[-1] in "shcd" else c for c in hand]


def _candidates(state: GameState, rng: random.Random,
                seen: list[str]) -> list[tuple[str, int | None]]:
    """Mostly illegal actions for the state, each with the seat that sends it (None: bare)."""
    out: list[tuple[str, int | None]] = [(j, rng.choice([None, 0, 1])) for j in JUNK]
    out += [(t, None) for t in rng.sample(seen, min(8, len(seen)))]
    acting = state.acting
    for seat in range(state.players):
        legal = [a.text for a in state.legal_actions(seat)] if seat in acting else []
        other = [s for s in range(state.players) if s != seat]
        for text in legal[:6]:
            out.append((text, rng.choice(other)))  # somebody else's answer
        hand = state.observe(seat)["hand"]
        words = _card_words(hand, state.variant.suits)
        join = " " if state.variant.suits else ""
        for _ in range(4):
            k = rng.randint(1, min(6, len(words))) if words else 0
            if k:
                out.append(("play " + join.join(sorted(rng.sample(words, k))), seat))
        plays = [t for t in legal if t.startswith("play ")]
        for text in rng.sample(plays, min(4, len(plays))):
            out.append((text[:-1] or text, seat))  # one card short
            out.append((text + (join + words[0] if words else "3"), seat))  # one card more
            out.append((text + join + "3", seat))
    return out


def _check_refusal(refusal: IllegalAction, text: str, state: GameState,
                   seat: int | None, kinds: dict[str, int]) -> None:
    assert type(refusal) in KINDS.values(), (text, type(refusal), refusal)
    assert refusal.reason in REASONS, (text, refusal.reason, refusal)
    assert REASONS[refusal.reason].kind == refusal.code, (refusal.reason, refusal.code)
    assert json.loads(json.dumps(refusal.params)) == refusal.params  # plain data
    for language in LANGUAGES:
        said = render(refusal.reason, refusal.params, language)  # KeyError: a param missing
        assert said and "{" not in said, (refusal.reason, said)
    assert state.check(text, seat) == str(refusal)
    if isinstance(refusal, Ambiguous):
        assert len(refusal.readings) > 1
    # The wire's code is the same as when the hall read the text, but where the text
    # wrongly said "turn" (WAS_READ_AS_TURN, asserted to be a player's own turn here).
    read_as_turn = "turn" in str(refusal) or "waiting" in str(refusal)
    if refusal.reason in WAS_READ_AS_TURN and read_as_turn:
        assert not isinstance(refusal, NotYourTurn)
    else:
        assert isinstance(refusal, NotYourTurn) == read_as_turn, (refusal.reason, refusal)
    kinds[refusal.reason] = kinds.get(refusal.reason, 0) + 1


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_fuzzed_refusals_are_typed_and_read_in_both_languages(variant: str) -> None:
    kinds: dict[str, int] = {}
    seen: list[str] = []
    for seed in (1, 2):
        rng = random.Random(f"{variant}/{seed}")
        state = new_game(variant, seed)
        for _ in range(40):
            if state.over:
                break
            for text, seat in _candidates(state, rng, seen):
                refusal = state.refusal(text, seat)
                if refusal is not None:
                    _check_refusal(refusal, text, state, seat, kinds)
            acting = state.acting
            seat = rng.choice(acting)
            action = rng.choice(state.legal_actions(seat))
            state.apply(action, seat)
            seen.append(action.at(None).text)
            if rng.random() < 0.1 and not state.over:  # 托管 on for somebody, now and then
                lazy = rng.randrange(state.players)
                if not state.auto[lazy]:
                    state.apply(f"@{lazy} auto on")
        if not state.over:  # leaving ends the game (escape) or leaves the seat on 托管
            state.apply("@0 leave")
            for text in ("@0 auto off", "@0 leave", "@0 auto on"):
                refusal = state.refusal(text)
                assert refusal is not None
                _check_refusal(refusal, text, state, None, kinds)
        if state.over:
            for text in ("pass", "@0 leave"):
                refusal = state.refusal(text)
                assert isinstance(refusal, NotInWindow) and refusal.reason == "game_over"
    common = {"not_your_turn", "unknown_action", "empty", "too_long", "no_such_seat",
              "bad_seat_tag", "wrong_step"}
    assert common <= set(kinds), sorted(common - set(kinds))


def test_play_refusals_name_the_rule() -> None:
    """Scripted: the kinds a client most needs to tell apart, one of each."""
    state = new_game("ddz3", 7)
    seat = state.to_act
    assert seat is not None
    state.apply("bid 3")
    assert isinstance(state.refusal("bid 2"), NotInWindow)  # a bid in the play phase
    lead = state.refusal("pass")
    assert isinstance(lead, Illegal) and lead.reason == "must_lead"
    hand = state.observe(seat)["hand"]
    ranks = _card_words(hand, suits=False)
    missing = next(r for r in "3456789TJQKA2" if r not in ranks)
    held = state.refusal(f"play {missing}")
    assert isinstance(held, Illegal) and held.reason == "not_in_hand"
    assert held.params["cards"] == missing
    state.apply(f"play {ranks[-1]}")  # the highest single
    after = state.to_act
    assert after is not None
    theirs = _card_words(state.observe(after)["hand"], suits=False)
    low = state.refusal(f"play {theirs[0]}", after)
    assert isinstance(low, Illegal) and low.reason == "does_not_beat", low
    assert isinstance(state.refusal("play zz"), Unreadable)
    turn = state.refusal("pass", seat)
    assert isinstance(turn, NotYourTurn)
    assert turn.params == {"seat": seat, "to_act": state.to_act}
    assert render(turn.reason, turn.params, "zh") == (
        f"现在轮到座位 {state.to_act}，不是座位 {seat}")


def test_set_up_refusals_are_typed() -> None:
    attempts: list[tuple[Callable[[], object], str]] = [
        (lambda: new_game("nope"), "unknown_variant"),
        (lambda: new_game("ddz3", "7"), "bad_seed"),  # type: ignore[arg-type]
        (lambda: new_game("ddz3", 1, {"nope": 1}), "bad_option"),
        (lambda: new_game("ddz3", 1, {"deal": {"hands": ["3"]}}), "bad_deal"),
        (lambda: replay({"variant": "ddz3"}), "bad_record"),
        (lambda: replay({**new_game("ddz3", 1).record(), "actions": ["bid 9"]}),
         "record_action")]
    for bad, reason in attempts:
        with pytest.raises(BadSetup) as caught:
            bad()
        assert caught.value.reason == reason, caught.value
        for language in LANGUAGES:
            assert sentence(caught.value, language) != sentence(IllegalAction("x"), language)


def test_refusals_survive_pickling() -> None:
    """A refusal crosses process boundaries (arena pools) with its type, code and params."""
    state = new_game("ddz3", 3)
    refusal = state.refusal("@9 pass")
    assert refusal is not None
    again = pickle.loads(pickle.dumps(refusal))
    assert type(again) is type(refusal) and again.reason == refusal.reason
    assert again.params == refusal.params and str(again) == str(refusal)
    ambiguous = Ambiguous("'3599' has several readings", ["play 399+5", "play 599+3"])
    copy = pickle.loads(pickle.dumps(ambiguous))
    assert copy.readings == ambiguous.readings and copy.params == ambiguous.params
