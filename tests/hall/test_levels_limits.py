"""Level titles at every boundary of table B, and the rate limiter."""

from __future__ import annotations

from itertools import pairwise

import pytest

from cardhall.hall.domain.levels import TABLE_B, level_for
from cardhall.hall.domain.limits import RateLimiter
from tests.hall.clock import Clock

BOUNDARIES = [  # (points, level number, title): each threshold and the point below it
    (-5, 1, "包身工"), (0, 1, "包身工"), (99, 1, "包身工"),
    (100, 2, "短工"), (199, 2, "短工"), (200, 3, "长工"), (399, 3, "长工"),
    (400, 4, "佃户"), (599, 4, "佃户"), (600, 5, "贫农"), (799, 5, "贫农"),
    (800, 6, "渔夫"), (999, 6, "渔夫"), (1_000, 7, "猎人"), (1_999, 7, "猎人"),
    (2_000, 8, "中农"), (3_999, 8, "中农"), (4_000, 9, "富农"), (5_999, 9, "富农"),
    (6_000, 10, "掌柜"), (9_999, 10, "掌柜"), (10_000, 11, "商人"), (19_999, 11, "商人"),
    (20_000, 12, "衙役"), (49_999, 12, "衙役"), (50_000, 13, "小财主"), (99_999, 13, "小财主"),
    (100_000, 14, "大财主"), (199_999, 14, "大财主"), (200_000, 15, "小地主"),
    (499_999, 15, "小地主"), (500_000, 16, "大地主"), (999_999, 16, "大地主"),
    (1_000_000, 17, "知县"), (1_999_999, 17, "知县"), (2_000_000, 18, "通判"),
    (4_999_999, 18, "通判"), (5_000_000, 19, "知府"), (9_999_999, 19, "知府"),
    (10_000_000, 20, "总督"), (19_999_999, 20, "总督"), (20_000_000, 21, "巡抚"),
    (49_999_999, 21, "巡抚"), (50_000_000, 22, "丞相"), (99_999_999, 22, "丞相"),
    (100_000_000, 23, "帝王"), (10**12, 23, "帝王"),
]


@pytest.mark.parametrize(("points", "number", "title"), BOUNDARIES)
def test_title_thresholds(points: int, number: int, title: str) -> None:
    level = level_for(points)
    assert (level.number, level.title) == (number, title)
    assert level.threshold <= max(points, 0)
    assert level.next_threshold is None or max(points, 0) < level.next_threshold


def test_table_b_has_23_rising_levels() -> None:
    assert len(TABLE_B) == 23
    assert all(a[1] < b[1] for a, b in pairwise(TABLE_B))
    assert level_for(10**9).next_threshold is None
    assert level_for(150).next_threshold == 200


def test_rate_limiter_sliding_window_per_key() -> None:
    clock = Clock(1000.0)
    lim = RateLimiter(3, 60.0, clock=clock)
    assert [lim.allow("a") for _ in range(4)] == [True, True, True, False]
    assert lim.allow("b")                        # another address has its own window
    assert lim.retry_after("a") == pytest.approx(60.0)
    clock.now += 30
    assert not lim.allow("a")                    # refusals are not counted...
    clock.now += 30                              # ...so the first three expire together
    assert lim.retry_after("a") == 0.0
    assert [lim.allow("a") for _ in range(4)] == [True, True, True, False]


def test_rate_limiter_forgets_idle_keys() -> None:
    clock = Clock(1000.0)
    lim = RateLimiter(1, 10.0, clock=clock)
    for i in range(100):
        lim.allow(f"10.0.0.{i}")
    assert len(lim) == 100
    clock.now += 11
    lim.allow("fresh")
    assert len(lim) == 1


@pytest.mark.parametrize(("limit", "window"), [(0, 1.0), (1, 0.0), (-1, 5.0)])
def test_rate_limiter_refuses_nonsense(limit: int, window: float) -> None:
    with pytest.raises(ValueError, match="rate limit"):
        RateLimiter(limit, window)
