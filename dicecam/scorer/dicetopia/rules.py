"""A Dicetopia endgame scoring session: the table is entered action by action.

The web app starts a session from the players (name, faction, missions) and then applies
actions: the dice the camera reads in some zones (a district, or ``board:<player>``), the
agents counted in a district, a player's missions, RISIKO's drawn card, TRITTBRETTGÄNGER's
copy. After every action the state holds the full score of the table as it stands, so the
tablet can show the breakdown, the winner and what is still missing at any time.

An action that would make an impossible table (an eleventh purple die, seven dice on a
board, a district with more objects than fields, a mission held twice) raises RuleError
and leaves the state as it was. Zones absent from a camera roll keep their dice.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from dicecam.errors import RuleError
from dicecam.scorer.dicetopia.missions import COPY_MISSION, DRAW_MISSION, MISSIONS
from dicecam.scorer.dicetopia.model import (
    DISTRICTS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Die,
    District,
    PlayerSetup,
    Position,
)
from dicecam.scorer.dicetopia.scoring import ScoreResult, score_position

BOARD_ZONE_PREFIX = "board:"


@dataclass(frozen=True)
class SetDice:
    """The dice now lying in each listed zone (a district id or ``board:<player>``)."""

    zones: tuple[tuple[str, tuple[Die, ...]], ...]


@dataclass(frozen=True)
class SetAgents:
    """The agents now in one district; players not listed have none there."""

    district: District
    agents: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class SetMissions:
    player: str
    missions: tuple[str, ...]


@dataclass(frozen=True)
class SetRiskDraw:
    player: str
    mission: str | None


@dataclass(frozen=True)
class SetCopy:
    """TRITTBRETTGÄNGER's copy as (player, mission); None lets the engine pick the best."""

    player: str
    target: tuple[str, str] | None


Action = SetDice | SetAgents | SetMissions | SetRiskDraw | SetCopy


@dataclass(frozen=True)
class GameState:
    position: Position
    result: ScoreResult


def board_zone(player: str) -> str:
    return BOARD_ZONE_PREFIX + player


def zone_names(position: Position) -> tuple[str, ...]:
    return tuple(d.value for d in DISTRICTS) + tuple(board_zone(n) for n in position.names)


def new_game(players: tuple[PlayerSetup, ...]) -> GameState:
    """An empty table for these players: no dice entered, no agents counted yet."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise RuleError(
            f"Dicetopia is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(players)}"
        )
    position = Position(
        players=players,
        boards=tuple(() for _ in players),
        district_dice=tuple(() for _ in DISTRICTS),
        agents=tuple(tuple(0 for _ in players) for _ in DISTRICTS),
    )
    return GameState(position, score_position(position))


def apply(state: GameState, action: Action) -> GameState:
    position = _next_position(state.position, action)
    return GameState(position, score_position(position))


def _next_position(position: Position, action: Action) -> Position:
    if isinstance(action, SetDice):
        boards = list(position.boards)
        district_dice = list(position.district_dice)
        for zone, dice in action.zones:
            if zone.startswith(BOARD_ZONE_PREFIX):
                boards[position.index_of(zone[len(BOARD_ZONE_PREFIX):])] = dice
            else:
                district_dice[_district_index(zone)] = dice
        return replace(position, boards=tuple(boards), district_dice=tuple(district_dice))
    if isinstance(action, SetAgents):
        counts = [0] * len(position.players)
        for name, count in action.agents:
            if count < 0:
                raise RuleError(f"{name} cannot have {count} agents in {action.district.value}")
            counts[position.index_of(name)] = count
        d = DISTRICTS.index(action.district)
        agents = list(position.agents)
        agents[d] = tuple(counts)
        return replace(position, agents=tuple(agents))
    p = position.index_of(action.player)
    player = position.players[p]
    if isinstance(action, SetMissions):
        # a card given up takes its draw or copy with it
        player = replace(
            player,
            missions=action.missions,
            risk_draw=player.risk_draw if DRAW_MISSION in action.missions else None,
            copy=player.copy if COPY_MISSION in action.missions else None,
        )
    elif isinstance(action, SetRiskDraw):
        player = replace(player, risk_draw=action.mission)
    else:
        player = replace(player, copy=action.target)
    players = list(position.players)
    players[p] = player
    if isinstance(action, SetMissions):
        # ... and another player's TRITTBRETTGÄNGER copy of it goes back to the best pick
        players = [
            replace(other, copy=None)
            if other.copy is not None and other.copy[0] == player.name
            and other.copy[1] not in action.missions else other
            for other in players
        ]
    return replace(position, players=tuple(players))


def _district_index(zone: str) -> int:
    for i, district in enumerate(DISTRICTS):
        if district.value == zone:
            return i
    raise RuleError(
        f"unknown zone {zone!r}; use a district ({', '.join(d.value for d in DISTRICTS)}) "
        f"or {BOARD_ZONE_PREFIX}<player>"
    )


def legal_actions(state: GameState) -> list[dict[str, object]]:
    """The actions the tablet offers now, with their options, as plain JSON."""
    position = state.position
    held = {m for p in position.players for m in p.missions}
    held |= {p.risk_draw for p in position.players if p.risk_draw}
    legal: list[dict[str, object]] = [
        {"type": "set_dice", "zones": list(zone_names(position))},
        {"type": "set_agents", "districts": [d.value for d in DISTRICTS],
         "players": list(position.names)},
    ]
    for player in position.players:
        own = set(player.missions) | ({player.risk_draw} if player.risk_draw else set())
        free = [m for m in MISSIONS if m not in held or m in own]
        legal.append({"type": "set_missions", "player": player.name, "options": free})
        if DRAW_MISSION in player.missions:
            legal.append({
                "type": "set_risk_draw", "player": player.name,
                "options": [m for m in MISSIONS if m not in held or m == player.risk_draw],
            })
        if COPY_MISSION in player.missions:
            legal.append({
                "type": "set_copy", "player": player.name,
                "options": [
                    {"player": other.name, "mission": m}
                    for other in position.players if other.name != player.name
                    for m in other.missions if m != COPY_MISSION
                ],
            })
    return legal
