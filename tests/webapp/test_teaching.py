"""The table learns its dice from play: what the players say on the tablet is kept in the
table's store (a tap, *Dice are right*, *a die here*, *not a die*; nothing from a roll
nobody looked at), the learner runs beside the live view, and the camera reads with a
version the table now uses; a learner that crashes or is killed costs nothing."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from dicecam.reading import DieReading, FrameReading, SettledRoll
from dicecam.teach.store import TableStore
from dicecam.vision.config import PipelineConfig
from dicecam.vision.detect.side_faces import SideFaceZone
from dicecam.vision.pipeline import PipelineOutput
from dicecam.vision.read.die_reader import TRAINED_MODEL
from dicecam.webapp import events
from dicecam.webapp.api.app import create_app, services
from dicecam.webapp.camera.source import Camera, TableCamera
from tests.support.drawn_dice import drawn_photo
from tests.support.tablets import PIN, paired_client
from tests.support.waiting import WAIT_SECONDS, wait_until

TABLE = "kitchen"
CHARIDICE_COLOURS = ["red", "blue", "green", "purple", "black", "grey"]


@dataclass(frozen=True)
class Output:
    frame_bgr: np.ndarray
    reading: FrameReading
    settled: SettledRoll | None = None


class TeachingCamera(Camera):
    """A camera at table ``TABLE`` whose rolls the test throws (``throw``); it records the
    readers it is told to read with."""

    table = TABLE

    def __init__(self) -> None:
        self.rolls: queue.Queue[tuple[np.ndarray, SettledRoll]] = queue.Queue()
        self.readers: list[Path | None] = []
        self.detectors: list[Path | None] = []
        self.opened = 0
        self.frames = 0

    def throw(self, frame: np.ndarray, roll: SettledRoll) -> None:
        self.rolls.put((frame, roll))

    def open(self, game: str | None) -> Iterator[Output]:
        self.opened += 1
        opening = self.opened
        frame = np.zeros((480, 640, 3), np.uint8)
        reading = FrameReading(640, 480)
        while True:
            if opening != self.opened:  # a game switch opened the camera again: this
                return  # opening is left, and must not take the next throw
            try:
                frame, roll = self.rolls.get(timeout=0.02)
            except queue.Empty:
                self.frames += 1
                yield Output(frame, reading)
                continue
            reading = FrameReading(roll.width, roll.height, roll.dice)
            yield Output(frame, reading, roll)

    def use_models(self, reader: Path | None, detector: Path | None) -> bool:
        self.readers.append(reader)
        self.detectors.append(detector)
        return True


def read_as(labels: list[tuple], *, unsure: tuple[int, ...] = (), wrong: tuple[int, ...] = (),
            colours: list[str] | None = None) -> tuple[DieReading, ...]:
    """The dice of a drawn photo as a reader read them: ``unsure`` ones asked, ``wrong``
    ones read one pip off (surely)."""
    dice = []
    for i, (value, cx, cy, w, h) in enumerate(labels):
        read = value % 6 + 1 if i in wrong else value
        sure = 0.5 if i in unsure else 0.97
        dice.append(DieReading(cx, cy, w, h, read, colours[i] if colours else "red", sure,
                               value_confidence=sure))
    return tuple(dice)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Any, TeachingCamera, Any]]:
    camera = TeachingCamera()
    app = create_app({"DB_PATH": str(tmp_path / "g.sqlite"), "PAIRING_PIN": PIN,
                      "OUTPUTS": camera, "FRAME_FPS": 0, "TEACH_EVERY": 24,
                      "TEACH_STEPS": 10})
    services(app).start_reader()
    client = paired_client(app)
    try:
        yield app, camera, client
    finally:
        services(app).close()


def throw(app: Any, camera: TeachingCamera, roll_id: int, seed: int, **read: Any
          ) -> tuple[list[tuple], dict[str, Any]]:
    """A drawn photo of six marbled red dice settles; its labels and the roll's payload."""
    frame, labels = drawn_photo(np.random.default_rng(seed))
    camera.throw(frame, SettledRoll(roll_id, 640, 480, read_as(labels, **read)))
    session = services(app).session
    wait_until(lambda: (r := session.roll_payload()) is not None and r["roll_id"] == roll_id,
               message=f"roll {roll_id} never settled")
    roll = session.roll_payload()
    assert roll is not None
    return labels, roll


def start_charidice(app: Any, camera: TeachingCamera, client: Any) -> None:
    """A new game: the live view opens the camera again for another game than the one
    played (a throw waits for that)."""
    opened = camera.opened
    switch = services(app).session.game_name != "charidice"
    ask(client, events.NEW_GAME, {"game": "charidice", "config": {"players": ["Ann", "Bo"]}})
    if not switch:
        return
    wait_until(lambda: camera.opened > opened, message="the camera was not opened again")
    frames = camera.frames
    wait_until(lambda: camera.frames > frames + 2, message="the new opening sends nothing")


def ask(client: Any, event: str, payload: dict[str, Any]) -> dict[str, Any]:
    ack = client.emit(event, payload, callback=True)
    assert ack["ok"], ack
    return ack


def teach_events(client: Any) -> list[dict[str, Any]]:
    return [e["args"][0] for e in client.get_received() if e["name"] == events.TEACH]


def test_taps_teach_the_die_tapped_as_confirmed_or_corrected(table: Any) -> None:
    app, camera, client = table
    labels, roll = throw(app, camera, 1, seed=1, unsure=(0, 1), wrong=(1,))
    client.get_received()
    ask(client, events.CORRECT_DIE, {"roll_id": 1, "index": 0, "value": labels[0][0],
                                     "colour": "red"})
    ask(client, events.CORRECT_DIE, {"roll_id": 1, "index": 1, "value": labels[1][0],
                                     "colour": "red"})
    dice = TableStore(TABLE).dice()
    assert [d.how for d in dice] == ["confirmed", "corrected"]
    assert [d.value for d in dice] == [labels[0][0], labels[1][0]]
    assert dice[1].reader_value == labels[1][0] % 6 + 1  # what the reader had read
    assert dice[0].reader_confidence == 0.5 and dice[0].reader_version is None
    assert dice[0].box == pytest.approx(labels[0][1:], abs=0.01)
    crop = dice[0].crop_file
    assert crop.is_file()
    status = teach_events(client)[-1]
    assert status["taught"] == 2 and status["table"] == TABLE
    assert status["asked_shipped"] == 1.0 and not status["learning"]


def test_a_die_corrected_again_is_taught_as_said_last(table: Any) -> None:
    app, camera, client = table
    labels, _ = throw(app, camera, 1, seed=3, unsure=(0,))
    right = labels[0][0]
    for value in (right, right % 6 + 1, right):  # a slip of the finger, put right
        ask(client, events.CORRECT_DIE, {"roll_id": 1, "index": 0, "value": value,
                                         "colour": "red"})
    dice = TableStore(TABLE).dice()
    assert [(d.value, d.how) for d in dice] == [(right, "confirmed")]
    assert TableStore(TABLE).counts()["dice"] == 1


def test_dice_are_right_teaches_every_die_once(table: Any) -> None:
    app, camera, client = table
    labels, _ = throw(app, camera, 1, seed=2, unsure=(3,))
    ask(client, events.CORRECT_DIE, {"roll_id": 1, "index": 3, "value": labels[3][0],
                                     "colour": "red"})
    ask(client, events.CONFIRM_ROLL, {"roll_id": 1})
    ask(client, events.CONFIRM_ROLL, {"roll_id": 1})  # a double tap teaches nothing more
    dice = TableStore(TABLE).dice()
    assert len(dice) == 6 and all(d.how == "confirmed" for d in dice)
    assert sorted(d.value for d in dice) == sorted(label[0] for label in labels)
    # the roll accepted as a whole: its picture with every die's box, for the detector
    (frame,) = TableStore(TABLE).frames()
    assert frame.complete and len(frame.dice) == 6 and frame.not_dice == ()
    assert frame.read().shape == (480, 640, 3)
    assert TableStore(TABLE).status()["asked_shipped"] == pytest.approx(1 / 6, abs=1e-3)


def test_a_die_here_joins_the_roll_and_is_taught_as_added(table: Any) -> None:
    app, camera, client = table
    labels, roll = throw(app, camera, 1, seed=3)
    missed = labels[-1]
    frame, _ = drawn_photo(np.random.default_rng(3))
    camera.throw(frame, SettledRoll(2, 640, 480, read_as(labels)[:-1]))
    wait_until(lambda: services(app).session.roll_payload()["roll_id"] == 2)
    ack = ask(client, events.ADD_DIE, {"roll_id": 2, "x": missed[1], "y": missed[2],
                                       "value": missed[0], "colour": "red"})
    roll = services(app).session.roll_payload()
    assert ack["index"] == 5 and len(roll["dice"]) == 6
    added = roll["dice"][5]
    assert added["value"] == missed[0] and added["corrected"] and not added["needs_check"]
    sides = sorted(d["w"] for d in roll["dice"][:5])
    assert added["w"] == pytest.approx(sides[2])  # as large as the roll's other dice
    (taught,) = TableStore(TABLE).dice()
    assert taught.how == "added" and taught.value == missed[0]
    assert taught.reader_value is None and taught.reader_confidence is None
    refused = client.emit(events.ADD_DIE, {"roll_id": 2, "x": 5000, "y": 10, "value": 3},
                          callback=True)
    assert not refused["ok"] and "picture" in refused["error"]


def test_not_a_die_leaves_the_roll_and_teaches_no_die(table: Any) -> None:
    app, camera, client = table
    labels, _ = throw(app, camera, 1, seed=4, unsure=(2,))
    ask(client, events.CORRECT_DIE, {"roll_id": 1, "index": 2, "value": None,
                                     "colour": None})
    assert len(services(app).session.roll_payload()["dice"]) == 5
    (taught,) = TableStore(TABLE).dice()
    assert taught.how == "not_a_die" and taught.value == 0
    assert taught.reader_value == labels[2][0]
    assert TableStore(TABLE).status()["taught"] == 0  # a box that is no die is no die taught
    assert TableStore(TABLE).frames() == []  # the roll is not accepted as a whole yet
    ask(client, events.CONFIRM_ROLL, {"roll_id": 1})
    (frame,) = TableStore(TABLE).frames()
    assert len(frame.dice) == 5 and frame.not_dice == (pytest.approx(labels[2][1:], abs=0.01),)


def test_a_roll_scored_without_a_tap_teaches_nothing_one_tapped_teaches_all(
        table: Any) -> None:
    app, camera, client = table
    start_charidice(app, camera, client)
    _, roll = throw(app, camera, 1, seed=5, colours=CHARIDICE_COLOURS)
    assert roll["status"] == "applied"  # every die sure: scored as read, nobody looked
    assert TableStore(TABLE).dice() == []
    start_charidice(app, camera, client)
    labels, roll = throw(app, camera, 2, seed=6, unsure=(4,), colours=CHARIDICE_COLOURS)
    assert roll["status"] == "pending"
    ask(client, events.CORRECT_DIE, {"roll_id": 2, "index": 4, "value": labels[4][0],
                                     "colour": CHARIDICE_COLOURS[4]})
    assert services(app).session.roll_payload()["status"] == "applied"
    dice = TableStore(TABLE).dice()  # the tapped die and the five the players saw scored
    assert len(dice) == 6 and [d.colour for d in dice].count("purple") == 1


def test_dice_typed_in_teach_nothing(table: Any) -> None:
    app, camera, client = table
    ask(client, events.NEW_GAME, {"game": "charidice", "config": {"players": ["Ann", "Bo"]}})
    ask(client, events.ENTER_ROLL, {"dice": [{"value": v, "colour": c} for v, c in
                                             zip(range(1, 7), CHARIDICE_COLOURS, strict=True)]})
    assert TableStore(TABLE).dice() == []


def test_the_teaching_layout_teaches_every_die_by_its_row_and_asks_the_odd_one(
        table: Any) -> None:
    app, camera, client = table
    start_charidice(app, camera, client)  # a game waits for dice: the layout is no throw
    dice = [DieReading(100.0 + 70 * c, 60.0 + 70 * r, 40.0, 40.0, r + 1, "red", 0.5,
                       value_confidence=0.5) for r in range(6) for c in range(3)]
    dice[4] = DieReading(170.0, 152.0, 40.0, 40.0, 2, "red", 0.5)  # between rows 2 and 3
    frame = np.full((480, 640, 3), 90, np.uint8)
    camera.throw(frame, SettledRoll(1, 640, 480, tuple(dice)))
    wait_until(lambda: (r := services(app).session.roll_payload()) is not None
               and r["roll_id"] == 1)
    reply = ask(client, events.TEACH_LAYOUT, {"roll_id": 1})
    assert (reply["rows"], reply["taught"], reply["asked"]) == (6, 17, 1)
    roll = services(app).session.roll_payload()
    assert roll["layout"] and roll["status"] == "shown"
    assert [d["value"] for d in roll["dice"]][:6] == [1, 1, 1, 2, None, 2]
    assert [d["needs_check"] for d in roll["dice"]].count(True) == 1
    store = TableStore(TABLE)
    assert len(store.dice()) == 17 and {d.how for d in store.dice()} == {"confirmed"}
    # the asked die: one tap; the layout stays shown, the game's throw is still to come
    ask(client, events.CORRECT_DIE, {"roll_id": 1, "index": 4, "value": 2, "colour": "red"})
    assert services(app).session.roll_payload()["status"] == "shown"
    assert len(store.dice()) == 18 and store.dice()[-1].how == "confirmed"
    assert services(app).session.view()["actions"] == 0
    # five rows are no layout: nothing is taught
    camera.throw(frame, SettledRoll(2, 640, 480, tuple(dice[:15])))
    wait_until(lambda: services(app).session.roll_payload()["roll_id"] == 2)
    reply = ask(client, events.TEACH_LAYOUT, {"roll_id": 2})
    assert (reply["rows"], reply["taught"]) == (5, 0) and len(store.dice()) == 18


def teach_rolls(app: Any, camera: TeachingCamera, client: Any, rolls: range) -> None:
    for roll_id in rolls:
        labels, _ = throw(app, camera, roll_id, seed=100 + roll_id, unsure=(0, 3))
        for index in (0, 3):
            ask(client, events.CORRECT_DIE, {"roll_id": roll_id, "index": index,
                                             "value": labels[index][0], "colour": "red"})
        ask(client, events.CONFIRM_ROLL, {"roll_id": roll_id})


def test_the_table_learns_beside_the_live_view_and_reads_with_what_it_learnt(
        table: Any) -> None:
    app, camera, client = table
    teacher = services(app).teacher
    # 48 dice: the first learning run starts, two rolls of them held back to judge it
    teach_rolls(app, camera, client, range(1, 9))
    wait_until(lambda: teacher.learner.last is not None, timeout=2 * WAIT_SECONDS,
               message="the learning run never ended")
    outcome = teacher.learner.last
    assert outcome["used"], outcome
    wait_until(lambda: camera.readers, message="the camera was not told")
    in_use = TableStore(TABLE).reader_in_use()
    assert in_use is not None and camera.readers == [in_use]
    assert camera.opened == 1  # the live view was never reopened
    seen: list[dict[str, Any]] = []

    def told() -> dict[str, Any] | None:  # the tablets hear of it after the camera
        seen.extend(teach_events(client))
        return next((s for s in reversed(seen) if s["version"] == "reader-v1"), None)

    status = wait_until(told, message="the tablets were not told of the new reader")
    assert status["reading_with"] == "reader-v1"
    assert not status["learning"] and status["taught"] == 48
    # the next roll is read by the learnt version, and its dice say so
    teach_rolls(app, camera, client, range(9, 10))
    assert TableStore(TABLE).dice()[-1].reader_version == "reader-v1"


def test_a_learner_killed_mid_run_costs_nothing(table: Any) -> None:
    app, camera, client = table
    teacher = services(app).teacher
    teacher.learner.steps = 100000  # a run that would go on for ever
    teach_rolls(app, camera, client, range(1, 9))
    wait_until(lambda: teacher.learner.learning, message="no learning run started")
    frames = camera.frames
    wait_until(lambda: camera.frames > frames + 5,
               message="the live view waited for the learning")
    teacher.learner._child.kill()  # noqa: SLF001 - what an out-of-memory kill does
    wait_until(lambda: teacher.learner.last is not None, message="the kill was not seen")
    assert "failed" in teacher.learner.last
    status = teach_events(client)[-1]
    assert status["failed"] and not status["learning"] and status["version"] is None
    assert camera.readers == [] and TableStore(TABLE).reader_in_use() is None
    assert len(TableStore(TABLE).dice()) == 48  # every die taught is kept
    frames = camera.frames
    wait_until(lambda: camera.frames > frames + 5, message="the live view stopped")
    teach_rolls(app, camera, client, range(9, 10))  # and play teaches on
    assert len(TableStore(TABLE).dice()) == 54


def test_a_reader_that_cannot_be_loaded_leaves_the_last_good_one(table: Any) -> None:
    app, camera, client = table
    teacher = services(app).teacher
    store = TableStore(TABLE)
    store.save_reader(b"not an onnx file", {}, use=True)

    def refuse(reader: Path | None, detector: Path | None) -> bool:
        raise RuntimeError("cannot load")

    teacher._use_models = refuse  # noqa: SLF001 - the camera's loading fails
    teacher._learnt({"version": "reader-v1", "used": True})  # noqa: SLF001
    assert teacher.version is None  # still the shipped reader
    assert teach_events(client)[-1]["reading_with"] is None


def test_a_learning_that_finds_side_faces_hands_them_to_the_camera(table: Any) -> None:
    app, camera, client = table
    teacher = services(app).teacher
    assert teacher.side_faces is None and not teach_events(client)[-1]["side_faces"]
    # the learning found a zone and no new versions: the camera still takes it
    TableStore(TABLE).save_side_faces(SideFaceZone(1.57, 0.6, 0.5, 0.9), {})
    taken = len(camera.readers)
    teacher._learnt({"version": None, "used": False})  # noqa: SLF001
    assert len(camera.readers) == taken + 1
    assert teacher.side_faces == TableStore(TABLE).side_faces()
    assert teach_events(client)[-1]["side_faces"]


def test_what_the_table_asks_is_counted_over_every_die_it_read(table: Any) -> None:
    """Issue 59, item 5: "asks 20% of dice" was the share of the dice the players looked at;
    a family saw 2 asked in 70. The figure is counted over every die of every settled roll,
    per reader version, and a learning that was not used is said."""
    app, camera, client = table
    start_charidice(app, camera, client)
    throw(app, camera, 1, seed=3, unsure=(2,))  # six dice read, one asked
    throw(app, camera, 2, seed=4)  # six read, none asked
    status = wait_until(lambda: (e := teach_events(client)) and e[-1]["read_shipped"] == [
        12, 1] and e[-1], message="the dice read were not counted")
    assert status["table"] == TABLE and status["read_now"] is None
    assert TableStore(TABLE).reads() == {"shipped": [12, 1]}
    teacher = services(app).teacher
    teacher._learnt({"version": "reader-v1", "used": False,  # noqa: SLF001
                     "worse_on": ["asked"], "detector": {"used": False}})
    assert teach_events(client)[-1]["last_run"] == {
        "version": "reader-v1", "used": False, "reader_used": False,
        "reader_worse_on": ["asked"], "detector_used": False, "detector_worse_on": []}
    teacher._learnt({"version": "reader-v2", "used": False,  # noqa: SLF001
                     "detector": {"used": True}})
    assert teach_events(client)[-1]["last_run"]["used"]
    TableStore(TABLE).forget()
    assert TableStore(TABLE).reads() == {}


# -- the real camera: the table's reader, and a new one taken while it runs ---------------


class FakePipeline:
    def __init__(self, config: PipelineConfig) -> None:
        self.config = config
        self.reader_path = config.taught_reader_path
        self.side_faces = config.side_faces
        self.read_values = None
        self.detect = None
        self.settle = SimpleNamespace(waiting=False)

    def process(self, frame: np.ndarray, timestamp: float | None = None) -> PipelineOutput:
        return PipelineOutput(frame, FrameReading(frame.shape[1], frame.shape[0]), None,
                              changed=True)


def _fake_table_camera(table: str | None = None) -> tuple[TableCamera, list[FakePipeline]]:
    """A table camera on blank frames whose every opening makes a ``FakePipeline``, and
    the list of those made."""
    made: list[FakePipeline] = []

    def pipeline(config: PipelineConfig) -> FakePipeline:
        made.append(FakePipeline(config))
        return made[-1]

    def frames(source: str, dice_set: str, on_error: Any, **_: Any) -> Iterator[np.ndarray]:
        while True:
            yield np.zeros((48, 64, 3), np.uint8)

    return TableCamera("frames", frames=frames, pipeline=pipeline, table=table,
                       realtime=False), made


def test_a_table_camera_reads_with_the_tables_reader_and_takes_a_new_one_running(
        tmp_path: Path) -> None:
    store = TableStore(TABLE)
    store.save_reader(TRAINED_MODEL.read_bytes(), {}, use=True)
    below = SideFaceZone(1.57, 0.6, 0.5, 0.9)
    store.save_side_faces(below, {})
    camera, made = _fake_table_camera(TABLE)
    assert not camera.use_models(None, None)  # nothing runs yet
    outputs = camera.open(None)
    next(outputs)
    assert made[0].reader_path == store.reader_in_use()
    assert made[0].side_faces == store.side_faces() is not None  # its side-face zone too
    store.save_side_faces(None, {})  # a later learning found none
    assert camera.use_models(None, None)  # the shipped models, from the next frame on
    assert made[0].read_values.__self__.model_path.name.startswith("die_reader")
    assert made[0].detect is not None and made[0].side_faces is None
    next(outputs)
    assert len(made) == 1  # not reopened
    outputs.close()


def test_a_table_camera_tells_its_reader_how_many_dice_the_game_waits_for() -> None:
    camera, made = _fake_table_camera()
    outputs = camera.open(None)
    next(outputs)
    assert made[0].expected_dice is None  # nobody said yet

    def due() -> int:
        return 54

    assert camera.expect_dice(due)
    assert made[0].expected_dice is due  # the reader running takes it at once
    outputs.close()
    outputs = camera.open(None)
    next(outputs)
    assert made[1].expected_dice is due  # and every reader opened after
    outputs.close()

