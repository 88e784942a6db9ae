"""``dicecam bench loo``: one real source's leave-one-source-out figures, by one command.

What a new table gets from the shipped models is only measured on a source they never saw.
The shipped reader learnt from byler, webcam and pxl (their tuning parts); damiantab is the
one source no model saw. For the others this bench trains the reader's twin without the
source, by the recipe of ``die_reader.md`` ("Leave byler or webcam out", without label
smoothing: one stage from scratch on stage 4's data, ``LOO_RECIPE``), and reads every photo
of the source with the shipped reader and with the twin: recall, precision, value, silent,
asked, for the source and its held-out part.

- **The detector is the shipped one**, which saw byler, webcam and pxl: these are the
  reader's leave-one-out figures, not the whole product's.
- **Its hard negatives** are the rendered tables of ``train render --tables`` (seeds 21 and
  22, ``TABLE_RENDERS``), rendered into ``--work`` once (about 35 minutes on 2 cores, the
  renderer's environment made on first use) unless ``--tables`` names folders already made.
- **Everything it makes is kept in ``--work``** (default ``~/.cache/dicecam/loo``) and
  reused: the renders, the synthetic crops (``--cache-dir``) and the twin
  ``L-<source>.onnx`` (``--retrain`` trains it again). A twin takes about 12 minutes on 2
  threads. Needs the ``train`` extra (torch, onnx).

A twin trained here is not the bit-for-bit file of an earlier session: its hard negatives
are cut by the detector of the day.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from pathlib import Path

from dicecam.errors import InputError
from dicecam.reading import LOW_CONFIDENCE
from dicecam.tools.bench.real import print_table, read_sources
from dicecam.tools.realdata import SOURCES, iter_photos
from dicecam.tools.render.cli import render, render_count
from dicecam.tools.train import reader_cli
from dicecam.vision.pipeline import build_pipeline

HELP = ("a real source read by the shipped reader and by its twin trained without the "
        "source (trained here once, ~12 min): the reader's leave-one-source-out figures")

#: the source no shipped model saw: its figures are leave-one-out as shipped
UNSEEN = "damiantab"
#: (folder name, seed, count) of the rendered tables cut as hard negatives
TABLE_RENDERS = (("TABLES", 21, 316), ("TABLES2", 22, 400))
TABLE_PX = 192
#: ``dicecam train reader``'s arguments for a twin (with ``--leave-out SOURCE`` added)
LOO_RECIPE = ("--samples", "100000", "--epochs", "6", "--lr", "4e-3", "--real-share", "0.3",
              "--hard-negatives", "3000", "--warp", "0.5", "--crowd-throws", "300",
              "--crowd-negatives", "6", "--crowd-share", "0.1", "--seed", "0",
              "--label-smoothing", "0", "--temperature", "1.5", "--leave-out", UNSEEN)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", required=True, choices=SOURCES,
                        help="the real source to leave out")
    parser.add_argument("--work", type=Path, default=None,
                        help="folder kept between runs for the renders, the synthetic crops "
                             "and the twin (default ~/.cache/dicecam/loo)")
    parser.add_argument("--tables", action="append", type=Path, default=None, metavar="DIR",
                        help="rendered tables without dice already made (`train render "
                             "--tables`; repeatable) instead of rendering them into --work")
    parser.add_argument("--retrain", action="store_true",
                        help="train the twin again even where --work holds one")
    parser.add_argument("--threads", type=int, default=2,
                        help="torch and render threads (default 2)")
    parser.add_argument("--limit", type=int, default=None, metavar="N",
                        help="read at most N photos of the source")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object instead of the table")
    parser.add_argument("--smoke", action="store_true",
                        help="a tiny twin in seconds (checks the command, not the model)")


def work_dir(given: Path | None) -> Path:
    if given is not None:
        return given
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "dicecam" / "loo"


def rendered_tables(work: Path, threads: int, log) -> list[Path]:
    """The hard negatives' rendered tables in ``work``, rendered where missing (a stopped
    render goes on where it stopped)."""
    folders = []
    for name, seed, count in TABLE_RENDERS:
        folder = work / name
        if render_count(folder) < count:
            log(f"rendering {count} tables without dice into {folder} (once)")
            render(folder, count, seed, workers=threads, px=TABLE_PX, tables=True, log=log)
        folders.append(folder)
    return folders


def train_twin(source: str, out: Path, tables: list[Path], cache: Path, threads: int,
               smoke: bool) -> None:
    """Train the reader without ``source`` (and damiantab) into ``out``."""
    parser = argparse.ArgumentParser(prog="dicecam train reader")
    reader_cli.add_arguments(parser)
    argv = [*LOO_RECIPE, "--leave-out", source, "--threads", str(threads),
            "--workers", str(threads), "--cache-dir", str(cache), "--out", str(out)]
    for folder in tables:
        argv += ["--negatives", str(folder)]
    if smoke:  # the trainer's own tiny run, from a few crowded throws
        argv += ["--smoke", "--crowd-throws", "2"]
    out.parent.mkdir(parents=True, exist_ok=True)
    reader_cli.run(parser.parse_args(argv))


def run(args: argparse.Namespace) -> int:
    if args.threads < 1:
        raise InputError("--threads must be at least 1")
    if args.limit is not None and args.limit < 1:
        raise InputError("--limit must be at least 1")
    for folder in args.tables or ():
        if render_count(folder) == 0:
            raise InputError(f"--tables: no renders in {folder} (no labels.jsonl)")

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    work = work_dir(args.work)
    photos = list(iter_photos(source=args.source))  # says where the photos go if absent
    if not photos:
        raise InputError(f"no labelled photos of {args.source} were found")
    if args.limit is not None:
        photos = photos[:args.limit]
    readers: list[tuple[str, Path | None]] = [("shipped", None)]
    twin = None
    if args.source != UNSEEN:
        twin = work / f"L-{args.source}{'-smoke' if args.smoke else ''}.onnx"
        if args.retrain or not twin.is_file():
            missing = [m for m in ("torch", "onnx") if importlib.util.find_spec(m) is None]
            if missing:  # said before half an hour of rendering, not after
                raise InputError(f"training the twin needs {' and '.join(missing)}: install "
                                 f"the training extra with `.venv/bin/pip install -e "
                                 f"'.[train]'`")
            tables = args.tables or rendered_tables(work, args.threads, log)
            log(f"training the reader without {args.source} into {twin}")
            train_twin(args.source, twin, tables, work / "cache", args.threads, args.smoke)
        else:
            log(f"reusing {twin} (--retrain trains it again)")
        readers.append((f"without {args.source}", twin))
    else:
        log(f"no shipped model saw {UNSEEN}: the shipped reader's figures are its "
            f"leave-one-out figures")
    read: dict[str, dict] = {}
    for label, reader in readers:
        pipeline = build_pipeline(None, threads=1, reader_path=reader, auto_zoom=True)
        found, _worst = read_sources(pipeline, photos, colour_read=False)
        read[label] = {name: tally.as_dict() for name, tally in found.items()}
    # each group's rows side by side: the source, then its held-out part
    groups = {f"{name}, {label}": read[label][name]
              for name in (args.source, f"{args.source}_held_out")
              for label, _ in readers if name in read[label]}
    figures = {"source": args.source, "detector": "shipped",
               "reader": str(twin) if twin is not None else "shipped",
               "colour_stage": None, "asked_below": LOW_CONFIDENCE, "groups": groups}
    if args.json:
        print(json.dumps(figures))
    else:
        print_table(figures)
    return 0
