"""``dicecam bench idle``: what a still table costs, and a roll read only where it changed.

Runs the live view's reader (the web app with the demo table as the camera, no tablet
connected) on a Dice Party game: the demo throws a party of ``--dice`` dice once, the
dice settle, and then the table lies still for ``--seconds``. Prints the process's CPU
time over wall time while still (the issue's budget: 10% of one core), how the frames
were read (kept, read where changed, read in full), and whether the settled dice equal a
full read of the same frame.
"""

from __future__ import annotations

import argparse
import logging
import os
import tempfile
import threading
import time
from collections import Counter
from dataclasses import replace
from typing import Any

import cv2

from dicecam.errors import InputError
from dicecam.vision.config import PipelineConfig
from dicecam.vision.factory import pipeline_from
from dicecam.vision.sources.demo import DemoThrow
from dicecam.webapp.api.app import create_app, services
from dicecam.webapp.camera.source import TableCamera
from dicecam.webapp.session.tablet_commands import NewGame

HELP = "CPU use of the live view while the table is still (demo, one core's share)"

TARGET_SHARE = 0.10


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="how long the table lies still after the settle (60)")
    parser.add_argument("--dice", type=int, default=60, help="dice in the throw (60)")


def run(args: argparse.Namespace) -> int:
    if args.seconds <= 0 or not 1 <= args.dice <= 60:
        raise InputError("--seconds must be positive and --dice from 1 to 60")
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    cv2.setNumThreads(1)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    thirds = (args.dice + 2) // 3
    colours = (("yellow",) * thirds + ("orange",) * thirds + ("red",) * thirds)[:args.dice]
    thrown = threading.Event()

    def director() -> DemoThrow | None:
        if thrown.is_set():
            return None
        thrown.set()
        return DemoThrow(colours)

    seen: list[Any] = []

    def make_pipeline(config: PipelineConfig) -> Any:
        pipeline = pipeline_from(replace(config, threads=1))
        seen.append(pipeline)
        return pipeline

    outputs = TableCamera("demo", pipeline=make_pipeline)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DB_PATH": os.path.join(folder, "games.sqlite"), "OUTPUTS": outputs,
                          "PAIRING_PIN": "000000"})
        sv = services(app)
        # a Dice Party game shows the demo's Dice Party dice; the bench's own director
        # throws once (the game then waits with the roll on the table, as a still table)
        outputs.direct_demo(lambda _game: director)
        sv.session.new_game(NewGame("diceparty", {"players": ["Ann", "Bo"]}))
        sv.start_reader()
        try:
            return _measure(sv, seen, args)
        finally:
            sv.close()


def _measure(sv: Any, seen: list[Any], args: argparse.Namespace) -> int:
    started = time.monotonic()
    while sv.reader.settles_seen == 0:
        if time.monotonic() - started > 60:
            raise InputError("the demo's throw never settled")
        time.sleep(0.1)
    pipeline = seen[-1]
    settled_after = time.monotonic() - started
    before = Counter(pipeline.counts)
    cpu0, wall0 = time.process_time(), time.monotonic()
    frames0 = sv.reader.frames_seen
    time.sleep(args.seconds)
    cpu, wall = time.process_time() - cpu0, time.monotonic() - wall0
    frames = sv.reader.frames_seen - frames0
    counts = Counter(pipeline.counts)
    counts.subtract(before)
    share = cpu / wall
    print(f"throw of {args.dice} dice settled after {settled_after:.1f} s")
    print(f"still table for {wall:.0f} s: {frames} frames ({frames / wall:.1f} per s), "
          f"CPU {cpu:.2f} s = {share:.1%} of one core "
          f"({'meets' if share <= TARGET_SHARE else 'MISSES'} the {TARGET_SHARE:.0%} target)")
    print(f"frames while still: kept {counts['kept']}, read where changed "
          f"{counts['changed']}, read in full {counts['full']}; dice read {counts['dice_read']}")
    return 0
