"""Dicetopia read where its dice lie at the end: the zones the camera places dice in, the
table the demo lays out, and what a roll of the endgame table counts as.

Dicetopia is scored once play is over from what lies on the boards (rulebook section 6),
so the camera reads the endgame table rather than a throw. The readings chosen:

- **Zones.** The city map's six districts are zones named by their ids; a player's faction
  board is ``board:NAME`` (the area drawn on the tablet's picture for that player) or
  ``faction:NAME`` (a zone map made with ``dicecam calibrate zones --board
  dicetopia-faction:NAME=...``): both mean NAME's board. A rectangle drawn on the tablet
  around the city map (the area ``city``) places the six districts from the printed map's
  layout (``calibration/boards/dicetopia-city.json``), so the players draw 1 + N areas
  once, not six districts. A die read outside every zone is not part of the table (a die
  beside the boards, one still in the box) and is never counted.
- **Dice the camera missed.** Dice are never taken off the table, so at the end the N
  faction boards hold 6N of the 6N + 6 dice and the districts the other 6. When a roll
  shows every board full and fewer than 6 dice in the districts, it says so ("5 in the
  districts, where 6 lie at the end: 1 hidden or missed?"); the score is not held back
  (a die may lie under a hand), the players enter the district's dice if one was missed.
- **What the camera cannot see** is entered by hand: the agents (markers, not dice: they
  are counted per district with + and -), the missions, RISIKO's card and the copy.
- **The demo's endgame** (``table_due``) is a table as a game of these players ends:
  every faction board holds its 6 dice, the 6 dice left on the map lie in the districts
  0, 1, 2, 1, 0, 2 (in the rulebook's order of the districts), and each player's 6
  agents fill the other fields in play (N + 1 a district), dealt district by district in
  rounds of one agent a player, each round starting one seat later, so that some
  districts are won outright, some tied. Colours: 2N + 2 dice of each, as in the box; the
  demo deals them out and throws their values.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from dicecam.messages import Message
from dicecam.reading import DieReading
from dicecam.scorer.descriptor import TableDue, ZoneDue
from dicecam.scorer.dicetopia import rules
from dicecam.scorer.dicetopia.messages import MESSAGES
from dicecam.scorer.dicetopia.model import (
    AGENTS_PER_PLAYER,
    BOARD_FIELDS,
    DISTRICTS,
    Colour,
    dice_per_colour,
)

#: the printed boards (``calibration/boards``) and the area drawn around the city map
CITY_BOARD = "dicetopia-city"
FACTION_BOARD = "dicetopia-faction"
CITY_AREA = "city"
DRAWN_BOARDS = {CITY_AREA: CITY_BOARD}
#: a faction board placed by a zone map (``faction:LABEL``): the player LABEL's board
FACTION_ZONE_PREFIX = "faction:"
#: the dice left on the map at the end: of 6N + 6 dice, 6N lie on the N faction boards
DISTRICT_DICE_AT_END = 6
#: the demo's dice left on the map, per district in DISTRICTS order (six in all)
DEMO_DISTRICT_DICE = (0, 1, 2, 1, 0, 2)


def game_zone(zone: str | None) -> str | None:
    """The game's name of a zone the camera placed a die in (``faction:NAME`` is NAME's
    board); other names as they are."""
    if zone is not None and zone.startswith(FACTION_ZONE_PREFIX):
        return rules.board_zone(zone.removeprefix(FACTION_ZONE_PREFIX))
    return zone


def table_due(state: rules.GameState) -> TableDue:
    """The endgame table of these players, as the demo lays it out (readings above)."""
    names = state.position.names
    n = len(names)
    owners = [(seat + round_) % n for round_ in range(AGENTS_PER_PLAYER) for seat in range(n)]
    zones = []
    dealt = 0
    for district, dice in zip(DISTRICTS, DEMO_DISTRICT_DICE, strict=True):
        free = n + 1 - dice
        zones.append(ZoneDue(district.value, dice, tuple(owners[dealt:dealt + free])))
        dealt += free
    zones += [ZoneDue(FACTION_ZONE_PREFIX + name, BOARD_FIELDS) for name in names]
    boards = ((CITY_BOARD, ""),) + tuple((FACTION_BOARD, name) for name in names)
    return TableDue(boards, tuple(zones),
                    tuple((c.value, dice_per_colour(n)) for c in Colour))


def roll_summary(state: rules.GameState, dice: Sequence[DieReading], status: str
                 ) -> Message:
    """What the dice seen count as: how many lie on each board and in the districts, or
    that the boards are still to be marked on the picture."""
    zones = set(rules.zone_names(state.position))
    placed = Counter(z for d in dice if (z := game_zone(d.zone)) in zones)
    if not placed:
        return MESSAGES("dt.roll_no_zones", n=len(dice))
    parts: list[Message] = [
        MESSAGES("dt.roll_on_board", n=placed[rules.board_zone(name)], player=name)
        for name in state.position.names if placed[rules.board_zone(name)]]
    in_districts = sum(placed[d.value] for d in DISTRICTS)
    boards_full = all(placed[rules.board_zone(name)] == BOARD_FIELDS
                      for name in state.position.names)
    if boards_full and in_districts < DISTRICT_DICE_AT_END:
        # every board read full: the dice not on a board are the six left on the map
        parts.append(MESSAGES("dt.roll_in_districts_short", n=in_districts,
                              of=DISTRICT_DICE_AT_END,
                              missing=DISTRICT_DICE_AT_END - in_districts))
    elif in_districts:
        parts.append(MESSAGES("dt.roll_in_districts", n=in_districts))
    outside = len(dice) - sum(placed.values())
    if outside:
        parts.append(MESSAGES("dt.roll_outside", n=outside))
    return MESSAGES("dt.roll_zones", n=sum(placed.values()), parts=tuple(parts))
