"""Charidice end of game: column sums, the charity bonus, final totals and the winners.

Rulebook: *Charidice* Spielregeln, "Wo trage ich meine Punkte ein?" and
"Ende des Spiels". A sheet has one row per round with four columns: 1) rolled points,
2) bonus, 3) points received from the right neighbour, 4) points given to the left.

Readings chosen (tested in tests/scorer/test_charidice_sheet.py):
- Everyone tied for the most points given gets the charity bonus: 30 if they gave more
  than 60 (61 or more), otherwise 20. Read literally, this holds even when the most given
  is 0 (then everyone gets 20); a table would rarely meet that.
- The total is rolled + bonus + received + charity bonus; the given column only decides
  the charity bonus (Marko's example: 126 + 75 + 22 + 20 = 243).
- Everyone with the highest total wins together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

CHARITY_BONUS = 20
BIG_CHARITY_BONUS = 30
#: Giving more than this earns the big charity bonus instead.
BIG_CHARITY_ABOVE = 60


@dataclass(frozen=True)
class SheetRow:
    """One round's row, in the sheet's column order."""

    rolled: int
    bonus: int
    received: int
    given: int


@dataclass(frozen=True)
class PlayerResult:
    name: str
    rolled: int
    bonus: int
    received: int
    given: int
    charity_bonus: int

    @property
    def total(self) -> int:
        return self.rolled + self.bonus + self.received + self.charity_bonus


@dataclass(frozen=True)
class Result:
    players: tuple[PlayerResult, ...]
    winners: tuple[str, ...]


def charity_bonuses(given: Sequence[int]) -> tuple[int, ...]:
    """The charity bonus of each player, from each player's total points given."""
    most = max(given)
    bonus = BIG_CHARITY_BONUS if most > BIG_CHARITY_ABOVE else CHARITY_BONUS
    return tuple(bonus if g == most else 0 for g in given)


def tally(sheets: Mapping[str, Sequence[SheetRow]], *, final: bool = True) -> Result:
    """Results of the sheets, players in the mapping's order. The charity bonus is only
    given at the end, so a game still being played (``final=False``) shows none."""
    names = list(sheets)
    sums = [
        tuple(sum(getattr(row, column) for row in sheets[name])
              for column in ("rolled", "bonus", "received", "given"))
        for name in names
    ]
    charity = charity_bonuses([s[3] for s in sums]) if final else (0,) * len(names)
    players = tuple(PlayerResult(name, *s, c) for name, s, c in zip(names, sums, charity,
                                                                    strict=True))
    best = max(p.total for p in players)
    return Result(players, tuple(p.name for p in players if p.total == best))
