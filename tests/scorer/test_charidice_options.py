"""Charidice: every legal way to score six dice (dicecam/scorer/charidice/options.py).

Rulebook: /work/shared/seeds/charidice-rules-de.md. Its pictures of dice are missing, so the
dice of Beispiel 1 (Lena) and Beispiel 2 (Florian) are reconstructed from every number the
text gives; each case says how. Colour names are free strings (the rulebook fixes none).
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from dicecam.errors import InputError, RuleError
from dicecam.scorer.charidice.options import (
    Die,
    Kind,
    check_choice,
    gift_points,
    list_options,
    most_given_index,
)
from dicecam.scorer.registry import get_game

SC, OPC = "same_colour", "one_per_colour"

# Each expected option: [kind, scored dice indices, points, bonus, gift].
CASES = get_game("charidice").worked_examples("options")


def _dice(raw: list) -> tuple[Die, ...]:
    return tuple(Die(colour, value) for colour, value in raw)


def _row(option) -> list:
    return [option.kind.value, list(option.scored), option.points, option.bonus, option.gift]


@pytest.mark.parametrize("case", CASES, ids=[c["description"] for c in CASES])
def test_rulebook_examples_and_near_misses(case: dict) -> None:
    options = list_options(_dice(case["input"]["dice"]), case["input"].get("big_gift", False))
    rows = [_row(o) for o in options]
    expected = case["expected"]
    if "options" in expected:
        assert rows == expected["options"]
    for row in expected.get("includes", []):
        assert row in rows
    if "count" in expected:
        assert len(rows) == expected["count"]
    if "best_points" in expected:
        assert rows[0] == expected["best_points"]
    if "most_given" in expected:
        assert rows[most_given_index(options)] == expected["most_given"]
    for bonus in expected.get("excludes_bonus", []):
        assert bonus not in [r[3] for r in rows]
    if "no_kind" in expected:
        assert expected["no_kind"] not in [r[0] for r in rows]


def test_gift_counts_fives_and_sixes_double() -> None:
    assert gift_points([1, 6]) == 13  # Lena's gift
    assert gift_points([6, 6]) == 24
    assert gift_points([2, 5]) == 12
    assert gift_points([2, 5], big_gift=True) == 24
    assert gift_points([1, 2, 3, 4]) == 10
    assert gift_points([]) == 0


def test_colour_names_ignore_case_and_spaces() -> None:
    assert Die(" Black ", 3) == Die("black", 3)
    dice = _dice([["Red", 1], ["red", 2], ["RED ", 3], ["red", 4], ["blue", 5], ["grey", 6]])
    assert list_options(dice)[0].scored == (0, 1, 2, 3)


CHOICE_ERRORS = [
    ("same_colour", [0, 1, 2, 5], "every scored die shows that colour"),
    ("same_colour", [0, 1, 2], "score all 5 red dice, or exactly the dice of one bonus"),
    ("same_colour", [5], "only 1 dice show blue"),
    ("one_per_colour", [0, 1], "red is scored 2 times"),
    ("one_per_colour", [0], "none is scored for blue"),
    ("one_per_colour", [], "choose at least one die"),
    ("one_per_colour", [0, 0], "appears twice"),
    ("one_per_colour", [0, 6], "there is no die 6"),
]


@pytest.mark.parametrize(("kind", "scored", "message"), CHOICE_ERRORS)
def test_illegal_choices_say_why(kind: str, scored: list[int], message: str) -> None:
    # five red dice 1 2 3 5 6 (no straight of five), a blue 4
    dice = _dice([["red", 1], ["red", 2], ["red", 3], ["red", 5], ["red", 6], ["blue", 4]])
    with pytest.raises(RuleError, match=message):
        check_choice(dice, Kind(kind), scored)


@pytest.mark.parametrize("raw", [
    [["red", 1]] * 5,
    [["red", 1]] * 7,
])
def test_a_throw_has_six_dice(raw: list) -> None:
    with pytest.raises(InputError, match="exactly 6 dice"):
        list_options(_dice(raw))


@pytest.mark.parametrize(("colour", "value"), [("red", 0), ("red", 7), ("", 3), ("red", True)])
def test_bad_dice_are_refused(colour: str, value: int) -> None:
    with pytest.raises(InputError):
        Die(colour, value)


# An independent reading of the rulebook, by brute force over every subset of the dice.
def _reference(dice: tuple[Die, ...]) -> set[tuple]:
    found = set()
    colours = {d.colour for d in dice}
    for size in range(1, 7):
        for subset in combinations(range(6), size):
            chosen = [dice[i] for i in subset]
            values = sorted(d.value for d in chosen)
            run = values == list(range(values[0], values[0] + size))
            rest = [dice[i].value for i in range(6) if i not in subset]
            gift = sum(v * (2 if v >= 5 else 1) for v in rest)
            key = Counter((d.colour, d.value) for d in chosen)
            key = tuple(sorted(key.items()))
            # A) one colour with at least four dice
            shown = {d.colour for d in chosen}
            if len(shown) == 1:
                colour = chosen[0].colour
                of_colour = [i for i in range(6) if dice[i].colour == colour]
                if len(of_colour) >= 4:
                    bonus = None
                    if size >= 4 and run:
                        bonus = {4: 25, 5: 40, 6: 50}[size]
                    elif size == 4:
                        bonus = 15
                    elif list(subset) == of_colour:
                        bonus = 0
                    if bonus is not None:
                        found.add((SC, key, sum(values) + bonus, gift))
            # B) one per colour
            if len(shown) == size:
                if size >= 4 and len(set(values)) == 1:
                    found.add((OPC, key, sum(values) + {4: 15, 5: 30, 6: 60}[size], gift))
                elif shown == colours:
                    found.add((OPC, key, sum(values), gift))
    return found


def test_listing_is_complete_against_brute_force() -> None:
    rng = random.Random(3)
    palette = ["red", "blue", "green", "grey", "black", "white"]
    for _ in range(400):
        n_colours = rng.choice([2, 2, 3, 4, 6])
        dice = tuple(Die(rng.choice(palette[:n_colours]), rng.randint(1, 6)) for _ in range(6))
        options = list_options(dice)
        listed = {
            (o.kind.value, tuple(sorted(Counter((dice[i].colour, dice[i].value)
                                                for i in o.scored).items())), o.total, o.gift)
            for o in options
        }
        assert len(listed) == len(options), "an option is listed twice"
        assert listed == _reference(dice), dice
        totals = [(o.total, o.gift) for o in options]
        assert totals == sorted(totals, key=lambda t: (-t[0], -t[1]))
        for o in options:
            assert check_choice(dice, o.kind, o.scored) == o
