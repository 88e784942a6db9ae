"""The game session: one active game at the table, driven by taps and settled rolls.

Every change follows the same order, so that nothing a tablet was told is ever lost:
check the action against the rules on the current state, commit it to the store, then
update the state in memory and publish it. A settled roll becomes the game's own action
through the game's adapter; when a die was read with low confidence the roll waits on the
tablet until someone taps it right (or confirms it), and a tap on a die of a roll already
scored replaces that roll's action (an undo and the corrected action, in one transaction).

Tablets' payloads arrive parsed (``tablet_commands``); what tablets are sent is built in
``views``. The session knows nothing of Socket.IO: it calls ``publish(event, payload)``
with plain JSON, under its lock, so every tablet sees the updates in the order they
happened. What a scored roll the players confirmed teaches (``on_confirmed``: the table's
colours) is learnt after the roll was published and the lock released, so that slow work
never holds up another tablet or the camera; so are the dice the players said something
about (``on_taught``, ``taught.py``: a tap, *Dice are right*, *a die here*, *not a die*),
which teach the table its dice.
"""

from __future__ import annotations

import logging
import statistics
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from dicecam.calibration.zones import PlacedBoard, Zone, ZoneMap, load_zone_map, save_zone_map
from dicecam.errors import InputError
from dicecam.messages import CORE, Message, Text
from dicecam.reading import LOW_CONFIDENCE, DieReading, SettledRoll
from dicecam.scorer.colour_counts import fit_groups
from dicecam.scorer.descriptor import GameDescriptor, TableDue, ThrowDue
from dicecam.scorer.registry import game_names, get_game
from dicecam.teach.layout import ROWS, layout_values
from dicecam.webapp import events
from dicecam.webapp.journal.choose import JournalStore  # SQLite's GameStore or the PostgreSQL one
from dicecam.webapp.journal.sqlite import EntryKind, NewEntry, Source
from dicecam.webapp.session.messages import APP
from dicecam.webapp.session.tablet_commands import (
    Act,
    AddDie,
    AssignZone,
    CloseGame,
    ConfirmRoll,
    CorrectDie,
    DeleteGame,
    EnterRoll,
    NewGame,
    OpenGame,
    SetZones,
    TeachLayout,
    Undo,
)
from dicecam.webapp.session.taught import Said, TaughtDie
from dicecam.webapp.session.views import CurrentRoll, RollStatus, games_view, roll_view, state_view

log = logging.getLogger(__name__)

Publish = Callable[[str, dict[str, Any]], None]
GameLoader = Callable[[str], GameDescriptor]

ACTIVE_GAME_KEY = "active_game"
#: the setting naming the zone map drawn on a tablet for game N (its players' areas)
ZONES_KEY = "zones:game:{}"
#: a die added on a roll with no other die: its box's side, as a share of the picture's
#: shorter side (a webcam over a table sees a die at about a twelfth of it)
ADDED_DIE_SHARE = 1 / 12


@dataclass
class _Active:
    game_id: int
    game: GameDescriptor
    config: dict[str, Any]
    state: Any
    actions: list[dict[str, Any]]
    #: the state whose standing the store holds (saved again when the state changes)
    standing_of: Any = None
    #: the areas drawn on a tablet for this game's table (one per player), if any
    zones: ZoneMap | None = None


@dataclass(frozen=True)
class _Decision:
    """What a roll means now: its status, and the action and state to commit if scored."""

    roll: CurrentRoll
    action: Any = None
    new_state: Any = None


def asked_where_moved(shown: tuple[DieReading, ...], fitted: tuple[DieReading, ...]
                      ) -> tuple[DieReading, ...]:
    """The fitted dice, where a player's correction moved the colour fit: a die the fit
    turned to another colour than the tablet showed is asked, never silently changed (a
    correction the players got wrong must not quietly recolour the dice beside it)."""
    if not any(d.corrected for d in shown):
        return fitted  # the camera's first reading: the counts decide, with confidences
    return tuple(
        replace(after, colour_confidence=min(after.colour_confidence, LOW_CONFIDENCE / 2),
                confidence=min(after.confidence, LOW_CONFIDENCE / 2))
        if not after.corrected and before.colour is not None and after.colour != before.colour
        else after
        for before, after in zip(shown, fitted, strict=True))


class GameSession:
    """The table's active game, its current roll, and the store behind them."""

    def __init__(
        self,
        store: JournalStore,
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
        #: the last dice entry scored (its id and reply): the same entry sent again is not
        #: scored twice
        self._last_entry: tuple[str, dict[str, Any]] | None = None
        self._version = 0
        #: set when the camera is the demo table: whether it throws now ("auto"), waits for
        #: a tablet to ask ("ask"), or has nothing to throw (None); shown in the state
        self.demo_status: Callable[[], str | None] | None = None
        #: told of every roll scored after the players confirmed or corrected it, once the
        #: roll is published and outside the lock: (game id, the game's dice set, roll);
        #: the table's colours are fitted from such a roll
        self.on_confirmed: Callable[[int, str, CurrentRoll], None] | None = None
        #: confirmed rolls scored under the lock, told of once it is released
        self._confirmed: list[tuple[int, str, CurrentRoll]] = []
        #: told of the dice of camera rolls the players said something about (what teaches
        #: the table its dice), once the roll is published and outside the lock
        self.on_taught: Callable[[list[TaughtDie]], None] | None = None
        self._taught: list[TaughtDie] = []
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
        titles = {name: self._title(name) for name in {r.game for r in self.store.list_games()}}
        return games_view([self._get_game(name) for name in self.games],
                          self.store.list_games(), titles)

    def throw_due(self) -> tuple[tuple[Any, ...], ThrowDue | None]:
        """The throw the active game waits for (or None), with a key that changes whenever
        the game takes an action (the demo table throws each throw once): (the game's
        name, its id, its action count)."""
        with self._lock:
            active = self._active
            if active is None or active.game.throw_due is None:
                return (None,), None
            return ((active.game.name, active.game_id, len(active.actions)),
                    active.game.throw_due(active.state))

    def dice_due(self) -> int | None:
        """How many dice the throw the active game waits for shows on the table (None: it
        waits for no throw): the table reader looks again for dice missing from a roll."""
        return None if (due := self.throw_due()[1]) is None else len(due.colours)

    def roll_payload(self) -> dict[str, Any] | None:
        with self._lock:
            return None if self._roll is None else roll_view(self._roll)

    # -- games ---------------------------------------------------------------------------

    def new_game(self, command: NewGame) -> dict[str, Any]:
        if command.game not in self.games:
            raise InputError(APP("app.no_game_offered", game=repr(command.game),
                                 games=tuple(self.games)))
        descriptor = self._get_game(command.game)
        state = descriptor.new_game(command.config)  # InputError for a bad config, first
        with self._lock:
            game_id = self.store.create_game(command.game, command.config,
                                             remember_as=ACTIVE_GAME_KEY)
            self._active = _Active(game_id, descriptor, dict(command.config), state, [])
            self._roll = None
            self._publish_state()
            self._publish(events.GAMES, self.games_payload())
            return {"game_id": game_id}

    def new_game_crowded(self, game: str, players: Sequence[str]) -> dict[str, Any]:
        """The demo's crowded game of ``game`` (its ``demo_crowded``) for ``players``."""
        if game not in self.games:
            raise InputError(APP("app.no_game_offered", game=repr(game),
                                 games=tuple(self.games)))
        crowded = self._get_game(game).demo_crowded
        if crowded is None:
            raise InputError(APP("app.no_crowded_demo", game=self._title(game)))
        config, actions = crowded(players)
        return self.new_game_played(NewGame(game, config), actions)

    def new_game_played(self, command: NewGame, actions: Sequence[Mapping[str, Any]],
                        source: Source = Source.DEMO) -> dict[str, Any]:
        """A new game with ``actions`` already played (the demo's Dice Party game at full
        parties): every action checked by the rules first, then stored in one append
        (marked ``source``), and one state published."""
        if command.game not in self.games:
            raise InputError(APP("app.no_game_offered", game=repr(command.game),
                                 games=tuple(self.games)))
        descriptor = self._get_game(command.game)
        codec = descriptor.codec
        state = descriptor.new_game(command.config)
        stored = []
        for data in actions:
            action = codec.action_from_json(data)
            state = codec.apply(state, action)
            stored.append(codec.action_to_json(action))
        with self._lock:
            game_id = self.store.create_game(command.game, command.config,
                                             remember_as=ACTIVE_GAME_KEY)
            active = _Active(game_id, descriptor, dict(command.config), state, stored)
            if stored:
                self.store.append(game_id, [NewEntry(EntryKind.ACTION, source, a)
                                            for a in stored],
                                  standing=self._standing(active, state))
            self._active = active
            self._roll = None
            self._publish_state()
            self._publish(events.GAMES, self.games_payload())
            return {"game_id": game_id}

    def open_game(self, command: OpenGame) -> dict[str, Any]:
        with self._lock:
            self._open(command.game_id)
            self.store.reopen_game(command.game_id)  # playing an ended game goes on with it
            self.store.set_setting(ACTIVE_GAME_KEY, str(command.game_id))
            self._roll = None
            self._publish_state()
            return {"game_id": command.game_id}

    def close_game(self, command: CloseGame) -> dict[str, Any]:
        """End a game: kept with its score in the list; if it was the one being played, no
        game is active any more."""
        with self._lock:
            self.store.close_game(command.game_id, forget_setting=ACTIVE_GAME_KEY)
            self._drop_if_active(command.game_id)
            self._publish(events.GAMES, self.games_payload())
            return {"game_id": command.game_id}

    def delete_game(self, command: DeleteGame) -> dict[str, Any]:
        with self._lock:
            self.store.delete_game(command.game_id, forget_setting=ACTIVE_GAME_KEY)
            self._drop_if_active(command.game_id)
            self._publish(events.GAMES, self.games_payload())
            return {"game_id": command.game_id}

    def _drop_if_active(self, game_id: int) -> None:
        if self._active is not None and self._active.game_id == game_id:
            self._active = None
            self._roll = None
            self._publish_state()

    def _open(self, game_id: int) -> None:
        record = self.store.get_game(game_id)
        if record.game not in self.games:
            raise InputError(APP("app.stored_other_game", id=game_id, game=record.game))
        descriptor = self._get_game(record.game)
        codec = descriptor.codec
        state = codec.new_game(record.config)
        actions = []
        for entry in self.store.effective_actions(game_id):
            assert entry.action is not None
            state = codec.apply(state, codec.action_from_json(entry.action))
            actions.append(entry.action)
        self._active = _Active(game_id, descriptor, record.config, state, actions,
                               zones=self._drawn_zones(game_id))

    def _drawn_zones(self, game_id: int) -> ZoneMap | None:
        name = self.store.get_setting(ZONES_KEY.format(game_id))
        if not name:
            return None
        try:
            return load_zone_map(name)
        except InputError:  # the file was removed or spoilt: the table plays without zones
            return None

    # -- actions -------------------------------------------------------------------------

    def act(self, command: Act, source: Source = Source.TAP) -> dict[str, Any]:
        """Apply one JSON action from a tablet: check, commit, publish."""
        with self._lock:
            active = self._require_active()
            codec = active.game.codec
            action = codec.action_from_json(command.action)
            try:
                new_state = codec.apply(active.state, action)
            except InputError as exc:
                if command.seen_version is not None and command.seen_version != self._version:
                    # tapped on a state that was no longer the game's (another tablet was
                    # first): that is the reason, not what the rules say of the state now
                    raise InputError(CORE("core.moved_on")) from exc
                raise
            stored = codec.action_to_json(action)
            self.store.append(active.game_id, [NewEntry(EntryKind.ACTION, source, stored)],
                              standing=self._standing(active, new_state))
            active.state = new_state
            active.actions.append(stored)
            if self._roll is not None and self._roll.status is RollStatus.PENDING:
                # the game moved on by hand; re-check whether the waiting roll still fits
                unchecked = replace(self._roll, error=None, error_message=None)
                self._roll = self._decide(unchecked, auto=False).roll
                self._publish(events.ROLL, roll_view(self._roll))
            self._publish_state()
            return {"version": self._version}

    def undo(self, command: Undo | None = None) -> dict[str, Any]:
        with self._lock:
            active = self._require_active()
            if not active.actions:
                raise InputError(APP("app.nothing_to_undo"))
            state = self._replay(active, active.actions[:-1])
            self.store.append(active.game_id, [NewEntry(EntryKind.UNDO, Source.TAP)],
                              standing=self._standing(active, state))
            active.actions.pop()
            active.state = state
            roll = self._roll
            if roll is not None and (roll.applied_at == len(active.actions)
                                     or roll.status is not RollStatus.APPLIED):
                # the undone action was this roll's (it waits again, as first read), or the
                # roll waits: judged anew on the state now, so no refusal or sentence about
                # the step undone stays on the panel
                unchecked = replace(roll, status=RollStatus.PENDING, applied_at=None,
                                    error=None, error_message=None)
                self._roll = self._decide(unchecked, auto=False).roll
                self._publish(events.ROLL, roll_view(self._roll))
            self._publish_state()
            return {"version": self._version}

    # -- rolls ---------------------------------------------------------------------------

    def settle(self, roll: SettledRoll, settled_at: float | None = None) -> CurrentRoll:
        """A roll the camera saw come to rest."""
        with self._scoring():
            current = CurrentRoll(
                roll_id=roll.roll_id, width=roll.width, height=roll.height,
                dice=self._in_drawn_zones(roll.dice, roll.width, roll.height),
                status=RollStatus.PENDING,
                settled_at=time.time() if settled_at is None else settled_at,
            )
            self._take_roll(current, auto=self.auto_apply)
            assert self._roll is not None
            return self._roll

    def enter_roll(self, command: EnterRoll) -> dict[str, Any]:
        """Dice typed in on the tablet (no camera at hand): a roll with every die sure."""
        dice = command.dice
        with self._scoring():
            if command.entry_id is not None and self._last_entry is not None and (
                    self._last_entry[0] == command.entry_id):
                return self._last_entry[1]  # the same entry again: scored once already
            roll_id = (self._roll.roll_id + 1) if self._roll is not None else 1
            current = CurrentRoll(roll_id, 640, 50 + 70 * ((len(dice) + 7) // 8),
                                  dice, RollStatus.PENDING, time.time(), typed=True)
            camera_roll, due = self._roll, self.dice_due()
            self._take_roll(current, auto=True)
            assert self._roll is not None
            if self._roll.status is RollStatus.PENDING:
                # refused: the camera's roll stays as it was (typed dice the game does not
                # take replace nothing), and the reason speaks of the typing, not the camera
                refusal: Text = (self._roll.error_message or self._roll.error
                                 or "the game does not take these dice now")
                if due is not None and due != len(dice):
                    refusal = CORE("core.typed_count", n=due, typed=len(dice))
                if camera_roll is not None:
                    self._roll = camera_roll
                else:  # nothing to keep: the typed roll waits, with the reason as said
                    self._roll = replace(self._roll, error=str(refusal), error_message=(
                        refusal if isinstance(refusal, Message) else None))
                self._publish(events.ROLL, roll_view(self._roll))
                raise InputError(refusal)
            reply = {"roll_id": roll_id, "status": self._roll.status.value}
            if command.entry_id is not None:
                self._last_entry = (command.entry_id, reply)
            return reply

    def correct_die(self, command: CorrectDie) -> dict[str, Any]:
        """A tap said what a die really shows (value None: it is not a die at all)."""
        with self._scoring():
            roll = self._current_roll(command.roll_id)
            if command.index >= len(roll.dice):
                raise InputError(f"correction.index must be below {len(roll.dice)}, "
                                 f"got {command.index}")
            dice = list(roll.dice)
            if command.value is None:
                said = TaughtDie(roll.roll_id, dice[command.index], Said.NOT_A_DIE)
                del dice[command.index]
            else:
                dice[command.index] = replace(dice[command.index], value=command.value,
                                              colour=command.colour, confidence=1.0,
                                              corrected=True)
                said = TaughtDie(roll.roll_id, dice[command.index], Said.VALUE)
            self._reroll(roll, tuple(dice))
            self._teach(roll, [said])
            return {"roll_id": command.roll_id,
                    "status": self._roll.status.value if self._roll else ""}

    def add_die(self, command: AddDie) -> dict[str, Any]:
        """*A die here*: the camera missed a die where a tablet tapped the picture; it joins
        the roll with the value (and colour) said, its box as large as the roll's other
        dice (``ADDED_DIE_SHARE`` of the picture's shorter side when it has none)."""
        with self._scoring():
            roll = self._current_roll(command.roll_id)
            if roll.typed:
                raise InputError(APP("app.typed_no_picture_add"))
            if not (0 <= command.x <= roll.width and 0 <= command.y <= roll.height):
                raise InputError(APP("app.added_off_picture", width=roll.width,
                                     height=roll.height, x=command.x, y=command.y))
            if roll.dice:
                w = float(statistics.median(d.w for d in roll.dice))
                h = float(statistics.median(d.h for d in roll.dice))
            else:
                w = h = max(8.0, ADDED_DIE_SHARE * min(roll.width, roll.height))
            die = DieReading(float(command.x), float(command.y), w, h, command.value,
                             command.colour, 1.0, corrected=True)
            die = self._in_drawn_zones((die,), roll.width, roll.height)[0]
            self._reroll(roll, (*roll.dice, die))
            self._teach(roll, [TaughtDie(roll.roll_id, die, Said.ADDED)])
            assert self._roll is not None
            return {"roll_id": command.roll_id, "status": self._roll.status.value,
                    "index": len(roll.dice)}

    def teach_layout(self, command: TeachLayout) -> dict[str, Any]:
        """The roll on the table is the teaching layout (``teach.layout``): each die in one
        of six rows takes its row's value and teaches it; a die between rows, or one the
        reader is sure shows another value, is asked (its value unknown until tapped). The
        roll is shown, never scored; where a game is played, the dice taught may also fit
        the table's colours (``on_confirmed``). Fewer or more than six rows teach nothing:
        the reply says how many were found."""
        with self._scoring():
            roll = self._current_roll(command.roll_id)
            if roll.typed:
                raise InputError(APP("app.typed_no_picture_layout"))
            values, rows = layout_values(roll.dice)
            if rows != ROWS:
                return {"roll_id": roll.roll_id, "rows": rows, "taught": 0, "asked": 0}
            dice = tuple(replace(d, value=None, corrected=False) if v is None
                         else replace(d, value=v, confidence=1.0, corrected=True)
                         for d, v in zip(roll.dice, values, strict=True))
            self._roll = replace(roll, dice=dice, status=RollStatus.SHOWN, layout=True,
                                 applied_at=None, error=None, error_message=None,
                                 summary=None, marks=None, aside=())
            self._publish(events.ROLL, roll_view(self._roll))
            taught = [d for d in dice if d.corrected]
            self._teach(roll, [TaughtDie(roll.roll_id, d, Said.VALUE) for d in taught])
            active = self._active
            if active is not None and self.on_confirmed is not None and taught:
                self._confirmed.append((active.game_id, active.game.dice_set,
                                        replace(self._roll, dice=tuple(taught))))
            return {"roll_id": roll.roll_id, "rows": rows, "taught": len(taught),
                    "asked": len(dice) - len(taught)}

    def assign_zone(self, command: AssignZone) -> dict[str, Any]:
        """The dice the camera saw outside every zone lie in ``zone`` (a table without a
        zone map: "this is Ann's party", "this is the Agency")."""
        with self._scoring():
            roll = self._current_roll(command.roll_id)
            if not any(d.zone is None for d in roll.dice):
                raise InputError(APP("app.all_in_zones"))
            dice = tuple(replace(d, zone=command.zone) if d.zone is None else d
                         for d in roll.dice)
            self._reroll(roll, dice)
            assert self._roll is not None
            return {"roll_id": command.roll_id, "status": self._roll.status.value}

    def confirm_roll(self, command: ConfirmRoll) -> dict[str, Any]:
        """The players say the unsure dice were read right: score the roll as it stands."""
        with self._scoring():
            roll = self._current_roll(command.roll_id)
            if roll.status is RollStatus.APPLIED:
                return {"roll_id": command.roll_id, "status": roll.status.value}
            missing = sum(1 for d in roll.dice if d.value is None)
            if missing:
                raise InputError(APP("app.unread_dice", n=missing))
            dice = tuple(replace(d, corrected=True) for d in roll.dice)
            self._reroll(roll, dice)
            # the players accept every die as read: each teaches, whatever the rules say
            self._teach(roll, [TaughtDie(roll.roll_id, d, Said.ACCEPTED) for d in dice])
            assert self._roll is not None
            if self._roll.status is not RollStatus.APPLIED and self._roll.error:
                raise InputError(self._roll.error_message or self._roll.error)
            return {"roll_id": command.roll_id, "status": self._roll.status.value}

    def set_zones(self, command: SetZones) -> dict[str, Any]:
        """Areas drawn on the camera's picture, one per player: saved as the table's zone
        map for this game (``$DICECAM_HOME/zones/game-N.json``), and from now on a settled
        die lying in one counts for that player; none drawn: no zones again. An area the
        game names a printed board (``drawn_boards``: Dicetopia's city map) places that
        board's zones with its corners. The roll on the table is judged again with its
        dice in the new areas."""
        with self._scoring():
            active = self._require_active()
            key = ZONES_KEY.format(active.game_id)
            old_names = set() if active.zones is None else set(active.zones.zone_names)
            if not command.zones:
                self.store.set_setting(key, "")
                active.zones = None
            else:
                def clamp(v: float, top: int) -> float:
                    return min(max(v, 0.0), float(top))

                drawn, boards = [], []
                for name, (left, top, right, bottom) in command.zones:
                    x0, x1 = clamp(left, command.width), clamp(right, command.width)
                    y0, y1 = clamp(top, command.height), clamp(bottom, command.height)
                    corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
                    board = active.game.drawn_boards.get(name)
                    if board is None:
                        drawn.append(Zone(name, corners))
                    else:  # a printed board: its own zones, placed by the rectangle
                        boards.append(PlacedBoard(board, corners, name))
                zones = ZoneMap(f"game-{active.game_id}", command.width, command.height,
                                boards=tuple(boards), drawn=tuple(drawn))
                save_zone_map(zones)
                self.store.set_setting(key, zones.name)
                active.zones = zones
            roll = self._roll
            if roll is not None and roll.status is not RollStatus.APPLIED:
                # the old areas' zones give way to the new ones; the reader's own stay
                dice = tuple(replace(d, zone=None) if d.zone in old_names else d
                             for d in roll.dice)
                self._take_roll(replace(roll, dice=self._in_drawn_zones(
                    dice, roll.width, roll.height), error=None, error_message=None),
                    auto=self.auto_apply)
            self._publish_state()
            return {"zones": len(command.zones)}

    def _in_drawn_zones(self, dice: tuple[DieReading, ...], width: int, height: int
                        ) -> tuple[DieReading, ...]:
        """Dice with the zone of the areas drawn on a tablet, where the reader gave none
        (a roll of another frame size, typed in, keeps its dice as they are)."""
        zones = self._active.zones if self._active is not None else None
        if zones is None or (zones.width, zones.height) != (width, height):
            return dice
        return tuple(d if d.zone is not None else replace(d, zone=zones.zone_of(d.x, d.y))
                     for d in dice)

    # -- internals -----------------------------------------------------------------------

    def _take_roll(self, roll: CurrentRoll, *, auto: bool) -> None:
        """Make ``roll`` the current one: decide it, commit it when it scores, publish."""
        decision = self._decide(roll, auto=auto)
        self._roll = self._commit_roll(decision)
        self._publish(events.ROLL, roll_view(self._roll))
        if self._roll.status is RollStatus.APPLIED:
            self._publish_state()

    def _reroll(self, roll: CurrentRoll, dice: tuple[DieReading, ...]) -> None:
        """Re-derive a roll's action after its dice changed; replace it if already scored."""
        active = self._active
        if roll.status is RollStatus.APPLIED and active is not None and roll.applied_at == len(
            active.actions
        ) - 1:
            before = self._replay(active, active.actions[:-1])
            action = active.game.adapter(before, dice)
            if action is None:
                raise InputError(APP("app.roll_not_taken"))
            new_state = active.game.codec.apply(before, action)
            stored = active.game.codec.action_to_json(action)
            self.store.append(active.game_id, [
                NewEntry(EntryKind.UNDO, Source.CORRECTION),
                NewEntry(EntryKind.ACTION, Source.CORRECTION, stored, dice_record(dice)),
            ], standing=self._standing(active, new_state))
            active.actions[-1] = stored
            active.state = new_state
            # what the corrected dice count as, and their verdict, judged where they came in
            self._roll = self._described(active.game, before, replace(roll, dice=dice),
                                         RollStatus.APPLIED, marked=True)
            self._publish(events.ROLL, roll_view(self._roll))
            self._publish_state()
            return
        if roll.status is RollStatus.APPLIED:
            raise InputError(APP("app.roll_scored_moved_on"))
        self._take_roll(replace(roll, dice=dice, error=None, error_message=None), auto=True)

    def _decide(self, roll: CurrentRoll, *, auto: bool) -> _Decision:
        """What a roll means now (no side effects): shown, waiting for a tap, or to score."""
        active = self._active
        roll = replace(roll, note=None)
        if active is None or roll.layout:  # (the teaching layout is no throw)
            return _Decision(replace(roll, status=RollStatus.SHOWN))
        if active.game.colour_groups is not None:
            # the game knows how many dice of each colour the throw holds: decide the
            # colours together (a die the counts cannot settle stays asked)
            groups = active.game.colour_groups(active.state, roll.dice)
            roll = replace(roll, dice=asked_where_moved(
                roll.dice, fit_groups(roll.dice, groups)))

        def described(status: RollStatus, refused: InputError | None = None, *,
                      marked: bool = False) -> CurrentRoll:
            return self._described(active.game, active.state, roll, status, refused,
                                   marked=marked)

        try:
            action = active.game.adapter(active.state, roll.dice)
        except InputError as exc:
            return _Decision(described(RollStatus.PENDING, exc))
        if action is None:
            return _Decision(described(RollStatus.SHOWN))
        waits = not auto or any(d.needs_check for d in roll.dice)
        try:
            new_state = active.game.codec.apply(active.state, action)
        except InputError as exc:
            # while dice are still asked, the rules' refusal may only be a misread die:
            # it is said once the players have had their say
            return _Decision(described(RollStatus.PENDING, None if waits else exc))
        if waits:
            return _Decision(described(RollStatus.PENDING, marked=True))
        if new_state == active.state:  # the table read again as it was stored: nothing new
            return _Decision(described(RollStatus.SHOWN))
        if (auto and not roll.typed and not all(d.corrected for d in roll.dice)
                and active.game.standing is not None
                and active.game.standing(active.state).over):
            # a finished game is read-only until the players say otherwise: a camera
            # reading (a cleared table, another game laid out) never replaces its stored
            # score without a tap
            return _Decision(replace(described(RollStatus.PENDING, marked=True),
                                     note=CORE("core.finished_reread")))
        return _Decision(described(RollStatus.APPLIED, marked=True), action, new_state)

    @staticmethod
    def _described(game: GameDescriptor, state: Any, roll: CurrentRoll, status: RollStatus,
                   refused: InputError | None = None, *, marked: bool = False) -> CurrentRoll:
        """``roll`` with its status, the rules' refusal, what its dice count as, and (for a
        roll the rules take) the verdict drawn on its dice; all judged on the state the
        roll came in, so a roll scored later still says what it was."""
        return replace(
            roll, status=status,
            error=None if refused is None else str(refused),
            error_message=None if refused is None else refused.message,
            summary=None if game.roll_summary is None
            else game.roll_summary(state, roll.dice,
                                   "refused" if refused is not None else status.value),
            marks=game.dice_marks(state, roll.dice) if marked and game.dice_marks else None,
            aside=tuple(game.aside_dice(state, roll.dice))
            if game.aside_dice is not None and status is not RollStatus.APPLIED else ())

    def _commit_roll(self, decision: _Decision) -> CurrentRoll:
        """Store a roll that scores (then update the game); other rolls pass through."""
        roll, active = decision.roll, self._active
        if decision.action is None or active is None:
            return roll
        stored = active.game.codec.action_to_json(decision.action)
        source = Source.CORRECTION if any(d.corrected for d in roll.dice) else Source.CAMERA
        self.store.append(active.game_id, [NewEntry(EntryKind.ACTION, source, stored,
                                                    dice_record(roll.dice))],
                          standing=self._standing(active, decision.new_state))
        applied_at = len(active.actions)
        active.actions.append(stored)
        active.state = decision.new_state
        applied = replace(roll, status=RollStatus.APPLIED, applied_at=applied_at, error=None,
                          error_message=None)
        if source is Source.CORRECTION and self.on_confirmed is not None:
            # learnt from once the roll is published and the lock released (_scoring)
            self._confirmed.append((active.game_id, active.game.dice_set, applied))
        if source is Source.CORRECTION:
            # scored once the players had their say (its asked dice tapped): every die of it
            # was looked at
            self._teach(applied, [TaughtDie(applied.roll_id, d, Said.ACCEPTED)
                                  for d in applied.dice])
        return applied

    def _teach(self, roll: CurrentRoll, said: list[TaughtDie]) -> None:
        """Dice of a camera roll the players said something about: told of (``on_taught``)
        once the lock is released (dice typed in have no picture to teach from)."""
        if self.on_taught is not None and not roll.typed:
            self._taught.extend(said)

    @contextmanager
    def _scoring(self) -> Iterator[None]:
        """The lock, for a change that may score a roll; the confirmed rolls it scored are
        told of (``on_confirmed``) after it is released."""
        try:
            with self._lock:
                yield
        finally:
            self._tell_confirmed()

    def _tell_confirmed(self) -> None:
        with self._lock:
            confirmed, self._confirmed = self._confirmed, []
            taught, self._taught = self._taught, []
        if taught and self.on_taught is not None:
            try:
                self.on_taught(taught)
            except Exception:  # teaching the table is a bonus: never lose the roll over it
                log.exception("teaching the table %d dice failed", len(taught))
        for game_id, dice_set, roll in confirmed:
            if self.on_confirmed is None:
                continue
            try:
                self.on_confirmed(game_id, dice_set, roll)
            except Exception:  # learning the colours is a bonus: never lose the roll over it
                log.exception("learning the table's colours from roll %s failed", roll.roll_id)

    def _current_roll(self, roll_id: int) -> CurrentRoll:
        if self._roll is None or self._roll.roll_id != roll_id:
            raise InputError(APP("app.roll_gone", id=roll_id))
        return self._roll

    def _require_active(self) -> _Active:
        if self._active is None:
            raise InputError(APP("app.no_game"))
        return self._active

    def _replay(self, active: _Active, actions: Sequence[Mapping[str, Any]]) -> Any:
        return active.game.replay(active.config, actions)

    def _title(self, game: str) -> str:
        try:
            return self._get_game(game).title
        except InputError:  # a stored game of a game this server no longer knows
            return game

    def _state_payload(self) -> dict[str, Any]:
        active = self._active
        if active is None:
            view = state_view(self._version, None, None, {}, None, 0, None)
            view["demo"] = self.demo_status is not None  # the demo table is the camera
            return view
        view = state_view(self._version, active.game_id, active.game, active.config,
                          active.state, len(active.actions), self._roll)
        view["demo"] = self.demo_status is not None
        if self.demo_status is not None:
            view["demo_throw"] = self.demo_status()
        view["zones"] = None if active.zones is None else zones_view(active.zones)
        return view

    def table_due(self) -> tuple[Any, TableDue | None]:
        """The table the active game is read from where its dice lie (for the demo table,
        which lays it out), with the game it is for: (game name, game id), or None."""
        with self._lock:
            active = self._active
            if active is None or active.game.table_due is None:
                return None, None
            return (active.game.name, active.game_id), active.game.table_due(active.state)

    def publish_state(self) -> None:
        """Tell every tablet the state again (something beside the game changed: the demo
        table was asked to throw)."""
        with self._lock:
            self._publish_state()

    def _standing(self, active: _Active, state: Any) -> dict[str, Any] | None:
        """The scores the games list shows for ``state``, stored with the entry that makes
        it (one transaction)."""
        if active.game.standing is None:
            return None
        active.standing_of = state
        return active.game.standing(state).to_json()

    def _publish_state(self) -> None:
        active = self._active
        if active is not None and active.game.standing is not None and (
                active.standing_of is not active.state):
            # a game opened or made: its scores as they stand (changes store them with
            # their entries)
            self.store.set_standing(active.game_id, active.game.standing(active.state).to_json())
            active.standing_of = active.state
        self._version += 1
        self._publish(events.STATE, self._state_payload())


def zones_view(zones: ZoneMap) -> dict[str, Any]:
    """The areas drawn for a game, as tablets draw them: each drawn area, and each board
    placed by a drawn rectangle with its corners and its own zones (``parts``)."""
    def polygon(points: Sequence[tuple[float, float]]) -> list[list[float]]:
        return [[round(x, 1), round(y, 1)] for x, y in points]

    areas = [{"name": b.label, "polygon": polygon(b.corners),
              "parts": [{"name": z.name, "polygon": polygon(z.polygon)} for z in b.zones()]}
             for b in zones.boards]
    areas += [{"name": z.name, "polygon": polygon(z.polygon)} for z in zones.drawn]
    return {"width": zones.width, "height": zones.height, "zones": areas}


def dice_record(dice: Sequence[DieReading]) -> list[dict[str, Any]]:
    """What the journal keeps of a scored roll's dice, beside its action (for audits)."""
    return [{"value": d.value, "colour": d.colour, "zone": d.zone} for d in dice]
