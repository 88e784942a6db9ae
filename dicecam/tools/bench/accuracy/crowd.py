"""``dicecam bench crowd``: Dice Party's crowded throws through the table reader and the
game, as the demo throws them (issue 33, point 6).

A game of two players is played to parties of ``--party`` dice (54, ``grown_parties``),
and the first player's party is thrown ``--throws`` times by the demo source (throws
``--first`` on; the dice touch in clusters), each read as the live view reads it: every
frame of the throw through the table reader until the roll settles (``--still``: only
the picture of the dice lying still, read once: faster, the same dice). The settled
roll then goes through the game as the tablet's session takes it: the colours decided
together with the party's counts, then the rules. A throw waits for a tap when a die is
asked (no value, or under 0.90 sure) or the rules refuse the throw (a die missed). The
table reader is told how many dice were thrown and fits the roll to that count, as the
live view does with what the game waits for (``--uncounted``: not told).

Each thrown die is read right and sure, asked (no value, value unsure, colour unsure),
read wrong and sure (the worst error: scored without asking), or missed; boxes matching
no thrown die are extra. Target: at most 1 throw in 20 waits for a tap, none read wrong.
Prints a table, then one JSON line with every figure.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from dicecam.errors import InputError
from dicecam.reading import LOW_CONFIDENCE, DieReading
from dicecam.scorer.colour_counts import fit_groups
from dicecam.scorer.diceparty.grown import grown_parties
from dicecam.scorer.registry import get_game
from dicecam.vision.factory import build_pipeline
from dicecam.vision.matching import match_centres
from dicecam.vision.sources.demo import DemoSource, DemoThrow

HELP = "54-die Dice Party throws from the demo: throws waiting for a tap, dice asked and why"

GAME = "diceparty"
#: at most this share of throws may wait for a tap (issue 33, point 6)
TARGET_WAITING = 0.05


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--throws", type=int, default=40, help="throws to read (40)")
    parser.add_argument("--first", type=int, default=0,
                        help="the demo's number of the first throw (each number is one "
                             "throw, the same on every run; default 0)")
    parser.add_argument("--party", type=int, default=54,
                        help="dice in the party thrown (the game is played to that size; 54)")
    parser.add_argument("--still", action="store_true",
                        help="read only the picture of the dice lying still, not every frame")
    parser.add_argument("--reader", type=Path, default=None, metavar="ONNX",
                        help="a die reader model instead of the shipped one")
    parser.add_argument("--detector", type=Path, default=None, metavar="ONNX",
                        help="a die detector model instead of the shipped one")
    parser.add_argument("--no-second-look", action="store_true",
                        help="without the second look at dice read unsure in a crowd "
                             "(vision/read/second_look.py), for a before figure")
    parser.add_argument("--uncounted", action="store_true",
                        help="without telling the table reader how many dice were thrown "
                             "(vision/detect/counted_dice.py), for a before figure")


def run(args: argparse.Namespace) -> int:
    import cv2

    if args.throws < 1:
        raise InputError("--throws must be at least 1")
    if args.reader is not None and not args.reader.is_file():
        raise InputError(f"--reader: no model at {args.reader}")
    if args.detector is not None and not args.detector.is_file():
        raise InputError(f"--detector: no model at {args.detector}")
    cv2.setNumThreads(1)
    game = get_game(GAME)
    config, actions = grown_parties(["Ann", "Bo"], args.party)
    state = game.replay(config, actions)
    due = game.throw_due(state) if game.throw_due is not None else None
    if due is None:
        raise InputError("the game played to that size waits for no throw")
    pipeline = build_pipeline(game.dice_set, threads=1, reader_path=args.reader,
                              detector_path=args.detector)
    pipeline.second_look = not args.no_second_look
    expected = None if args.uncounted else len(due.colours)
    pipeline.expected_dice = lambda: expected  # as the live view asks the game
    source = DemoSource(game.dice_set)
    request = DemoThrow(due.colours, due.values)
    mode = "from the still picture" if args.still else "frame by frame until it settles"
    print(f"dicecam bench crowd: {args.throws} throws of a {len(due.colours)}-die party "
          f"({', '.join(f'{n} {c}' for c, n in Counter(due.colours).items())}), read "
          f"{mode}{'' if pipeline.second_look else ', no second look'}", flush=True)
    dice: Counter[str] = Counter()
    waiting: Counter[str] = Counter()
    for index in range(args.first, args.first + args.throws):
        frames, truth = source.thrown(index, request)
        read = _settled(pipeline, frames, source.fps, still=args.still, expected=expected)
        if read is None:
            waiting["never settled"] += 1
            continue
        read = fit_groups(read, game.colour_groups(state, read)) \
            if game.colour_groups is not None else read
        refused = False
        try:
            action = game.adapter(state, read)
            if action is not None:
                game.codec.apply(state, action)
        except InputError:
            refused = True
        outcomes = classify([(d.cx, d.cy, max(d.w, d.h), d.value, d.colour)
                             for d in truth.dice], read)
        dice.update(outcomes)
        asked = any(d.needs_check for d in read)
        if asked or refused:
            waiting[_why_waiting(outcomes, asked, refused)] += 1
    figures = _figures(args, dice, waiting)
    _print(figures)
    print(json.dumps(figures))
    return 0


def _settled(pipeline: Any, frames: list, fps: float, *, still: bool,
             expected: int | None = None) -> tuple[DieReading, ...] | None:
    """The dice of the throw's settled roll (None: it never settled)."""
    if still:
        return pipeline.read_frame(frames[-1], expected=expected).dice
    pipeline.reset()
    for k, frame in enumerate(frames):
        settled = pipeline.process(frame, timestamp=k / fps).settled
        if settled is not None:
            return settled.dice
    return None


def classify(truth: list[tuple[float, float, float, int, str]],
             read: tuple[DieReading, ...]) -> list[str]:
    """What became of each thrown die (cx, cy, size, value, colour), and one "extra" per
    die read that matches none."""
    pairs = match_centres([(cx, cy, size) for cx, cy, size, _, _ in truth],
                          [(d.x, d.y) for d in read])
    out = []
    for (_cx, _cy, _size, value, colour), j in zip(truth, pairs, strict=True):
        if j is None:
            out.append("missed")
            continue
        die = read[j]
        if not die.needs_check:
            out.append("right and sure" if (die.value, die.colour) == (value, colour)
                       else "WRONG AND SURE")
        elif die.value is None:
            out.append("asked: no value")
        elif die.value_confidence < LOW_CONFIDENCE:
            out.append("asked: value unsure")
        else:
            out.append("asked: colour unsure")
    matched = {j for j in pairs if j is not None}
    out += ["extra, asked" if read[j].needs_check else "EXTRA AND SURE"
            for j in range(len(read)) if j not in matched]
    return out


def _why_waiting(outcomes: list[str], asked: bool, refused: bool) -> str:
    causes = sorted({o for o in outcomes if o.startswith(("asked", "missed", "extra"))})
    if refused and "missed" not in causes and "extra, asked" not in causes:
        causes.append("refused by the rules")
    return " + ".join(causes) or ("a die asked" if asked else "refused by the rules")


def _figures(args: argparse.Namespace, dice: Counter[str], waiting: Counter[str]
             ) -> dict[str, Any]:
    waited = sum(waiting.values())
    return {
        "throws": args.throws, "first": args.first, "party": args.party,
        "still": args.still, "second_look": not args.no_second_look,
        "counted": not args.uncounted,
        "throws_waiting": waited, "waiting_share": round(waited / args.throws, 4),
        "target_met": waited <= TARGET_WAITING * args.throws
        and not dice["WRONG AND SURE"] and not dice["EXTRA AND SURE"],
        "dice": dict(sorted(dice.items())),
        "waiting_by_cause": dict(waiting.most_common()),
    }


def _print(figures: dict[str, Any]) -> None:
    throws, waited = figures["throws"], figures["throws_waiting"]
    met = "met" if figures["target_met"] else "NOT met"
    print(f"  throws waiting for a tap  {waited} of {throws} ({100 * waited / throws:.1f}%); "
          f"target at most 1 in 20 and none read wrong: {met}")
    dice = figures["dice"]
    thrown = sum(v for k, v in dice.items() if "extra" not in k.lower())
    print(f"  dice thrown               {thrown}")
    for name, count in dice.items():
        print(f"    {name:<24}{count:>6}")
    if figures["waiting_by_cause"]:
        print("  throws waiting, by cause")
        for name, count in figures["waiting_by_cause"].items():
            print(f"    {count:>4}  {name}")
