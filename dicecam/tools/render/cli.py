"""``dicecam train render``: physically based renders of dice for the die reader.

Blender's module pins numpy 1.26 while the product's OpenCV needs numpy 2, so the renderer
runs in its own environment, ``.venv-render`` beside the project's ``.venv`` (made on first
use from ``requirements.txt``: about 400 MB, 15 s from the package index). ``--workers``
processes render interleaved indices into one folder; each sample depends only on the seed
and its index, and a stopped run goes on where it stopped.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from dicecam.errors import InputError

HELP = "render dice with Blender (bpy) for the die reader: crops with their top face's box"
HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "blender_dice.py"
REQUIREMENTS = HERE / "requirements.txt"
DEFAULT_ENV = HERE.parents[2] / ".venv-render"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, required=True, help="folder for the renders")
    parser.add_argument("--count", type=int, default=1000, help="renders to make")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start", type=int, default=0, help="first sample index")
    parser.add_argument("--workers", type=int, default=1, help="render processes (one "
                        "thread each)")
    parser.add_argument("--px", type=int, default=96, help="render size (square)")
    parser.add_argument("--samples", type=int, default=16, help="Cycles samples (denoised)")
    parser.add_argument("--tables", action="store_true",
                        help="tables without a d6 (the detector's hard negatives, "
                             "`train detector --negatives`) instead of dice")
    parser.add_argument("--env", type=Path, default=DEFAULT_ENV,
                        help="the renderer's Python environment (made when missing)")


def render_python(env: Path, log=print) -> Path:
    """The renderer environment's python, made (``bpy`` installed) when missing."""
    python = env / "bin" / "python"
    if python.is_file() and subprocess.run([str(python), "-c", "import bpy"],
                                           capture_output=True).returncode == 0:
        return python
    if sys.version_info[:2] != (3, 11):
        raise InputError("the renderer needs Python 3.11 (bpy 5.0 is built for it)")
    log(f"making the renderer's environment {env} (bpy, about 400 MB)")
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", "-r", str(REQUIREMENTS)],
                   check=True)
    return python


def render(out: Path, count: int, seed: int, start: int = 0, workers: int = 1, px: int = 96,
           samples: int = 16, env: Path = DEFAULT_ENV, tables: bool = False, log=print) -> int:
    """Render samples ``start .. start + count - 1`` into ``out``; returns how many are
    there."""
    python = render_python(env, log)
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    processes = []
    for worker in range(workers):
        # contiguous ranges: each worker's part resumes on its own
        first = start + count * worker // workers
        last = start + count * (worker + 1) // workers
        if last > first:
            processes.append(subprocess.Popen(
                [str(python), str(SCRIPT), "--out", str(out), "--seed", str(seed),
                 "--start", str(first), "--count", str(last - first), "--px", str(px),
                 "--samples", str(samples), *(["--tables"] if tables else [])],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True))
    failed = [p for p in processes if p.wait() != 0]
    if failed:
        raise InputError(f"the renderer failed: {failed[0].stderr.read()[-2000:]}")
    made = render_count(out)
    log(f"{made} renders in {out} ({time.monotonic() - started:.0f} s)")
    return made


def render_count(out: Path) -> int:
    """How many samples the renders in ``out`` hold (0 where none were made)."""
    labels = out / "labels.jsonl"
    if not labels.is_file():
        return 0
    return len({json.loads(line)["index"] for line in labels.read_text().splitlines() if line})


def run(args: argparse.Namespace) -> int:
    if args.count < 1 or args.workers < 1 or args.px < 32 or args.samples < 1:
        raise InputError("--count, --workers and --samples must be at least 1, --px at "
                         "least 32")
    made = render(args.out, args.count, args.seed, args.start, args.workers, args.px,
                  args.samples, args.env, tables=args.tables,
                  log=lambda m: print(m, file=sys.stderr, flush=True))
    print(json.dumps({"out": str(args.out), "renders": made}))
    return 0
