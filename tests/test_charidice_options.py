"""Charidice: every legal way to score six dice (dicecam/games/charidice/options.py).

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
from dicecam.games.charidice.options import (
    Die,
    Kind,
    check_choice,
    gift_points,
    list_options,
    most_given_index,
)

SC, OPC = "same_colour", "one_per_colour"

# Each expected option: [kind, scored dice indices, points, bonus, gift].
CASES = [
    {
        "description": "Lena: 2 3 4 6 gives 15 + 15, 1 2 3 4 gives 10 + 25; gifts 13 and 24",
        "section": "A) Würfel gleicher Farbe, Beispiel 1 and Beispiel 1 (Fortsetzung)",
        "reconstruction": "Both scorings are one colour, so that colour shows 1 2 3 4 6; the "
                          "gifts (1 and 6 -> 13; 6 6 -> 24) need a second 6, here in another "
                          "colour (a sixth red die would fit the text as well).",
        "input": {"dice": [["red", 1], ["red", 2], ["red", 3], ["red", 4], ["red", 6],
                           ["blue", 6]]},
        "expected": {
            "options": [
                [SC, [0, 1, 2, 3], 10, 25, 24],
                [SC, [1, 2, 3, 4], 15, 15, 13],
                [SC, [0, 2, 3, 4], 14, 15, 14],
                [SC, [0, 1, 3, 4], 13, 15, 15],
                [SC, [0, 1, 2, 4], 12, 15, 16],
                [SC, [0, 1, 2, 3, 4], 16, 0, 12],
                [OPC, [4, 5], 12, 0, 10],
                [OPC, [3, 5], 10, 0, 18],
                [OPC, [2, 5], 9, 0, 19],
                [OPC, [1, 5], 8, 0, 20],
                [OPC, [0, 5], 7, 0, 21],
            ],
            "best_points": [SC, [0, 1, 2, 3], 10, 25, 24],
            "most_given": [SC, [0, 1, 2, 3], 10, 25, 24],
        },
    },
    {
        "description": "Florian: 2 2 2 2 gives 8 + 15 = 23 (gift 6 6 = 24); 2 2 2 6 6 gives 18 "
                       "and a gift of 2",
        "section": "B) Würfel unterschiedlicher Farbe, Beispiel 2 and Beispiel 2 (Fortsetzung)",
        "reconstruction": "Four 2s in four colours; the 6s must be one in a fifth colour and "
                          "one sharing a colour with a 2: only then does one-per-colour score "
                          "2 2 2 6 6 = 18 and leave a single 2 as the gift.",
        "input": {"dice": [["red", 2], ["blue", 2], ["green", 2], ["black", 2], ["black", 6],
                           ["grey", 6]]},
        "expected": {
            "options": [
                [OPC, [0, 1, 2, 3], 8, 15, 24],
                [OPC, [0, 1, 2, 4, 5], 18, 0, 2],
                [OPC, [0, 1, 2, 3, 5], 14, 0, 12],
            ],
            "best_points": [OPC, [0, 1, 2, 3], 8, 15, 24],
            "most_given": [OPC, [0, 1, 2, 3], 8, 15, 24],
        },
    },
    {
        "description": "big gift: 2 and 5 given are 12 points, doubled to 24",
        "section": "Das große Geschenk!, Beispiel",
        "reconstruction": "Marko scores a red straight 1 2 3 4 and gives away a 2 and a 5.",
        "input": {"dice": [["red", 1], ["red", 2], ["red", 3], ["red", 4], ["blue", 2],
                           ["green", 5]], "big_gift": True},
        "expected": {
            "includes": [[SC, [0, 1, 2, 3], 10, 25, 24]],
            "best_points": [SC, [0, 1, 2, 3], 10, 25, 24],
        },
    },
    {
        "description": "near miss: four of a colour with a gap is not a straight (15, not 25)",
        "section": "A) Bonus: 4x gleiche Farbe (ohne Straße)",
        "input": {"dice": [["red", 1], ["red", 2], ["red", 3], ["red", 5], ["blue", 4],
                           ["green", 4]]},
        "expected": {
            "includes": [[SC, [0, 1, 2, 3], 11, 15, 8]],
            "excludes_bonus": [25, 40, 50],
        },
    },
    {
        "description": "near miss: five of a colour scored whole get no bonus",
        "section": "A) Würfel gleicher Farbe; Achtung (only the combination's dice)",
        "input": {"dice": [["red", 1], ["red", 2], ["red", 3], ["red", 5], ["red", 6],
                           ["blue", 4]]},
        "expected": {
            "includes": [[SC, [0, 1, 2, 3, 4], 17, 0, 4],
                         [SC, [0, 1, 2, 4], 12, 15, 14]],
            "excludes_bonus": [25, 40, 50],
        },
    },
    {
        "description": "five of a colour in a row scored whole are a straight of 5 (40); "
                       "each straight of 4 inside it may be scored alone (25)",
        "section": "A) Bonus: gleichfarbige Straße aus 5 Würfeln",
        "input": {"dice": [["red", 2], ["red", 3], ["red", 4], ["red", 5], ["red", 6],
                           ["blue", 1]]},
        "expected": {
            "includes": [[SC, [0, 1, 2, 3, 4], 20, 40, 1],
                         [SC, [0, 1, 2, 3], 14, 25, 13],
                         [SC, [1, 2, 3, 4], 18, 25, 3]],
            "best_points": [SC, [0, 1, 2, 3, 4], 20, 40, 1],
        },
    },
    {
        "description": "a whole colour 1-6 is a straight of 6 (50) and gives nothing away",
        "section": "A) Bonus: gleichfarbige Straße aus 6 Würfeln",
        "input": {"dice": [["red", 6], ["red", 5], ["red", 4], ["red", 3], ["red", 2],
                           ["red", 1]]},
        "expected": {
            "includes": [[SC, [0, 1, 2, 3, 4, 5], 21, 50, 0], [OPC, [0], 6, 0, 20]],
            "best_points": [SC, [0, 1, 2, 3, 4, 5], 21, 50, 0],
            "most_given": [OPC, [5], 1, 0, 31],
        },
    },
    {
        "description": "near miss: 2 2 3 4 of one colour is four of a colour, not a straight",
        "section": "A) Bonus: 4x gleiche Farbe (ohne Straße)",
        "input": {"dice": [["red", 2], ["red", 2], ["red", 3], ["red", 4], ["blue", 5],
                           ["green", 1]]},
        "expected": {"includes": [[SC, [0, 1, 2, 3], 11, 15, 11]], "excludes_bonus": [25]},
    },
    {
        "description": "near miss: three dice of a colour may not be scored as a colour",
        "section": "A) Würfel gleicher Farbe: mindestens vier",
        "input": {"dice": [["red", 1], ["red", 2], ["red", 3], ["blue", 4], ["blue", 5],
                           ["green", 6]]},
        "expected": {"no_kind": SC},
    },
    {
        "description": "near miss: four 3s in only three colours are no equal-numbers bonus",
        "section": "B) Bonus: 4 gleiche Zahlen (in different colours)",
        "input": {"dice": [["red", 3], ["red", 3], ["blue", 3], ["green", 3], ["grey", 1],
                           ["black", 2]]},
        "expected": {"excludes_bonus": [15, 30, 60],
                     "includes": [[OPC, [0, 2, 3, 4, 5], 12, 0, 3]]},
    },
    {
        "description": "five equal numbers in five colours: 30",
        "section": "B) Bonus: 5 gleiche Zahlen",
        "input": {"dice": [["red", 4], ["blue", 4], ["green", 4], ["grey", 4], ["black", 4],
                           ["black", 1]]},
        "expected": {"includes": [[OPC, [0, 1, 2, 3, 4], 20, 30, 1],
                                  [OPC, [0, 1, 2, 3], 16, 15, 5]],
                     "best_points": [OPC, [0, 1, 2, 3, 4], 20, 30, 1]},
    },
    {
        "description": "six equal numbers in six colours: 60 (also one die per colour)",
        "section": "B) Bonus: 6 gleiche Zahlen",
        "input": {"dice": [["red", 6], ["blue", 6], ["green", 6], ["grey", 6], ["black", 6],
                           ["white", 6]]},
        "expected": {"count": 1 + 6 + 15,
                     "best_points": [OPC, [0, 1, 2, 3, 4, 5], 36, 60, 0],
                     "most_given": [OPC, [0, 1, 2, 3], 24, 15, 24]},
    },
    {
        "description": "identical dice are interchangeable: options are listed once",
        "section": "A) Würfel gleicher Farbe",
        "input": {"dice": [["red", 3], ["red", 3], ["red", 3], ["red", 3], ["red", 3],
                           ["red", 3]]},
        "expected": {"options": [[SC, [0, 1, 2, 3], 12, 15, 6],
                                 [SC, [0, 1, 2, 3, 4, 5], 18, 0, 0],
                                 [OPC, [0], 3, 0, 15]]},
    },
]


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
