"""Dicetopia's fixed facts and the end-of-game position that scoring reads.

The names follow the rulebook (``dicetopia-rules-de.md``): three dice colours, six
districts, ten factions. A ``Position`` is what lies on the table when scoring starts: the
dice on each faction board, the dice still in each district and the agents per district.
``ScoringView`` is the same position as the mission cards see it, after the scoring-time
faction abilities (Dangmer's clone, Bingmai's tie decision) have been applied.

Table limits (rulebook sections 3 and 6), checked by ``check_position``:

- with N players, 2N + 2 dice of each colour are in play (10 with four players: "entfernt 2
  Würfel jeder Farbe für jeden fehlenden Spieler"), so at most 6N + 6 dice in all;
- every district has N + 1 fields (30 fields for four players; fields marked 3 and 4 stay
  empty with fewer players) and each field holds one die or one agent;
- a faction board has 6 fields; a player places 6 agents (the seventh marks the score).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from dicecam.errors import RuleError
from dicecam.scorer.dicetopia.messages import MESSAGES, district_name

MIN_PLAYERS = 2
MAX_PLAYERS = 4
BOARD_FIELDS = 6
AGENTS_PER_PLAYER = 6
CONTROL_STARS = 5


class Colour(StrEnum):
    PURPLE = "purple"  # weapons
    WHITE = "white"  # money
    TURQUOISE = "turquoise"  # information


class District(StrEnum):
    THE_AGENCY = "the_agency"
    THE_GUGU_AIRFORCE = "the_gugu_airforce"
    WASTE_MANAGEMENT = "waste_management"
    TWILIGHT_CONGRESS = "twilight_congress"
    OBSERVATORY_BANK = "observatory_bank"
    NETHAL_SYNDICATE = "nethal_syndicate"


#: The city map's order, as section 5 lists the districts.
DISTRICTS: tuple[District, ...] = tuple(District)

DISTRICT_NAMES: dict[District, str] = {
    District.THE_AGENCY: "The Agency",
    District.THE_GUGU_AIRFORCE: "The Gugu Airforce",
    District.WASTE_MANAGEMENT: "Waste Management",
    District.TWILIGHT_CONGRESS: "Twilight Congress",
    District.OBSERVATORY_BANK: "Observatory Bank",
    District.NETHAL_SYNDICATE: "Nethal Syndicate",
}


class Faction(StrEnum):
    BANXA_CORPORATION = "banxa_corporation"
    BINGMAI_GAMBLERS = "bingmai_gamblers"
    CENTAURI_BUREAU = "centauri_bureau"
    DANGMER_PROGRAM = "dangmer_program"
    EWO_FOLLOWING = "ewo_following"
    HOLLOWS = "hollows"
    ROAMERS = "roamers"
    SHAKRA_PIRATES = "shakra_pirates"
    THE_PERCEPTIONEERS = "the_perceptioneers"
    TUULU_PRIESTS = "tuulu_priests"


FACTION_NAMES: dict[Faction, str] = {
    Faction.BANXA_CORPORATION: "Banxa Corporation",
    Faction.BINGMAI_GAMBLERS: "Bingmai Gamblers",
    Faction.CENTAURI_BUREAU: "Centauri Bureau",
    Faction.DANGMER_PROGRAM: "Dangmer Program",
    Faction.EWO_FOLLOWING: "Ewo Following",
    Faction.HOLLOWS: "Hollows",
    Faction.ROAMERS: "Roamers",
    Faction.SHAKRA_PIRATES: "Shakra Pirates",
    Faction.THE_PERCEPTIONEERS: "The Perceptioneers",
    Faction.TUULU_PRIESTS: "Tuulu Priests",
}


@dataclass(frozen=True)
class Die:
    colour: Colour
    value: int

    def __post_init__(self) -> None:
        if not isinstance(self.colour, Colour):
            raise RuleError(f"a die's colour must be one of {colour_names()}, got {self.colour!r}")
        if isinstance(self.value, bool) or self.value not in range(1, 7):
            raise RuleError(f"a die's value must be 1 to 6, got {self.value!r}")

    def label(self) -> str:
        return f"{self.colour.value} {self.value}"


@dataclass(frozen=True)
class PlayerSetup:
    """A player in seating order. ``missions``: the cards held (Centauri keeps three)."""

    name: str
    faction: Faction | None = None
    missions: tuple[str, ...] = ()
    #: the card drawn for RISIKO before final scoring (None: not drawn yet)
    risk_draw: str | None = None
    #: TRITTBRETTGÄNGER's copy as (player name, mission id); None: the engine picks the best
    copy: tuple[str, str] | None = None


@dataclass(frozen=True)
class Position:
    """The table at scoring time. ``boards`` and ``agents`` are in seating order."""

    players: tuple[PlayerSetup, ...]
    boards: tuple[tuple[Die, ...], ...]
    district_dice: tuple[tuple[Die, ...], ...]  # in DISTRICTS order
    agents: tuple[tuple[int, ...], ...]  # [district][player]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def index_of(self, name: str) -> int:
        for i, player in enumerate(self.players):
            if player.name == name:
                return i
        raise RuleError(f"there is no player called {name!r}; players: {', '.join(self.names)}")


@dataclass(frozen=True)
class ScoringView:
    """What a mission card looks at: the table after the scoring-time abilities."""

    boards: tuple[tuple[Die, ...], ...]
    district_dice: tuple[tuple[Die, ...], ...]
    agents: tuple[tuple[int, ...], ...]  # [district][player]
    controllers: tuple[frozenset[int], ...]  # [district] -> players scoring its control

    @property
    def map_dice(self) -> tuple[Die, ...]:
        return tuple(die for dice in self.district_dice for die in dice)


def colour_names() -> str:
    return ", ".join(c.value for c in Colour)


def dice_per_colour(players: int) -> int:
    return 2 * players + 2


def fields_per_district(players: int) -> int:
    return players + 1


def right_neighbour(player: int, players: int) -> int:
    """Play passes clockwise, to the left; the right-hand neighbour played just before."""
    return (player - 1) % players


def check_position(position: Position) -> None:
    """Raise RuleError with a sentence when the position cannot lie on a real table."""
    n = len(position.players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise RuleError(f"Dicetopia is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, got {n}")
    names = position.names
    if len(set(names)) != n:
        raise RuleError("every player needs a different name")
    for name, board in zip(names, position.boards, strict=True):
        if len(board) > BOARD_FIELDS:
            raise RuleError(MESSAGES("dt.board_full", player=name, n=len(board),
                                     fields=BOARD_FIELDS))
    all_dice = [d for board in position.boards for d in board]
    all_dice += [d for dice in position.district_dice for d in dice]
    limit = dice_per_colour(n)
    if len(all_dice) > 3 * limit:
        raise RuleError(MESSAGES("dt.too_many_dice", n=len(all_dice), players=n,
                                 limit=3 * limit))
    counts = Counter(d.colour for d in all_dice)
    for colour in Colour:
        if counts[colour] > limit:
            raise RuleError(MESSAGES("dt.too_many_of_colour", n=counts[colour],
                                     colour=MESSAGES(f"dt.colour.{colour.value}"), players=n,
                                     limit=limit))
    fields = fields_per_district(n)
    for district, dice, agents in zip(
        DISTRICTS, position.district_dice, position.agents, strict=True
    ):
        used = len(dice) + sum(agents)
        if used > fields:
            raise RuleError(MESSAGES(
                "dt.district_full", district=district_name(district.value),
                dice=MESSAGES("dt.one_die" if len(dice) == 1 else "dt.n_dice", n=len(dice)),
                agents=MESSAGES("dt.one_agent" if sum(agents) == 1 else "dt.n_agents",
                                n=sum(agents)),
                players=n, fields=fields))
    for p, name in enumerate(names):
        placed = sum(agents[p] for agents in position.agents)
        if placed > AGENTS_PER_PLAYER:
            raise RuleError(MESSAGES("dt.agents_over", player=name, n=placed,
                                     of=AGENTS_PER_PLAYER))
    seen: dict[str, str] = {}
    for player in position.players:
        if len(set(player.missions)) != len(player.missions):
            raise RuleError(MESSAGES("dt.mission_twice", player=player.name))
        if player.risk_draw is not None and player.risk_draw in player.missions:
            raise RuleError(
                f"{player.name}'s risk draw {player.risk_draw} is a card {player.name} holds; "
                "the card for risiko is drawn from the deck"
            )
        for mission in (*player.missions, *([player.risk_draw] if player.risk_draw else [])):
            if mission in seen:
                raise RuleError(MESSAGES("dt.mission_shared", mission=mission,
                                         first=seen[mission], second=player.name))
            seen[mission] = player.name


def board_pips(board: Sequence[Die]) -> int:
    return sum(d.value for d in board)
