"""A pytest plugin for tests/test_lanes.py: ``pytest --collect-only -p tests.lanes_dump``
writes, for every collected test, its markers, the fixtures that start a service or
drive a browser, and whether ``-m`` selected it, as JSON to ``$CARDHALL_LANES_DUMP``."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests import lanes

_deselected: list[pytest.Item] = []


def pytest_deselected(items: list[pytest.Item]) -> None:
    _deselected.extend(items)


def _row(item: pytest.Item, selected: bool) -> dict[str, Any]:
    return {"id": item.nodeid, "selected": selected,
            "markers": sorted({m.name for m in item.iter_markers()}),
            "services": lanes.service_fixtures(item), "param": lanes.service_param(item),
            "browser": lanes.browser_fixtures(item)}


def pytest_collection_finish(session: pytest.Session) -> None:
    rows = ([_row(i, True) for i in session.items]
            + [_row(i, False) for i in _deselected])
    Path(os.environ["CARDHALL_LANES_DUMP"]).write_text(json.dumps(rows))
