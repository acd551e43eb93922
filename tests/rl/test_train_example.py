"""The DouZero-style training example (cardhall.rl.dmc, examples/train_ddz3.py): a few
hundred decisions of training, the agent as a bot, a saved agent in the arena."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from cardhall import arena, bots
from cardhall.bots.base import bare
from cardhall.rl import dmc, env

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def one_thread() -> None:
    torch.set_num_threads(1)


def test_a_short_run_learns_with_finite_losses_and_repeats_by_seed() -> None:
    agent, stats = dmc.train("ddz3", decisions=300, seed=3, batch=32)
    again, _ = dmc.train("ddz3", decisions=300, seed=3, batch=32)
    fresh = dmc.Agent.new("ddz3", seed=3)
    assert stats.decisions >= 300
    assert stats.updates >= 300 // 32 - 1
    assert stats.losses and all(math.isfinite(x) for x in stats.losses)
    weights = [p.detach().clone() for p in agent.net.parameters()]
    assert all(torch.equal(a, b) for a, b in zip(weights, again.net.parameters(), strict=True))
    assert not all(torch.equal(a, b) for a, b in zip(weights, fresh.net.parameters(),
                                                     strict=True))


def test_the_loss_falls_on_a_fixed_batch() -> None:
    agent = dmc.Agent.new("ddz3", seed=0)
    episode = dmc.play_episode(env("ddz3"), agent, 5, 0.5, random.Random(0),
                               dmc.OBJECTIVES["adp"])
    assert set(episode.rewards) == {"seat_0", "seat_1", "seat_2"}
    assert sum(episode.rewards.values()) == 0  # ddz3 is zero-sum
    assert len(set(episode.targets)) == 2  # the landlord's return and the farmers'
    optimizer = torch.optim.Adam(agent.net.parameters(), lr=1e-3)
    losses = [dmc.update(agent, optimizer, episode.obs, episode.actions, episode.targets)
              for _ in range(60)]
    assert losses[-1] < losses[0] / 10


def test_the_greedy_choice_is_the_best_valued_action() -> None:
    agent = dmc.Agent.new("ddz3", seed=1)
    e = env("ddz3")
    e.reset(seed=2)
    u = e.unwrapped
    while u.game.phase != "play" or len(u.legal_texts(e.agent_selection)) < 5:
        name = e.agent_selection
        texts, _rows = u.action_features(name)
        for token in u.tokens_for(name, texts[-1]):
            e.step(token)
    obs = e.last()[0]["observation"]
    _texts, rows = u.action_features(e.agent_selection)
    values = agent.values(obs, rows)
    assert agent.choose(obs, rows) == int(values.argmax())
    rng = random.Random(0)
    assert len({agent.choose(obs, rows, 1.0, rng) for _ in range(50)}) > 1  # explores


def test_the_bot_encodes_its_view_as_the_environment_does() -> None:
    """What the arena's bot computes from a view is exactly what training saw."""
    agent = dmc.Agent.new("ddz3", seed=4)
    bot = dmc.bot_class(agent)(variant="ddz3", seat=0)
    e = env("ddz3")
    e.reset(seed=9)
    u = e.unwrapped
    decisions = 0
    for name in e.agent_iter():
        obs, _r, terminated, _t, _i = e.last()
        if terminated:
            e.step(None)
            continue
        texts, rows = u.action_features(name)
        view = u.game.observe(u.possible_agents.index(name))
        legal = [bare(t) for t in texts]
        bot_obs, bot_rows = bot.features(view, legal)
        assert np.array_equal(bot_obs, obs["observation"])
        assert np.array_equal(bot_rows, rows)
        choice = agent.choose(obs["observation"], rows)
        assert bot.choose(view, legal) == legal[choice]
        for token in u.tokens_for(name, texts[choice]):
            e.step(token)
        decisions += 1
    assert decisions > 10


def test_a_saved_agent_loads_and_plays_the_arena(tmp_path: Path) -> None:
    agent, _stats = dmc.train("ddz3", decisions=200, seed=5)
    path = tmp_path / "agent.pt"
    agent.save(path)
    loaded = dmc.Agent.load(path)
    x, rows = np.ones(agent.layout.size, np.float32), np.eye(67, dtype=np.float32)
    assert torch.equal(agent.values(x, rows), loaded.values(x, rows))
    with dmc.registered(loaded, "dmc-test") as name:
        summary = arena.run("ddz3", [name, "random"], 3, seed=11)
    assert "dmc-test" not in bots.BOTS
    assert summary["games"] == 6
    assert summary["abandoned"] == 0  # every action it chose was legal: no game stopped


def test_a_file_that_is_no_agent_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.pt"
    torch.save({"weights": torch.zeros(3)}, path)
    with pytest.raises(ValueError, match="not a saved agent"):
        dmc.Agent.load(path)


def test_an_untrained_bot_says_so() -> None:
    with pytest.raises(bots.BotError, match="no trained agent"):
        dmc.DMCBot(variant="ddz3", seat=0).act({"legal": ["pass", "bid 1"]})


def test_cardhall_rl_imports_without_torch_and_dmc_names_it() -> None:
    code = ("import sys\nsys.modules['torch'] = None\nimport cardhall.rl\nprint('rl fine')\n"
            "try:\n    import cardhall.rl.dmc\nexcept ImportError as exc:\n    print(exc)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, timeout=60)
    assert "rl fine" in done.stdout, done.stderr
    assert "torch" in done.stdout
    assert "pip install 'cardhall[rl,train]'" in done.stdout


@pytest.mark.slow
def test_the_example_trains_saves_and_reports_the_arena(tmp_path: Path) -> None:
    saved = tmp_path / "ddz3.pt"
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_ddz3.py"), "--decisions", "300",
         "--deals", "2", "--save", str(saved)],
        capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("dmc vs random, 2 duplicate deals") == 2  # untrained, trained
    assert "decisions/s" in done.stdout
    assert dmc.Agent.load(saved).variant == "ddz3"
