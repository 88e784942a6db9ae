"""A settled roll -> the dice of every Dicetopia zone it shows (a district, a faction board).

Dice outside Dicetopia's zones (no zone, a tray) are ignored; a die in ``faction:NAME`` (a
zone map's faction board) lies on NAME's board (``endgame.game_zone``). A die in a zone that could
not be read must be corrected first, so that a misread never scores.

``colour_groups`` tells the colour decision what the game knows: a game of N players has
2N + 2 dice of each colour, so the dice in the zones a roll shows hold at most that many,
less those of the colour still lying in the zones it does not show (their dice stay).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from dicecam.errors import InputError
from dicecam.reading import DieReading
from dicecam.scorer.colour_counts import ColourGroup
from dicecam.scorer.dicetopia import rules
from dicecam.scorer.dicetopia.codec import die_from_reading
from dicecam.scorer.dicetopia.endgame import game_zone
from dicecam.scorer.dicetopia.messages import MESSAGES, district_name
from dicecam.scorer.dicetopia.model import DISTRICTS, Colour, Die, dice_per_colour


def action_from_roll(state: rules.GameState, dice: Sequence[DieReading]) -> rules.SetDice | None:
    """The dice of the zones the roll shows; None if it shows none."""
    zones = set(rules.zone_names(state.position))
    found: dict[str, list[Die]] = {}
    for i, die in enumerate(dice):
        zone = game_zone(die.zone)
        if zone is None or zone not in zones:
            continue
        if die.value is None or die.colour is None:
            board = zone.removeprefix(rules.BOARD_ZONE_PREFIX)
            where = (MESSAGES("dt.board_of", player=board)
                     if zone.startswith(rules.BOARD_ZONE_PREFIX) else district_name(zone))
            raise InputError(MESSAGES("dt.unread", zone=where))
        found.setdefault(zone, []).append(die_from_reading(die.colour, die.value,
                                                               f"dice[{i}]"))
    if not found:
        return None
    return rules.SetDice(tuple((zone, tuple(found[zone])) for zone in sorted(found)))


def colour_groups(state: rules.GameState, dice: Sequence[DieReading]) -> list[ColourGroup]:
    """The dice lying in Dicetopia's zones, with at most as many of each colour as the game
    has left for those zones."""
    position = state.position
    zones = set(rules.zone_names(position))
    indices = [i for i, die in enumerate(dice) if game_zone(die.zone) in zones]
    if not indices:
        return []
    shown = {game_zone(dice[i].zone) for i in indices}
    kept: Counter[str] = Counter()
    for district, district_dice in zip(DISTRICTS, position.district_dice, strict=True):
        if district.value not in shown:
            kept.update(d.colour.value for d in district_dice)
    for name, board in zip(position.names, position.boards, strict=True):
        if rules.board_zone(name) not in shown:
            kept.update(d.colour.value for d in board)
    limit = dice_per_colour(len(position.players))
    return [ColourGroup(indices, {c.value: max(0, limit - kept[c.value]) for c in Colour},
                        at_most=True)]
