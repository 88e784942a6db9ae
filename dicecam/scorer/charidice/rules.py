"""Charidice: a whole game for 2-4 players, as pure rules (state + action -> state).

Rulebook: *Charidice* Spielregeln (German), "Spielablauf" to "Ende des Spiels".
Scoring one throw lives in ``charidice_options``; sums, charity bonus and winners in
``charidice_sheet``. Dice values are inputs: a ``Throw`` carries the six dice the camera
(or a person) read.

A turn: the active player throws all six dice, then may twice keep some dice and throw the
rest again, and after any throw chooses one legal option. The unscored dice are the gift to
the left neighbour (the next player in seating order, who plays next); both write it on
their sheets, the giver in column 4 and the receiver in column 3 of the current round's row.
After every player has had seven turns (one row per round) the game ends.

Readings chosen (tested in tests/scorer/test_charidice_game.py):
- ``players`` are listed in seating order, clockwise; the first listed starts, and each
  player's left neighbour is the next one listed (the last player's is the first).
- A gift is written in the row of the round it was given in, also for the starting
  player, who receives the last player's gift after their own turn of that round.
- ``Keep`` names the dice (indices into the last throw) that stay for the next throw; it
  may be changed until the next throw, and throwing without a ``Keep`` throws all six.
  Keeping all six is refused: that is choosing an option. The next ``Throw`` again carries
  all six dice as read; the kept dice (colour and value) must be among them, in any order,
  because the camera does not keep the dice's order between throws.
- The big gift is asked for by the left neighbour of the active player, once per game per
  player, at any time of the turn before the third throw (also before the first throw);
  it then doubles this turn's gift for both sheets, even if it turns out to be 0.
- Colour names are compared ignoring case and surrounding spaces; a game accepts at most
  six distinct colour names, so a misread seventh colour is refused with a clear message.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from dicecam.errors import InputError, RuleError
from dicecam.scorer.charidice.messages import MESSAGES, colour_name
from dicecam.scorer.charidice.options import (
    MAX_COLOURS,
    Die,
    Kind,
    Option,
    check_choice,
    check_throw,
    list_options,
)
from dicecam.scorer.charidice.sheet import Result, SheetRow, tally

MIN_PLAYERS = 2
MAX_PLAYERS = 4
ROUNDS = 7
THROWS_PER_TURN = 3
MAX_NAME_LENGTH = 40


@dataclass(frozen=True)
class Config:
    """Who plays, in seating order (clockwise), and the rule variants."""

    players: tuple[str, ...]
    rounds: int = ROUNDS
    throws_per_turn: int = THROWS_PER_TURN

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= len(self.players) <= MAX_PLAYERS:
            raise InputError(f"Charidice is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                             f"got {len(self.players)}")
        for name in self.players:
            if not isinstance(name, str) or not name.strip():
                raise InputError(f"each player needs a non-empty name, got {name!r}")
        if len(set(self.players)) != len(self.players):
            raise InputError("player names must differ, so gifts go to the right sheet")
        if not 1 <= self.rounds <= 20:
            raise InputError(f"rounds must be 1 to 20, got {self.rounds}")
        if not 1 <= self.throws_per_turn <= 6:
            raise InputError(f"throws_per_turn must be 1 to 6, got {self.throws_per_turn}")


class Phase(StrEnum):
    PLAYING = "playing"
    OVER = "over"


@dataclass(frozen=True)
class Throw:
    dice: tuple[Die, ...]


@dataclass(frozen=True)
class Keep:
    kept: tuple[int, ...]


@dataclass(frozen=True)
class Choose:
    kind: Kind
    scored: tuple[int, ...]


@dataclass(frozen=True)
class AskBigGift:
    player: str


Action = Throw | Keep | Choose | AskBigGift


@dataclass(frozen=True)
class Row:
    """A sheet row as it fills up; None means not written yet."""

    rolled: int | None = None
    bonus: int | None = None
    received: int | None = None
    given: int | None = None
    #: the gift received this round was a big gift (the sheet's 2x box ticked)
    big_gift: bool = False


@dataclass(frozen=True)
class Turn:
    player: int
    throws: int = 0
    dice: tuple[Die, ...] = ()
    kept: tuple[int, ...] = ()
    big_gift: bool = False


@dataclass(frozen=True)
class Scoring:
    """The last scored turn, so the tablet can say what just happened."""

    round: int
    player: int
    recipient: int
    dice: tuple[Die, ...]
    option: Option
    big_gift: bool


@dataclass(frozen=True)
class State:
    config: Config
    round: int
    turn: Turn | None
    sheets: tuple[tuple[Row, ...], ...]
    big_gift_used: tuple[bool, ...]
    colours: frozenset[str] = frozenset()
    last: Scoring | None = None

    @property
    def phase(self) -> Phase:
        return Phase.OVER if self.turn is None else Phase.PLAYING

    @property
    def active(self) -> int | None:
        return None if self.turn is None else self.turn.player

    def left_of(self, player: int) -> int:
        return (player + 1) % len(self.config.players)


def new_game(config: Config) -> State:
    n = len(config.players)
    return State(
        config=config,
        round=0,
        turn=Turn(player=0),
        sheets=tuple(tuple(Row() for _ in range(config.rounds)) for _ in range(n)),
        big_gift_used=(False,) * n,
    )


def options(state: State) -> tuple[Option, ...]:
    """The ranked options of the current throw; empty before the first throw."""
    if state.turn is None or not state.turn.dice:
        return ()
    return list_options(state.turn.dice, state.turn.big_gift)


def legal_actions(state: State) -> dict[str, str]:
    """Action type -> why it is offered now (the tablet shows only these buttons)."""
    turn = state.turn
    if turn is None:
        return {}
    name = state.config.players[turn.player]
    limit = state.config.throws_per_turn
    legal: dict[str, str] = {}
    if turn.throws < limit:
        if turn.throws == 0:
            legal["throw"] = f"{name} throws all six dice"
        else:
            legal["throw"] = (f"{name} may throw again ({limit - turn.throws} throw(s) left), "
                              f"keeping {len(turn.kept)} dice")
            legal["keep"] = f"{name} may mark which dice stay before throwing again"
    if turn.throws >= 1:
        legal["choose"] = f"{name} may score one of the listed options now"
    asker = state.left_of(turn.player)
    if turn.throws < limit and not turn.big_gift and not state.big_gift_used[asker]:
        legal["big_gift"] = (f"{state.config.players[asker]} may ask {name} for the big gift "
                             "(once per game, before the third throw)")
    return legal


def apply(state: State, action: Action) -> State:
    if state.turn is None:
        raise RuleError(MESSAGES("cd.over"))
    if isinstance(action, Throw):
        return _throw(state, state.turn, action)
    if isinstance(action, Keep):
        return _keep(state, state.turn, action)
    if isinstance(action, Choose):
        return _choose(state, state.turn, action)
    if isinstance(action, AskBigGift):
        return _ask_big_gift(state, state.turn, action)
    raise InputError(f"not a Charidice action: {action!r}")


def result(state: State) -> Result:
    """Totals from the sheets as they stand; the charity bonus counts once the game is over."""
    return tally({
        name: [SheetRow(r.rolled or 0, r.bonus or 0, r.received or 0, r.given or 0)
               for r in rows]
        for name, rows in zip(state.config.players, state.sheets, strict=True)
    }, final=state.turn is None)


def charity_leaders(state: State) -> tuple[str, ...]:
    """Who has given the most so far (nobody before the first gift): the charity race."""
    given = [sum(r.given or 0 for r in rows) for rows in state.sheets]
    most = max(given)
    if most == 0:
        return ()
    return tuple(name for name, g in zip(state.config.players, given, strict=True) if g == most)


def _throw(state: State, turn: Turn, action: Throw) -> State:
    limit = state.config.throws_per_turn
    name = state.config.players[turn.player]
    if turn.throws >= limit:
        raise RuleError(MESSAGES("cd.thrown_out", player=name, n=limit))
    dice = check_throw(action.dice)
    colours = state.colours | {d.colour for d in dice}
    if len(colours) > MAX_COLOURS:
        raise RuleError(MESSAGES("cd.too_many_colours", n=MAX_COLOURS, seen=len(colours),
                                 colours=tuple(colour_name(c) for c in sorted(colours))))
    kept = Counter(turn.dice[i] for i in turn.kept)
    missing = kept - Counter(dice)
    if missing:
        die = next(iter(missing))
        raise RuleError(MESSAGES("cd.kept_missing", colour=colour_name(die.colour),
                                 value=die.value))
    return replace(state, turn=replace(turn, throws=turn.throws + 1, dice=dice, kept=()),
                   colours=colours)


def _keep(state: State, turn: Turn, action: Keep) -> State:
    if turn.throws == 0:
        raise RuleError(MESSAGES("cd.keep_before_throw"))
    if turn.throws >= state.config.throws_per_turn:
        raise RuleError(MESSAGES("cd.no_throw_left"))
    kept = tuple(sorted(action.kept))
    if len(set(kept)) != len(kept):
        raise RuleError("a die can be kept only once; a die index appears twice")
    bad = [i for i in kept if i not in range(len(turn.dice))]
    if bad:
        raise RuleError(f"dice are numbered 0 to {len(turn.dice) - 1}; there is no die {bad[0]}")
    if len(kept) == len(turn.dice):
        raise RuleError(MESSAGES("cd.keep_all"))
    return replace(state, turn=replace(turn, kept=kept))


def _ask_big_gift(state: State, turn: Turn, action: AskBigGift) -> State:
    players = state.config.players
    asker = state.left_of(turn.player)
    if action.player != players[asker]:
        raise RuleError(MESSAGES("cd.big_gift_who", asker=players[asker],
                                 player=players[turn.player], other=action.player))
    if state.big_gift_used[asker]:
        raise RuleError(MESSAGES("cd.big_gift_used", asker=players[asker]))
    if turn.big_gift:
        raise RuleError(MESSAGES("cd.big_gift_turn", asker=players[asker]))
    if turn.throws >= state.config.throws_per_turn:
        raise RuleError(MESSAGES("cd.big_gift_late"))
    used = tuple(u or i == asker for i, u in enumerate(state.big_gift_used))
    return replace(state, turn=replace(turn, big_gift=True), big_gift_used=used)


def _choose(state: State, turn: Turn, action: Choose) -> State:
    if turn.throws == 0:
        raise RuleError(MESSAGES("cd.choose_before_throw"))
    option = check_choice(turn.dice, action.kind, action.scored, turn.big_gift)
    recipient = state.left_of(turn.player)
    r = state.round
    sheets = [list(rows) for rows in state.sheets]
    sheets[turn.player][r] = replace(sheets[turn.player][r], rolled=option.points,
                                     bonus=option.bonus, given=option.gift)
    sheets[recipient][r] = replace(sheets[recipient][r], received=option.gift,
                                   big_gift=turn.big_gift)
    last = Scoring(r, turn.player, recipient, turn.dice, option, turn.big_gift)
    next_player = recipient
    next_round = r + 1 if next_player == 0 else r
    over = next_round >= state.config.rounds
    return replace(
        state,
        round=r if over else next_round,
        turn=None if over else Turn(player=next_player),
        sheets=tuple(tuple(rows) for rows in sheets),
        last=last,
    )


def replay(config: Config, actions: Sequence[Action]) -> State:
    state = new_game(config)
    for action in actions:
        state = apply(state, action)
    return state
