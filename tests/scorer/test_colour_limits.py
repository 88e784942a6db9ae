"""Colours decided within a most: Dicetopia's 2N + 2 dice of each colour in the whole game."""

from __future__ import annotations

from dicecam.reading import DieReading
from dicecam.scorer.colour_counts import ColourGroup, fit_groups, fit_to_counts
from dicecam.scorer.dicetopia import adapter, rules
from dicecam.scorer.dicetopia.model import Colour, Die, PlayerSetup
from dicecam.scorer.registry import get_game
from tests.support.doubles import scored_die

COLOURS = ("purple", "white", "turquoise")


def die(purple: float, white: float, turquoise: float, *, zone: str | None = "the_agency"
        ) -> DieReading:
    return scored_die(dict(zip(COLOURS, (purple, white, turquoise), strict=True)), value=3,
                      zone=zone)


def limits(purple: int, white: int, turquoise: int) -> dict[str, int]:
    return dict(zip(COLOURS, (purple, white, turquoise), strict=True))


SURE_PURPLE = (0.98, 0.01, 0.01)
SURE_WHITE = (0.01, 0.98, 0.01)


def test_dice_within_the_limits_keep_their_colours() -> None:
    dice = [die(*SURE_PURPLE)] * 4 + [die(0.3, 0.6, 0.1)] + [die(*SURE_WHITE)] * 3
    fitted = fit_to_counts(dice, limits(10, 10, 10), at_most=True)
    assert fitted is not None
    assert [d.colour for d in fitted] == [d.colour for d in dice]
    # a limit nobody comes near changes no confidence
    for before, after in zip(dice, fitted, strict=True):
        assert abs(before.colour_confidence - after.colour_confidence) < 1e-6


def test_an_eleventh_purple_that_may_be_white_is_read_white() -> None:
    dice = [die(*SURE_PURPLE)] * 10 + [die(0.6, 0.39, 0.01)]
    fitted = fit_to_counts(dice, limits(10, 10, 10), at_most=True)
    assert fitted is not None
    assert [d.colour for d in fitted].count("purple") == 10
    assert fitted[-1].colour == "white"
    # surer of white than its own reading was (any of the ten others might be the white)
    assert fitted[-1].colour_confidence > 0.39 + 0.3


def test_eleven_sure_purples_are_asked_not_one_of_them_silently_turned() -> None:
    dice = [die(*SURE_PURPLE)] * 11
    fitted = fit_to_counts(dice, limits(10, 10, 10), at_most=True)
    assert fitted is not None
    assert [d.colour for d in fitted].count("purple") == 10
    assert all(d.needs_check for d in fitted)  # any of them may be the misread one


def test_more_dice_than_the_limits_hold_are_left_as_read() -> None:
    dice = [die(*SURE_PURPLE)] * 4
    assert fit_to_counts(dice, limits(1, 1, 1), at_most=True) is None
    assert fit_groups(dice, [ColourGroup(range(4), limits(1, 1, 1), at_most=True)]) \
        == tuple(dice)


def test_exact_counts_still_need_every_die() -> None:
    dice = [die(*SURE_PURPLE)] * 2
    assert fit_to_counts(dice, limits(2, 1, 0)) is None
    assert fit_to_counts(dice, limits(2, 1, 0), at_most=True) is not None


def _state(players: int = 2) -> rules.GameState:
    return rules.new_game(tuple(PlayerSetup(name) for name in ("ann", "bo", "cy", "di")[:players]))


def test_dicetopia_limits_the_zones_shown_to_the_dice_the_game_has_left() -> None:
    state = _state(2)  # 2 players: 6 dice of each colour
    purple = Die(Colour.PURPLE, 4)
    state = rules.apply(state, rules.SetDice((("observatory_bank", (purple,) * 2),
                                              ("board:ann", (purple,)))))
    dice = [die(*SURE_PURPLE, zone="the_agency"), die(*SURE_WHITE, zone="board:ann"),
            die(*SURE_WHITE, zone=None)]  # the last lies in no zone: not counted
    (group,) = adapter.colour_groups(state, dice)
    assert group.at_most and list(group.indices) == [0, 1]
    # the bank's two purple dice stay (not shown); ann's board is shown again, so its
    # purple die is replaced by what the camera sees there now
    assert group.counts == {"purple": 4, "white": 6, "turquoise": 6}
    assert get_game("dicetopia").colour_groups is adapter.colour_groups


def test_a_dicetopia_roll_with_a_seventh_purple_asks_about_it() -> None:
    state = _state(2)
    dice = [die(*SURE_PURPLE, zone="the_agency")] * 6 + [die(0.55, 0.44, 0.01,
                                                             zone="the_agency")]
    fitted = fit_groups(dice, adapter.colour_groups(state, dice))
    assert [d.colour for d in fitted].count("purple") == 6
    assert fitted[-1].colour == "white"
    assert adapter.colour_groups(state, [die(*SURE_PURPLE, zone=None)]) == []
