"""Names: NFKC, nothing invisible, no script mixing, look-alikes refused as taken."""

from __future__ import annotations

import asyncio

import pytest
from argon2 import PasswordHasher

from cardhall.hall.domain.config import Economy
from cardhall.hall.domain.errors import BadName, NameTaken
from cardhall.hall.domain.names import skeleton
from cardhall.hall.store import accounts
from cardhall.hall.store.accounts import check_new_name
from cardhall.hall.store.db import Database


@pytest.mark.parametrize("name", [
    "\u3164\u3164", "ab\u3164", "\u115f\u1160", "\uffa0ab",  # Hangul fillers
    "a\u200bb", "ab\u200d", "\u2066ab", "a\u00adb",  # zero-width, bidi, soft hyphen
    "ab\ue000", "ab\U000f0000",  # private use
    "ab\u0378",  # unassigned
    "\u0301\u0301", "a\u0301\u0301",  # combining marks (NFKC cannot compose these)
    "pаypal", "Αdmin", "bobσ",  # Latin mixed with Cyrillic а, Greek Α, Greek σ
    "gօօgle",  # Latin with Armenian օ
    "e\u0301\u0301x",  # marks left on a Latin letter after NFKC
    "สม\u0e34\u0e48\u0e4c",  # three marks on one Thai letter
])
def test_invisible_and_mixed_names_refused(name: str) -> None:
    with pytest.raises(BadName):
        check_new_name(name)


@pytest.mark.parametrize("name", ["张三", "小明123", "Tom张", "Иван", "Σοφία", "ｄａｖｅ",
                                  "李雷_2024", "é1é", "e\u0301x", "สมศักดิ์", "さくら桜",
                                  "김철수", "Анна小明"])
def test_real_names_pass(name: str) -> None:
    check_new_name(name)


def test_skeleton_folds_look_alikes() -> None:
    assert skeleton("admin") == skeleton("АDМIN") == skeleton("аdmin") == skeleton("adm1n")
    assert skeleton("ｐａｙｐａｌ") == skeleton("PAYPAL")
    assert skeleton("张三") != skeleton("张山")
    assert skeleton("Bob") != skeleton("Rob")
    assert skeleton("adm\u0661n") == skeleton("admin")  # an Arabic-Indic 1


@pytest.mark.parametrize(("look_alike", "refusal"), [
    ("аdmin", BadName), ("аdmіn", BadName),  # Cyrillic а, і among Latin: mixed
    ("ADM1N", NameTaken), ("Admin", NameTaken), ("ａｄｍｉｎ", NameTaken), ("adm1n", NameTaken),
])
async def test_look_alike_of_an_existing_name_is_refused(
        db: Database, economy: Economy, hasher: PasswordHasher, look_alike: str,
        refusal: type[Exception]) -> None:
    await accounts.register(db, "admin", "secret-1", economy, hasher=hasher)
    with pytest.raises(refusal):
        await accounts.register(db, look_alike, "secret-1", economy, hasher=hasher)


async def test_all_cyrillic_look_alike_is_taken(db: Database, economy: Economy,
                                                hasher: PasswordHasher) -> None:
    """"асе" in Cyrillic letters only (no mixing) still looks like "ace"."""
    await accounts.register(db, "ace", "secret-1", economy, hasher=hasher)
    with pytest.raises(NameTaken):
        await accounts.register(db, "асе", "secret-1", economy, hasher=hasher)
    guest = await accounts.create_guest(db, economy)
    with pytest.raises(NameTaken):
        await accounts.claim_guest(db, guest.token, "АСЕ", "secret-1", hasher=hasher)


async def test_racing_look_alikes_one_wins(db: Database, economy: Economy,
                                           hasher: PasswordHasher) -> None:
    """Two look-alike names registered at once: the unique skeleton lets one through."""
    done = await asyncio.gather(
        *(accounts.register(db, n, "secret-1", economy, hasher=hasher)
          for n in ("olga", "o1ga", "0lga", "01ga")), return_exceptions=True)
    assert sum(not isinstance(d, BaseException) for d in done) == 1
    assert all(isinstance(d, NameTaken) for d in done if isinstance(d, BaseException))
