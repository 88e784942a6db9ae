"""What a table's learning costs the live view (``dicecam bench teach --live-cost``).

The live view must stay within 10% of its normal frame time while a table learns. Measured
as the live view meets it: a table is taught from one real source's photos (as ``bench
teach`` teaches it), then the table reader reads ``bench reader``'s 1080p frames of 60
dice back to back on one thread, before the learning, while it runs (started by the web
app's own ``BackgroundLearner``: a child process at ``nice`` 19 with one BLAS thread) and
after it. While it runs, the frames are read in turns of ``BLOCK_FRAMES``: one turn with
the learner going, the next with it held (``BackgroundLearner.pause``). The cost is the
median frame time of the turns it went against that of the turns it was held: a shared VM's
drift over the minute or two of learning moved the old figure (the learning against 40
frames before and 40 after) by 15 points between runs of the same code.
"""

from __future__ import annotations

import statistics
import threading
import time

import cv2

from dicecam.teach.background import BackgroundLearner
from dicecam.teach.labelled import LabelledBox, TaughtFromPhotos, teach_photo
from dicecam.teach.store import TableStore
from dicecam.tools.bench.speed.reader import synthetic_frames
from dicecam.vision.factory import build_pipeline

#: the live view's budget: frame time while learning at most this much above normal
BUDGET = 0.10
#: frames read in each quiet phase
QUIET_FRAMES = 40
#: frames a turn while the table learns: the learner goes through one turn, held the next
BLOCK_FRAMES = 10


def photo_labels(photo, width: int, height: int) -> list[LabelledBox]:
    """The boxes a player would confirm on a real photo (``LabelledPhoto``): its label lines
    as ``LabelledPhoto.boxes`` reads them, the errata, value fixes and added dice applied."""
    return [LabelledBox(*box) for box in photo.boxes(width, height)]


def teach_table(store: TableStore, photos, log=print) -> int:
    """Teach ``store`` the labelled ``photos``; returns the dice it holds."""
    shipped = build_pipeline(None)
    tally = TaughtFromPhotos()
    for photo in photos:
        frame = cv2.imread(str(photo.image), cv2.IMREAD_COLOR)
        if frame is None:
            continue
        height, width = frame.shape[:2]
        teach_photo(store, frame, photo_labels(photo, width, height),
                    shipped.read_frame, tally, roll=photo.image.name)
    log(f"taught {store.name}: {tally.to_json()}")
    return store.counts()["dice"]


def _read_times(pipeline, frames, until) -> list[float]:
    times = []
    index = 0
    while not until(len(times)):
        frame = frames[index % len(frames)]
        index += 1
        started = time.perf_counter()
        pipeline.read_frame(frame)
        times.append((time.perf_counter() - started) * 1000)
    return times


def live_cost(source: str, taught, steps: int | None = None, log=print) -> dict:
    """Teach a table ``bench-live-SOURCE`` (in the current ``DICECAM_HOME``) the labelled
    photos ``taught`` and measure the live view's frame time around its learning."""
    store = TableStore(f"bench-live-{source}")
    dice = teach_table(store, taught, log)
    frames = [image for image, _ in synthetic_frames(12)]
    pipeline = build_pipeline("diceparty", threads=1)
    pipeline.read_frame(frames[0])  # warm the sessions up
    before = _read_times(pipeline, frames, lambda n: n >= QUIET_FRAMES)
    finished = threading.Event()
    outcome: dict = {}

    def learnt(result: dict) -> None:
        outcome.update(result)
        finished.set()

    learner = BackgroundLearner(store.name, learnt, every=1, steps=steps)
    if not learner.taught():
        raise RuntimeError(f"the learner did not start ({dice} dice taught)")
    during, held = [], []
    learning_seconds = 0.0  # with the learner going: the run's own time
    while not finished.is_set():
        turn = time.monotonic()
        during += _read_times(pipeline, frames,
                              lambda n: n >= BLOCK_FRAMES or finished.is_set())
        learning_seconds += time.monotonic() - turn
        if finished.is_set() or not learner.pause():
            continue
        try:
            held += _read_times(pipeline, frames, lambda n: n >= BLOCK_FRAMES)
        finally:
            learner.resume()
    after = _read_times(pipeline, frames, lambda n: n >= QUIET_FRAMES)
    busy = statistics.median(during) if during else float("nan")
    # held turns compared with; without them (a learner that could not be held) the
    # phases before and after
    quiet = statistics.median(held) if held else statistics.median(before + after)
    figures = {
        "source": source, "dice_taught": dice, "learning_seconds": round(learning_seconds, 1),
        "learnt": {k: outcome.get(k) for k in ("version", "used", "failed") if k in outcome},
        "frames": {"before": len(before), "while_learning": len(during),
                   "while_held": len(held), "after": len(after)},
        "ms_median": {"before": round(statistics.median(before), 2),
                      "while_learning": round(busy, 2),
                      "while_held": round(statistics.median(held), 2) if held else None,
                      "after": round(statistics.median(after), 2)},
        "cost": round(busy / quiet - 1, 4), "budget": BUDGET,
    }
    log(f"live view while {store.name} learns ({learning_seconds:.0f} s of learning): "
        f"median {busy:.1f} ms a full read, {quiet:.1f} ms in the turns it was held: "
        f"{figures['cost']:+.1%} (budget +{BUDGET:.0%})")
    return figures
