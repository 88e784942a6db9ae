"""What a table's learning costs the live view (``dicecam bench teach --live-cost``).

The live view must stay within 10% of its normal frame time while a table learns. Measured
as the live view meets it: a table is taught from one real source's photos (as ``bench
teach`` teaches it), then the table reader reads ``bench reader``'s 1080p frames of 60
dice back to back on one thread, in three phases: before the learning, while the
learning runs (started by the web app's own ``BackgroundLearner``: a child process at
``nice`` 19 with one BLAS thread), and after it. The cost is the median frame time while
learning against the median of the two quiet phases (before and after, so that a drift of
the machine shows as their difference).
"""

from __future__ import annotations

import statistics
import threading
import time

import cv2

from dicecam.teach.background import BackgroundLearner
from dicecam.teach.labelled import LabelledBox, TaughtFromPhotos, teach_photo
from dicecam.teach.store import TableStore
from dicecam.tools.bench.reader import synthetic_frames
from dicecam.vision.pipeline import build_pipeline

#: the live view's budget: frame time while learning at most this much above normal
BUDGET = 0.10
#: frames read in each quiet phase
QUIET_FRAMES = 40


def photo_labels(photo, width: int, height: int) -> list[LabelledBox]:
    """The boxes a player would confirm on a real photo (``LabelledPhoto``): its label lines
    as ``LabelledPhoto.boxes`` reads them, the errata, value fixes and added dice applied."""
    return [LabelledBox(*box) for box in photo.boxes(width, height)]


def teach_table(store: TableStore, photos, log=print) -> int:
    """Teach ``store`` the labelled ``photos``; returns the dice it holds."""
    shipped = build_pipeline(None, auto_zoom=True)
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
    started = time.monotonic()
    if not learner.taught():
        raise RuntimeError(f"the learner did not start ({dice} dice taught)")
    during = _read_times(pipeline, frames, lambda _n: finished.is_set())
    learning_seconds = time.monotonic() - started
    after = _read_times(pipeline, frames, lambda n: n >= QUIET_FRAMES)
    quiet = statistics.median(before + after)
    busy = statistics.median(during)
    figures = {
        "source": source, "dice_taught": dice, "learning_seconds": round(learning_seconds, 1),
        "learnt": {k: outcome.get(k) for k in ("version", "used", "failed") if k in outcome},
        "frames": {"before": len(before), "while_learning": len(during), "after": len(after)},
        "ms_median": {"before": round(statistics.median(before), 2),
                      "while_learning": round(busy, 2),
                      "after": round(statistics.median(after), 2)},
        "cost": round(busy / quiet - 1, 4), "budget": BUDGET,
    }
    log(f"live view while {store.name} learns ({learning_seconds:.0f} s): median "
        f"{busy:.1f} ms a full read, {quiet:.1f} ms before/after: "
        f"{figures['cost']:+.1%} (budget +{BUDGET:.0%})")
    return figures
