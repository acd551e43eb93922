"""Quick chat in one process, on a real database (``Hall.handle``, as the server calls
it): a line reaches everyone at the table with the speaker's seat, a muted seat is not
heard by the one who muted it, lines are paced per player, a watcher listens only, and
bots answer a few lines, paced too. The pure parts (pacing, the bots' choices, the
wire's shape) are tested on their own."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardhall.hall.domain.errors import (
    NotAllowed,
    NotSeated,
    TooManyTries,
    Unfit,
    UnknownTable,
)
from cardhall.hall.live import bot_chat
from cardhall.hall.live.chat import ChatPace, at_end, hears
from cardhall.hall.live.commands import Mute as MuteCommand
from cardhall.hall.live.commands import Say, from_call
from cardhall.hall.store.db import Database
from cardhall.protocol.chat import EMOTES, GAP_SECONDS, PER_MINUTE, PHRASES, SAYINGS
from cardhall.protocol.messages import (
    Chat,
    Invite,
    Join,
    Leave,
    Mute,
    Private,
    ProtocolError,
    Said,
    State,
    Watch,
    parse_client,
)
from cardhall.protocol.peer import TableCall
from tests.hall.test_tables import Inbox, dealt, guest, make_hall, room
from tests.test_web_catalogs import catalog


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def chat(table: str, say: str) -> Chat:
    return Chat(type="chat", table=table, say=say)  # type: ignore[arg-type]


def heard(inbox: Inbox, player: str) -> list[tuple[int, str]]:
    """The chat lines ``player`` was sent so far (seat, id), taken from his queue."""
    q = inbox.queue(player)
    lines = []
    while not q.empty():
        msg = q.get_nowait()
        if isinstance(msg, Said):
            lines.append((msg.seat, msg.say))
    return lines


# -- the pure parts ---------------------------------------------------------------------


def test_the_catalog_has_unique_ids_of_phrases_and_emotes() -> None:
    assert len(PHRASES) == 10 and len(EMOTES) == 8
    assert len(set(SAYINGS)) == len(SAYINGS)


def test_every_id_has_its_words_in_both_languages_and_the_docs() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text("utf-8")
    for lang in ("zh", "en"):
        words = catalog(lang)
        assert [i for i in SAYINGS if not words.get(f"chat.{i}")] == []
    zh, en = catalog("zh"), catalog("en")
    assert [i for i in PHRASES if f"| `{i}` | {zh[f'chat.{i}']} | {en[f'chat.{i}']} |"
            not in docs] == []
    assert [i for i in EMOTES if f"| `{i}` | {zh[f'chat.{i}']} |" not in docs] == []


def test_a_player_chats_once_per_gap_and_ten_times_a_minute() -> None:
    clock = Clock()
    pace = ChatPace(clock=clock)
    pace.take("a")
    with pytest.raises(TooManyTries):
        pace.take("a")
    pace.take("b")  # per player
    clock.now += GAP_SECONDS
    pace.take("a")
    for _ in range(PER_MINUTE - 2):
        clock.now += GAP_SECONDS
        pace.take("a")
    clock.now += GAP_SECONDS
    with pytest.raises(TooManyTries, match="too fast"):
        pace.take("a")  # the eleventh line within a minute
    clock.now += 60
    pace.take("a")


def test_bots_answer_from_the_seed_and_are_paced() -> None:
    assert bot_chat.answer_of("hurry", 7, [1, 2], 0) == (2, "thinking")
    assert bot_chat.answer_of("hurry", 7, [1, 2], 1) == (1, "thinking")  # they take turns
    assert bot_chat.answer_of("hurry", 7, [], 0) is None  # no bot at the table
    assert bot_chat.answer_of("cry", 7, [1], 0) is None
    ends = [bot_chat.end_of(seed, [0, 2]) for seed in range(30)]
    assert 5 <= sum(e is not None for e in ends) <= 15  # a word after some games only
    assert ends == [bot_chat.end_of(seed, [0, 2]) for seed in range(30)]
    assert all(e is None or (e[0] in (0, 2) and e[1] in SAYINGS) for e in ends)
    clock = Clock()
    voice = bot_chat.BotVoice(clock=clock)
    assert voice.answer("hello", 3, [1]) == (1, "hello")
    assert voice.answer("hello", 3, [1]) is None  # within the gap: silent
    answered = 1
    for _ in range(20):
        clock.now += bot_chat.GAP_SECONDS
        answered += voice.answer("hello", 3, [1]) is not None
    assert answered <= 2 * bot_chat.PER_MINUTE  # 20 tries over ~100 s: at most 4 a minute


def test_an_unknown_id_is_malformed_on_the_wire_and_between_processes() -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_client('{"type": "chat", "table": "t1", "say": "buy cheap beans at"}')
    assert refused.value.code == "malformed"
    assert isinstance(parse_client('{"type": "chat", "table": "t1", "say": "hurry"}'), Chat)
    with pytest.raises(ProtocolError):
        parse_client('{"type": "mute", "table": "t1", "seat": "1", "on": true}')
    with pytest.raises(Unfit):
        from_call(TableCall(table="t1", kind="chat", player="p", text="free text"))
    with pytest.raises(Unfit):
        from_call(TableCall(table="t1", kind="mute", player="p", text="on"))
    assert from_call(TableCall(table="t1", kind="mute", player="p", text="on", seat=2)) \
        == MuteCommand("p", 2, True)
    assert from_call(TableCall(table="t1", kind="chat", player="p", text="bye")) \
        == Say("p", "bye")


# -- at a table -------------------------------------------------------------------------


async def test_a_line_reaches_the_table_and_a_mute_stops_it(db: Database) -> None:
    hall, inbox = await make_hall(db, room(bot_wait_seconds=60.0))
    clock = Clock()
    hall.chat_pace = ChatPace(clock=clock)
    try:
        players, first, table = await dealt(hall, inbox)
        a, b, c = players
        seat = {p: table.seat_of(p) for p in players}
        heard(inbox, a), heard(inbox, b), heard(inbox, c)
        with pytest.raises(UnknownTable):  # a line refused costs nothing of the pace
            await hall.handle(a, chat("nowhere", "hello"))
        await hall.handle(a, chat(first.table, "hello"))
        assert [heard(inbox, p) for p in players] == [[(seat[a], "hello")]] * 3
        with pytest.raises(TooManyTries):
            await hall.handle(a, chat(first.table, "hurry"))
        await hall.handle(b, Mute(type="mute", table=first.table, seat=seat[a], on=True))
        assert not hears(table, b, seat[a]) and hears(table, c, seat[a])
        clock.now += GAP_SECONDS
        await hall.handle(a, chat(first.table, "well_played"))
        assert heard(inbox, b) == []  # muted
        assert heard(inbox, c) == heard(inbox, a) == [(seat[a], "well_played")]
        await hall.handle(b, Mute(type="mute", table=first.table, seat=seat[a], on=False))
        clock.now += GAP_SECONDS
        await hall.handle(a, chat(first.table, "bye"))
        assert heard(inbox, b) == [(seat[a], "bye")]  # heard again
        with pytest.raises(NotAllowed):  # no such seat
            await hall.handle(b, Mute(type="mute", table=first.table, seat=7, on=True))
        stranger = await guest(hall)
        with pytest.raises(NotAllowed):
            await hall.handle(stranger, Mute(type="mute", table=first.table, seat=0, on=True))
        with pytest.raises(NotSeated):
            await hall.handle(stranger, chat(first.table, "hello"))
    finally:
        await hall.close()


async def test_the_block_hook_stops_chat_too(db: Database) -> None:
    hall, inbox = await make_hall(db, room(bot_wait_seconds=60.0))
    try:
        players, first, _ = await dealt(hall, inbox)
        a, _, c = players
        # Set once for the hall, after the table opened: every table asks it.
        hall.lobby.chat_blocks = lambda listener, speaker: (listener, speaker) == (c, a)
        for p in players:
            heard(inbox, p)
        await hall.handle(a, chat(first.table, "lucky"))
        assert [len(heard(inbox, p)) for p in players] == [1, 1, 0]
    finally:
        await hall.close()


async def test_a_watcher_hears_but_may_not_speak(db: Database) -> None:
    hall, inbox = await make_hall(db, room(bot_wait_seconds=60.0))
    try:
        players, first, table = await dealt(hall, inbox)
        admin = await guest(hall)
        await hall.handle(admin, Watch(type="watch", table=first.table), admin=True)
        await inbox.next(admin, State)
        with pytest.raises(NotSeated):
            await hall.handle(admin, chat(first.table, "hello"))
        heard(inbox, players[0])
        await hall.handle(players[1], chat(first.table, "smile"))
        assert heard(inbox, admin) == [(table.seat_of(players[1]), "smile")]
        assert len(heard(inbox, players[0])) == 1
        await hall.handle(admin, Mute(type="mute", table=first.table, seat=0, on=True))
        assert not hears(table, admin, 0)
        await hall.handle(admin, Leave(type="leave", table=first.table))  # stops watching
        assert admin not in table.chat.mutes  # his mutes do not outlive his watch
    finally:
        await hall.close()


async def test_bots_answer_a_hurry_once_in_a_while(db: Database) -> None:
    hall, inbox = await make_hall(db)  # bots fill at once
    clock = Clock()
    hall.chat_pace = ChatPace(clock=clock)
    try:
        me = await guest(hall)
        await hall.handle(me, Join(type="join", room="r1"))
        first = await inbox.next(me, State)
        table = hall.lobby.table(first.table)
        table.chat.bots = bot_chat.BotVoice(clock=clock)
        heard(inbox, me)
        await hall.handle(me, chat(first.table, "hurry"))
        lines = heard(inbox, me)
        assert lines[0] == (first.seat, "hurry")
        assert len(lines) == 2 and lines[1][1] == "thinking" and lines[1][0] != first.seat
        assert not table.seats[lines[1][0]].human
        clock.now += GAP_SECONDS
        await hall.handle(me, chat(first.table, "hurry"))
        assert heard(inbox, me) == [(first.seat, "hurry")]  # the bots' pace: no answer
    finally:
        await hall.close()


async def test_a_mute_follows_the_player_not_the_seat(db: Database) -> None:
    """At a private table still filling, a muted friend leaves and another takes his seat:
    the newcomer is heard; the muted one, back in another seat, is not."""
    hall, inbox = await make_hall(db)
    clock = Clock()
    hall.chat_pace = ChatPace(clock=clock)
    try:
        owner, muted, newcomer = await guest(hall), await guest(hall), await guest(hall)
        await hall.handle(owner, Private(type="private", room="r1", bots=False))
        invite = await inbox.next(owner, Invite)
        await hall.handle(muted, Join(type="join", code=invite.code))
        table = hall.lobby.table(invite.table)
        seat = table.seat_of(muted)
        assert seat is not None
        await hall.handle(owner, Mute(type="mute", table=table.id, seat=seat, on=True))
        await hall.handle(muted, Leave(type="leave", table=table.id))
        await hall.handle(newcomer, Join(type="join", code=invite.code))
        assert table.seat_of(newcomer) == seat  # the freed seat
        heard(inbox, owner)
        await hall.handle(newcomer, chat(table.id, "hello"))
        assert heard(inbox, owner) == [(seat, "hello")]
        await hall.handle(muted, Join(type="join", code=invite.code))
        await hall.handle(muted, chat(table.id, "hello"))
        assert table.seat_of(muted) not in (None, seat) and heard(inbox, owner) == []
    finally:
        await hall.close()


async def test_a_bot_may_say_a_word_as_a_game_ends(db: Database) -> None:
    """What a table's bots say at a game's end is ``bot_chat.end_of`` of its seed, told
    to the table like any line (the seeds are random: this table's says which case)."""
    hall, inbox = await make_hall(db)
    try:
        me = await guest(hall)
        await hall.handle(me, Join(type="join", room="r1"))
        first = await inbox.next(me, State)
        table = hall.lobby.table(first.table)
        assert table.game is not None
        heard(inbox, me)
        bots = [i for i, s in enumerate(table.seats) if not s.human]
        expected = bot_chat.end_of(table.game.seed, bots)
        at_end(table)
        assert heard(inbox, me) == ([] if expected is None else [expected])
    finally:
        await hall.close()
