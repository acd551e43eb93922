"""The ``cardhall`` command, for people and for scripts.

    cardhall rules classify VARIANT CARDS [--wild RANK] [--option KEY=VALUE]...
    cardhall rules moves VARIANT HAND [--last CARDS] [--wild RANK] [--option KEY=VALUE]...
    cardhall rules variants
    cardhall demo

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
from collections.abc import Sequence

from cardhall import rules
from cardhall.cards import CardError, card_rank, deck, format_ranks
from cardhall.rules import RuleError, RuleSet

USAGE_ERROR = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        """argparse's own usage errors get the same one-line form as ours."""
        raise RuleError(message)


def _ruleset(args: argparse.Namespace) -> RuleSet:
    options: dict[str, object] = {}
    for item in args.option or ():
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise RuleError(f"--option takes KEY=VALUE, not {item!r}")
        options[key.strip()] = value.strip()
    return rules.get(args.variant, wild=args.wild, **options)


def _cmd_classify(args: argparse.Namespace) -> object:
    rs = _ruleset(args)
    return {"readings": [p.to_json() for p in rs.classify(args.cards)]}


def _cmd_moves(args: argparse.Namespace) -> object:
    rs = _ruleset(args)
    plays = rs.moves(args.hand) if args.last is None else rs.moves_any(args.hand, args.last)
    return {"moves": [p.to_json() for p in plays]}


def _cmd_variants(args: argparse.Namespace) -> object:
    return {"variants": [{"id": rs.name, "description": rs.description, "packs": rs.packs}
                         for rs in rules.RULESETS.values()]}


def _cmd_demo(args: argparse.Namespace) -> None:
    """A short tour: a random hand per variant, how many leads it has, a few of them."""
    rng = random.Random(args.seed)
    sizes = {"ddz2": 20, "ddz3": 20, "ddz3_happy": 20, "ddz3_laizi": 20, "ddz4": 33,
             "ddz5": 24, "ddz_emperor": 34, "baohuang": 34}
    for name, base in rules.RULESETS.items():
        cards = list(deck(base.packs, base.absent))
        rng.shuffle(cards)
        hand_cards = [card_rank(c) for c in cards[: sizes[name]]]
        rs = base.with_options(wild=rng.randrange(13)) if base.wildcards else base
        hand = format_ranks(hand_cards)
        leads = rs.moves(hand)
        kinds = sorted({p.kind for p in leads})
        wild = "" if rs.wild is None else f" (wild {format_ranks([rs.wild])})"
        print(f"{name}{wild}: {rs.description}")
        print(f"  hand {hand}: {len(leads)} legal leads of {len(kinds)} kinds")
        print(f"  e.g. {', '.join(p.text for p in leads[-4:])}")
    print("\nTry: cardhall rules moves ddz3 33344455566+78 --last 3334")


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
    demo = sub.add_parser("demo", help="a short tour of the rules engine")
    demo.add_argument("--seed", type=int, default=None)
    demo.set_defaults(run=_cmd_demo)
    try:
        args = parser.parse_args(argv)
        result = args.run(args)
    except (RuleError, CardError) as exc:
        print(f"cardhall: {exc}", file=sys.stderr)
        return USAGE_ERROR
    if result is not None:
        json.dump(result, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
