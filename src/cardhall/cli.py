"""The ``cardhall`` command, for people and for scripts.

    cardhall rules classify VARIANT CARDS [--wild RANK] [--option KEY=VALUE]...
    cardhall rules moves VARIANT HAND [--last CARDS] [--wild RANK] [--option KEY=VALUE]...
    cardhall rules variants
    cardhall solve VARIANT HAND_TO_MOVE OTHER_HAND [THIRD_HAND] [--last PLAY] [--landlord N]
                   [--json]
    cardhall play VARIANT [--seat N] [--seed S] [--bots NAME[,NAME...]] [--save FILE]
                  [--option KEY=VALUE]...
    cardhall simulate VARIANT --games N --seed S [--bots NAME[,NAME...]] [--json]
    cardhall arena VARIANT --bots A,B --deals N --seed S [--fixed-landlord] [--option K=V]
                   [--jobs J] [--json]
    cardhall replay FILE [--seat N]
    cardhall analyze FILE --seat N [--samples K] [--rollouts R] [--seed S] [--json]
    cardhall demo
    cardhall serve | admin | bot | loadtest   (cardhall.server.cli, cardhall.client.cli: the
                                              server extra)

Rules commands print JSON with stable keys; a bad variant, option or card
string exits with status 2 and a one-line reason on standard error, so a
script can tell "no legal play" (an empty list, status 0) from "you asked
wrongly".
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from cardhall import arena, sim, terminal
from cardhall.analysis import ROLLOUTS, SAMPLES, analyze
from cardhall.bots import BOTS, BotError
from cardhall.cards import CardError, card_rank, deck, format_ranks
from cardhall.client import cli as client_cli
from cardhall.games import VARIANTS, IllegalAction, new_game, rules_of
from cardhall.rules import RuleError, RuleSet
from cardhall.rules.solve import solve
from cardhall.server import cli as server_cli

USAGE_ERROR = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """argparse's own usage errors get the same one-line form as ours."""
        raise RuleError(message)


def _ruleset(args: argparse.Namespace) -> RuleSet:
    options: dict[str, object] = {}
    for item in args.option or ():
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise RuleError(f"--option takes KEY=VALUE, not {item!r}")
        options[key.strip()] = value.strip()
    return rules_of(args.variant, wild=args.wild, **options)


def _cmd_classify(args: argparse.Namespace) -> object:
    rs = _ruleset(args)
    return {"readings": [p.to_json() for p in rs.classify(args.cards)]}


def _cmd_moves(args: argparse.Namespace) -> object:
    rs = _ruleset(args)
    plays = rs.moves(args.hand) if args.last is None else rs.moves_any(args.hand, args.last)
    return {"moves": [p.to_json() for p in plays]}


def _cmd_solve(args: argparse.Namespace) -> object:
    rs = _ruleset(args)
    last = None if args.last is None else rs.parse_play(args.last)
    verdict = solve(rs, args.to_move, args.other, last, third=args.third,
                    landlord=args.landlord)
    if args.json:
        return verdict.to_json()
    print(f"{'win' if verdict.win else 'loss'}: {verdict.move or 'every move loses'}")
    return None


def _cmd_variants(args: argparse.Namespace) -> object:
    return {"variants": [{"id": v.id, "description": v.rules.description, "packs": v.packs}
                         for v in VARIANTS.values() if v.rules is not None]}


def _cmd_demo(args: argparse.Namespace) -> None:
    """A short tour: a random hand per variant, how many leads it has, a few of them."""
    rng = random.Random(args.seed)
    for name, v in VARIANTS.items():
        base, layout = v.rules, v.layout
        if base is None or layout is None:
            continue  # a trick game: its plays are no rule set's (the tour plays it below)
        cards = list(deck(base.packs, base.absent))
        rng.shuffle(cards)
        hand_cards = [card_rank(c) for c in cards[: layout.largest]]
        rs = base.with_options(wild=rng.randrange(13)) if base.wildcards else base
        hand = format_ranks(hand_cards)
        leads = rs.moves(hand)
        kinds = sorted({p.kind for p in leads})
        wild = "" if rs.wild is None else f" (wild {format_ranks([rs.wild])})"
        print(f"{name}{wild}: {rs.description}")
        print(f"  hand {hand}: {len(leads)} legal leads of {len(kinds)} kinds")
        print(f"  e.g. {', '.join(p.text for p in leads[-4:])}")
    print("\nOne hand of every game, the planning bot at every seat:")
    seed = rng.randrange(1 << 16)
    for name in VARIANTS:
        state = new_game(name, seed=seed)
        start = time.perf_counter()
        finished = sim.play_out(state, sim.seat_bots(name, ["planning"], state.players, seed))
        result = state.result()
        sides = sim.roles(state)
        points = result["points"] if result is not None else []
        outcome = ", ".join(f"{role} {terminal.signed(score)}"
                            for role, score in zip(sides, points, strict=False))
        print(f"  {name:12} {len(state.actions):4} actions, {time.perf_counter() - start:5.2f} s"
              f"  {outcome if finished else 'abandoned'}")
    print("\nTry: scripts/hall rules moves ddz3 33344455566+78 --last 3334")
    print("     scripts/hall play zhaopengyou    (you at seat 0, planning bots)")
    print("     scripts/hall arena ddz3 --bots planning,tuoguan --deals 200 --fixed-landlord")


def _bot_names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def _options(items: Sequence[str] | None) -> dict[str, object]:
    options: dict[str, object] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise RuleError(f"--option takes KEY=VALUE, not {item!r}")
        try:
            options[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            options[key.strip()] = value.strip()
    return options


def _cmd_simulate(args: argparse.Namespace) -> object:
    if args.games < 1:
        raise RuleError("--games must be at least 1")
    summary = sim.simulate(args.variant, args.games, args.seed, _bot_names(args.bots),
                           _options(args.option))
    if args.json:
        return summary
    print(f"{summary['variant']}: {summary['games']} games, bots {','.join(summary['bots'])}, "
          f"seed {summary['seed']}: {summary['games_per_second']} games/s")
    if summary["abandoned"] or summary["dissolved"] or summary["unscored"]:
        print(f"  abandoned {summary['abandoned']}, dissolved {summary['dissolved']}, "
              f"unscored {summary['unscored']}")
    print(f"  mean multiplier {summary['mean_multiplier']}")
    for role, row in summary["roles"].items():
        print(f"  {role:10} win rate {row['win_rate']:.3f}  mean points {row['mean_points']:+.3f}"
              f"  ({row['seats']} seat-games)")
    return None


def _cmd_arena(args: argparse.Namespace) -> object:
    summary = arena.run(args.variant, _bot_names(args.bots), args.deals, args.seed,
                        args.fixed_landlord, args.jobs, _options(args.option))
    if args.json:
        return summary
    print(arena.describe(summary))
    return None


def _cmd_play(args: argparse.Namespace) -> None:
    def save(record: dict[str, object]) -> None:
        Path(args.save).write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n")
        print(f"saved to {args.save}")

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    try:
        terminal.terminal(args.variant, args.seat, seed, _bot_names(args.bots), sys.stdin,
                          sys.stdout, _options(args.option), save if args.save else None)
    except KeyboardInterrupt:  # between games' output and the save: still no traceback
        print("\n(interrupted)")


def _record(path: str) -> dict[str, object]:
    """A saved record, read; an unreadable file or one that is not a JSON object is a
    one-line refusal."""
    try:
        record = json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RuleError(f"cannot read record {path}: {exc}") from None
    if not isinstance(record, dict):
        raise RuleError(f"cannot read record {path}: a record is a JSON object")
    return record


def _cmd_replay(args: argparse.Namespace) -> None:
    terminal.replay_steps(_record(args.file), sys.stdout, args.seat)


def _cmd_analyze(args: argparse.Namespace) -> object:
    if args.samples < 1:
        raise RuleError("--samples takes a positive number")
    report = analyze(_record(args.file), args.seat, args.seed, args.samples,
                     rollouts=args.rollouts)
    if args.json:
        return report.to_json()
    print("\n".join(report.lines()))
    return None


def _game_args(parser: argparse.ArgumentParser, bots: str, seed: int | None) -> None:
    parser.add_argument("variant")
    parser.add_argument("--seed", type=int, default=seed,
                        help="the deal's seed" + (" (default: a fresh one, printed)"
                                                  if seed is None else f" (default {seed})"))
    parser.add_argument("--bots", default=bots,
                        help=f"bot names, one for every seat or one per seat (comma "
                             f"separated), from: {', '.join(BOTS)} (default {bots})")
    parser.add_argument("--option", action="append", metavar="KEY=VALUE",
                        help="a game option; the value is read as JSON when it parses")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _Parser(prog="cardhall", description="Chinese card games: rules, games, bots.")
    sub = parser.add_subparsers(dest="command", required=True)
    rules_cmd = sub.add_parser("rules", help="ask the rules engine").add_subparsers(
        dest="rules_command", required=True)
    common = _Parser(add_help=False)
    common.add_argument("--wild", help="the wild rank (ddz3_laizi)")
    common.add_argument("--option", action="append", metavar="KEY=VALUE",
                        help="a variant option, e.g. kaopai=true or bie6=true (baohuang)")
    classify = rules_cmd.add_parser("classify", parents=[common], help="every reading of cards")
    classify.add_argument("variant")
    classify.add_argument("cards")
    classify.set_defaults(run=_cmd_classify)
    moves = rules_cmd.add_parser("moves", parents=[common], help="every legal play of a hand")
    moves.add_argument("variant")
    moves.add_argument("hand")
    moves.add_argument("--last", help="the play to beat (a move beating any reading is listed)")
    moves.set_defaults(run=_cmd_moves)
    rules_cmd.add_parser("variants", help="the variant ids").set_defaults(run=_cmd_variants)
    solve_cmd = sub.add_parser(
        "solve", parents=[common], help="solve an open-hand endgame (残局) exactly",
        description="Whether the hand to move can force going out first against the "
                    "other, both hands open, and a winning move. HAND_TO_MOVE leads, or "
                    "answers --last, played by OTHER_HAND. With THIRD_HAND, a landlord "
                    "against two farmers who cooperate, playing in the order HAND_TO_MOVE, "
                    "OTHER_HAND, THIRD_HAND: whether the side of the hand to move wins; "
                    "--last is then THIRD_HAND's play and the hand to move is the landlord "
                    "unless --landlord says which.")
    solve_cmd.add_argument("variant")
    solve_cmd.add_argument("to_move", metavar="HAND_TO_MOVE")
    solve_cmd.add_argument("other", metavar="OTHER_HAND")
    solve_cmd.add_argument("third", metavar="THIRD_HAND", nargs="?")
    solve_cmd.add_argument("--last", metavar="PLAY",
                           help="the play to answer, made by the hand before HAND_TO_MOVE "
                                "(OTHER_HAND with two hands, THIRD_HAND with three)")
    solve_cmd.add_argument("--landlord", type=int, choices=(1, 2, 3), metavar="N",
                           help="three hands: which is the landlord, 1 (HAND_TO_MOVE, the "
                                "default), 2 (OTHER_HAND) or 3 (THIRD_HAND)")
    solve_cmd.add_argument("--json", action="store_true", help='{"win": …, "move": …}')
    solve_cmd.set_defaults(run=_cmd_solve)
    play = sub.add_parser(
        "play", help="play a hand in the terminal against bots",
        description="Play one hand at one seat against bots (default: planning at every "
                    f"other seat; known bots: {', '.join(BOTS)}). A fresh seed is drawn and "
                    "printed unless --seed is given, so any game can be played again.")
    _game_args(play, bots="planning", seed=None)
    play.add_argument("--seat", type=int, default=0)
    play.add_argument("--save", help="write the game's record here when it ends, however it "
                                     "ends (over, left, stopped, Ctrl-C)")
    play.set_defaults(run=_cmd_play)
    simulate = sub.add_parser("simulate", help="bots play seeded games")
    _game_args(simulate, bots="random", seed=0)
    simulate.add_argument("--games", type=int, default=100)
    simulate.add_argument("--json", action="store_true")
    simulate.set_defaults(run=_cmd_simulate)
    arena_cmd = sub.add_parser("arena", help="two bots on duplicate deals, sides swapped")
    arena_cmd.add_argument("variant")
    arena_cmd.add_argument("--bots", required=True, help="two bot names: A,B")
    arena_cmd.add_argument("--deals", type=int, default=100)
    arena_cmd.add_argument("--seed", type=int, default=0)
    arena_cmd.add_argument("--fixed-landlord", action="store_true",
                           help="fix the landlord seat (no bidding), for peers that cannot bid")
    arena_cmd.add_argument("--jobs", type=int, default=1, help="worker processes")
    arena_cmd.add_argument("--option", action="append", metavar="KEY=VALUE",
                           help="a house option for every game (e.g. mode=simple)")
    arena_cmd.add_argument("--json", action="store_true")
    arena_cmd.set_defaults(run=_cmd_arena)
    replay_cmd = sub.add_parser("replay", help="step through a saved record")
    replay_cmd.add_argument("file")
    replay_cmd.add_argument("--seat", type=int, help="also show this seat's view at each step")
    replay_cmd.set_defaults(run=_cmd_replay)
    analyze_cmd = sub.add_parser(
        "analyze", help="judge one seat's decisions in a finished game",
        description="For each play decision of the seat, from its own information only: "
                    "the win chance and expected points of the move played and of the "
                    "best move found, the loss and a mark (inaccuracy 10%%, mistake 20%%, "
                    "blunder 30%% of win chance lost); the game's accuracy. Exact (the "
                    "solver) where the seat can count the other hand; 保皇, 找朋友 and an "
                    "unknown hidden landlord by whole games played out.")
    analyze_cmd.add_argument("file", help="a record, as cardhall play --save writes it")
    analyze_cmd.add_argument("--seat", type=int, required=True)
    analyze_cmd.add_argument("--samples", type=int, default=SAMPLES,
                             help=f"deals sampled per decision (default {SAMPLES})")
    analyze_cmd.add_argument("--rollouts", type=int, default=ROLLOUTS,
                             help="worlds played out to the end per decision where the "
                                  f"game is played out (保皇, 找朋友; default {ROLLOUTS})")
    analyze_cmd.add_argument("--seed", type=int, default=0, help="the samples' seed")
    analyze_cmd.add_argument("--json", action="store_true")
    analyze_cmd.set_defaults(run=_cmd_analyze)
    demo = sub.add_parser("demo", help="a short tour of the rules engine")
    demo.add_argument("--seed", type=int, default=None)
    demo.set_defaults(run=_cmd_demo)
    server_cli.register(sub)
    client_cli.register(sub)
    try:
        args = parser.parse_args(argv)
        result = args.run(args)
    except (RuleError, CardError, IllegalAction, BotError) as exc:
        print(f"cardhall: {exc}", file=sys.stderr)
        return USAGE_ERROR
    if result is not None:
        json.dump(result, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
