"""The table's colours fitted from the first roll the players confirm."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from dicecam.calibration.profile import load_builtin_profile, load_profile, profiles_dir
from dicecam.reading import DieReading, SettledRoll
from dicecam.scorer.registry import get_game
from dicecam.synth.scene import SceneSpec, render_scene
from dicecam.vision.sources.frames import CameraFault
from dicecam.webapp import events
from dicecam.webapp.api.app import create_app, services
from dicecam.webapp.camera.source import TableCamera
from dicecam.webapp.journal.sqlite import GameStore
from dicecam.webapp.session.game_session import GameSession
from dicecam.webapp.session.profile_from_play import (
    KEEP_PICTURES,
    ProfileFromPlay,
    shows_every_colour,
)
from dicecam.webapp.session.tablet_commands import ConfirmRoll, NewGame
from dicecam.webapp.session.views import CurrentRoll, RollStatus


def _table(seed: int = 5) -> tuple[np.ndarray, tuple[DieReading, ...]]:
    """A drawn Dice Party table with its dice as read (the drawing's own colours)."""
    rng = np.random.default_rng(seed)
    scene = render_scene(rng, SceneSpec(width=640, height=400, n_dice=24, die_px=(40, 44),
                                        dice_set="diceparty", cluster_share=0.0,
                                        max_tilt=0.0, distractors=0, hand_probability=0.0))
    dice = tuple(DieReading(d.cx, d.cy, d.w, d.h, d.value, d.colour, 0.95)
                 for d in scene.visible_dice)
    return scene.image_bgr, dice


def _roll(roll_id: int, dice: tuple[DieReading, ...]) -> CurrentRoll:
    return CurrentRoll(roll_id, 640, 400, dice, RollStatus.APPLIED, 0.0)


def test_a_confirmed_roll_showing_every_colour_fits_and_saves_the_sets_profile() -> None:
    frame, dice = _table()
    assert shows_every_colour([d.colour for d in dice], ("yellow", "orange", "red"))
    used = []
    learner = ProfileFromPlay(used.append)
    learner.remember(7, frame)
    profile = learner.confirmed(1, "diceparty", _roll(7, dice))
    assert profile is not None and profile.fitted and profile.name == "diceparty"
    assert used == [profile]
    assert (profiles_dir() / "diceparty.json").is_file()
    assert load_profile("diceparty").fitted  # the saved one now comes before the built-in
    assert not load_builtin_profile("diceparty").fitted


def test_only_the_first_confirmed_roll_of_a_game_fits() -> None:
    frame, dice = _table()
    learner = ProfileFromPlay()
    learner.remember(1, frame)
    learner.remember(2, frame)
    assert learner.confirmed(1, "diceparty", _roll(1, dice)) is not None
    assert learner.confirmed(1, "diceparty", _roll(2, dice)) is None
    assert learner.confirmed(2, "diceparty", _roll(2, dice)) is not None  # a new game


def test_a_roll_without_its_picture_or_without_every_colour_teaches_nothing() -> None:
    frame, dice = _table()
    learner = ProfileFromPlay()
    assert learner.confirmed(1, "diceparty", _roll(3, dice)) is None  # typed in: no picture
    learner.remember(3, frame)
    reds = [i for i, d in enumerate(dice) if d.colour == "red"]
    two_red = tuple(d for i, d in enumerate(dice) if i not in reds[2:])
    assert learner.confirmed(1, "diceparty", _roll(3, two_red)) is None  # too few to fit
    assert not (profiles_dir() / "diceparty.json").exists()
    for roll_id in range(10, 10 + KEEP_PICTURES):  # later rolls push the old picture out
        learner.remember(roll_id, frame)
    assert learner.confirmed(1, "diceparty", _roll(3, dice)) is None
    assert learner.confirmed(1, "diceparty", _roll(10, dice)) is not None


def test_a_die_too_unlike_its_colour_is_no_crash_and_saves_nothing() -> None:
    frame, dice = _table()
    learner = ProfileFromPlay()
    learner.remember(4, np.zeros_like(frame))  # the lights went out
    assert learner.confirmed(1, "diceparty", _roll(4, dice)) is None
    assert not (profiles_dir() / "diceparty.json").exists()


def _session(tmp_path: Path) -> tuple[GameSession, list[Any]]:
    session = GameSession(GameStore(tmp_path / "games.sqlite"), lambda *_: None)
    told: list[Any] = []
    session.on_confirmed = lambda game_id, name, roll: told.append((name, roll.roll_id))
    return session, told


def test_the_session_tells_of_confirmed_rolls_only(tmp_path: Path) -> None:
    session, told = _session(tmp_path)
    session.new_game(NewGame("charidice", {"players": ["Ann", "Bo"]}))
    six = [(1, "red"), (2, "blue"), (3, "green"), (4, "purple"), (5, "black"), (6, "grey")]

    def settle(roll_id: int, confidence: float) -> CurrentRoll:
        dice = tuple(DieReading(60.0 + 70 * i, 80.0, 50.0, 50.0, v, c, confidence)
                     for i, (v, c) in enumerate(six))
        return session.settle(SettledRoll(roll_id, 640, 480, dice))

    assert settle(1, 0.99).status is RollStatus.APPLIED  # scored without asking
    assert told == []
    session.undo()
    pending = settle(2, 0.6)
    assert pending.status is RollStatus.PENDING
    session.confirm_roll(ConfirmRoll(pending.roll_id))
    assert told == [("charidice", pending.roll_id)]


def test_the_colours_are_learnt_after_the_roll_is_published_outside_the_lock(
        tmp_path: Path) -> None:
    published: list[tuple[str, Any]] = []
    session = GameSession(GameStore(tmp_path / "games.sqlite"),
                          lambda event, payload: published.append((event, payload)))
    seen: list[Any] = []

    def learn(game_id: int, dice_set: str, roll: CurrentRoll) -> None:
        # another thread (a tablet, the camera) gets the session now: the lock is free
        other = threading.Thread(target=session.view)
        other.start()
        other.join(5.0)
        rolls = [p for e, p in published if e == events.ROLL]
        seen.append((dice_set, not other.is_alive(), rolls[-1]["status"]))

    session.on_confirmed = learn
    session.new_game(NewGame("charidice", {"players": ["Ann", "Bo"]}))
    dice = tuple(DieReading(60.0 + 70 * i, 80.0, 50.0, 50.0, i + 1, c, 0.6) for i, c in
                 enumerate(["red", "blue", "green", "purple", "black", "grey"]))
    roll = session.settle(SettledRoll(1, 640, 480, dice))
    session.confirm_roll(ConfirmRoll(roll.roll_id))
    assert seen == [(get_game("charidice").dice_set, True, "applied")]


def test_a_fault_while_learning_loses_no_roll(tmp_path: Path) -> None:
    session, _ = _session(tmp_path)

    def broken(*_: Any) -> None:
        raise RuntimeError("disk gone")

    session.on_confirmed = broken
    session.new_game(NewGame("charidice", {"players": ["Ann", "Bo"]}))
    dice = tuple(DieReading(60.0 + 70 * i, 80.0, 50.0, 50.0, i + 1, c, 0.6) for i, c in
                 enumerate(["red", "blue", "green", "purple", "black", "grey"]))
    roll = session.settle(SettledRoll(1, 640, 480, dice))
    session.confirm_roll(ConfirmRoll(roll.roll_id))
    assert session.view()["roll"]["status"] == "applied"


class _Reader:
    read_colours = object()


@pytest.mark.parametrize("source,learns", [("demo", False), ("camera:0", True)])
def test_the_running_reader_takes_the_fitted_profile_and_only_a_camera_teaches(
        source: str, learns: bool) -> None:
    reader = _Reader()
    camera = TableCamera(source, frames=lambda *a, **k: iter(()),
                         pipeline=lambda config: reader)
    assert camera.learns_colours is learns
    profile = load_builtin_profile("diceparty")
    assert not camera.use_profile(profile)  # nothing reads yet
    with pytest.raises(CameraFault):  # an empty source ends
        list(camera.open("diceparty"))
    assert camera.use_profile(profile)
    assert callable(reader.read_colours)
    assert not camera.use_profile(load_builtin_profile("dicetopia"))  # another set


def test_at_a_camera_the_app_learns_the_colours_and_the_tablets_are_told() -> None:
    reader = _Reader()
    camera = TableCamera("camera:0", frames=lambda *a, **k: iter(()),
                         pipeline=lambda config: reader)
    app = create_app({"DB_PATH": ":memory:", "OUTPUTS": camera, "TESTING": True})
    try:
        live = services(app).reader
        told: list[Any] = []
        live._publish = lambda event, payload: told.append((event, payload))
        assert live.status_payload()["colours_fitted"] is None
        frame, dice = _table()
        live.profile_from_play.remember(9, frame)
        services(app).session.on_confirmed(1, "diceparty", _roll(9, dice))
        assert told[-1][0] == events.CAMERA
        assert told[-1][1]["colours_fitted"] == "diceparty"
    finally:
        services(app).close()


def test_the_demo_never_learns_colours() -> None:
    app = create_app({"DB_PATH": ":memory:", "TESTING": True,
                      "OUTPUTS": TableCamera("demo", frames=lambda *a, **k: iter(()),
                                             pipeline=lambda config: _Reader())})
    try:
        assert services(app).session.on_confirmed is None
        assert services(app).reader.profile_from_play is None
    finally:
        services(app).close()
