"""What a game is to the rest of dicecam: one ``GameDescriptor`` per game.

A game is its list of actions: the web app stores each confirmed action, and the state is
``replay(descriptor, config, actions)``. A descriptor names the game's facts once (title,
dice set, player limits, variants with their defaults) and the three pieces built on its
pure rules module:

* ``codec``: JSON in and out (``GameCodec``), for the web app and ``dicecam score``;
* ``adapter``: a settled roll's dice (``DieReading``, with their zones) -> the game's own
  action, or None when the game waits for no dice now;
* ``colour_groups`` (optional): which dice of a roll form a throw whose colours the game
  knows (Dice Party: the thrower's party), or at most how many of each colour they can
  hold (Dicetopia: 2N + 2 of each in the whole game), so the colours are decided together
  with those counts (``dicecam.scorer.colour_counts``) before the adapter reads them;
* ``scorers``: ``dicecam score NAME`` functions, JSON object in, JSON object out;
* ``table_due`` and ``drawn_boards`` (optional): for a game read where its dice lie at the
  end (Dicetopia), the table the demo lays out, and the printed boards a rectangle drawn
  on the tablet's picture places;
* ``dice_marks`` and ``roll_summary`` (optional): the verdict tied to a roll's dice, and
  one sentence saying what the dice just seen count as, for the tablet.

The command line, the page template and the page's setup form all read the descriptors,
so a fact about a game lives in one place. All of it is pure: no I/O, no randomness.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

from dicecam.messages import Message
from dicecam.reading import DieReading
from dicecam.scorer.players import check_players

Adapter = Callable[[Any, Sequence[DieReading]], Any]
#: (state, dice) -> the throws the game knows the colours of: (dice indices, colour counts)
#: pairs or ``colour_counts.ColourGroup`` (which may say the counts are only a most)
ColourGroupsOf = Callable[[Any, Sequence[DieReading]], Sequence[tuple[Any, ...]]]
Scorer = Callable[[Any], dict[str, Any]]


class GameCodec(Protocol):
    """The functions a game's codec module defines (checked by tests/scorer/test_protocol.py)."""

    def new_game(self, config: Mapping[str, Any]) -> Any:
        """Start a game from a JSON config (players, variants). InputError if malformed."""

    def action_from_json(self, data: Mapping[str, Any]) -> Any:
        """A JSON action ({"type": ...}) as the game's frozen action; InputError if malformed."""

    def action_to_json(self, action: Any) -> dict[str, Any]:
        """The inverse of action_from_json: action_from_json(action_to_json(a)) == a."""

    def apply(self, state: Any, action: Any) -> Any:
        """The next state. RuleError (a sentence) if the rules forbid the action now."""

    def state_to_json(self, state: Any) -> dict[str, Any]:
        """Everything the tablet shows: players, totals, whose turn, the verdict with its
        explanation, and ``"legal"``: the actions offered now (so only legal buttons show)."""


@dataclass(frozen=True)
class ThrowDue:
    """The dice a game waits to see thrown now (for the demo table, which throws them).

    ``colours`` has one entry per die (None: any die of the set); ``values`` fixes a die's
    face (a Charidice die kept between throws; None: thrown). ``by_itself``: the throw is
    the only thing the game waits for (a Dice Party turn), so the demo throws at once;
    otherwise the players choose first and ask the demo for the throw."""

    colours: tuple[str | None, ...]
    values: tuple[int | None, ...]
    by_itself: bool

    @classmethod
    def of(cls, colours: tuple[str | None, ...], by_itself: bool) -> ThrowDue:
        return cls(colours, (None,) * len(colours), by_itself)


@dataclass(frozen=True)
class ZoneDue:
    """A zone of a laid-out table (``TableDue``): ``dice`` dice lie on its fields, then one
    marker (a player's agent, no die) per entry of ``markers``, each the index of its owner
    in seating order."""

    zone: str
    dice: int
    markers: tuple[int, ...] = ()


@dataclass(frozen=True)
class TableDue:
    """The table a game is scored from once play is over, as the demo table lays it out
    (Dicetopia's end: the city map and the faction boards with dice on their fields, agents
    in the districts), where a game is not thrown but read where its dice lie.

    ``boards`` are the printed boards (``calibration/boards/*.json``) as (layout, label),
    the first one the big board; ``zones`` their zones' dice and markers; ``colours`` how
    many dice of each colour lie on the table in all (the demo deals them out and throws
    their values)."""

    boards: tuple[tuple[str, str], ...]
    zones: tuple[ZoneDue, ...]
    colours: tuple[tuple[str, int], ...]


class VariantKind(StrEnum):
    FLAG = "flag"  # a checkbox: the variant is on or off
    NUMBER = "number"  # a whole number between ``minimum`` and ``maximum``


@dataclass(frozen=True)
class Variant:
    """A rule variant: a key of the game's config, with its default (OpenSpiel's habit of
    named parameters). ``label`` is the message id the page words in the player's language."""

    key: str
    kind: VariantKind
    default: bool | int
    label: str
    minimum: int | None = None
    maximum: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"key": self.key, "type": self.kind.value,
                                "value": self.default, "label": self.label}
        if self.kind is VariantKind.NUMBER:
            data["min"], data["max"] = self.minimum, self.maximum
        return data


@dataclass(frozen=True)
class Standing:
    """Who stands where in a game, for the list of stored games: each player's score (the
    game's own measure: points, stars, rounds won) and the winners once the game is over."""

    scores: tuple[tuple[str, int], ...]
    winners: tuple[str, ...] = ()
    over: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"scores": [{"player": name, "score": score} for name, score in self.scores],
                "winners": list(self.winners), "over": self.over}


@dataclass(frozen=True)
class GameHelp:
    """What the tablet page says of a game: its help (the ? in the bar, and its rules page)
    and the rulebook it implements, per language (``en``, ``de``).

    The publishers' rulebooks carry no licence to copy them, so dicecam cites each by its
    title and shows an owner's own copy where one was put in ``$DICECAM_HOME/rulebooks/``
    under one of ``rulebook_files`` (tried in order)."""

    #: language -> the steps the players see on the table: (heading, text)
    sections: Mapping[str, Sequence[tuple[str, str]]]
    #: language -> the title of the rulebook the game implements
    rulebook: Mapping[str, str]
    #: language -> the file names of the owner's copy of the rulebook, tried in order
    rulebook_files: Mapping[str, tuple[str, ...]]


@dataclass(frozen=True)
class TournamentEvening:
    """How a game is played as one evening across tables joined by a tournament hub
    (``dicecam hub``): what a table sends the hub and how the hub seats the tables.

    ``reports_from_state(table_code, game_key, state_json)`` -> the settled results of one
    table's game (each with ``action_id``, ``round_key``), ``report_to_json`` one of them as
    the hub's API takes it; ``final_stage`` names the stage whose tables play the final;
    ``group_size`` players sit at a table, at least ``min_group``. A table the hub seats a
    group at starts the game of ``seated_config(assignment)`` (the hub's stage, group and
    jokers spent elsewhere; None: no group) when it is free: no game running, or one that
    is over (``evening_over(state_json)``); ``plays_seating(config, seated)`` says a running
    game's config is that seating's already."""

    reports_from_state: Callable[[str, str, Mapping[str, Any]], Sequence[Any]]
    report_to_json: Callable[[Any], dict[str, Any]]
    final_stage: str
    group_size: int
    min_group: int
    seated_config: Callable[[Mapping[str, Any]], dict[str, Any] | None]
    plays_seating: Callable[[Mapping[str, Any], Mapping[str, Any]], bool]
    evening_over: Callable[[Mapping[str, Any]], bool]


@dataclass(frozen=True)
class GameDescriptor:
    name: str
    title: str
    #: the colour profile of the game's dice (``dicecam.calibration``)
    dice_set: str
    #: how many dice the demo table throws a roll when it rolls by itself (the game waits
    #: for no particular throw)
    demo_dice_per_roll: int
    min_players: int
    max_players: int
    codec: GameCodec
    adapter: Adapter
    scorers: Mapping[str, Scorer]
    #: the rulebook's worked examples and near misses, as data (``load_cases``)
    cases: Path
    variants: tuple[Variant, ...] = ()
    #: the page's help and the rulebook it cites (``GameHelp``), if any
    help: GameHelp | None = None
    #: display names the page shows for the game's ids (missions, districts...), if any
    catalogue: Callable[[], dict[str, Any]] | None = None
    #: the game's mission cards as JSON rows (id, title, name, rule, reading, kind), for
    #: ``dicecam missions``; None: the game has none
    missions: Callable[[], list[dict[str, Any]]] | None = None
    #: played as an evening across tables with a tournament hub (``TournamentEvening``)
    tournament: TournamentEvening | None = None
    colour_groups: ColourGroupsOf | None = None
    #: state -> the throw the game waits for now, if any (``ThrowDue``)
    throw_due: Callable[[Any], ThrowDue | None] | None = None
    #: state -> the table the demo lays out for the game to be read from (``TableDue``),
    #: for a game scored from where its dice lie rather than from throws
    table_due: Callable[[Any], TableDue | None] | None = None
    #: areas the players may draw on the camera's picture that are printed boards: the
    #: area's name -> the board's layout (``calibration/boards``), whose zones the drawn
    #: rectangle places (Dicetopia's city map: its six districts)
    drawn_boards: Mapping[str, str] = field(default_factory=dict)
    #: state -> each player's score and the winners (``Standing``), for the games list
    standing: Callable[[Any], Standing] | None = None
    #: (state, dice) -> the verdict tied to the roll's dice as JSON (each die's part: a
    #: Dice Party escalation group, an uncovered Mob), for the tablet to draw on the dice
    dice_marks: Callable[[Any, Sequence[DieReading]], dict[str, Any] | None] | None = None
    #: (state, dice, roll status: applied, pending, refused (pending with the rules'
    #: reason beside it) or shown) -> one sentence: what the dice just seen count as
    roll_summary: Callable[[Any, Sequence[DieReading], str], Message | None] | None = None
    #: (state, dice) -> dice of the roll that are no part of the throw (Dice Party's wallet
    #: counter die), each with the sentence of the one-tap button that leaves it out
    aside_dice: Callable[[Any, Sequence[DieReading]], Sequence[tuple[int, Message]]] | None = None
    #: players -> (config, JSON actions) of a game played on to where it is crowded, for
    #: the demo table to show at once what takes an hour of play (Dice Party's full
    #: parties); None: the demo starts the game as the rulebook does
    demo_crowded: Callable[[Sequence[str]], tuple[dict[str, Any], list[dict[str, Any]]]] | None = (
        None)

    def setup_json(self) -> dict[str, Any]:
        """What the page's new-game form needs: the player limits, the variants, and
        whether the demo can start the game crowded."""
        return {"min": self.min_players, "max": self.max_players,
                "options": [v.to_json() for v in self.variants],
                "demo_crowded": self.demo_crowded is not None}

    def new_game(self, config: Mapping[str, Any]) -> Any:
        """A new game from the page's or a hub's config: its players counted and their
        names told apart first (``players.check_players``, in the players' language),
        then the game's own codec. A stored game replays through the codec alone."""
        check_players(config, self.min_players, self.max_players)
        return self.codec.new_game(config)

    def worked_examples(self, kind: str | None = None) -> list[dict[str, Any]]:
        """The game's cases.json cases (of one ``kind``, or all of them)."""
        return [c for c in load_cases(self.cases) if kind is None or c["kind"] == kind]

    def replay(self, config: Mapping[str, Any], actions: Iterable[Mapping[str, Any]]) -> Any:
        """The state a stored game reaches: its config, then every JSON action in order."""
        state = self.codec.new_game(config)
        for data in actions:
            state = self.codec.apply(state, self.codec.action_from_json(data))
        return state


def load_cases(path: Path) -> list[dict[str, Any]]:
    """A game's cases.json: a list of ``{description, section, input, expected}`` (and an
    optional ``kind`` saying which function of the game a case exercises)."""
    return json.loads(path.read_text(encoding="utf-8"))["cases"]
