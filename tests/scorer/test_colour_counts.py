"""Colours decided together: by the counts the game knows (Dice Party's party) and by the
hue order of one frame's dice (yellow, orange, red under any lamp)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from dicecam.calibration.profile import load_builtin_profile
from dicecam.reading import LOW_CONFIDENCE, DieReading
from dicecam.scorer.colour_counts import MIN_SUPPORT, fit_groups, fit_to_counts
from dicecam.scorer.diceparty import adapter
from dicecam.scorer.registry import get_game
from dicecam.vision.colour.reader import ColourReader
from tests.support.doubles import scored_die

COLOURS = ("yellow", "orange", "red")


def die(yellow: float, orange: float, red: float, *, zone: str | None = None,
        corrected: bool = False, colour: str | None = None) -> DieReading:
    return scored_die(dict(zip(COLOURS, (yellow, orange, red), strict=True)), zone=zone,
                      corrected=corrected, colour=colour)


def counts(yellow: int, orange: int, red: int) -> dict[str, int]:
    return dict(zip(COLOURS, (yellow, orange, red), strict=True))


def test_an_unsure_die_takes_the_colour_the_counts_leave_for_it() -> None:
    dice = [die(0.01, 0.05, 0.94), die(0.01, 0.45, 0.54), die(0.97, 0.02, 0.01)]
    fitted = fit_to_counts(dice, counts(1, 1, 1))
    assert fitted is not None
    assert [d.colour for d in fitted] == ["red", "orange", "yellow"]
    assert all(not d.needs_check for d in fitted)  # the counts settled the unsure one


def test_a_clear_red_the_counts_would_turn_orange_is_asked_not_shifted() -> None:
    dice = [die(0.0, 0.01, 0.99)] * 3
    fitted = fit_to_counts(dice, counts(0, 1, 2))
    assert fitted is not None
    assert sorted(d.colour for d in fitted) == ["orange", "red", "red"]
    assert all(d.needs_check for d in fitted)  # any of the three may be the VIP: ask


def test_a_colour_the_die_gave_no_chance_is_never_taken_without_asking() -> None:
    dice = [die(0.0, 0.0, 1.0), die(0.0, 0.3, 0.7)]
    fitted = fit_to_counts(dice, counts(1, 0, 1))
    assert fitted is not None
    forced = [d for d in fitted if d.colour == "yellow"]
    assert len(forced) == 1 and forced[0].colour_confidence < LOW_CONFIDENCE
    assert dict(forced[0].colour_scores)["yellow"] < MIN_SUPPORT


def test_counts_that_no_labelling_fits_leave_the_dice_as_read() -> None:
    dice = [die(0.9, 0.05, 0.05), die(0.9, 0.05, 0.05)]
    assert fit_to_counts(dice, counts(1, 1, 1)) is None  # a die too few
    corrected = [die(0.0, 0.0, 1.0, corrected=True, colour="red"), die(0.9, 0.05, 0.05)]
    assert fit_to_counts(corrected, counts(2, 0, 0)) is None  # the player said red
    assert fit_groups(dice, [([0, 1], counts(1, 1, 1))]) == tuple(dice)


def test_corrected_dice_keep_their_colour_and_steer_the_others() -> None:
    dice = [die(0.5, 0.5, 0.0, corrected=True, colour="orange"), die(0.5, 0.5, 0.0)]
    fitted = fit_to_counts(dice, counts(1, 1, 0))
    assert fitted is not None
    assert fitted[0] == dice[0]
    assert fitted[1].colour == "yellow" and not fitted[1].needs_check


def test_a_long_throw_is_fitted_in_milliseconds() -> None:
    rng = np.random.default_rng(3)
    dice = [die(*rng.dirichlet([1, 1, 1])) for _ in range(60)]
    fitted = fit_to_counts(dice, counts(20, 20, 20))
    assert fitted is not None and sorted(d.colour for d in fitted) == sorted(COLOURS * 20)


def test_dice_party_hands_the_throwers_party_to_the_colour_decision() -> None:
    game = get_game("diceparty")
    state = game.codec.apply(game.new_game({"players": ["Ann", "Bo"]}), game.codec.action_from_json(
        {"type": "preparty", "throws": {"Ann": [{"kind": k, "pips": 6} for k in
                                                ("party_people", "party_people", "vip", "vip")],
                                        "Bo": [{"kind": k, "pips": 1} for k in
                                               ("party_people", "party_people", "vip", "vip")]}}))
    assert game.colour_groups is adapter.colour_groups
    zoned = [die(0.9, 0.1, 0.0, zone="Ann")] * 4 + [die(0.1, 0.1, 0.8, zone="stock")]
    assert adapter.colour_groups(state, zoned) == [([0, 1, 2, 3], counts(2, 2, 0))]
    unzoned = [die(0.9, 0.1, 0.0)] * 4  # no zone map: the dice are the thrower's
    assert adapter.colour_groups(state, unzoned) == [([0, 1, 2, 3], counts(2, 2, 0))]
    fitted = fit_groups(unzoned, adapter.colour_groups(state, unzoned))
    assert sorted(d.colour for d in fitted) == ["orange", "orange", "yellow", "yellow"]


# --- the hue order of one frame's dice --------------------------------------------------


def sure_scores(names: list[str]) -> np.ndarray:
    """Dice Party scores (yellow, orange, red) of dice each read 0.96 sure of its name."""
    return np.array([[0.02, 0.96, 0.02] if n == "orange" else
                     [0.02, 0.02, 0.96] if n == "red" else [0.96, 0.02, 0.02]
                     for n in names])


def order_check(labs: list[tuple[float, float, float]], names: list[str]) -> Any:
    reader = ColourReader(load_builtin_profile("diceparty"))
    scores = sure_scores(names)
    return reader._order_check(np.array(labs, float), names, scores.max(axis=1), scores)


def test_a_die_read_orange_but_redder_than_a_red_one_makes_both_asked() -> None:
    # die 0 read orange has hue 26 degrees, die 1 read red has hue 43: one of them is wrong
    conf, scores = order_check([(34.0, 31.0, 16.0), (60.0, 46.0, 43.0), (80.0, 0.0, 80.0)],
                               ["orange", "red", "yellow"])
    assert conf[0] < LOW_CONFIDENCE and conf[1] < LOW_CONFIDENCE
    assert conf[2] > LOW_CONFIDENCE
    assert scores[0, 1] == pytest.approx(scores[0, 2])


def test_hues_in_order_leave_the_readings_alone() -> None:
    conf, _ = order_check([(80.0, 0.0, 80.0), (60.0, 40.0, 60.0), (45.0, 60.0, 40.0)],
                          ["yellow", "orange", "red"])
    assert (conf > LOW_CONFIDENCE).all()


def test_sets_without_a_hue_family_are_not_ordered() -> None:
    assert ColourReader(load_builtin_profile("dicetopia"))._hue_order is None
    assert ColourReader(load_builtin_profile("diceparty"))._hue_order is not None


# --- a hue between two colours of the family ----------------------------------------------


def hue_lab(lightness: float, hue_deg: float, chroma: float = 70.0) -> tuple[float, ...]:
    angle = np.radians(hue_deg)
    return (lightness, chroma * np.cos(angle), chroma * np.sin(angle))


def hue_band_check(labs: list[tuple[float, ...]], names: list[str]) -> Any:
    reader = ColourReader(load_builtin_profile("diceparty"))
    scores = sure_scores(names)
    return reader._hue_band_check(np.array(labs, float), names, scores.max(axis=1), scores)


def test_a_die_between_orange_and_yellow_in_hue_is_asked_not_called_orange() -> None:
    # built-in hues: red ~34, orange ~58, yellow ~94 degrees; 67 is in the middle half of
    # the orange-yellow gap: an amber die, or a yellow one under a warm lamp
    names, conf, scores = hue_band_check([hue_lab(73, 67), hue_lab(64, 58), hue_lab(85, 94)],
                                         ["orange", "orange", "yellow"])
    assert conf[0] < LOW_CONFIDENCE and names[0] == "orange"  # 67 is still orange's side
    assert scores[0, 0] == pytest.approx(scores[0, 1])  # yellow and orange made even
    assert conf[1] > LOW_CONFIDENCE and conf[2] > LOW_CONFIDENCE
    assert names[1:] == ["orange", "yellow"]


def test_past_the_midpoint_the_hue_names_the_colour_and_the_die_is_still_asked() -> None:
    # read orange at hue 80 (midpoint 76): yellow leads, by a hair, and the die is asked
    names, conf, scores = hue_band_check([hue_lab(80, 80)], ["orange"])
    assert names == ["yellow"] and conf[0] < LOW_CONFIDENCE
    assert scores[0, 0] > scores[0, 1] and scores[0, 0] == pytest.approx(scores[0, 1], abs=0.01)


def test_a_die_read_orange_with_a_red_hue_is_asked() -> None:
    # a dark translucent red die: nearer a darkened orange in Lab, but red in hue
    names, conf, scores = hue_band_check([hue_lab(49, 23, 45), hue_lab(45, 35)],
                                         ["orange", "red"])
    assert conf[0] < LOW_CONFIDENCE and names == ["red", "red"]
    assert scores[0, 1] == pytest.approx(scores[0, 2], abs=0.01)
    assert conf[1] > LOW_CONFIDENCE


def test_a_greyish_die_takes_no_part_in_the_hue_bands() -> None:
    # too little colour for its hue to mean anything (a white glare patch, a grey die)
    names, conf, _ = hue_band_check([hue_lab(80, 67, chroma=10)], ["orange"])
    assert conf[0] > LOW_CONFIDENCE and names == ["orange"]


@pytest.mark.parametrize("at_most", [False, True])
def test_the_fit_equals_trying_every_labelling(at_most: bool) -> None:
    """The counting tables give what enumerating every labelling gives: the most likely one
    that holds the counts and each die's share of the labellings' weight."""
    import itertools

    from dicecam.scorer.colour_counts import _marginals, _most_likely

    rng = np.random.default_rng(11)
    for _ in range(40):
        k, n = int(rng.integers(1, 4)), int(rng.integers(1, 7))
        probs = rng.dirichlet(np.ones(k) * 0.5, size=n)
        probs[rng.random(probs.shape) < 0.1] = 0.0  # some colours impossible
        if at_most:
            target = tuple(int(t) for t in rng.integers(0, n + 1, k))
        else:
            drawn = rng.integers(0, k, n)
            target = tuple(int((drawn == c).sum()) for c in range(k))
        weights: dict[tuple[int, ...], float] = {}
        for labels in itertools.product(range(k), repeat=n):
            used = np.bincount(labels, minlength=k)
            fits = all(used <= target) if at_most else tuple(used) == target
            if fits:
                weights[labels] = float(np.prod(probs[np.arange(n), labels]))
        best = _most_likely(probs, target, at_most=at_most)
        if not weights or max(weights.values()) == 0.0:
            assert best is None or weights.get(tuple(best), 0.0) == max(weights.values(),
                                                                          default=0.0)
            continue
        assert best is not None and weights[tuple(best)] == pytest.approx(max(weights.values()))
        total = sum(weights.values())
        expected = np.zeros((n, k))
        for labels, weight in weights.items():
            expected[np.arange(n), labels] += weight / total
        assert np.allclose(_marginals(probs, target, at_most=at_most), expected, atol=1e-9)
