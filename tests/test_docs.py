"""The examples in docstrings run and say what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["cardhall.rules", "cardhall.games", "cardhall.bots", "cardhall.rl"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failed, attempted = doctest.testmod(module)
    assert attempted > 0, f"{name} has no examples"
    assert failed == 0
