"""The whole client in English, and in Chinese without a raw id (issue 26).

A player switches to English (#lang) and walks every screen: the lobby, a private
table's invite box, a table of every one of the nine variants from the deal through
its set-up phases (he answers each himself) and its play (one play, then 托管 plays
for him) to its settlement, his history and the replay of each game step by step,
his profile with the account's security panel, the leaderboards, the account forms
and every variant's rules. ``english_scan.js`` reads the page after every change of
the DOM, so a phase or a notice that lasts a moment is read too; any CJK character in
English, or a raw id (``ddz3_happy``, ``open_guard``) in either language, is a finding,
and a finding fails the test. The same walk in Chinese finds no raw id and no key left
in Latin letters. The games of a walk run side by side, one page each (this module's
hall has one room per variant, bots filling at once and answering at once).
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from cardhall.games import VARIANTS, new_game
from cardhall.games.base import Observation
from tests.server.conftest import HallProcess, running_hall
from tests.web.conftest import DESKTOP, PHONE, PageMaker, shot
from tests.web.helpers import TURN_MS, open_lobby, seq, take_turn

SCAN = (Path(__file__).parent / "english_scan.js").read_text(encoding="utf-8")


def room_id(variant: str) -> str:
    return f"{variant.replace('_', '-')}-walk"


#: Where the player (seat 0) would not otherwise meet a phase's own controls: he deals
#: 找朋友 (declares, buries, calls his friend by a card) and is 斗帝主's emperor (takes
#: from the kitty).
OPTIONS = {"zhaopengyou": "options = { dealer = 0 }\n",
           "ddz_emperor": "options = { landlord = 0 }\n"}


def _room(variant: str) -> str:
    """A room of ``variant``: bots fill it and answer at once; the player's own turn
    lasts 10 s (the walk answers each at once; one it misses costs no more: 托管 takes
    it, and the walk goes on)."""
    v = VARIANTS[variant]
    return (f'[[rooms]]\nid = "{room_id(variant)}"\nname = "{v.name} 练习场"\n'
            f'name_en = "{v.name_en} practice"\nvariant = "{variant}"\nN = 10\nA = 5\n'
            "min_beans = 0\nturn_seconds = 10\nbot_wait_seconds = 0\nbot_seconds = 0\n"
            + OPTIONS.get(variant, ""))


#: Only this module's rooms (the shared test rooms are named after variant ids).
ROOMS = "".join(_room(v) for v in VARIANTS)
#: The variant whose table is a private one (its invite box is walked first).
PRIVATE = "ddz3"


@pytest.fixture(scope="module")
def web_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("english"), rooms=ROOMS, only_rooms=True)


def test_every_variant_has_an_english_name() -> None:
    assert all(v.name_en and v.name_en != v.id for v in VARIANTS.values())


@dataclass
class Words:
    """What one variant's engine put before its players: phases, roles, multiplier
    causes, and set-up actions by (phase, verb), a few texts of each."""

    phases: set[str] = field(default_factory=set)
    roles: set[str] = field(default_factory=set)
    causes: set[str] = field(default_factory=set)
    actions: dict[tuple[str, str], list[str]] = field(default_factory=dict)

    def see(self, view: Observation, legal: Sequence[str] = ()) -> None:
        self.phases.add(view["phase"])
        self.roles.update(r for r in view.get("roles") or [] if r)
        for m in (view.get("multiplier"), (view.get("result") or {}).get("multiplier")):
            self.causes.update((m or {}).get("causes", {}))
        for text in legal:
            kept = self.actions.setdefault((view["phase"], text.split()[0]), [])
            if not text.startswith("play") and len(kept) < 3 and text not in kept:
                kept.append(text)

    def json(self) -> dict[str, list[str] | list[list[str]]]:
        return {"phases": sorted(self.phases), "roles": sorted(self.roles),
                "causes": sorted(self.causes),
                "actions": [[phase, text] for (phase, _), texts in sorted(self.actions.items())
                            for text in texts]}


def engine_words(seeds: int = 20) -> dict[str, dict[str, list[str] | list[list[str]]]]:
    """What each variant's engine can put before a player that the page must name in
    words, from seeded games of random legal actions: the check does not hang on what
    one walk happens to meet."""
    out = {}
    for vid in VARIANTS:
        words = Words()
        for seed in range(seeds):
            state, rng = new_game(vid, seed=seed), random.Random(seed)
            while not state.over:
                seat = state.acting[0]
                legal = [a.text for a in state.legal_actions(seat)]
                words.see(state.observe(seat), legal)
                state.apply(rng.choice(legal), seat)
            for seat in range(state.players):
                words.see(state.observe(seat))
        out[vid] = words.json()
    return out


#: The page's own helpers name each word as the table does (factsEl, roleLabel,
#: causeLabel, actionLabel), in each language.
LABELS = """async (words) => {
    const i18n = await import("/i18n.js");
    const { actionLabel } = await import("/actions.js");
    const { causeLabel } = await import("/settle.js");
    const { roleLabel } = await import("/seats.js");
    const out = [];
    for (const l of ["zh", "en"]) {
        i18n.setLang(l);
        for (const [variant, w] of Object.entries(words)) {
            for (const p of w.phases) out.push([l, variant, "phase", p, i18n.t(`phase.${p}`)]);
            for (const r of w.roles) out.push([l, variant, "role", r,
                roleLabel({ variant, roles: [r], detail: {} }, 0)]);
            for (const c of w.causes) out.push([l, variant, "cause", c, causeLabel(c)]);
            for (const [p, a] of w.actions) out.push([l, variant, `action in ${p}`, a,
                actionLabel(a, variant, p)]);
        }
    }
    return out;
}"""

CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]")


def test_every_phase_role_cause_and_action_has_words_in_both_languages(desktop: Page) -> None:
    """Beside the walk, which meets what its deals bring: every phase, role, multiplier
    cause and set-up action the engines produce has a label in Chinese and in English."""
    open_lobby(desktop)
    bad = []
    for lang, variant, kind, key, label in desktop.evaluate(LABELS, engine_words()):
        # An English label may be its key ("bombs"); one missing there shows the Chinese.
        if lang == "zh":
            raw = label in (key, f"phase.{key}", f"role.{key}") or bool(
                re.search(r"(?<![A-Za-z])[a-z]{3,}", label))
        else:
            raw = bool(CJK.search(label))
        if raw:
            bad.append(f"{variant} {kind} {key!r} in {lang}: {label!r}")
    assert not bad, "\n".join(bad)


def test_every_string_has_its_english(desktop: Page) -> None:
    """Every screen's strings (all loaded with the page) have English beside the Chinese."""
    open_lobby(desktop)
    assert desktop.evaluate("async () => (await import('/i18n.js')).untranslated()") == []


def findings(page: Page) -> list[dict[str, Any]]:
    page.evaluate("() => window.langScan()")
    found: list[dict[str, Any]] = page.evaluate("() => window.langFindings")
    return found


def go(page: Page, hash_: str) -> None:
    """Another screen, as a link does (no reload: the scanner's findings stay)."""
    page.evaluate("h => { location.hash = h; }", hash_)


def phase(page: Page) -> str:
    return page.locator(".table").get_attribute("data-phase") or ""


class Walker:
    """One page, one guest, one variant's table, in one language."""

    def __init__(self, page: Page, variant: str, lang: str) -> None:
        self.page, self.variant, self.lang = page, variant, lang
        self.played = False  # one play of his own made
        self.done: list[str] = []
        self.auto = False
        page.add_init_script(SCAN)

    def enter(self) -> None:
        page = self.page
        open_lobby(page)
        if self.lang == "en":
            page.locator("#lang").click()
            expect(page.locator("html")).to_have_attribute("lang", "en")
        page.locator("#guest").click()
        expect(page.locator("#rooms[data-loaded='1'] .room button.primary").first).to_be_visible()

    def sit(self) -> None:
        page = self.page
        room = page.locator(f".room[data-room='{room_id(self.variant)}']")
        if self.variant == PRIVATE:  # a private table: the invite box, then bots fill
            page.locator("#private-bots").check()
            room.locator("button:not(.primary)").click()
            expect(page.locator(".table .invite .code")).to_be_visible(timeout=TURN_MS)
            shot(page, f"english-invite-{self.lang}")
            page.locator("#start").click()
        else:
            room.locator("button.primary").click()
        expect(page.locator(f".table[data-variant='{self.variant}'] .hand")).to_be_attached(
            timeout=TURN_MS)

    def step(self) -> bool:
        """Act once if it is his turn; True once 托管 plays for him (or it is over)."""
        page = self.page
        if page.locator(".settle").count():
            return True
        if self.played and not self.auto:
            if page.locator("#auto[aria-pressed='false']").count():  # not on by a timeout
                page.locator("#auto").click()
            expect(page.locator("#auto")).to_have_attribute("aria-pressed", "true")
            self.auto = True
            return True
        if page.locator(".controls button:enabled, .controls #pick").count() == 0:
            return False  # not his turn (burying: #pick waits, disabled, for his cards)
        before = phase(page)
        done = self.bury() if page.locator(".controls #pick:disabled").count() else take_turn(page)
        self.done.append(f"{before}:{done}")
        if before == "play" and done:
            self.played = True
        return False

    def bury(self) -> str:
        """找朋友's dealer buries: as many cards as asked (the button waits for them)."""
        page = self.page
        before = seq(page)
        need = int(re.findall(r"\d+", page.locator(".controls .reason").inner_text())[0])
        cards = page.locator(".hand .card")
        for i in range(need):  # as the keyboard picks (the phone's rows overlap)
            cards.nth(i).dispatch_event("click")
        page.locator(".controls #pick").click()
        expect(page.locator(".table")).not_to_have_attribute("data-seq", before)
        return "bury"

    def settled(self) -> None:
        expect(self.page.locator(".settle")).to_be_visible(timeout=90_000)


def play_all(walkers: list[Walker]) -> None:
    """Every walker's game from the deal to its settlement, side by side."""
    waiting = list(walkers)
    end = time.monotonic() + 120
    while waiting and time.monotonic() < end:
        waiting = [w for w in waiting if not w.step()]
        if waiting:
            waiting[0].page.wait_for_timeout(50)  # the bots' turns
    assert not waiting, [(w.variant, w.done) for w in waiting]
    for w in walkers:
        w.settled()


def replay_every_step(page: Page, variant: str, lang: str) -> None:
    """History, then the replay of the game: every step drawn in turn (each read)."""
    go(page, "#/history")
    games = page.locator(".sc-games li a.sc-game")
    expect(games.first).to_be_visible()
    games.first.click()
    expect(page.locator(".sc-replay[data-loaded='1']")).to_have_count(1)
    page.evaluate("""async () => {
        const fwd = document.querySelector('.sc-controls button[aria-label]:nth-of-type(3)');
        const last = Number(document.querySelector('.sc-replay').dataset.last);
        for (let i = 0; i < last; i++) {
            fwd.click();
            await new Promise((r) => setTimeout(r, 0));
        }
    }""")
    expect(page.locator(".sc-replay")).to_have_attribute(
        "data-step", page.locator(".sc-replay").get_attribute("data-last") or "")
    if variant in ("baohuang", "ddz3_laizi") and lang == "en":
        shot(page, f"english-replay-{variant}-{lang}")


def walk_screens(page: Page, lang: str) -> None:
    """The screens beside the table: profile and its security panel (after registering
    the guest, so the panel has sessions and the password form), leaderboards, the
    account forms, the rules of every variant and the platform."""
    go(page, "#/register")
    page.locator("#register-name").fill(f"Walker{lang}")
    page.locator("#register-password").fill("walker-pw-1")
    page.locator("#register-password2").fill("walker-pw-1")
    page.locator("form.sc-form button[type=submit]").click()
    expect(page.locator(".sc-profile[data-loaded='1']")).to_have_count(1)
    expect(page.locator("#sessions[data-loaded='1']")).to_have_count(1)
    shot(page, f"english-profile-{lang}")
    for by in ("points", "beans"):
        for period in ("all", "day", "week"):
            go(page, f"#/leaderboard/all/{by}/{period}")
            expect(page.locator(f".sc-leaderboard[data-loaded='all/{by}/{period}']")).to_have_count(1)
    for variant in VARIANTS:
        go(page, f"#/leaderboard/{variant}/points/all")
        expect(page.locator(f".sc-leaderboard[data-loaded='{variant}/points/all']")).to_have_count(1)
    shot(page, f"english-leaderboard-{lang}")
    go(page, "#/login")
    expect(page.locator(".sc-login")).to_be_visible()
    go(page, "#/rules")
    expect(page.locator(".sc-rules-nav")).to_be_visible()
    for name in [*VARIANTS, "platform"]:
        go(page, f"#/rules/{name}")
        expect(page.locator(f".sc-rules[data-loaded='{name}']")).to_have_count(1)
    go(page, "#/")
    expect(page.locator("#rooms[data-loaded='1']")).to_have_count(1)


def report(walkers: list[Walker]) -> list[str]:
    out = []
    for w in walkers:
        for f in findings(w.page):
            out.append(f"{w.variant} [{f['lang']}] {f['kind']}: {f['text']!r} at {f['where']}")
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_screen_in_one_language(new_page: PageMaker, lang: str) -> None:
    walkers = [Walker(new_page(PHONE if v == "zhaopengyou" else DESKTOP), v, lang)
               for v in VARIANTS]
    for w in walkers:
        w.enter()
    shot(walkers[0].page, f"english-lobby-{lang}")
    for w in walkers:
        w.sit()
    play_all(walkers)
    for w in walkers:
        if lang == "en" or w.variant == "ddz3_happy":
            shot(w.page, f"english-settle-{w.variant}-{lang}")
    for w in walkers:
        replay_every_step(w.page, w.variant, lang)
    walk_screens(walkers[0].page, lang)
    for w in walkers:  # each table was drawn in its game's last phase and in play
        assert {"play", "over"} <= set(w.page.evaluate("() => window.langPhases")), w.variant
    bad = report(walkers)
    assert not bad, "\n".join(bad)
