"""The game session: one active game at the table, driven by taps and settled rolls.

Every change follows the same order, so that nothing a tablet was told is ever lost:
check the action against the rules on the current state, commit it to the store, then
update the state in memory and publish it. A settled roll becomes the game's own action
through the game's adapter; when a die was read with low confidence the roll
waits on the tablet until someone taps it right (or confirms it), and a tap on a die of a
roll already scored replaces that roll's action (an undo and the corrected action, in one
transaction).

The session knows nothing of Socket.IO: it calls ``publish(event, payload)`` with plain
JSON, under its lock, so every tablet sees the updates in the order they happened.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from dicecam import jsoncheck as jc
from dicecam.calibration.profile import load_profile
from dicecam.errors import InputError
from dicecam.games.descriptor import GameDescriptor
from dicecam.games.registry import game_names, get_game
from dicecam.reading import DieReading, SettledRoll
from dicecam.webapp import events
from dicecam.webapp.store import EntryKind, GameStore, NewEntry, Source

Publish = Callable[[str, dict[str, Any]], None]
GameLoader = Callable[[str], GameDescriptor]

ACTIVE_GAME_KEY = "active_game"
MAX_PLAYERS = 12
MAX_DICE = 120  # four Dice Party parties of 60 would be 240, but one roll is at most 60 dice
COLOUR_NAME_MAX = 30
ZONE_NAME_MAX = 60


class RollStatus(StrEnum):
    SHOWN = "shown"  # the game waits for no dice now: shown, not scored
    PENDING = "pending"  # waits for a tap: a die is unsure, or the rules refused the roll
    APPLIED = "applied"  # scored


@dataclass(frozen=True)
class CurrentRoll:
    roll_id: int
    width: int
    height: int
    dice: tuple[DieReading, ...]
    status: RollStatus
    settled_at: float
    error: str | None = None
    #: how many effective actions the game had before this roll was applied
    applied_at: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "roll_id": self.roll_id, "width": self.width, "height": self.height,
            "dice": [d.to_json() for d in self.dice], "status": self.status.value,
            "error": self.error, "settled_at": self.settled_at,
        }


@dataclass
class _Active:
    game_id: int
    game: GameDescriptor
    config: dict[str, Any]
    state: Any
    actions: list[dict[str, Any]]


class GameSession:
    """The table's active game, its current roll, and the store behind them."""

    def __init__(
        self,
        store: GameStore,
        publish: Publish,
        *,
        game_loader: GameLoader = get_game,
        games: Sequence[str] | None = None,
        auto_apply: bool = True,
    ) -> None:
        self.store = store
        self._publish = publish
        self._get_game = game_loader
        self.games = tuple(games if games is not None else game_names())
        self.auto_apply = auto_apply
        self._lock = threading.RLock()
        self._active: _Active | None = None
        self._roll: CurrentRoll | None = None
        self._version = 0
        saved = store.get_setting(ACTIVE_GAME_KEY)
        if saved is not None and saved.isdigit():
            try:
                self._open(int(saved))
            except InputError:
                # The saved game's rules changed so its log no longer replays: start clean
                # rather than refuse to start; the game stays in the store for inspection.
                self._active = None

    # -- what tablets see ----------------------------------------------------------------

    @property
    def game_name(self) -> str | None:
        with self._lock:
            return None if self._active is None else self._active.game.name

    def view(self) -> dict[str, Any]:
        """The full picture for a tablet that just connected or changed game."""
        with self._lock:
            return self._state_payload()

    def games_payload(self) -> dict[str, Any]:
        rows = self.store.list_games()
        offered = [self._get_game(name) for name in self.games]
        return {
            "available": [{"game": g.name, "title": g.title, "setup": g.setup_json()}
                          for g in offered],
            "stored": [
                {"id": r.id, "game": r.game, "title": self._title(r.game),
                 "players": _player_names(r.config), "updated": r.updated}
                for r in rows
            ],
        }

    def roll_payload(self) -> dict[str, Any] | None:
        with self._lock:
            return None if self._roll is None else self._roll.to_json()

    # -- games ---------------------------------------------------------------------------

    def new_game(self, data: Any) -> dict[str, Any]:
        payload = jc.require_object(data, "new game")
        jc.reject_unknown_keys(payload, "new game", ("game", "config"))
        game = jc.require_choice(payload.get("game"), "new game.game", self.games)
        config = jc.require_object(payload.get("config", {}), "new game.config")
        descriptor = self._get_game(game)
        state = descriptor.new_game(config)  # InputError for a bad config, before storing
        with self._lock:
            game_id = self.store.create_game(game, config, remember_as=ACTIVE_GAME_KEY)
            self._active = _Active(game_id, descriptor, dict(config), state, [])
            self._roll = None
            self._publish_state()
            self._publish(events.GAMES, self.games_payload())
            return {"game_id": game_id}

    def open_game(self, data: Any) -> dict[str, Any]:
        payload = jc.require_object(data, "open game")
        jc.reject_unknown_keys(payload, "open game", ("game_id",))
        game_id = jc.require_int(payload.get("game_id"), "open game.game_id", 1, 2**62)
        with self._lock:
            self._open(game_id)
            self.store.set_setting(ACTIVE_GAME_KEY, str(game_id))
            self._roll = None
            self._publish_state()
            return {"game_id": game_id}

    def _open(self, game_id: int) -> None:
        record = self.store.get_game(game_id)
        if record.game not in self.games:
            raise InputError(f"game {game_id} is a {record.game} game, which this server "
                             "does not offer")
        descriptor = self._get_game(record.game)
        codec = descriptor.codec
        state = codec.new_game(record.config)
        actions = []
        for entry in self.store.effective_actions(game_id):
            assert entry.action is not None
            state = codec.apply(state, codec.action_from_json(entry.action))
            actions.append(entry.action)
        self._active = _Active(game_id, descriptor, record.config, state, actions)

    # -- actions -------------------------------------------------------------------------

    def act(self, data: Any, source: Source = Source.TAP) -> dict[str, Any]:
        """Apply one JSON action from a tablet: check, commit, publish."""
        payload = jc.require_object(data, "action")
        with self._lock:
            active = self._require_active()
            action = active.game.codec.action_from_json(payload)
            new_state = active.game.codec.apply(active.state, action)
            stored = active.game.codec.action_to_json(action)
            self.store.append(active.game_id, [NewEntry(EntryKind.ACTION, source, stored)])
            active.state = new_state
            active.actions.append(stored)
            if self._roll is not None and self._roll.status is RollStatus.PENDING:
                # the game moved on by hand; re-check whether the waiting roll still fits
                self._roll = self._evaluate(replace(self._roll, error=None), auto=False)
                self._publish(events.ROLL, self._roll.to_json())
            self._publish_state()
            return {"version": self._version}

    def undo(self, data: Any = None) -> dict[str, Any]:
        if data not in (None, {}):
            jc.reject_unknown_keys(jc.require_object(data, "undo"), "undo", ())
        with self._lock:
            active = self._require_active()
            if not active.actions:
                raise InputError("there is nothing to undo: no action has been made yet")
            state = self._replay(active, active.actions[:-1])
            self.store.append(active.game_id, [NewEntry(EntryKind.UNDO, Source.TAP)])
            active.actions.pop()
            active.state = state
            if self._roll is not None and self._roll.applied_at == len(active.actions):
                # the undone action was this roll's: the roll waits again, as first read
                self._roll = replace(self._roll, status=RollStatus.PENDING, applied_at=None,
                                     error=None)
                self._publish(events.ROLL, self._roll.to_json())
            self._publish_state()
            return {"version": self._version}

    # -- rolls ---------------------------------------------------------------------------

    def settle(self, roll: SettledRoll, settled_at: float | None = None) -> CurrentRoll:
        """A roll the camera saw come to rest (or the tablet typed in)."""
        current = CurrentRoll(
            roll_id=roll.roll_id, width=roll.width, height=roll.height, dice=roll.dice,
            status=RollStatus.PENDING,
            settled_at=time.time() if settled_at is None else settled_at,
        )
        with self._lock:
            self._roll = self._evaluate(current, auto=self.auto_apply)
            self._publish(events.ROLL, self._roll.to_json())
            if self._roll.status is RollStatus.APPLIED:
                self._publish_state()
            return self._roll

    def enter_roll(self, data: Any) -> dict[str, Any]:
        """Dice typed in on the tablet (no camera at hand): a roll with every die sure."""
        payload = jc.require_object(data, "entered roll")
        jc.reject_unknown_keys(payload, "entered roll", ("dice",))
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
        with self._lock:
            roll_id = (self._roll.roll_id + 1) if self._roll is not None else 1
            current = CurrentRoll(roll_id, 640, 50 + 70 * ((len(dice) + 7) // 8),
                                  tuple(dice), RollStatus.PENDING, time.time())
            self._roll = self._evaluate(current, auto=True)
            self._publish(events.ROLL, self._roll.to_json())
            if self._roll.status is RollStatus.APPLIED:
                self._publish_state()
            if self._roll.status is RollStatus.PENDING:
                raise InputError(self._roll.error or "the game does not take these dice now")
            return {"roll_id": roll_id, "status": self._roll.status.value}

    def correct_die(self, data: Any) -> dict[str, Any]:
        """A tap said what a die really shows (value None: it is not a die at all)."""
        payload = jc.require_object(data, "correction")
        jc.reject_unknown_keys(payload, "correction", ("roll_id", "index", "value", "colour"))
        roll_id = jc.require_int(payload.get("roll_id"), "correction.roll_id", 0, 2**62)
        index = jc.require_int(payload.get("index"), "correction.index", 0, MAX_DICE * 4)
        value = payload.get("value")
        if value is not None:
            jc.require_int(value, "correction.value", 1, 6)
        colour = _optional_str(payload.get("colour"), "correction.colour")
        with self._lock:
            roll = self._current_roll(roll_id)
            if index >= len(roll.dice):
                raise InputError(f"correction.index must be below {len(roll.dice)}, got {index}")
            dice = list(roll.dice)
            if value is None:
                del dice[index]
            else:
                dice[index] = replace(dice[index], value=value, colour=colour,
                                      confidence=1.0, corrected=True)
            self._reroll(roll, tuple(dice))
            return {"roll_id": roll_id, "status": self._roll.status.value if self._roll else ""}

    def assign_zone(self, data: Any) -> dict[str, Any]:
        """The dice the camera saw outside every zone lie in ``zone`` (a table without a
        zone map: "this is Ann's party", "this is the Agency")."""
        payload = jc.require_object(data, "zone assignment")
        jc.reject_unknown_keys(payload, "zone assignment", ("roll_id", "zone"))
        roll_id = jc.require_int(payload.get("roll_id"), "zone assignment.roll_id", 0, 2**62)
        zone = jc.require_str(payload.get("zone"), "zone assignment.zone", max_len=ZONE_NAME_MAX)
        if not zone:
            raise InputError("zone assignment.zone must name a zone")
        with self._lock:
            roll = self._current_roll(roll_id)
            if not any(d.zone is None for d in roll.dice):
                raise InputError("every die of this roll already lies in a zone")
            dice = tuple(replace(d, zone=zone) if d.zone is None else d for d in roll.dice)
            self._reroll(roll, dice)
            assert self._roll is not None
            return {"roll_id": roll_id, "status": self._roll.status.value}

    def confirm_roll(self, data: Any) -> dict[str, Any]:
        """The players say the unsure dice were read right: score the roll as it stands."""
        payload = jc.require_object(data, "confirmation")
        jc.reject_unknown_keys(payload, "confirmation", ("roll_id",))
        roll_id = jc.require_int(payload.get("roll_id"), "confirmation.roll_id", 0, 2**62)
        with self._lock:
            roll = self._current_roll(roll_id)
            if roll.status is RollStatus.APPLIED:
                return {"roll_id": roll_id, "status": roll.status.value}
            missing = sum(1 for d in roll.dice if d.value is None)
            if missing:
                raise InputError(f"{missing} of the dice could not be read: tap each one "
                                 "marked ? and say what it shows")
            dice = tuple(replace(d, corrected=True) for d in roll.dice)
            self._reroll(roll, dice)
            assert self._roll is not None
            if self._roll.status is not RollStatus.APPLIED and self._roll.error:
                raise InputError(self._roll.error)
            return {"roll_id": roll_id, "status": self._roll.status.value}

    # -- internals -----------------------------------------------------------------------

    def _reroll(self, roll: CurrentRoll, dice: tuple[DieReading, ...]) -> None:
        """Re-derive a roll's action after its dice changed; replace it if already scored."""
        active = self._active
        if roll.status is RollStatus.APPLIED and active is not None and roll.applied_at == len(
            active.actions
        ) - 1:
            before = self._replay(active, active.actions[:-1])
            action = active.game.adapter(before, dice)
            if action is None:
                raise InputError("the game no longer takes dice for that roll")
            new_state = active.game.codec.apply(before, action)
            stored = active.game.codec.action_to_json(action)
            self.store.append(active.game_id, [
                NewEntry(EntryKind.UNDO, Source.CORRECTION),
                NewEntry(EntryKind.ACTION, Source.CORRECTION, stored,
                         dice_record(dice)),
            ])
            active.actions[-1] = stored
            active.state = new_state
            self._roll = replace(roll, dice=dice, error=None)
            self._publish(events.ROLL, self._roll.to_json())
            self._publish_state()
            return
        if roll.status is RollStatus.APPLIED:
            raise InputError("that roll was scored and play has moved on: undo back to it "
                             "first, or correct the score by hand")
        self._roll = self._evaluate(replace(roll, dice=dice, error=None), auto=True)
        self._publish(events.ROLL, self._roll.to_json())
        if self._roll.status is RollStatus.APPLIED:
            self._publish_state()

    def _evaluate(self, roll: CurrentRoll, *, auto: bool) -> CurrentRoll:
        """Decide what a roll means now; apply and commit it when nothing is in doubt."""
        active = self._active
        if active is None:
            return replace(roll, status=RollStatus.SHOWN)
        try:
            action = active.game.adapter(active.state, roll.dice)
        except InputError as exc:
            return replace(roll, status=RollStatus.PENDING, error=str(exc))
        if action is None:
            return replace(roll, status=RollStatus.SHOWN)
        if not auto or any(d.needs_check for d in roll.dice):
            return replace(roll, status=RollStatus.PENDING)
        try:
            new_state = active.game.codec.apply(active.state, action)
        except InputError as exc:
            return replace(roll, status=RollStatus.PENDING, error=str(exc))
        stored = active.game.codec.action_to_json(action)
        source = Source.CORRECTION if any(d.corrected for d in roll.dice) else Source.CAMERA
        self.store.append(active.game_id, [NewEntry(EntryKind.ACTION, source, stored,
                                                    dice_record(roll.dice))])
        applied_at = len(active.actions)
        active.actions.append(stored)
        active.state = new_state
        return replace(roll, status=RollStatus.APPLIED, applied_at=applied_at, error=None)

    def _current_roll(self, roll_id: int) -> CurrentRoll:
        if self._roll is None or self._roll.roll_id != roll_id:
            raise InputError(f"roll {roll_id} is no longer on the table; tap a die of the "
                             "roll shown now")
        return self._roll

    def _require_active(self) -> _Active:
        if self._active is None:
            raise InputError("no game is running: start a new game or open a stored one")
        return self._active

    def _replay(self, active: _Active, actions: Sequence[Mapping[str, Any]]) -> Any:
        state = active.game.codec.new_game(active.config)
        for data in actions:
            state = active.game.codec.apply(state, active.game.codec.action_from_json(data))
        return state

    def _title(self, game: str) -> str:
        try:
            return self._get_game(game).title
        except InputError:  # a stored game of a game this server no longer knows
            return game

    def _state_payload(self) -> dict[str, Any]:
        active = self._active
        if active is None:
            return {"version": self._version, "game_id": None, "game": None}
        return {
            "version": self._version,
            "game_id": active.game_id,
            "game": active.game.name,
            "title": active.game.title,
            "config": active.config,
            "colours": dice_colours(active.game.dice_set),
            "state": active.game.codec.state_to_json(active.state),
            "actions": len(active.actions),
            "can_undo": bool(active.actions),
            "roll": None if self._roll is None else self._roll.to_json(),
        }

    def _publish_state(self) -> None:
        self._version += 1
        self._publish(events.STATE, self._state_payload())


@functools.lru_cache(maxsize=16)
def _profile_colours(dice_set: str) -> tuple[str, ...]:
    try:
        return load_profile(dice_set).colours
    except InputError:  # a broken fitted profile: taps then name the colours themselves
        return ()


def dice_colours(dice_set: str) -> list[str]:
    """The colour names of a dice set (its profile), for tap-to-correct."""
    return list(_profile_colours(dice_set))


def dice_record(dice: Sequence[DieReading]) -> list[dict[str, Any]]:
    """What the journal keeps of a scored roll's dice, beside its action (for audits)."""
    return [{"value": d.value, "colour": d.colour, "zone": d.zone} for d in dice]


def _optional_str(value: Any, where: str, max_len: int = COLOUR_NAME_MAX) -> str | None:
    if value is None:
        return None
    text = jc.require_str(value, where, max_len=max_len)
    if not text:
        raise InputError(f"{where} must not be empty; leave it out (null) when unknown")
    return text


def _player_names(config: Mapping[str, Any]) -> list[str]:
    players = config.get("players")
    if not isinstance(players, list):
        return []
    names = []
    for p in players[:MAX_PLAYERS]:
        if isinstance(p, str):
            names.append(p)
        elif isinstance(p, Mapping) and isinstance(p.get("name"), str):
            names.append(p["name"])
    return names
