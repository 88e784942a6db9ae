"""What a tablet asks for, parsed at the socket edge into frozen commands.

Each event that changes a game has a command here and a ``parse_<event>`` function that
checks every field of its JSON payload (after ``payload.check_payload``'s general checks)
and raises ``InputError`` naming what was wrong. The game session then only ever sees
well-formed commands: it checks them against the rules, never against the wire format.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dicecam import jsoncheck as jc
from dicecam.errors import InputError
from dicecam.reading import DieReading
from dicecam.webapp.session.messages import APP

MAX_DICE = 120  # four Dice Party parties of 60 would be 240, but one roll is at most 60 dice
COLOUR_NAME_MAX = 30
ZONE_NAME_MAX = 60
ROLL_ID_MAX = 2**62
ENTRY_ID_MAX = 40
#: the most players a crowded demo game names (the game's rules say its own limit)
DEMO_PARTY_PLAYERS_MAX = 16
#: the largest side of a camera frame a zone map is drawn on (an 8K picture)
FRAME_SIDE_MAX = 8192
#: areas drawn at once: one per player (Dice Party has at most 8), with room to spare
ZONES_MAX = 16


@dataclass(frozen=True)
class NewGame:
    game: str
    config: dict[str, Any]


@dataclass(frozen=True)
class OpenGame:
    game_id: int


@dataclass(frozen=True)
class CloseGame:
    """End a game: it stays in the list, with its score, and is no longer the one played."""

    game_id: int


@dataclass(frozen=True)
class DeleteGame:
    """Remove a game and its log for good."""

    game_id: int


@dataclass(frozen=True)
class Act:
    """One of the game's legal actions as JSON; its codec parses the rest. ``seen_version``:
    the state's version the tablet showed when it was tapped (None: not said)."""

    action: dict[str, Any]
    seen_version: int | None = None


@dataclass(frozen=True)
class Undo:
    pass


@dataclass(frozen=True)
class CorrectDie:
    """A tap said what a die of a roll shows; ``value`` None: it is not a die at all."""

    roll_id: int
    index: int
    value: int | None
    colour: str | None


@dataclass(frozen=True)
class AddDie:
    """*A die here*: the camera missed a die at ``(x, y)`` (the roll's frame pixels)."""

    roll_id: int
    x: float
    y: float
    value: int
    colour: str | None


@dataclass(frozen=True)
class ConfirmRoll:
    roll_id: int


@dataclass(frozen=True)
class TeachLayout:
    """The roll on the table is the teaching layout: dice in rows by value."""

    roll_id: int


@dataclass(frozen=True)
class AssignZone:
    """The dice of a roll read outside every zone lie in ``zone``."""

    roll_id: int
    zone: str


@dataclass(frozen=True)
class EnterRoll:
    """Dice typed in on the tablet: each sure (``corrected``), boxes laid out in rows."""

    dice: tuple[DieReading, ...]
    #: the pad's id for this entry: the same entry sent twice (a double tap on "Score these
    #: dice") is scored once
    entry_id: str | None = None


@dataclass(frozen=True)
class SetZones:
    """Areas drawn on the camera's picture, one rectangle per name (a player's party), in
    the pixels of a ``width`` x ``height`` frame; none: the table has no zones again."""

    width: int
    height: int
    zones: tuple[tuple[str, tuple[float, float, float, float]], ...]


def parse_set_zones(data: Any) -> SetZones:
    payload = jc.require_object(data, "zones")
    jc.reject_unknown_keys(payload, "zones", ("width", "height", "zones"))
    width = jc.require_int(payload.get("width"), "zones.width", 16, FRAME_SIDE_MAX)
    height = jc.require_int(payload.get("height"), "zones.height", 16, FRAME_SIDE_MAX)
    items = jc.require_list(payload.get("zones"), "zones.zones", max_len=ZONES_MAX)
    zones = []
    for i, item in enumerate(items):
        where = f"zones.zones[{i}]"
        obj = jc.require_object(item, where)
        jc.reject_unknown_keys(obj, where, ("name", "rect"))
        name = jc.require_str(obj.get("name"), f"{where}.name", max_len=ZONE_NAME_MAX)
        if not name.strip():
            raise InputError(f"{where}.name must name a zone")
        corners = jc.require_list(obj.get("rect"), f"{where}.rect", min_len=4, max_len=4)
        x0, y0, x1, y1 = (jc.require_number(v, f"{where}.rect[{k}]", -FRAME_SIDE_MAX,
                                            2 * FRAME_SIDE_MAX) for k, v in enumerate(corners))
        left, right, top, bottom = min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1)
        if right - left < 1 or bottom - top < 1:
            raise InputError(APP("app.zone_empty"))
        zones.append((name, (left, top, right, bottom)))
    names = [name for name, _ in zones]
    if len(set(names)) != len(names):
        raise InputError(APP("app.zone_twice"))
    return SetZones(width, height, tuple(zones))


def parse_new_game(data: Any, games: Sequence[str]) -> NewGame:
    payload = jc.require_object(data, "new game")
    jc.reject_unknown_keys(payload, "new game", ("game", "config"))
    game = jc.require_choice(payload.get("game"), "new game.game", games)
    config = jc.require_object(payload.get("config", {}), "new game.config")
    return NewGame(game, dict(config))


def parse_open_game(data: Any) -> OpenGame:
    payload = jc.require_object(data, "open game")
    jc.reject_unknown_keys(payload, "open game", ("game_id",))
    return OpenGame(jc.require_int(payload.get("game_id"), "open game.game_id", 1, 2**62))


def parse_close_game(data: Any) -> CloseGame:
    payload = jc.require_object(data, "close game")
    jc.reject_unknown_keys(payload, "close game", ("game_id",))
    return CloseGame(jc.require_int(payload.get("game_id"), "close game.game_id", 1, 2**62))


def parse_delete_game(data: Any) -> DeleteGame:
    payload = jc.require_object(data, "delete game")
    jc.reject_unknown_keys(payload, "delete game", ("game_id",))
    return DeleteGame(jc.require_int(payload.get("game_id"), "delete game.game_id", 1, 2**62))


def parse_act(data: Any) -> Act:
    action = dict(jc.require_object(data, "action"))
    seen = action.pop("seen_version", None)
    if seen is not None:
        seen = jc.require_int(seen, "action.seen_version", 0, 2**62)
    return Act(action, seen)


def parse_undo(data: Any) -> Undo:
    if data not in (None, {}):
        jc.reject_unknown_keys(jc.require_object(data, "undo"), "undo", ())
    return Undo()


def parse_correct_die(data: Any) -> CorrectDie:
    payload = jc.require_object(data, "correction")
    jc.reject_unknown_keys(payload, "correction", ("roll_id", "index", "value", "colour"))
    roll_id = jc.require_int(payload.get("roll_id"), "correction.roll_id", 0, ROLL_ID_MAX)
    index = jc.require_int(payload.get("index"), "correction.index", 0, MAX_DICE * 4)
    value = payload.get("value")
    if value is not None:
        jc.require_int(value, "correction.value", 1, 6)
    colour = _optional_str(payload.get("colour"), "correction.colour")
    return CorrectDie(roll_id, index, value, colour)


def parse_add_die(data: Any) -> AddDie:
    payload = jc.require_object(data, "added die")
    jc.reject_unknown_keys(payload, "added die", ("roll_id", "x", "y", "value", "colour"))
    roll_id = jc.require_int(payload.get("roll_id"), "added die.roll_id", 0, ROLL_ID_MAX)
    x = jc.require_number(payload.get("x"), "added die.x", 0, FRAME_SIDE_MAX)
    y = jc.require_number(payload.get("y"), "added die.y", 0, FRAME_SIDE_MAX)
    value = jc.require_int(payload.get("value"), "added die.value", 1, 6)
    colour = _optional_str(payload.get("colour"), "added die.colour")
    return AddDie(roll_id, float(x), float(y), value, colour)


def parse_confirm_roll(data: Any) -> ConfirmRoll:
    payload = jc.require_object(data, "confirmation")
    jc.reject_unknown_keys(payload, "confirmation", ("roll_id",))
    return ConfirmRoll(jc.require_int(payload.get("roll_id"), "confirmation.roll_id", 0,
                                      ROLL_ID_MAX))


def parse_teach_layout(data: Any) -> TeachLayout:
    payload = jc.require_object(data, "teaching layout")
    jc.reject_unknown_keys(payload, "teaching layout", ("roll_id",))
    return TeachLayout(jc.require_int(payload.get("roll_id"), "teaching layout.roll_id", 0,
                                      ROLL_ID_MAX))


def parse_assign_zone(data: Any) -> AssignZone:
    payload = jc.require_object(data, "zone assignment")
    jc.reject_unknown_keys(payload, "zone assignment", ("roll_id", "zone"))
    roll_id = jc.require_int(payload.get("roll_id"), "zone assignment.roll_id", 0,
                             ROLL_ID_MAX)
    zone = jc.require_str(payload.get("zone"), "zone assignment.zone", max_len=ZONE_NAME_MAX)
    if not zone:
        raise InputError("zone assignment.zone must name a zone")
    return AssignZone(roll_id, zone)


def parse_enter_roll(data: Any) -> EnterRoll:
    payload = jc.require_object(data, "entered roll")
    jc.reject_unknown_keys(payload, "entered roll", ("dice", "entry_id"))
    entry_id = _optional_str(payload.get("entry_id"), "entered roll.entry_id", ENTRY_ID_MAX)
    items = jc.require_list(payload.get("dice"), "entered roll.dice", min_len=1,
                            max_len=MAX_DICE)
    dice = []
    for i, item in enumerate(items):
        where = f"entered roll.dice[{i}]"
        obj = jc.require_object(item, where)
        jc.reject_unknown_keys(obj, where, ("value", "colour", "zone"))
        value = jc.require_int(obj.get("value"), f"{where}.value", 1, 6)
        colour = _optional_str(obj.get("colour"), f"{where}.colour")
        zone = _optional_str(obj.get("zone"), f"{where}.zone", ZONE_NAME_MAX)
        dice.append(DieReading(60.0 + 70 * (i % 8), 60.0 + 70 * (i // 8), 56.0, 56.0,
                               value, colour, 1.0, zone, corrected=True))
    return EnterRoll(tuple(dice), entry_id)


@dataclass(frozen=True)
class DemoParty:
    """A game the demo table plays on to where it is crowded first (Dice Party's parties
    of 54 dice), for these players."""

    game: str
    players: tuple[str, ...]


def parse_demo_party(data: Any) -> DemoParty:
    payload = jc.require_object(data, "demo party")
    jc.reject_unknown_keys(payload, "demo party", ("game", "players"))
    game = jc.require_str(payload.get("game"), "demo party.game", max_len=40)
    names = jc.require_list(payload.get("players"), "demo party.players", min_len=1,
                            max_len=DEMO_PARTY_PLAYERS_MAX)
    return DemoParty(game, tuple(jc.require_str(n, f"demo party.players[{i}]", max_len=100)
                                 for i, n in enumerate(names)))


def parse_demo_roll(data: Any) -> bool:
    """The demo's throw carries nothing (the game says what is thrown) but whether the
    demo lays the teaching layout out instead (``{"layout": true}``)."""
    if data in (None, {}):
        return False
    payload = jc.require_object(data, "demo roll")
    jc.reject_unknown_keys(payload, "demo roll", ("layout",))
    return jc.require_bool(payload.get("layout", False), "demo roll.layout")


def _optional_str(value: Any, where: str, max_len: int = COLOUR_NAME_MAX) -> str | None:
    if value is None:
        return None
    text = jc.require_str(value, where, max_len=max_len)
    if not text:
        raise InputError(f"{where} must not be empty; leave it out (null) when unknown")
    return text
