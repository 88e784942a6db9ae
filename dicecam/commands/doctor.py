"""``dicecam doctor``: check what dicecam needs at this table, and say what to fix.

It checks the camera (or says the demo will play), the two models (the die detector and the
die reader), the colour profiles and zone maps (built-in and calibrated here), the game
database (SQLite, or PostgreSQL for a ``postgresql://`` --db), and with ``--hub`` the link
to a tournament hub (reachable, the code known, results waiting or refused). Each finding
is one line (``ok``, ``warn`` or ``FAIL``) with, for anything not ok, a line saying what to
do. The exit status is 1 when something is broken, else 0.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

import numpy as np

from dicecam.calibration.profile import (
    builtin_profile_names,
    load_builtin_profile,
    load_profile_file,
)
from dicecam.calibration.zones import board_names, load_board, load_zone_map
from dicecam.errors import InputError
from dicecam.paths import games_db_path, profiles_dir, zones_dir
from dicecam.scorer.registry import replay
from dicecam.vision.detect.detector import MODEL_PATH, DieDetector
from dicecam.vision.read.die_reader import DEFAULT_MODEL, DieReader
from dicecam.vision.sources.frames import frame_problem
from dicecam.vision.sources.source_spec import open_source
from dicecam.webapp.camera.source import camera_present
from dicecam.webapp.hub_link.signing import TABLE_KEY_VARIABLE, TableKey, hub_table_key, sign
from dicecam.webapp.journal.choose import open_journal, open_outbox
from dicecam.webapp.journal.postgres import is_postgres_url
from dicecam.webapp.journal.sqlite import GameStore

CAMERA_SECONDS = 8.0  # a webcam may take a few seconds to hand out its first picture
TRAIN_EXTRA = ".venv/bin/pip install -e '.[train]'"


class Verdict(StrEnum):
    OK = "ok"
    WARN = "warn"
    FAIL = "FAIL"


@dataclass(frozen=True)
class Finding:
    area: str
    verdict: Verdict
    what: str
    fix: str = ""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--camera", type=int, metavar="N",
                        help="check webcam N (default: the first webcam, if there is one)")
    source.add_argument("--stream", metavar="URL", help="check a phone camera's stream instead")
    parser.add_argument("--db", metavar="PATH", help="the game database to check "
                        "(default: the one dicecam serve uses)")
    parser.add_argument("--hub", metavar="URL", help="a tournament hub this table sends "
                        "results to (with this table's key): is it reachable, does it "
                        "take the key, are results waiting or refused")
    parser.add_argument("--table-key-file", metavar="FILE", help="the file holding this "
                        f"table's key at the hub; or ${TABLE_KEY_VARIABLE}, or type it when "
                        "asked")
    parser.add_argument("--table-key", help=argparse.SUPPRESS)  # on argv: says where to


# --- camera -------------------------------------------------------------------------------


def first_picture(spec: str, timeout: float = CAMERA_SECONDS) -> Any:
    """The first frame of a source, or None when none came within ``timeout`` seconds.
    Raises the source's own InputError when it cannot be opened."""

    source = open_source(spec)
    got: list[Any] = []
    done = threading.Event()

    def read() -> None:
        try:
            for frame in source:
                got.append(frame)
                break
        finally:
            done.set()

    threading.Thread(target=read, daemon=True).start()
    done.wait(timeout)
    if done.is_set():
        source.close()  # a stuck read keeps its camera; closing it under the read would crash
    return got[0] if got else None


def check_camera(camera: int | None, stream: str | None, *,
                 present: Callable[[int], bool] | None = None,
                 grab: Callable[[str], Any] = first_picture) -> Finding:
    present = present or camera_present
    if stream is None and camera is None and not present(0):
        return Finding("camera", Verdict.WARN,
                       "no webcam found: dicecam serve will play the bundled demo",
                       "plug in a USB webcam (then run dicecam doctor again), or give "
                       "dicecam serve --stream URL for a phone camera app")
    spec = stream if stream is not None else f"camera:{camera or 0}"
    try:
        frame = grab(spec)
    except InputError as exc:
        return Finding("camera", Verdict.FAIL, str(exc),
                       "check the cable or the address; dicecam serve --camera N picks "
                       "another webcam")
    if frame is None:
        return Finding("camera", Verdict.FAIL,
                       f"{spec} opens but sends no picture within {CAMERA_SECONDS:.0f} s",
                       "close other programs that use it (a video call?), unplug it and plug "
                       "it back in, then run dicecam doctor again")
    problem = frame_problem(frame)
    if problem is not None:
        return Finding("camera", Verdict.FAIL, f"{spec} sends {problem}",
                       "set the camera to colour video (its own app or v4l2-ctl), or try "
                       "another one")
    height, width = frame.shape[:2]
    return Finding("camera", Verdict.OK, f"{spec} sends {width}x{height} pictures")


# --- models -------------------------------------------------------------------------------


def load_reader(path: Path) -> None:
    DieReader(path).read([np.zeros((64, 64, 3), np.uint8)])


def load_detector(path: Path) -> None:
    DieDetector(path).detect(np.zeros((240, 320, 3), np.uint8))


def check_model(area: str, path: Path, train: str, load: Callable[[Path], None]) -> Finding:
    how = f"train it with `{train}` (needs the train extra: {TRAIN_EXTRA}), or reinstall dicecam"
    if not path.is_file():
        return Finding(area, Verdict.FAIL, f"missing: {path}", how)
    try:
        load(path)
    except Exception as exc:  # onnxruntime raises its own types for a broken file
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return Finding(area, Verdict.FAIL, f"{path} cannot be used ({first_line[:200]})",
                       f"if a training is still writing it, wait for it to finish; else {how}")
    return Finding(area, Verdict.OK, f"{path} loads and reads "
                   f"({path.stat().st_size / 1024:.0f} KB)")


def check_models() -> list[Finding]:
    return [check_model("die detector", MODEL_PATH, "dicecam train detector", load_detector),
            check_model("die reader", DEFAULT_MODEL, "dicecam train reader", load_reader)]


# --- calibration -----------------------------------------------------------------------------


def check_profiles() -> list[Finding]:
    findings = []
    good = []
    for name in builtin_profile_names():
        try:
            load_builtin_profile(name)
            good.append(name)
        except InputError as exc:
            findings.append(Finding("colour profiles", Verdict.FAIL, str(exc),
                                    "reinstall dicecam (a built-in profile is damaged)"))
    fitted = _load_saved(
        profiles_dir(), load_profile_file, "colour profiles", findings,
        lambda path: f"fit it again with `dicecam calibrate colours --set {path.stem} "
                     f"--source camera:0`, or move {path} away to use the built-in profile")
    here = f"; fitted at this table: {', '.join(fitted)}" if fitted else (
        "; none fitted at this table yet (optional: `dicecam calibrate colours`)")
    findings.insert(0, Finding("colour profiles", Verdict.OK,
                               f"built-in: {', '.join(good) or 'none'}{here}"))
    return findings


def _load_saved(folder, load, area: str, findings: list[Finding], fix) -> list[str]:
    """Load every saved ``*.json`` in ``folder``; a file that does not load becomes a FAIL
    finding (with ``fix(path)``); returns the names that loaded."""

    loaded = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            load(path)
            loaded.append(path.stem)
        except InputError as exc:
            findings.append(Finding(area, Verdict.FAIL, str(exc), fix(path)))
    return loaded


def check_zone_maps() -> list[Finding]:
    findings = []
    for name in board_names():
        try:
            load_board(name)
        except InputError as exc:
            findings.append(Finding("zone maps", Verdict.FAIL, str(exc),
                                    "reinstall dicecam (a built-in board layout is damaged)"))
    good = _load_saved(
        zones_dir(), load_zone_map, "zone maps", findings,
        lambda path: f"make it again with `dicecam calibrate zones --name {path.stem} ...` "
                     f"(see docs/calibration.md), or move {path} away")
    findings.insert(0, Finding("zone maps", Verdict.OK, (
        f"saved: {', '.join(good)}" if good else "none saved (optional: without one, a tap "
        "says where dice lie; `dicecam calibrate zones` makes one)")))
    return findings


# --- database --------------------------------------------------------------------------------


def check_database(path: Path, *, explicit: bool) -> list[Finding]:
    area = "database"
    if not path.exists():
        if path.parent.is_dir() or not explicit:
            return [Finding(area, Verdict.OK, f"no games stored yet; dicecam serve will make "
                            f"{path}")]
        return [Finding(area, Verdict.FAIL, f"the folder {path.parent} does not exist",
                        "create it, or give dicecam serve --db a path in an existing folder")]
    broken = f"move it away (mv {path} {path}.broken): dicecam serve then starts a fresh one"
    try:
        store = GameStore(path, read_only=True)
    except InputError as exc:
        return [Finding(area, Verdict.FAIL, str(exc), broken)]
    try:
        verdict = store.quick_check()
        if verdict != "ok":
            return [Finding(area, Verdict.FAIL, f"{path} is damaged ({verdict})", broken)]
        games = store.list_games(limit=1_000_000)
        logs = {g.id: store.log(g.id) for g in games}
        stuck = [f"{g.id} ({g.game})" for g in games if not _replays(store, g)]
    except sqlite3.DatabaseError as exc:
        return [Finding(area, Verdict.FAIL, f"{path} is damaged or not a dicecam database "
                        f"({exc})", broken)]
    finally:
        store.close()
    findings = [Finding(area, Verdict.OK, f"{path}: {len(games)} games, "
                        f"{sum(map(len, logs.values()))} log entries, integrity ok")]
    if stuck:
        findings.append(Finding(area, Verdict.WARN,
                                f"games that no longer replay with these rules: "
                                f"{', '.join(stuck)}; they stay stored but cannot be resumed",
                                "nothing to do for new games; keep this dicecam version to "
                                "finish those"))
    # SQLite writes the file and, beside it, its journal: both must be writable
    if not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)):
        findings.append(Finding(area, Verdict.FAIL, f"dicecam serve cannot write to "
                                f"{path.parent}", "give yourself write access to it, or "
                                "give dicecam serve --db a path elsewhere"))
    return findings


def _replays(store: Any, record: Any) -> bool:
    try:
        replay(record.game, record.config, [e.action for e in store.effective_actions(record.id)])
    except (InputError, ValueError, KeyError, TypeError):
        return False
    return True


# --- the tournament hub ----------------------------------------------------------------------


def check_hub(url: str, key: TableKey, db: str | Path) -> list[Finding]:
    area = "hub"
    findings = []
    path = f"/api/tables/{key.table_id}"
    try:
        request = urllib.request.Request(f"{url.rstrip('/')}{path}",
                                         headers=sign(key, "GET", path))
        with urllib.request.urlopen(request, timeout=5) as response:
            seat = json.loads(response.read())
        findings.append(Finding(area, Verdict.OK, f"{url} knows table {seat['number']} "
                                f"({', '.join(seat['group']) or 'no group yet'})"))
    except urllib.error.HTTPError as exc:
        reason = exc.reason
        try:
            reason = json.loads(exc.read()).get("error", reason)
        except ValueError:
            pass
        findings.append(Finding(area, Verdict.FAIL, f"{url} answered {exc.code}: {reason}",
                                "use the key `dicecam hub init` printed for this table"))
    except (OSError, ValueError, KeyError) as exc:
        findings.append(Finding(area, Verdict.WARN, f"{url} does not answer ({exc})",
                                "start `dicecam hub` there, or check the address; results "
                                "wait in this table's journal until it answers"))
    if is_postgres_url(db) or Path(db).exists():
        outbox = open_outbox(db)
        try:
            counts, refused = outbox.counts(), outbox.refusals()
        finally:
            outbox.close()
        verdict = Verdict.WARN if refused else Verdict.OK
        findings.append(Finding(area, verdict, f"outbox: {counts['delivered']} results "
                                f"delivered, {counts['waiting']} waiting, "
                                f"{counts['refused']} refused" +
                                (f" (latest: {refused[0]})" if refused else ""),
                                "tell the hub's referee: the refused results are kept here"
                                if refused else ""))
    return findings


# --- the command -------------------------------------------------------------------------------


def diagnose(args: argparse.Namespace) -> list[Finding]:
    if is_postgres_url(args.db):
        database = check_postgres_journal(args.db)
        db: str | Path = args.db
    else:
        db = Path(args.db).expanduser() if args.db else games_db_path()
        database = check_database(db, explicit=args.db is not None)
    key = hub_table_key(args.hub, args.table_key_file, args.table_key)
    hub = check_hub(args.hub, key, db) if key is not None else []
    return [check_camera(args.camera, args.stream), *check_models(), *check_profiles(),
            *check_zone_maps(), *database, *hub]


def check_postgres_journal(url: str) -> list[Finding]:
    try:
        store = open_journal(url)
    except InputError as exc:
        return [Finding("database", Verdict.FAIL, str(exc), "check the URL, and that the "
                        "postgresql service runs")]
    try:
        games = store.list_games(limit=1_000_000)
        stuck = [f"{g.id} ({g.game})" for g in games if not _replays(store, g)]
    finally:
        store.close()
    findings = [Finding("database", Verdict.OK, f"{store.path}: {len(games)} games "
                        "(PostgreSQL)")]
    if stuck:
        findings.append(Finding("database", Verdict.WARN, "games that no longer replay with "
                                f"these rules: {', '.join(stuck)}"))
    return findings


def render(findings: list[Finding]) -> list[str]:
    lines = []
    for f in findings:
        lines.append(f"{f.verdict.value:<5} {f.area}: {f.what}")
        if f.fix:
            lines.append(f"      fix: {f.fix}")
    failed = sum(f.verdict is Verdict.FAIL for f in findings)
    warned = sum(f.verdict is Verdict.WARN for f in findings)
    if failed:
        lines.append(f"{failed} problem(s) to fix" + (f", {warned} warning(s)" if warned else ""))
    else:
        lines.append("dicecam has what it needs" + (f" ({warned} warning(s))" if warned else ""))
    return lines


def run(args: argparse.Namespace) -> int:
    if args.camera is not None and args.camera < 0:

        raise InputError(f"--camera must be 0 or more, got {args.camera}")
    findings = diagnose(args)
    for line in render(findings):
        print(line, flush=True)
    return 1 if any(f.verdict is Verdict.FAIL for f in findings) else 0
