"""The suite's lanes: which tests need a browser, a service or time (docs/testing.md).

Three markers sort the tests so that a developer can run the quick part in a loop
(``scripts/test --fast`` = ``-m "not slow and not browser and not services"``) while
CI runs everything:

- ``browser``: every test under tests/web (Debian's Chromium through Playwright), and
  any test elsewhere that takes a page or a browser (a fixture typed with one of
  ``BROWSER_TYPES``). Given by the folder and the fixtures, never by hand. A browser
  test is marked ``services`` too: its page talks to a ``cardhall serve``.
- ``services``: a real PostgreSQL, Redis or ``cardhall serve`` process. Given by the
  fixtures a test uses (one whose type names one of ``SERVICE_TYPES``) and by the
  PostgreSQL half of the ``db_url`` parametrisation; a test that starts one itself
  says so with ``@pytest.mark.services``.
- ``slow``: one test that takes more than about two seconds on its own. By hand.

The markers cannot drift silently: whatever starts a service calls ``needs(...)``,
which fails the running test if it is not marked ``services`` (in every lane, CI's
included), and tests/test_lanes.py checks what each lane collects.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import TypeVar

import pytest
from _pytest.mark import ParameterSet

T = TypeVar("T")

#: ``scripts/test --fast`` runs pytest with ``-m FAST``.
FAST = "not slow and not browser and not services"

#: A fixture whose type names one of these starts (or needs) a service.
SERVICE_TYPES = ("HallProcess", "PostgresServer", "RedisServer")

#: A fixture whose type names one of these drives the browser (outside tests/web too).
BROWSER_TYPES = ("Playwright", "Browser", "BrowserContext", "Page", "PageMaker")

#: Parametrisations that choose a backend, and the values that are a service.
SERVICE_PARAMS = {"db_url": "postgresql", "backend": "postgresql"}

WEB = Path(__file__).resolve().parent / "web"

#: The test being run (its setup, call and teardown), for ``needs``.
_running: list[pytest.Item] = []


def _typed(fixturedef: pytest.FixtureDef[object], types: tuple[str, ...]) -> bool:
    """Whether the fixture's return type names one of ``types`` (``Iterator[HallProcess]``
    names ``HallProcess``)."""
    try:
        annotation = inspect.signature(fixturedef.func).return_annotation
    except (TypeError, ValueError):  # a fixture with no signature to read: none of ours
        return False
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return any(re.search(rf"\b{t}\b", text) for t in types)


def _fixtures(item: pytest.Item, types: tuple[str, ...]) -> list[str]:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return []
    return sorted(name for name, defs in info.name2fixturedefs.items()
                  if defs and _typed(defs[-1], types))


def service_fixtures(item: pytest.Item) -> list[str]:
    """The fixtures of ``item`` (with those they use) that start or need a service."""
    return _fixtures(item, SERVICE_TYPES)


def browser_fixtures(item: pytest.Item) -> list[str]:
    """The fixtures of ``item`` (with those they use) that drive the browser."""
    return _fixtures(item, BROWSER_TYPES)


def service_param(item: pytest.Item) -> str | None:
    """``db_url=postgresql`` if the test is the PostgreSQL half of a parametrisation."""
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return None
    for name, value in SERVICE_PARAMS.items():
        if callspec.params.get(name) == value:
            return f"{name}={value}"
    return None


def mark(items: list[pytest.Item]) -> None:
    """Give each collected test the markers its folder, fixtures and parameters imply."""
    for item in items:
        if item.path.is_relative_to(WEB) or browser_fixtures(item):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.services)  # its page talks to a cardhall serve
        elif item.get_closest_marker("services") is None and (
                service_fixtures(item) or service_param(item)):
            item.add_marker(pytest.mark.services)


def slow_for(values: Iterable[T], slow: Collection[T]) -> list[T | ParameterSet]:
    """``values`` for ``parametrize`` with those in ``slow`` marked ``slow`` (their ids
    unchanged): the fast lane keeps a test's quick cases and leaves its long ones."""
    missing = set(slow) - set(values := list(values))
    assert not missing, f"not among the values: {missing}"
    return [pytest.param(v, marks=pytest.mark.slow) if v in slow else v for v in values]


def entering(item: pytest.Item) -> None:
    _running.append(item)


def leaving(item: pytest.Item) -> None:
    if _running and _running[-1] is item:
        _running.pop()


def needs(service: str) -> None:
    """Called by whatever starts ``service``: the running test must be marked
    ``services``, or ``--fast`` would run it without saying so. Outside pytest (a
    benchmark borrowing the helpers) it does nothing."""
    if _running and _running[-1].get_closest_marker("services") is None:
        raise AssertionError(
            f"{_running[-1].nodeid} starts {service} but is not marked services: add "
            "@pytest.mark.services (or take the service through a fixture typed "
            f"{' / '.join(SERVICE_TYPES)}), see docs/testing.md")
