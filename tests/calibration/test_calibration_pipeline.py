"""A saved profile and zone map, loaded by name, plugged into the table pipeline."""

from __future__ import annotations

import numpy as np

from dicecam.calibration.profile import load_builtin_profile, load_profile, save_profile
from dicecam.calibration.zones import ZoneMap, load_zone_map, save_zone_map
from dicecam.tools.bench.accuracy.calibration import dicetopia_table, light_and_camera
from dicecam.vision.colour.fit import fit_profile, samples_by_columns
from dicecam.vision.colour.reader import ColourReader
from dicecam.vision.detect.detector import Detections
from dicecam.vision.pipeline import TablePipeline
from dicecam.vision.read.die_reader import ValueReading, cut_crop


def test_a_dicetopia_table_is_read_with_saved_calibration() -> None:
    from dicecam.tools.bench.accuracy.calibration import calibration_frame

    rng = np.random.default_rng(21)
    frame, boards, dice = dicetopia_table(rng, 2)
    frame = light_and_camera(frame, 3000, rng, 1.0)
    # calibrate at the same (warm) light, save both files, load them back by name
    base = load_builtin_profile("dicetopia")
    cal, boxes = calibration_frame("dicetopia", base.colours, 3, float(np.median(
        [d[2] for d in dice])) / 1.05, rng)
    cal = light_and_camera(cal, 3000, rng, 1.0)
    save_profile(fit_profile(cal, samples_by_columns(boxes, base.colours), base))
    save_zone_map(ZoneMap("club", frame.shape[1], frame.shape[0], boards=tuple(boards)))

    truth = np.array([[d[0], d[1], d[2], d[2]] for d in dice], np.float32)

    def detect(_frame: np.ndarray) -> Detections:
        return Detections(truth, np.ones(len(truth), np.float32))

    def read_values(crops):
        return [ValueReading(3, 1.0) for _ in crops]

    pipeline = TablePipeline(detect, read_values, ColourReader(load_profile("dicetopia")).read,
                             load_zone_map("club").zone_of, crop=cut_crop)
    reading = pipeline.read_frame(frame)
    assert len(reading.dice) == len(dice)
    by_place = {(round(d[0]), round(d[1])): d for d in dice}
    right_zone = right_colour = 0
    for die in reading.dice:
        true = by_place[(round(die.x), round(die.y))]
        right_zone += die.zone == true[3]
        right_colour += die.colour == true[4]
    assert right_zone == len(dice)
    assert right_colour >= len(dice) - 1
    assert {"faction:p1", "faction:p2", "the_agency"} <= {d.zone for d in reading.dice}
