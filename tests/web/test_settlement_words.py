"""The settlement board (web/settle/board.js) on the endings a live test cannot force:
each result is the engine's own, from a seeded game played here in Python, and the board
is the page's module, drawn in the page in both languages. A 0-point 保皇 is a draw (平局,
not 失败); an escape says who escaped and what it cost; a forced quit its −40; spring its
×2; an all-托管 game that it is not scored; 五人's two landlords halve every pair. The
English board has no Chinese character but the players' names and card faces."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from cardhall.games import Action, GameState, new_game
from tests.web.conftest import shot
from tests.web.helpers import open_lobby
from tests.web.settlement_checks import check_board, english_without_chinese, signed

NAMES = ["甲", "乙", "丙", "丁", "戊"]
Pick = Callable[[GameState, int, list[Action]], Action]


def _finish(state: GameState, seed: int, pick: Pick | None = None) -> GameState:
    rng = random.Random(seed)
    while state.result() is None:
        seat = state.acting[0]
        legal = state.legal_actions(seat)
        state.apply(pick(state, seat, legal) if pick else rng.choice(legal), seat=seat)
    return state


def _spring(state: GameState, seat: int, legal: list[Action]) -> Action:
    """Bid 3 at once; the landlord plays, the farmers always pass: a spring."""
    texts = [a.text for a in legal]
    if "bid 3" in texts:
        return legal[texts.index("bid 3")]
    if seat == state.observe(seat)["detail"]["landlord"]:
        return next((a for a in reversed(legal) if a.text != "pass"), legal[0])
    return legal[texts.index("pass")] if "pass" in texts else legal[0]


def _draw() -> GameState:
    """A 保皇 hand whose royal places add up to 6: nobody scores."""
    for seed in range(400):
        state = _finish(new_game("baohuang", seed), seed)
        if not any(state.result()["points"]):  # type: ignore[index]
            return state
    raise AssertionError("no 保皇 draw in 400 seeded hands")


def _two_landlords() -> GameState:
    for seed in range(40):
        state = _finish(new_game("ddz5", seed), seed)
        if len(state.result()["detail"]["landlords"]) == 2:  # type: ignore[index]
            return state
    raise AssertionError("no 五人 hand with two landlords in 40 seeds")


def _escape(variant: str) -> GameState:
    state = new_game(variant, 1)
    state.apply("@1 leave")
    return state


def _forced_quit() -> GameState:
    state = new_game("zhaopengyou", 1)
    state.apply("@2 leave forced")
    return _finish(state, 1)


def _unscored() -> GameState:
    state = new_game("ddz3_happy", 1)
    for seat in range(3):
        state.apply(f"@{seat} auto on")
    return _finish(state, 1)


CASES: dict[str, Callable[[], GameState]] = {
    "baohuang-draw": _draw,
    "ddz3-escape": lambda: _escape("ddz3"),
    "ddz3_happy-escape": lambda: _escape("ddz3_happy"),
    "zhaopengyou-forced-quit": _forced_quit,
    "ddz3-spring": lambda: _finish(new_game("ddz3", 0, {"spring": True}), 0, _spring),
    "ddz3_happy-unscored": _unscored,
    "ddz5-two-landlords": _two_landlords,
}

DRAW = """async ({result, roles, hands, names, me, lang}) => {
    const i18n = await import("/i18n.js");
    await import("/seats.js");
    const board = await import("/settle/board.js");
    i18n.setLang(lang);
    document.querySelector("#settle-case")?.remove();
    const box = document.createElement("section");
    box.id = "settle-case";
    const outcome = board.outcomeOf(result, me);
    box.dataset.outcome = outcome || "";
    const head = document.createElement("h2");
    head.textContent = board.outcomeText(outcome);
    box.append(head, board.boardEl({
        variant: result.variant, result, me, hands,
        seats: names.map((name, seat) => ({name, bot: seat !== me, title: ""})),
        role: (seat) => roles[seat] ? i18n.t(`role.${roles[seat]}`) : null,
        beans: {}, fees: null, balances: null}));
    document.body.append(box);
}"""


def _draw_board(page: Page, state: GameState, me: int, lang: str) -> dict[str, Any]:
    result = state.result()
    assert result is not None
    view = state.observe(me)
    n = len(result["points"])
    page.evaluate(DRAW, {"result": result, "roles": view["roles"], "me": me, "lang": lang,
                         "hands": view["detail"].get("hands"), "names": NAMES[:n]})
    return result


@pytest.mark.parametrize("case", list(CASES))
def test_an_ending_reads_right_in_both_languages(desktop: Page, case: str) -> None:
    page = desktop
    open_lobby(page)
    state = CASES[case]()
    me = 0
    result = _draw_board(page, state, me, "zh")
    box = page.locator("#settle-case")
    check_board(box, result, me, None, state.observe(me)["detail"].get("hands"))
    d = result["detail"]
    text = box.inner_text()
    assert "—" not in text
    if case == "baohuang-draw":
        expect(box).to_have_attribute("data-outcome", "draw")
        expect(box.locator("h2")).to_have_text("平局")
        assert "失败" not in text and "平局" in text
        expect(box.locator(".sx-draw")).to_have_count(1)
    if case.endswith("escape"):
        escaper = NAMES[d["escape"]]
        note = box.locator(".sx-note", has_text="逃跑")
        expect(note).to_contain_text(escaper)
        expect(note).to_contain_text(f"罚 {d['X_esc']} 分")
        expect(box.locator(f".sx-seats tr[data-seat='{d['escape']}'] td.points")).to_have_text(
            signed(result["points"][d["escape"]]))
    if case == "zhaopengyou-forced-quit":
        expect(box.locator(".sx-note", has_text="强行退出")).to_contain_text("-40")
        expect(box.locator(".sx-seats tr[data-seat='2'] .sx-penalty")).to_have_text("-40")
    if case == "ddz3-spring":
        assert d["spring"] == "spring"
        expect(box.locator(".sx-cause[data-cause='spring']")).to_contain_text("春天 ×2")
        expect(box.locator(".sx-note", has_text="春天")).to_have_count(1)
    if case == "ddz3_happy-unscored":
        expect(box).to_have_attribute("data-outcome", "unscored")
        expect(box.locator("h2")).to_have_text("不计分")
        expect(box.locator(".sx-note")).to_contain_text("不计分")
    if case == "ddz5-two-landlords":
        expect(box.locator(".sx-coef", has_text="两个地主")).to_have_count(1)
        expect(box.locator(".sx-pair").first).to_contain_text("÷ 2")
    box.scroll_into_view_if_needed()
    shot(page, f"settle-case-{case}")
    _draw_board(page, state, me, "en")
    check_board(box, result, me, None, None)
    english_without_chinese(box, NAMES)
    if case == "baohuang-draw":
        expect(box.locator("h2")).to_have_text("Draw")
