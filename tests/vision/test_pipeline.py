"""The pipeline's plumbing with injected stages: crops, batching, veto, zones, settle.

The value reader here is a test double that reads a value painted into the test frame
(the green level of a square), so the test checks that crops are cut where the detector
pointed. The real models are exercised in test_detect.py and test_read_command.py.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from dicecam.reading import LOW_CONFIDENCE, DieReading
from dicecam.vision.detect.detector import Detections
from dicecam.vision.dice_filters import (
    DISSENT,
    MIN_DIE_SHARE,
    TEXTURE_BOXES,
    TEXTURE_DETECTIONS,
    TINY_TEXTURE_BOXES,
    VETO_BELOW_SCORE,
    asked_on_a_texture,
    dice_boxes_from_specks,
    one_box_per_die,
    split_specks,
    without_parts_of_larger_dice,
    without_too_small_to_read,
)
from dicecam.vision.pipeline import (
    VETO_SURE,
    PipelineOutput,
    TablePipeline,
    iter_outputs,
    square_crop,
)
from dicecam.vision.settle import SettleConfig
from tests.support.doubles import SQUARES, FakeDetector, PaintedValueReader, Value, painted_frame


def colour_by_position(crops):
    return [("red", 0.95) for _ in crops]


def boxes(squares=SQUARES):
    return [(x, y, 40, 40) for x, y, _ in squares]


def test_each_detected_die_is_read_from_its_own_crop_in_one_batch():
    reader = PaintedValueReader()
    pipeline = TablePipeline(FakeDetector(boxes()), reader, colour_by_position,
                             lambda x, y: "left" if x < 320 else "right", crop=square_crop)
    reading = pipeline.read_frame(painted_frame())
    assert reader.batches == [3]
    assert [(round(d.x), round(d.y), d.value, d.zone) for d in reading.dice] == [
        (100, 120, 3, "left"), (141, 120, 5, "left"), (400, 300, 6, "right")]
    assert all(d.colour == "red" and d.confidence == pytest.approx(0.95) for d in reading.dice)
    assert (reading.width, reading.height) == (640, 480)


def test_without_zones_and_colours_the_fields_stay_empty():
    pipeline = TablePipeline(FakeDetector(boxes()), PaintedValueReader(), crop=square_crop)
    reading = pipeline.read_frame(painted_frame())
    assert {d.zone for d in reading.dice} == {None}
    assert {d.colour for d in reading.dice} == {None}
    assert reading.dice[0].confidence == pytest.approx(0.97)


def _not_a_die_with(confidence: float):
    """The painted reader, saying "not a die" with this confidence."""
    painted = PaintedValueReader()

    def read(crops):
        return [r if r.value is not None else Value(None, confidence) for r in painted(crops)]
    return read


def test_an_unsure_box_the_reader_calls_no_die_is_vetoed_a_sure_one_is_kept():
    squares = [*SQUARES, (250, 400, 0)]  # an empty square: nothing to read
    detector = FakeDetector(boxes(squares) + [(550, 60, 40, 40)], [0.9, 0.9, 0.9, 0.4, 0.95])
    reading = TablePipeline(detector, _not_a_die_with(0.95), crop=square_crop).read_frame(
        painted_frame(squares))
    positions = [(round(d.x), round(d.y), d.value) for d in reading.dice]
    assert (250, 400, None) not in positions  # unsure and surely unreadable: not a die
    assert (550, 60, None) in positions  # sure but unreadable: a die to check by hand
    assert len(positions) == 4


def test_a_box_both_models_doubt_is_kept_and_asked():
    # a new source's odd die: the detector unsure, the reader unsure it is not a die
    squares = [*SQUARES, (250, 400, 0)]
    detector = FakeDetector(boxes(squares), [0.9, 0.9, 0.9, 0.4])
    reading = TablePipeline(detector, _not_a_die_with(VETO_SURE - 0.2),
                            crop=square_crop).read_frame(painted_frame(squares))
    doubted = [d for d in reading.dice if (round(d.x), round(d.y)) == (250, 400)]
    assert len(doubted) == 1 and doubted[0].value is None and doubted[0].needs_check


def _reads_large_crops(confidence: float):
    """A reader that finds a 6 in a crop of a whole die (60 px or more) with this
    confidence and surely no die in a smaller one (a half of it); counts its crops."""
    sides: list[int] = []

    def read(crops):
        sides.extend(c.shape[0] for c in crops)
        return [Value(6, confidence) if c.shape[0] >= 60 else Value(None, 0.9) for c in crops]
    read.sides = sides  # type: ignore[attr-defined]
    return read


@pytest.mark.parametrize(("confidence", "found"), [(0.87, [(300, 240, 6)]), (0.4, [])])
def test_a_large_die_split_in_unreadable_halves_is_read_whole(confidence, found):
    """damiantab's 6 on a white table: the main pass drew two unsure half boxes on it
    (each vetoed) and the coarse pass a surer whole box, which gave way to them. Read
    whole with a value, fairly sure, it is the die; read too unsure, nothing is taken."""
    halves = [(280, 240, 40, 40), (320, 240, 40, 40)]
    detector = FakeDetector(halves, [0.46, 0.45], wholes=[((300, 240, 80, 80), 0.8)])
    frame = painted_frame([(300, 240, 6)])
    pipeline = TablePipeline(detector, _reads_large_crops(confidence), crop=square_crop)
    reading = pipeline.read_frame(frame)
    assert [(round(d.x), round(d.y), d.value) for d in reading.dice] == found
    live = pipeline.process(frame, timestamp=0.0).reading  # the live view reads it so too
    assert [(round(d.x), round(d.y), d.value) for d in live.dice] == found


@pytest.mark.parametrize(("whole_confidence", "found"),
                         [(0.95, [(300, 240, 6)]), (0.4, [(280, 240, 2), (320, 240, 2)])])
def test_the_rescaled_look_leaves_a_whole_die_its_read_and_then_looks_at_its_parts(
        whole_confidence, found):
    """Halves of a die the detector is sure of, read unsure without a value: the rescaled
    look must not give them a value before the whole box is read (a part with a value keeps
    the whole from being read); where the whole reads too unsure, the halves get it."""
    halves = [(280, 240, 40, 40), (320, 240, 40, 40)]
    detector = FakeDetector(halves, [0.9, 0.9], wholes=[((300, 240, 80, 80), 0.8)])

    def read(crops):  # square_crop: the halves 50 px, their looser boxes 58, the whole 100
        return [Value(6, whole_confidence) if c.shape[0] >= 60
                else Value(2, 0.8) if c.shape[0] > 52 else Value(None, 0.4) for c in crops]

    pipeline = TablePipeline(detector, read, crop=square_crop, rescaled_look=True)
    reading = pipeline.read_frame(painted_frame([(300, 240, 6)]))
    assert [(round(d.x), round(d.y), d.value) for d in reading.dice] == found
    assert all(d.confidence < LOW_CONFIDENCE for d in reading.dice if d.value == 2)


def test_a_whole_box_is_not_read_where_a_die_was_read_with_a_value():
    """Where a box near the whole one's centre reads as a die (two touching dice the
    coarse pass merged), the whole box is never read."""
    detector = FakeDetector([(300, 240, 60, 60)], [0.6], wholes=[((310, 240, 100, 100), 0.8)])
    reader = _reads_large_crops(0.95)
    reading = TablePipeline(detector, reader, crop=square_crop).read_frame(
        painted_frame([(300, 240, 6)]))
    assert [(round(d.x), round(d.y), d.value) for d in reading.dice] == [(300, 240, 6)]
    assert len(reader.sides) == 1  # the main box alone was read


def test_a_die_only_the_smaller_passes_found_is_asked_however_sure_the_read():
    """Dice in doubtful boxes (found only where two of the detector's smaller passes
    agree) are read as any die and asked; the others keep their confidence."""
    detector = FakeDetector(boxes(), [0.9, 0.9, 0.7])
    detector.doubtful = np.array([False, False, True])
    plain = detector.__call__

    def with_doubtful(frame):
        return replace(plain(frame), doubtful=detector.doubtful)
    pipeline = TablePipeline(with_doubtful, PaintedValueReader(), crop=square_crop)
    for reading in (pipeline.read_frame(painted_frame()),
                    pipeline.process(painted_frame(), timestamp=0.0).reading):
        asked = {(round(d.x), round(d.y)): d.confidence < LOW_CONFIDENCE for d in reading.dice}
        assert asked == {(100, 120): False, (141, 120): False, (400, 300): True}
        assert [d.value for d in reading.dice] == [3, 5, 6]


def test_no_detection_means_no_reader_call():
    reader = PaintedValueReader()
    reading = TablePipeline(FakeDetector([]), reader, crop=square_crop).read_frame(
        painted_frame())
    assert reading.dice == () and reader.batches == []


def test_a_reader_returning_the_wrong_count_is_an_error():
    def short_reader(crops):
        return [Value(1, 1.0)]

    with pytest.raises(ValueError, match="1 readings for 3 crops"):
        TablePipeline(FakeDetector(boxes()), short_reader, crop=square_crop).read_frame(
            painted_frame())


def sequence(moving_frames: int, still_frames: int):
    """Frames of a die sliding in, then lying still."""
    for i in range(moving_frames):
        yield painted_frame([(100 + 30 * i, 120, 3), (400, 300, 6)])
    for _ in range(still_frames):
        yield painted_frame([(100 + 30 * moving_frames, 120, 3), (400, 300, 6)])


def test_a_sequence_publishes_its_settled_roll_exactly_once():
    pipeline = TablePipeline(FakeDetector([(190, 120, 40, 40), (400, 300, 40, 40)]),
                             PaintedValueReader(), crop=square_crop,
                             settle=SettleConfig(still_seconds=0.3))
    outputs = list(iter_outputs(sequence(3, 25), pipeline))
    assert all(isinstance(o, PipelineOutput) for o in outputs)
    assert [o.reading.moving for o in outputs[:4]] == [False, True, True, True]
    settled = [(i, o.settled) for i, o in enumerate(outputs) if o.settled is not None]
    assert len(settled) == 1
    index, roll = settled[0]
    assert index == 4 + 9  # still from frame 4 (the first unchanged one), 0.3 s at 30 fps
    assert [d.value for d in roll.dice] == [3, 6]


def test_a_hand_in_view_holds_publication_back():
    pipeline = TablePipeline(FakeDetector(boxes(), hand_share=0.2), PaintedValueReader(),
                             crop=square_crop, settle=SettleConfig(still_seconds=0.1))
    outputs = list(iter_outputs((painted_frame() for _ in range(30)), pipeline))
    assert all(o.reading.hand_in_view and o.reading.moving for o in outputs)
    assert all(o.settled is None for o in outputs)


# ---------------------------------------------------------------- with the shipped detector

def test_the_demo_publishes_each_roll_exactly_once_and_nothing_while_the_hand_is_in():
    from dicecam.vision.detect.detector import MODEL_PATH, DieDetector
    from dicecam.vision.sources.demo import HAND_FRAMES, ROLL_FRAMES, STILL_FRAMES, DemoSource

    if not MODEL_PATH.is_file():
        pytest.skip("detector model not built")

    def reader(crops):
        return [Value(4, 0.99) for _ in crops]

    source = DemoSource("dicetopia", dice_per_roll=9, rolls=2)
    pipeline = TablePipeline(DieDetector(threads=1), reader, crop=square_crop)
    outputs = list(iter_outputs(source, pipeline))
    per_roll = ROLL_FRAMES + STILL_FRAMES + HAND_FRAMES
    assert len(outputs) == 2 * per_roll
    published = [i for i, o in enumerate(outputs) if o.settled is not None]
    assert len(published) == 2
    for roll, index in enumerate(published):
        start = roll * per_roll
        assert start + ROLL_FRAMES <= index < start + ROLL_FRAMES + STILL_FRAMES
        truth = source.roll(roll)
        assert len(outputs[index].settled.dice) == len(truth.dice)
    hand_frames = [o for i, o in enumerate(outputs) if i % per_roll >= per_roll - HAND_FRAMES]
    assert all(o.reading.moving for o in hand_frames[1:])


def _read(x, y, side, confidence) -> DieReading:
    return DieReading(x=x, y=y, w=side, h=side, value=3, colour=None, confidence=confidence,
                      value_confidence=confidence)


def test_a_small_box_inside_a_surer_larger_die_is_a_part_of_it_not_a_die():
    die, pip = _read(100, 100, 40, 0.97), _read(108, 92, 10, 0.5)
    assert without_parts_of_larger_dice([die, pip]) == [die]
    # touching dice of one size, and a small die beside (not inside) a large one, stay
    neighbour, beside = _read(140, 100, 40, 0.9), _read(100, 135, 18, 0.9)
    assert without_parts_of_larger_dice([die, neighbour, beside]) == [die, neighbour, beside]
    # a large unsure box over a cluster swallows none of the dice read surely in it
    cluster, inner = _read(300, 300, 150, 0.05), _read(320, 310, 60, 0.95)
    assert without_parts_of_larger_dice([cluster, inner]) == [cluster, inner]
    assert without_parts_of_larger_dice([]) == [] and without_parts_of_larger_dice([pip]) == [pip]


def test_two_boxes_on_one_die_are_one_die_the_surer_reading_stands():
    die, second = _read(100, 100, 40, 0.97), _read(110, 108, 30, 0.2)  # 0.32 of a side
    assert one_box_per_die([second, die]) == [die]
    # touching dice, even squashed ones, lie half a side apart or more: both stay
    neighbour, squashed = _read(140, 100, 40, 0.9), _read(100, 121, 40, 0.6)
    assert one_box_per_die([die, neighbour, squashed]) == [die, neighbour, squashed]
    # a second box that read another value at DISSENT or more leaves the die asked
    dissent = replace(_read(110, 108, 30, DISSENT), value=5)
    (kept,) = one_box_per_die([die, dissent])
    assert (kept.x, kept.value) == (die.x, die.value) and kept.value_confidence < LOW_CONFIDENCE
    assert one_box_per_die([die, replace(dissent, value_confidence=DISSENT - 0.01)]) == [die]
    # a die a player corrected wins over a surer box, and two corrected boxes both stay
    fixed = replace(second, corrected=True)
    assert one_box_per_die([die, fixed]) == [fixed]
    assert one_box_per_die([replace(die, corrected=True), fixed]) == [
        replace(die, corrected=True), fixed]
    assert one_box_per_die([]) == [] and one_box_per_die([die]) == [die]


def test_the_pipeline_reads_a_die_with_two_boxes_once():
    detector = FakeDetector([*boxes(), (SQUARES[0][0] + 8, SQUARES[0][1] + 6, 30, 30)])
    pipeline = TablePipeline(detector, PaintedValueReader(), None, crop=square_crop)
    reading = pipeline.read_frame(painted_frame())
    assert len(reading.dice) == len(SQUARES)


def _without_specks(dice):
    return split_specks(dice)[0]


def test_an_unsure_box_far_smaller_than_the_sure_dice_beside_it_is_no_die():
    dice = [_read(100 + 50 * i, 100, 40, 0.97) for i in range(3)]
    key, small_sure = _read(400, 400, 10, 0.6), _read(500, 400, 10, 0.95)
    half_hidden = _read(600, 400, 0.3 * 40 + 1, 0.4)  # just over the share: stays
    assert _without_specks([*dice, key, small_sure, half_hidden]) == [
        *dice, small_sure, half_hidden]
    # a box a player corrected stays, whatever its size
    corrected = replace(key, corrected=True)
    assert _without_specks([*dice, corrected]) == [*dice, corrected]
    # an unreadable speck goes as well
    speck = DieReading(x=9, y=9, w=8, h=8, value=None, colour=None, confidence=0.8,
                       value_confidence=0.8)
    assert _without_specks([*dice, speck]) == dice
    # one die read surely is enough to go by (a laptop key beside the only die of a
    # roll), none is not
    assert _without_specks([dice[0], key]) == [dice[0]]
    assert split_specks([dice[0], key])[2] == 40
    unsure = replace(dice[0], confidence=0.6, value_confidence=0.6)
    assert split_specks([unsure, key]) == ([unsure, key], [], None)


def _small_crops_unsure(crops):  # the specks' small crops read unsure, as a pip's would
    return [Value(v.value, v.confidence if crop.shape[0] > 20 else 0.5)
            for v, crop in zip(PaintedValueReader()(crops), crops, strict=True)]


def test_the_pipeline_drops_a_small_unsure_box_among_sure_dice():
    detector = FakeDetector([*boxes(), (250, 250, 10, 10)])
    pipeline = TablePipeline(detector, _small_crops_unsure, None, crop=square_crop)
    reading = pipeline.read_frame(painted_frame())
    assert [(round(d.x), round(d.y)) for d in reading.dice] == [(100, 120), (141, 120),
                                                                 (400, 300)]


def test_the_pips_of_a_die_the_detector_took_for_dice_are_read_again_as_one_die():
    pips = [(240, 240, 8, 8), (260, 240, 8, 8), (250, 262, 8, 8)]  # around (250, 247)
    detector = FakeDetector([*boxes(), *pips])
    pipeline = TablePipeline(detector, _small_crops_unsure, None, crop=square_crop)
    reading = pipeline.read_frame(painted_frame([*SQUARES, (250, 247, 2)]))
    assert [(round(d.x), round(d.y), round(d.w), d.value) for d in reading.dice] == [
        (100, 120, 40, 3), (141, 120, 40, 5), (250, 247, 40, 2), (400, 300, 40, 6)]


def test_dice_boxes_from_specks_one_box_a_cluster_none_on_a_found_die():
    specks = [_read(100, 100, 8, 0.5), _read(120, 100, 8, 0.4),  # one die's pips
              _read(300, 300, 8, 0.3),  # a lone speck
              _read(505, 500, 8, 0.3)]  # a speck on a die already found
    found = [_read(500, 500, 40, 0.97)]
    grown = dice_boxes_from_specks(specks, 40.0, found)
    assert grown.boxes.tolist() == [[110, 100, 40, 40], [300, 300, 40, 40]]
    assert grown.scores.tolist() == [0, 0] and grown.doubtful.tolist() == [False, False]
    # specks further apart than a face are not one die's
    apart = dice_boxes_from_specks([_read(0, 0, 8, 0.5), _read(40, 0, 8, 0.5)], 40.0, [])
    assert len(apart) == 2


def test_pips_the_reader_vetoed_join_the_specks_and_their_die_is_asked():
    def vetoed(x, y):
        return DieReading(x=x, y=y, w=8, h=8, value=None, colour=None, confidence=0.0)

    specks = [_read(100, 100, 8, 0.5)]
    # a vetoed pip beside a read one moves their die's centre; three vetoed pips of a die
    # no box was read in make one more
    grown = dice_boxes_from_specks(specks, 40.0, [], [vetoed(120, 100), vetoed(300, 290),
                                                      vetoed(310, 300), vetoed(320, 310)])
    assert grown.boxes.tolist() == [[110, 100, 40, 40], [310, 300, 40, 40]]
    assert grown.doubtful.tolist() == [True, True]
    # vetoed pips on a die already found add nothing
    assert len(dice_boxes_from_specks([], 40.0, [_read(500, 500, 40, 0.97)],
                                      [vetoed(505, 500)])) == 0


def test_a_die_whose_pips_the_reader_vetoed_is_read_whole_and_asked():
    pips = [(240, 240, 8, 8), (260, 240, 8, 8), (250, 262, 8, 8)]  # around (250, 247)

    def vetoes_small_crops(crops):  # sure there is no die in a pip's crop
        return [Value(None, 0.9) if crop.shape[0] <= 20 else v
                for v, crop in zip(PaintedValueReader()(crops), crops, strict=True)]

    detector = FakeDetector([*boxes(), *pips], scores=[0.9] * len(SQUARES) + [0.5] * 3)
    pipeline = TablePipeline(detector, vetoes_small_crops, None, crop=square_crop)
    reading = pipeline.read_frame(painted_frame([*SQUARES, (250, 247, 2)]))
    whole = [d for d in reading.dice if round(d.x) == 250]
    assert [(round(d.y), round(d.w), d.value) for d in whole] == [(247, 40, 2)]
    assert whole[0].confidence < LOW_CONFIDENCE


def test_a_texture_of_unsure_boxes_without_sure_dice_is_no_dice():
    # more unsure boxes than the largest party (Dice Party's 60) and half again
    assert TEXTURE_BOXES == 90
    flecks = [_read(10 + 20 * (i % 30), 10 + 20 * (i // 30), 12, 0.4) for i in range(91)]
    assert _without_specks(flecks) == []
    assert _without_specks(flecks[:90]) == flecks[:90]
    sure = [_read(700, 700 + 50 * i, 40, 0.97) for i in range(2)]
    # two dice read surely (maybe false boxes on the carpet) do not keep its flecks, of
    # their size or not, and none of them is read again as a die
    large_flecks = [replace(f, w=20, h=20) for f in flecks]
    assert split_specks([*large_flecks, *sure]) == (sure, large_flecks, None)
    assert _without_specks([*flecks, *sure]) == sure
    # nor do more of them read sure, while they are under a tenth of the flecks
    ten = [_read(800 + 50 * i, 700, 20, 0.97) for i in range(9)]
    assert split_specks([*large_flecks, *ten]) == (ten, large_flecks, None)
    # a party read surely beside them is no texture: the flecks of its dice's size stay
    party = [*ten, _read(700, 800, 20, 0.97)]
    assert _without_specks([*large_flecks, *party]) == [*large_flecks, *party]


def test_a_swarm_of_tiny_unsure_boxes_is_a_texture_and_larger_dice_beside_it_stay():
    # on a 1280 px frame the smallest die read is 8 px, so under 16 px is tiny
    assert TINY_TEXTURE_BOXES == 20
    flecks = [_read(10 + 20 * (i % 30), 10 + 20 * (i // 30), 9, 0.4) for i in range(21)]
    assert split_specks(flecks, 1280) == ([], flecks, None)
    assert _without_specks(flecks) == flecks  # no frame size, no tiny box
    assert split_specks(flecks[:20], 1280) == (flecks[:20], [], None)
    # an unsure die of a readable size among them stays, as does one a player corrected
    die, corrected = _read(700, 700, 40, 0.6), replace(flecks[0], corrected=True)
    assert split_specks([*flecks, die], 1280)[0] == [die]
    assert split_specks([corrected, *flecks, die], 1280)[0] == [corrected, die]
    # two sure dice under a tenth of 21 flecks keep none of them
    sure = [_read(800 + 50 * i, 700, 12, 0.97) for i in range(2)]
    assert split_specks([*flecks, *sure], 1280)[0] == sure
    # beside one sure die of a readable size, its own specks' rule still holds
    die_sure, speck = _read(900, 900, 100, 0.97), _read(950, 950, 25, 0.4)
    assert split_specks([*flecks, die_sure, speck], 1280)[0] == [die_sure]
    # a table of small dice read mostly surely is no texture: its unsure ones are asked
    party = [_read(10 + 20 * i, 500, 12, 0.97) for i in range(3)]
    assert split_specks([*flecks, *party], 1280)[0] == [*flecks, *party]


def test_on_a_frame_of_a_textures_hundreds_of_boxes_a_box_the_detector_doubts_is_asked():
    # three times the largest party (Dice Party's 60)
    assert TEXTURE_DETECTIONS == 180 and VETO_BELOW_SCORE == 0.8
    flecks = [(10.0 + 20 * (i % 30), 10.0 + 20 * (i // 30)) for i in range(TEXTURE_DETECTIONS)]
    doubted, trusted = _read(700, 700, 13, 0.96), _read(800, 700, 13, 0.96)
    boxes = np.float32([(x, y, 13, 13) for x, y in [*flecks, (700, 700), (800, 700)]])
    scores = np.float32([0.3] * len(flecks) + [0.45, 0.85])
    read = asked_on_a_texture([doubted, trusted], Detections(boxes, scores))
    assert read[1] == trusted
    assert read[0].value == 3 and read[0].confidence < LOW_CONFIDENCE
    assert read[0].value_confidence < LOW_CONFIDENCE
    # a die a player corrected keeps what the player said
    corrected = replace(doubted, corrected=True)
    assert asked_on_a_texture([corrected], Detections(boxes, scores)) == [corrected]
    # no more boxes than the line is a table: what the reader read surely stays sure
    fewer = Detections(boxes[2:], scores[2:])
    assert len(fewer) == TEXTURE_DETECTIONS
    assert asked_on_a_texture([doubted, trusted], fewer) == [doubted, trusted]


def test_a_box_smaller_than_any_die_read_is_dropped_when_read_unsure():
    # 12 px at 1080p is the smallest die read; a 1280 px wide frame's bar is 8 px
    assert MIN_DIE_SHARE * 1920 == 12
    fleck, small_die, die = _read(10, 10, 7, 0.4), _read(50, 50, 8, 0.4), _read(90, 90, 7, 0.97)
    assert without_too_small_to_read([fleck, small_die, die], 1280) == [small_die, die]
    corrected = replace(fleck, corrected=True)
    assert without_too_small_to_read([corrected], 1280) == [corrected]
    no_value = replace(die, value=None)
    assert without_too_small_to_read([no_value], 1280) == []
    # the same boxes on a 640 px photo are dice-sized
    assert without_too_small_to_read([fleck, small_die], 640) == [fleck, small_die]
