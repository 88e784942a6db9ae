"""``dicecam bench loo``: one real source's leave-one-source-out figures, by one command.

What a new table gets from the shipped models is only measured on a source they never saw.
The shipped reader learnt from byler, webcam and pxl (their tuning parts,
``SHIPPED_SOURCES``); no model saw aws, dicebot or damiantab (``UNSEEN_SOURCES``), so on
those the shipped reader's figures are the leave-one-out ones. For the others this bench
trains the reader's twin without the source and reads every photo of the source with the
shipped reader and with the twin: recall, precision, value, silent, asked, for the source
and its held-out part.

- **The twin is made as the shipped reader was** (``TWIN_STAGES``,
  ``2026-12-07-die-reader-notebook.md``,
  "Every source left out by the shipped recipe"): a stage 1 from scratch, then stages 3, 4
  and 5 fine-tuned from it by their own recipes, the source and the unseen sources left out. Each
  stage's file is kept, so a stopped run goes on from the last stage written. Every stage
also leaves out the sources no shipped model saw. About 40
  minutes on 2 threads (stages 3-5 took 14 of them), a few on a GPU (``--device cuda``).
  ``--one-stage`` trains the quicker twin of the thirteenth session instead
  (``LOO_RECIPE``, one stage from scratch, about 12 minutes): it reads an unseen source
  worse than the shipped recipe does (pxl's value 74% against 80.5%), so its figures
  understate what a new table gets.
- **The detector is the shipped one**, which saw byler, webcam and pxl: these are the
  reader's leave-one-out figures, not the whole product's.
- **Its hard negatives** are the rendered tables of ``train render --tables`` (seeds 21 and
  22, ``TABLE_RENDERS``), rendered into ``--work`` once (about 35 minutes on 2 cores, the
  renderer's environment made on first use) unless ``--tables`` names folders already made.
- **Everything it makes is kept in ``--work``** (default ``~/.cache/dicecam/loo``) and
  reused: the renders, the synthetic crops (``--cache-dir``) and the twin
  ``twin-<source>.onnx`` (``L-<source>.onnx`` with ``--one-stage``; ``--retrain`` trains it
  again). Needs the ``train`` extra (torch, onnx).

A twin trained here is not the bit-for-bit file of an earlier session: its hard negatives
are cut by the detector of the day, and a twin trained on a GPU (``--device cuda``) draws
its augmentation differently.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from dicecam.errors import InputError
from dicecam.reading import LOW_CONFIDENCE
from dicecam.tools.bench.accuracy.real import print_table, read_sources
from dicecam.tools.extras import require_extra
from dicecam.tools.realdata import SOURCES, UNSEEN_SOURCES, iter_photos
from dicecam.tools.render.cli import render, render_count
from dicecam.tools.train.reader import cli as reader_cli
from dicecam.vision.factory import build_pipeline

HELP = ("a real source read by the shipped reader and by its twin trained without the "
        "source by the shipped recipe (trained here once, ~40 min): the reader's "
        "leave-one-source-out figures (training needs the train extra)")

#: (folder name, seed, count) of the rendered tables cut as hard negatives
TABLE_RENDERS = (("TABLES", 21, 316), ("TABLES2", 22, 400))
TABLE_PX = 192
#: every stage of a twin leaves out the sources no shipped model saw, as the shipped ones did
UNSEEN_LEFT_OUT = tuple(arg for name in UNSEEN_SOURCES for arg in ("--leave-out", name))
#: the shipped reader's stages, as (name, ``dicecam train reader``'s arguments, whether the
#: rendered tables are among its hard negatives); each stage after the first fine-tunes the
#: one before. Stage 1 is the first stage of the GPU runs of the sixteenth session (200,000
#: crops, 10 epochs, with stage 4's data at low shares): with pxl left out its chain read pxl
#: as one from the shipped stage 1 (200,000 crops, 20 epochs, no hard negatives) did, in
#: half the steps. Stages 3, 4 and 5 are the shipped ones (stage 2 was replaced by 3).
TWIN_STAGES = (
    ("stage1", ("--samples", "200000", "--epochs", "10", "--batch", "256", "--lr", "4e-3",
                "--real-share", "0.15", "--hard-negatives", "3000", "--warp", "0.5",
                "--crowd-throws", "300", "--crowd-negatives", "6", "--crowd-share", "0.05",
                "--label-smoothing", "0.05", "--seed", "0"), True),
    ("stage3", ("--samples", "60000", "--epochs", "10", "--lr", "1e-3", "--real-share", "0.4",
                "--hard-negatives", "1500", "--warp", "0.5", "--seed", "3"), False),
    ("stage4", ("--samples", "30000", "--epochs", "2", "--lr", "2e-4", "--real-share", "0.5",
                "--hard-negatives", "3000", "--warp", "0.5", "--crowd-throws", "300",
                "--crowd-negatives", "6", "--crowd-share", "0.1", "--seed", "7"), True),
    ("stage5", ("--samples", "30000", "--epochs", "3", "--lr", "3e-4", "--real-share", "0.5",
                "--hard-negatives", "3000", "--warp", "0.5", "--crowd-throws", "300",
                "--crowd-negatives", "6", "--crowd-share", "0.1", "--seed", "8",
                "--label-smoothing", "0", "--temperature", "1.5"), True),
)
#: ``--one-stage``: the thirteenth session's quicker twin, one stage from scratch on stage
#: 4's data without label smoothing
LOO_RECIPE = ("--samples", "100000", "--epochs", "6", "--lr", "4e-3", "--real-share", "0.3",
              "--hard-negatives", "3000", "--warp", "0.5", "--crowd-throws", "300",
              "--crowd-negatives", "6", "--crowd-share", "0.1", "--seed", "0",
              "--label-smoothing", "0", "--temperature", "1.5")


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
    parser.add_argument("--one-stage", action="store_true",
                        help="the quicker twin (one stage from scratch, ~12 min) instead of "
                             "the shipped recipe's stages; it reads unseen dice worse")
    parser.add_argument("--threads", type=int, default=2,
                        help="torch and render threads (default 2)")
    parser.add_argument("--device", default="cpu",
                        help="where the twin trains: cpu (default) or cuda (a GPU: minutes, "
                             "not half an hour; its runs do not reproduce a CPU run's weights)")
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


def twin_path(work: Path, source: str, one_stage: bool, smoke: bool) -> Path:
    smoke_part = "-smoke" if smoke else ""
    return work / (f"L-{source}{smoke_part}.onnx" if one_stage
                   else f"twin-{source}{smoke_part}.onnx")


def train_stage(recipe: tuple[str, ...], source: str, out: Path, tables: list[Path],
                cache: Path, threads: int, smoke: bool, init: Path | None = None,
                device: str = "cpu") -> None:
    """One ``dicecam train reader`` run without ``source`` (and the unseen sources) into
    ``out``."""
    parser = argparse.ArgumentParser(prog="dicecam train reader")
    reader_cli.add_arguments(parser)
    argv = [*recipe, *UNSEEN_LEFT_OUT, "--leave-out", source, "--threads", str(threads),
            "--workers", str(threads), "--cache-dir", str(cache), "--out", str(out),
            "--device", device]
    if init is not None:
        argv += ["--init-onnx", str(init)]
    for folder in tables:
        argv += ["--negatives", str(folder)]
    if smoke:  # the trainer's own tiny run, from a few crowded throws
        argv += ["--smoke", "--crowd-throws", "2"]
    out.parent.mkdir(parents=True, exist_ok=True)
    reader_cli.run(parser.parse_args(argv))


def train_twin(source: str, out: Path, tables: list[Path], cache: Path, threads: int,
               smoke: bool, one_stage: bool, retrain: bool, log, device: str = "cpu") -> None:
    """Train the reader without ``source`` (and the unseen sources) into ``out``: the shipped stages
    one after the other (each kept beside ``out``, and reused unless ``retrain``), or with
    ``one_stage`` the quicker twin."""
    if one_stage:
        train_stage(LOO_RECIPE, source, out, tables, cache, threads, smoke, device=device)
        return
    before = None
    for number, (name, recipe, with_tables) in enumerate(TWIN_STAGES, 1):
        last = number == len(TWIN_STAGES)
        stage_out = out if last else out.with_name(f"{out.stem}-{name}.onnx")
        if stage_out.is_file() and not retrain and not last:
            log(f"reusing {stage_out}")
        else:
            log(f"{name} ({number} of {len(TWIN_STAGES)}) into {stage_out}")
            train_stage(recipe, source, stage_out, tables if with_tables else [], cache,
                        threads, smoke, init=before, device=device)
        before = stage_out


def run(args: argparse.Namespace) -> int:
    if args.threads < 1:
        raise InputError("--threads must be at least 1")
    reader_cli.check_device(args.device)  # before any render, not when the twin trains
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
    if args.source not in UNSEEN_SOURCES:
        twin = twin_path(work, args.source, args.one_stage, args.smoke)
        if args.retrain or not twin.is_file():
            # said before half an hour of rendering, not after
            require_extra("train", "training the twin")
            tables = args.tables or rendered_tables(work, args.threads, log)
            log(f"training the reader without {args.source} into {twin}")
            train_twin(args.source, twin, tables, work / "cache", args.threads, args.smoke,
                       args.one_stage, args.retrain, log, args.device)
        else:
            log(f"reusing {twin} (--retrain trains it again)")
        readers.append((f"without {args.source}", twin))
    else:
        log(f"no shipped model saw {args.source}: the shipped reader's figures are its "
            f"leave-one-out figures")
    read: dict[str, dict] = {}
    for label, reader in readers:
        pipeline = build_pipeline(None, threads=1, reader_path=reader)
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
