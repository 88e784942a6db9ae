"""`dicecam bench web`'s parts that need no browser: the percentile, and the demo-truth
outputs (the demo's own dice published as settled rolls, one per roll, once still)."""

from __future__ import annotations

import itertools

import pytest

from dicecam.scorer.registry import get_game
from dicecam.tools.bench.speed import web
from dicecam.tools.bench.speed.web import TRUTH_SETTLE_FRAMES, percentile, truth_outputs


@pytest.mark.parametrize(("values", "share", "expected"), [
    (list(range(1, 101)), 0.95, 95),
    (list(range(1, 101)), 0.5, 50),
    ([5.0, 1.0, 3.0], 0.95, 5.0),
    ([7.0], 0.95, 7.0),
    (list(range(1, 21)), 0.95, 19),
])
def test_percentile_is_the_nearest_rank(values: list[float], share: float,
                                        expected: float) -> None:
    assert percentile(values, share) == expected


def test_truth_outputs_settle_each_demo_roll_once_with_its_dice() -> None:
    from dicecam.vision.sources.demo import ROLL_FRAMES, DemoSource

    demo = DemoSource("charidice", dice_per_roll=get_game("charidice").demo_dice_per_roll)
    outputs = list(itertools.islice(truth_outputs("charidice", speed=20.0),
                                    2 * demo.frames_per_roll))
    settled = [(i, o.settled) for i, o in enumerate(outputs) if o.settled is not None]
    assert [i for i, _ in settled] == [ROLL_FRAMES + TRUTH_SETTLE_FRAMES,
                                       demo.frames_per_roll + ROLL_FRAMES + TRUTH_SETTLE_FRAMES]
    first = settled[0][1]
    assert first is not None and first.roll_id == 1
    truth = demo.roll(0).dice
    assert [(d.value, d.colour) for d in first.dice] == [(d.value, d.colour) for d in truth]
    assert all(o.reading.moving for o in outputs[:ROLL_FRAMES])


def test_the_bench_refuses_too_few_settles_in_one_line() -> None:
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "dicecam", "bench", "web", "--settles", "2"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip() == ("dicecam bench: --settles must be at least 5 for a "
                                     "percentile to mean anything")


def test_the_verdict_line_judges_the_verdict_drawn_against_the_products_goal(
        capsys: pytest.CaptureFixture[str]) -> None:
    samples = [{"status": "scored", "ms": 30.0}] * 20
    web._report([30.0] * 20, samples, [120.0] * 19 + [90.0])  # the roll fast, the verdict not
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == ("judged: settled reading -> game verdict drawn, p95 120.0 ms; "
                    "target p95 < 100 ms: NOT met")
    web._report([30.0] * 20, samples, [])  # nothing scored: the roll is all there is
    assert capsys.readouterr().out.splitlines()[-1].startswith(
        "judged: settled reading -> roll drawn (no settle scored), p95 30.0 ms")
