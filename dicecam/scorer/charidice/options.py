"""Charidice: every legal way to score one throw of six dice, with points, bonus and gift.

Rulebook: *Charidice* Spielregeln, "Für was bekomme ich Punkte?" and
"Nicht gewertete Würfel musst du verschenken!". Each die shows a numeral 1-6 printed in one
of six colours; "colour" is the colour of the numeral on top.

A) Same colour (``Kind.SAME_COLOUR``): a colour shown by at least four dice may be scored.
   The scored dice are either all dice of that colour, or exactly the dice of one bonus
   combination: any four dice of the colour that are not a straight (15), or a same-colour
   straight of 4, 5 or 6 dice (25, 40, 50).
B) One per colour (``Kind.ONE_PER_COLOUR``): one die of each rolled colour, or exactly the
   dice of one bonus combination: 4, 5 or 6 equal numbers in different colours (15, 30, 60).
Unscored dice are the gift to the left neighbour; 5s and 6s count double, and a big gift
doubles the whole gift.

Readings chosen where the rulebook leaves room (tested in tests/scorer/test_charidice_options.py):
- The bonus belongs to the scored set, not to a declaration: scoring all four dice of a
  colour *is* the four-dice combination (15, or 25 if they are a straight), scoring a whole
  colour of five or six dice that form a straight gets 40 or 50, and a whole colour of five
  or six dice that is not a straight gets no bonus. Likewise one die per colour that happen
  to be four or more equal numbers gets the equal-numbers bonus.
- "Four of a colour (without straight)" is any four dice of that colour that do not form a
  straight, also when the colour has five or six dice (Lena's example needs this: she picks
  2 3 4 6 out of a colour showing at least 1 2 3 4 6). A straight of four inside a longer
  straight may be scored on its own (the player may want to give more away).
- A straight needs distinct consecutive values (1 2 3 4 ... ); 2 2 3 4 is four of a colour.
- Dice with the same colour and value are interchangeable, so options that score the same
  (colour, value) dice are listed once, with the lowest dice indices.
- Ranking: most points now (points + bonus) first; ties give away more first (the charity
  race), then same colour before one per colour, then lower dice indices.
- Colour names are free strings (a dice set's profile names them); they are compared after
  trimming spaces and ignoring case, and a game may see at most six distinct colours.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations, product

from dicecam.errors import InputError, RuleError
from dicecam.scorer.charidice.messages import MESSAGES, colour_name

DICE_PER_THROW = 6
MAX_COLOURS = 6
MIN_SAME_COLOUR = 4
MIN_EQUAL_NUMBERS = 4
#: Values worth double when given away ("Verschenkst du dabei 5 oder 6 ...").
DOUBLED_VALUES = frozenset({5, 6})
BIG_GIFT_FACTOR = 2


class Kind(StrEnum):
    SAME_COLOUR = "same_colour"
    ONE_PER_COLOUR = "one_per_colour"


class Combination(StrEnum):
    NONE = "none"
    FOUR_OF_COLOUR = "four_of_colour"
    STRAIGHT_4 = "straight_4"
    STRAIGHT_5 = "straight_5"
    STRAIGHT_6 = "straight_6"
    EQUAL_4 = "equal_4"
    EQUAL_5 = "equal_5"
    EQUAL_6 = "equal_6"


BONUS: dict[Combination, int] = {
    Combination.NONE: 0,
    Combination.FOUR_OF_COLOUR: 15,
    Combination.STRAIGHT_4: 25,
    Combination.STRAIGHT_5: 40,
    Combination.STRAIGHT_6: 50,
    Combination.EQUAL_4: 15,
    Combination.EQUAL_5: 30,
    Combination.EQUAL_6: 60,
}
#: Every number that may stand in a sheet's bonus column.
BONUS_VALUES = frozenset(BONUS.values())

_STRAIGHTS = {4: Combination.STRAIGHT_4, 5: Combination.STRAIGHT_5, 6: Combination.STRAIGHT_6}
_EQUALS = {4: Combination.EQUAL_4, 5: Combination.EQUAL_5, 6: Combination.EQUAL_6}
_KIND_ORDER = {Kind.SAME_COLOUR: 0, Kind.ONE_PER_COLOUR: 1}


def normalise_colour(colour: str) -> str:
    return colour.strip().casefold()


@dataclass(frozen=True)
class Die:
    """One die's top face: the numeral's colour (normalised) and value."""

    colour: str
    value: int

    def __post_init__(self) -> None:
        if not isinstance(self.colour, str) or not self.colour.strip():
            raise InputError(f"a die's colour must be a non-empty name, got {self.colour!r}")
        if self.colour != normalise_colour(self.colour):
            object.__setattr__(self, "colour", normalise_colour(self.colour))
        if isinstance(self.value, bool) or self.value not in range(1, 7):
            raise InputError(f"a die's value must be 1 to 6, got {self.value!r}")


@dataclass(frozen=True)
class Option:
    """One legal way to score a throw. ``gift`` already includes the big gift's doubling."""

    kind: Kind
    scored: tuple[int, ...]
    points: int
    combination: Combination
    gift: int

    @property
    def bonus(self) -> int:
        return BONUS[self.combination]

    @property
    def total(self) -> int:
        """What the active player writes down now: points plus bonus."""
        return self.points + self.bonus


def check_throw(dice: Sequence[Die]) -> tuple[Die, ...]:
    """The six dice of a throw, or InputError saying what is wrong with them."""
    dice = tuple(dice)
    if len(dice) != DICE_PER_THROW:
        raise InputError(f"a Charidice throw has exactly {DICE_PER_THROW} dice, got {len(dice)}")
    for die in dice:
        if not isinstance(die, Die):
            raise InputError(f"a throw holds dice, got {die!r}")
    return dice


def gift_points(values: Iterable[int], big_gift: bool = False) -> int:
    """The points of given-away dice: 5s and 6s double, the big gift doubles it all."""
    points = sum(2 * v if v in DOUBLED_VALUES else v for v in values)
    return points * BIG_GIFT_FACTOR if big_gift else points


def is_straight(values: Sequence[int]) -> bool:
    ordered = sorted(values)
    return len(set(ordered)) == len(ordered) and ordered[-1] - ordered[0] == len(ordered) - 1


def check_choice(
    dice: Sequence[Die], kind: Kind, scored: Iterable[int], big_gift: bool = False
) -> Option:
    """The option that scores ``scored`` (dice indices) as ``kind``; RuleError saying why not."""
    dice = check_throw(dice)
    indices = tuple(sorted(scored))
    if not indices:
        raise RuleError(MESSAGES("cd.choose_none"))
    if len(set(indices)) != len(indices):
        raise RuleError("each die can be scored only once; a die index appears twice")
    bad = [i for i in indices if i not in range(len(dice))]
    if bad:
        raise RuleError(f"dice are numbered 0 to {len(dice) - 1}; there is no die {bad[0]}")
    chosen = [dice[i] for i in indices]
    if kind is Kind.SAME_COLOUR:
        combination = _same_colour_combination(dice, indices, chosen)
    elif kind is Kind.ONE_PER_COLOUR:
        combination = _one_per_colour_combination(dice, chosen)
    else:
        raise RuleError(f"unknown way to score: {kind!r}")
    unscored = [d.value for i, d in enumerate(dice) if i not in indices]
    return Option(kind, indices, sum(d.value for d in chosen), combination,
                  gift_points(unscored, big_gift))


def _same_colour_combination(
    dice: tuple[Die, ...], indices: tuple[int, ...], chosen: list[Die]
) -> Combination:
    colours = {d.colour for d in chosen}
    if len(colours) > 1:
        raise RuleError(MESSAGES("cd.one_colour_mixed",
                                 colours=tuple(colour_name(c) for c in sorted(colours))))
    colour = chosen[0].colour
    whole = tuple(i for i, d in enumerate(dice) if d.colour == colour)
    if len(whole) < MIN_SAME_COLOUR:
        raise RuleError(MESSAGES("cd.one_colour_few", n=len(whole), colour=colour_name(colour),
                                 least=MIN_SAME_COLOUR))
    values = [d.value for d in chosen]
    if len(values) >= MIN_SAME_COLOUR and is_straight(values):
        return _STRAIGHTS[len(values)]
    if len(values) == MIN_SAME_COLOUR:
        return Combination.FOUR_OF_COLOUR
    if indices == whole:
        return Combination.NONE
    raise RuleError(MESSAGES("cd.one_colour_all", n=len(whole), colour=colour_name(colour)))


def _one_per_colour_combination(dice: tuple[Die, ...], chosen: list[Die]) -> Combination:
    counts = Counter(d.colour for d in chosen)
    twice = sorted(c for c, n in counts.items() if n > 1)
    if twice:
        raise RuleError(MESSAGES("cd.per_colour_twice", colour=colour_name(twice[0]),
                                 n=counts[twice[0]]))
    values = {d.value for d in chosen}
    if len(chosen) >= MIN_EQUAL_NUMBERS and len(values) == 1:
        return _EQUALS[len(chosen)]
    rolled = {d.colour for d in dice}
    missing = sorted(rolled - set(counts))
    if missing:
        raise RuleError(MESSAGES("cd.per_colour_missing", n=len(rolled),
                                 colours=tuple(colour_name(c) for c in missing)))
    return Combination.NONE


def list_options(dice: Sequence[Die], big_gift: bool = False) -> tuple[Option, ...]:
    """Every legal way to score these six dice, best for points now first."""
    dice = check_throw(dice)
    found: dict[tuple, Option] = {}
    for kind, indices in _candidates(dice):
        option = check_choice(dice, kind, indices, big_gift)
        key = (kind, tuple(sorted((dice[i].colour, dice[i].value) for i in option.scored)))
        found.setdefault(key, option)
    return tuple(sorted(found.values(), key=_rank_key))


def most_given_index(options: Sequence[Option]) -> int:
    """Index of the option that gives away the most (the better for points on a tie)."""
    return max(range(len(options)), key=lambda i: (options[i].gift, -i))


def _rank_key(option: Option) -> tuple:
    return (-option.total, -option.gift, _KIND_ORDER[option.kind], option.scored)


def _candidates(dice: tuple[Die, ...]) -> Iterator[tuple[Kind, tuple[int, ...]]]:
    by_colour: dict[str, list[int]] = {}
    for i, die in enumerate(dice):
        by_colour.setdefault(die.colour, []).append(i)
    for members in by_colour.values():
        if len(members) < MIN_SAME_COLOUR:
            continue
        yield Kind.SAME_COLOUR, tuple(members)
        for size in range(MIN_SAME_COLOUR, len(members) + 1):
            for subset in combinations(members, size):
                if size == MIN_SAME_COLOUR or is_straight([dice[i].value for i in subset]):
                    yield Kind.SAME_COLOUR, subset
    for pick in product(*by_colour.values()):
        yield Kind.ONE_PER_COLOUR, tuple(sorted(pick))
    for value in range(1, 7):
        showing = [i for i, d in enumerate(dice) if d.value == value]
        for size in range(MIN_EQUAL_NUMBERS, len(showing) + 1):
            for subset in combinations(showing, size):
                if len({dice[i].colour for i in subset}) == size:
                    yield Kind.ONE_PER_COLOUR, subset
