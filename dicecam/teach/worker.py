"""``python -m dicecam.teach.worker TABLE``: one learning run, in its own process.

Started by ``background.BackgroundLearner`` (``--nice 19``, one BLAS thread); prints one JSON
line, ``learner.TableLearning.to_json()``, and exits 0; exits 1 with one line on stderr
when the table cannot learn yet or the run fails. Everything it makes is written whole into
the table's folder, so a kill at any moment leaves the last good models in use.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from dicecam.errors import DicecamError
from dicecam.teach.learn.detector import DetectorSettings
from dicecam.teach.learn.reader import LearnSettings
from dicecam.teach.learner import learn_table
from dicecam.teach.store import TableStore


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dicecam.teach.worker")
    parser.add_argument("table")
    parser.add_argument("--steps", type=int, default=None,
                        help="learning steps of the reader and the detector")
    parser.add_argument("--nice", type=int, default=0,
                        help="lower this process's priority by this much first (19: lowest)")
    args = parser.parse_args(argv)
    if args.nice > 0 and hasattr(os, "nice"):
        os.nice(args.nice)
    try:
        quick = args.steps is not None
        learning = learn_table(
            TableStore(args.table),
            settings=LearnSettings(steps=args.steps) if quick else None,
            detector_settings=DetectorSettings(steps=args.steps) if quick else None)
    except (ValueError, DicecamError, OSError) as exc:
        print(f"table {args.table} did not learn: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(learning.to_json()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
