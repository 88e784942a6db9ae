"""The live reader on a file-backed frame source with injected readings, the page and its
assets over HTTP, and `dicecam serve`'s choices (source, addresses, bad options)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import cv2
import numpy as np
import pytest

from dicecam.reading import DieReading, FrameReading, SettledRoll
from dicecam.scorer.registry import game_names
from dicecam.webapp import events
from dicecam.webapp.api.app import create_app, services
from dicecam.webapp.camera.live import CameraStatus
from dicecam.webapp.camera.source import DEMO, choose_source
from tests.support.tablets import paired_client
from tests.support.waiting import wait_until

STATIC = Path(__file__).resolve().parents[2] / "dicecam" / "webapp" / "static"


@dataclass(frozen=True)
class Output:
    """What the pipeline yields per frame (duck-typed like PipelineOutput)."""

    frame_bgr: np.ndarray
    reading: FrameReading
    settled: SettledRoll | None = None


def write_frames(folder: Path, count: int) -> list[Path]:
    paths = []
    for i in range(count):
        image = np.full((240, 320, 3), 40 + 10 * i, np.uint8)
        cv2.rectangle(image, (100, 100), (140, 140), (255, 255, 255), -1)
        path = folder / f"frame{i:03d}.jpg"
        cv2.imwrite(str(path), image)
        paths.append(path)
    return paths


def die(value: int, colour: str, x: float = 120.0, confidence: float = 0.98) -> DieReading:
    return DieReading(x=x, y=120.0, w=40.0, h=40.0, value=value, colour=colour,
                      confidence=confidence)


def file_outputs(paths: list[Path], settle_at: dict[int, SettledRoll]) -> Iterator[Output]:
    """Frames read from files; the readings are injected (the vision is tested elsewhere)."""
    for index, path in enumerate(paths):
        frame = cv2.imread(str(path))
        assert frame is not None, path
        reading = FrameReading(width=frame.shape[1], height=frame.shape[0],
                               dice=(die(4, "white"),), frame_index=index)
        yield Output(frame, reading, settle_at.get(index))
        time.sleep(0.01)


def test_frames_and_settled_rolls_reach_the_tablet(tmp_path: Path) -> None:
    paths = write_frames(tmp_path, 12)
    roll = SettledRoll(roll_id=1, width=320, height=240, dice=(die(4, "white"),))
    opened: list[str | None] = []

    def outputs(game: str | None) -> Iterator[Output]:
        opened.append(game)
        return file_outputs(paths, {8: roll})

    # no frame rate limit: every frame goes out, however close together a busy machine
    # hands them over
    app = create_app({"DB_PATH": str(tmp_path / "g.sqlite"), "OUTPUTS": outputs,
                      "FRAME_FPS": float("inf")})
    client = paired_client(app)
    client.emit(events.NEW_GAME, {"game": "v6", "config": {"players": ["A", "B"],
                                                           "groups": [["A", "B"]]}},
                callback=True)
    client.emit(events.ACTION, {"type": "jokers", "jokers": []}, callback=True)
    client.get_received()
    reader = services(app).reader
    assert reader is not None
    services(app).start_reader()
    messages: list[dict[str, Any]] = []
    try:
        def ended() -> bool:
            messages.extend(client.get_received())
            return any(m["name"] == events.CAMERA and m["args"][0]["status"] == "ended"
                       for m in messages)
        wait_until(ended)
    finally:
        services(app).close()
    frames = [m["args"][0] for m in messages if m["name"] == events.FRAME]
    assert len(frames) == 12
    image = cv2.imdecode(np.frombuffer(frames[0]["jpeg"], np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (240, 320, 3)
    assert frames[0]["reading"]["dice"][0]["value"] == 4
    rolls = [m["args"][0] for m in messages if m["name"] == events.ROLL]
    assert [r["status"] for r in rolls] == ["applied"]
    states = [m["args"][0] for m in messages if m["name"] == events.STATE]
    assert states[-1]["state"]["round"]["total"] == 4
    assert opened == ["v6"]
    assert reader.settles_seen == 1


def test_a_failing_source_is_reported_and_retried_and_the_game_is_untouched(
        tmp_path: Path) -> None:
    attempts = []

    def outputs(game: str | None) -> Iterator[Output]:
        attempts.append(time.monotonic())
        raise OSError("camera unplugged")

    app = create_app({"DB_PATH": str(tmp_path / "g.sqlite"), "OUTPUTS": outputs})
    client = paired_client(app)
    client.emit(events.NEW_GAME, {"game": "charidice", "config": {"players": ["A", "B"]}},
                callback=True)
    before = services(app).session.view()
    services(app).start_reader()
    try:
        wait_until(lambda: len(attempts) >= 2)
        camera = [m["args"][0] for m in client.get_received() if m["name"] == events.CAMERA]
        lost = [c for c in camera if c["status"] == CameraStatus.LOST]
        assert len(lost) == 1, "a lasting fault is reported once, not on every retry"
        assert "camera unplugged" in lost[0]["message"]
        assert client.emit(events.SYNC, {}, callback=True) == {"ok": True}
        assert services(app).session.view()["state"] == before["state"]
    finally:
        services(app).close()


def test_switching_games_reopens_the_source_for_the_new_dice(tmp_path: Path) -> None:
    paths = write_frames(tmp_path, 3)
    opened: list[str | None] = []
    switched = threading.Event()

    def outputs(game: str | None) -> Iterator[Output]:
        opened.append(game)
        while not switched.is_set() or game != "v6":
            yield from file_outputs(paths, {})
            if game == "v6":
                return

    app = create_app({"DB_PATH": str(tmp_path / "g.sqlite"), "OUTPUTS": outputs})
    client = paired_client(app)
    services(app).start_reader()
    try:
        wait_until(lambda: opened == [None])
        client.emit(events.NEW_GAME, {"game": "v6", "config": {"players": ["A", "B"]}},
                    callback=True)
        switched.set()
        wait_until(lambda: opened[-1:] == ["v6"])
    finally:
        services(app).close()


# --- the page ----------------------------------------------------------------------------


def test_the_page_and_every_asset_come_from_the_app(tmp_path: Path) -> None:
    app = create_app({"DB_PATH": str(tmp_path / "g.sqlite")})
    try:
        http = app.test_client()
        page = http.get("/").get_data(as_text=True)
        assets = re.findall(r'(?:src|href)="([^"]+)"', page)
        assert assets, page
        for asset in assets:
            if asset.startswith("data:"):
                continue
            assert asset.startswith("/static/"), f"{asset} is not served by the app"
            response = http.get(asset)
            assert response.status_code == 200, asset
        for game in game_names():  # every game draws its state with its own script
            assert f"/static/{game}.js" in page
        assert (STATIC / "LICENSE.socket.io-client").read_text().startswith("The MIT License")
    finally:
        services(app).close()


@pytest.mark.parametrize(("accept", "lang"), [
    ("de-DE,de;q=0.9,en;q=0.5", "de"),
    ("en-GB,en;q=0.9", "en"),
    ("fr-FR,fr;q=0.9", "en"),
    ("fr,de;q=0.8,en;q=0.3", "de"),
])
def test_german_is_the_default_when_the_browser_prefers_it(tmp_path: Path, accept: str,
                                                            lang: str) -> None:
    app = create_app({"DB_PATH": str(tmp_path / "g.sqlite")})
    try:
        page = app.test_client().get("/", headers={"Accept-Language": accept}).get_data(
            as_text=True)
        assert f'<html lang="{lang}">' in page
    finally:
        services(app).close()


def test_only_the_chosen_game_is_offered(tmp_path: Path) -> None:
    app = create_app({"DB_PATH": str(tmp_path / "g.sqlite"), "GAMES": ["v6"]})
    try:
        client = paired_client(app)
        games = [m["args"][0] for m in client.get_received() if m["name"] == events.GAMES][0]
        assert [g["game"] for g in games["available"]] == ["v6"]
        ack = client.emit(events.NEW_GAME, {"game": "charidice",
                                            "config": {"players": ["A", "B"]}}, callback=True)
        assert not ack["ok"]
    finally:
        services(app).close()


# --- dicecam serve --------------------------------------------------------------------------


@pytest.mark.parametrize(("options", "camera", "expected"), [
    ({}, False, DEMO),
    ({}, True, "camera:0"),
    ({"demo": True}, True, DEMO),
    ({"camera": 2}, False, "camera:2"),
    ({"video": "table.mp4"}, True, "table.mp4"),
    ({"stream": "http://phone:8080/video"}, True, "http://phone:8080/video"),
])
def test_the_source_is_the_one_asked_for_else_a_webcam_else_the_demo(
        options: dict[str, Any], camera: bool, expected: str) -> None:
    assert choose_source(probe=lambda index: camera, **options) == expected


def test_the_addresses_include_one_for_tablets() -> None:
    from dicecam.commands.serve import addresses

    urls = addresses("0.0.0.0", 8765)
    assert urls[0] == "http://localhost:8765/"
    assert all(u.endswith(":8765/") for u in urls)
    assert addresses("127.0.0.1", 9000) == ["http://127.0.0.1:9000/"]


@pytest.mark.parametrize(("argv", "message"), [
    (["--game", "chess"], "unknown game 'chess'"),
    (["--port", "70000"], "--port must be 1 to 65535"),
    (["--no-camera", "--table", "kitchen"], "--table needs a camera"),
])
def test_serve_refuses_bad_options_in_one_line(tmp_path: Path, argv: list[str],
                                               message: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "dicecam", "serve", "--db", str(tmp_path / "g.sqlite"), *argv],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_camera_status_says_what_the_live_view_costs(monkeypatch: pytest.MonkeyPatch) -> None:
    from dicecam.webapp.camera import live

    sent: list[tuple[str, dict]] = []
    reader = live.LiveReader(None, lambda e, p: sent.append((e, p)), lambda game: [])  # type: ignore[arg-type]
    clock = {"wall": 100.0, "cpu": 7.0}  # the process's clocks, moved by the test
    monkeypatch.setattr(live, "time", SimpleNamespace(monotonic=lambda: clock["wall"],
                                                      process_time=lambda: clock["cpu"]))

    def after(wall: float, cpu: float) -> list[float]:
        clock["wall"] += wall
        clock["cpu"] += cpu
        reader._measure_cpu()
        return [payload["cpu"] for event, payload in sent if event == events.CAMERA]

    every = live.CPU_REPORT_SECONDS
    assert after(0.0, 0.0) == []  # the first mark
    assert after(every / 2, every / 2) == []  # too soon to say
    assert after(every / 2, 0.0) == [0.5]  # half a core over the period
    assert after(every, 0.504 * every) == [0.5]  # moved by less than a point: not told
    assert after(every, 1.25 * every) == [0.5, 1.25]  # two threads busy


def test_the_live_view_cost_is_this_process_cpu_time(monkeypatch: pytest.MonkeyPatch) -> None:
    from dicecam.webapp.camera import live

    sent: list[tuple[str, dict]] = []
    reader = live.LiveReader(None, lambda e, p: sent.append((e, p)), lambda game: [])  # type: ignore[arg-type]
    monkeypatch.setattr(live, "CPU_REPORT_SECONDS", 0.0)
    reader._measure_cpu()
    started = time.process_time()
    while time.process_time() - started < 0.1:  # a tenth of a second of this process's CPU,
        sum(range(1000))  # however long a busy machine takes to give it
    reader._measure_cpu()
    (event, payload), = sent
    assert event == events.CAMERA and 0 < payload["cpu"] <= (os.cpu_count() or 1)
