"""Dicetopia over JSON: the web app's game codec and ``dicecam score dicetopia``.

Formats are documented in docs/dicetopia.md. Every field is checked with
``dicecam.jsoncheck``, so a bad payload is one InputError sentence naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dicecam.errors import InputError
from dicecam.jsoncheck import (
    reject_unknown_keys,
    require_choice,
    require_int,
    require_list,
    require_object,
    require_str,
)
from dicecam.messages import english, text_json
from dicecam.scorer.descriptor import Standing
from dicecam.scorer.dicetopia import rules
from dicecam.scorer.dicetopia.messages import MISSION_NAMES_EN
from dicecam.scorer.dicetopia.missions import DRAW_MISSION, MISSION_READINGS_DE, MISSIONS
from dicecam.scorer.dicetopia.model import (
    BOARD_FIELDS,
    DISTRICT_NAMES,
    DISTRICTS,
    FACTION_NAMES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Colour,
    Die,
    District,
    Faction,
    PlayerSetup,
    Position,
)
from dicecam.scorer.dicetopia.rules import (
    Action,
    GameState,
    SetAgents,
    SetCopy,
    SetDice,
    SetMissions,
    SetRiskDraw,
)
from dicecam.scorer.dicetopia.scoring import ScoreResult, score_position

TITLE = "Dicetopia"

#: the most dice one zone can hold (a faction board; a district holds at most 5)
_ZONE_MAX_DICE = BOARD_FIELDS
_MAX_AGENTS = 7


# --- reading JSON -------------------------------------------------------------------------


def die_from_json(value: Any, where: str) -> Die:
    obj = require_object(value, where)
    reject_unknown_keys(obj, where, ("colour", "value"))
    colour = require_choice(obj.get("colour"), f"{where}.colour", [c.value for c in Colour])
    pips = require_int(obj.get("value"), f"{where}.value", 1, 6)
    return Die(Colour(colour), pips)


def die_from_reading(colour: str, value: int, where: str) -> Die:
    """A die as read or typed: its body colour (a Dicetopia colour) and its pips (1-6)."""
    return die_from_json({"colour": colour, "value": value}, where)


def dice_from_json(value: Any, where: str) -> tuple[Die, ...]:
    items = require_list(value, where, max_len=_ZONE_MAX_DICE)
    return tuple(die_from_json(item, f"{where}[{i}]") for i, item in enumerate(items))


def _mission(value: Any, where: str) -> str:
    text = require_str(value, where)
    if text not in MISSIONS:
        raise InputError(
            f"{where} is {text!r}, not a Dicetopia mission id; "
            "`dicecam missions dicetopia` lists them"
        )
    return text


def _missions(value: Any, where: str) -> tuple[str, ...]:
    items = require_list(value, where, max_len=3)
    return tuple(_mission(item, f"{where}[{i}]") for i, item in enumerate(items))


def _copy(value: Any, where: str) -> tuple[str, str] | None:
    if value is None:
        return None
    obj = require_object(value, where)
    reject_unknown_keys(obj, where, ("player", "mission"))
    return (require_str(obj.get("player"), f"{where}.player"),
            _mission(obj.get("mission"), f"{where}.mission"))


def _player(value: Any, where: str, extra: tuple[str, ...] = ()) -> PlayerSetup:
    obj = require_object(value, where)
    reject_unknown_keys(obj, where, ("name", "faction", "missions", "risk_draw", "copy", *extra))
    name = require_str(obj.get("name"), f"{where}.name", max_len=40).strip()
    if not name:
        raise InputError(f"{where}.name must not be empty")
    faction = None
    if obj.get("faction") is not None:
        faction = Faction(
            require_choice(obj["faction"], f"{where}.faction", [f.value for f in Faction])
        )
    risk = obj.get("risk_draw")
    return PlayerSetup(
        name=name,
        faction=faction,
        missions=_missions(obj.get("missions", []), f"{where}.missions"),
        risk_draw=None if risk is None else _mission(risk, f"{where}.risk_draw"),
        copy=_copy(obj.get("copy"), f"{where}.copy"),
    )


def _players(value: Any, where: str) -> list[Mapping[str, Any]]:
    items = require_list(value, where, min_len=MIN_PLAYERS, max_len=MAX_PLAYERS)
    return [require_object(item, f"{where}[{i}]") for i, item in enumerate(items)]


def _agents(value: Any, where: str) -> tuple[tuple[str, int], ...]:
    obj = require_object(value, where)
    return tuple(
        (require_str(name, f"{where} key"), require_int(count, f"{where}.{name}", 0, _MAX_AGENTS))
        for name, count in obj.items()
    )


def _district(value: Any, where: str) -> District:
    return District(require_choice(value, where, [d.value for d in DISTRICTS]))


def position_from_json(payload: Any) -> Position:
    """The ``dicecam score dicetopia`` input as a Position (InputError if malformed)."""
    obj = require_object(payload, "input")
    reject_unknown_keys(obj, "input", ("players", "districts"))
    items = _players(obj.get("players"), "players")
    players = tuple(_player(item, f"players[{i}]", ("board",)) for i, item in enumerate(items))
    boards = tuple(
        dice_from_json(item.get("board", []), f"players[{i}].board")
        for i, item in enumerate(items)
    )
    districts = require_list(obj.get("districts"), "districts", min_len=6, max_len=6)
    dice: dict[District, tuple[Die, ...]] = {}
    agents: dict[District, tuple[int, ...]] = {}
    names = [p.name for p in players]
    if len(set(names)) != len(names):
        raise InputError("players: every player needs a different name")
    for i, item in enumerate(districts):
        where = f"districts[{i}]"
        entry = require_object(item, where)
        reject_unknown_keys(entry, where, ("name", "agents", "dice"))
        district = _district(entry.get("name"), f"{where}.name")
        if district in dice:
            raise InputError(f"{where}.name: {district.value} is listed twice")
        dice[district] = dice_from_json(entry.get("dice", []), f"{where}.dice")
        counts = [0] * len(players)
        for name, count in _agents(entry.get("agents", {}), f"{where}.agents"):
            if name not in names:
                raise InputError(
                    f"{where}.agents names {name!r}, who is not a player ({', '.join(names)})"
                )
            counts[names.index(name)] = count
        agents[district] = tuple(counts)
    return Position(
        players=players,
        boards=boards,
        district_dice=tuple(dice[d] for d in DISTRICTS),
        agents=tuple(agents[d] for d in DISTRICTS),
    )


# --- writing JSON -------------------------------------------------------------------------


def die_to_json(die: Die) -> dict[str, Any]:
    return {"colour": die.colour.value, "value": die.value}


def result_to_json(result: ScoreResult, position: Position) -> dict[str, Any]:
    names = position.names
    players = []
    for p, player in enumerate(result.players):
        setup = position.players[p]
        players.append({
            "name": player.name,
            "loot": player.loot,
            "control": player.control,
            "missions": player.missions,
            "total": player.total,
            "rank": player.rank,
            "details": {
                "faction": player.faction.value if player.faction else None,
                "faction_name": FACTION_NAMES[player.faction] if player.faction else None,
                "board": [die_to_json(d) for d in player.board],
                "districts_controlled": player.districts_controlled,
                "control": [
                    {"district": r.district.value, "stars": r.stars_each,
                     "shared": len(r.controllers) > 1}
                    for r in result.districts if p in r.controllers
                ],
                "missions": [
                    {"id": m.mission, "name": MISSIONS[m.mission].name, "stars": m.stars,
                     "counted": m.counted, "note": text_json(m.note)}
                    for m in player.mission_results
                ],
                "risk_draw": setup.risk_draw,
            },
        })
    winners = [names[w] for w in result.winners]
    return {
        "players": players,
        "winner": " and ".join(winners),
        "winners": winners,
        "explanation": result.explanation.to_json(),
        "districts": [
            {
                "name": r.district.value,
                "title": DISTRICT_NAMES[r.district],
                "agents": {names[p]: a for p, a in enumerate(r.agents) if a},
                "dice_pips": r.dice_pips,
                "tied": [names[p] for p in r.tied],
                "controllers": [names[p] for p in r.controllers],
                "stars_each": r.stars_each,
                "decided_by": None if r.decided_by is None else names[r.decided_by],
            }
            for r in result.districts
        ],
        "abilities": [
            {"player": names[a.player], "faction": a.faction.value, "used": a.used,
             "text": a.text.to_json()}
            for a in result.abilities
        ],
        "complete": result.complete,
        "waiting_for": [m.to_json() for m in result.waiting_for],
    }


def score(payload: Any) -> dict[str, Any]:
    """``dicecam score dicetopia``: the table as JSON in, the full breakdown out."""
    position = position_from_json(payload)
    for player in position.players:
        if DRAW_MISSION in player.missions and player.risk_draw is None:
            raise InputError(
                f"{player.name} holds {DRAW_MISSION}: give risk_draw, the mission card drawn "
                "before final scoring"
            )
    # the command line's output is English text (the tablet words the messages itself)
    return english(result_to_json(score_position(position), position))


# --- the web app's game codec -------------------------------------------------------------


def new_game(config: Mapping[str, Any]) -> GameState:
    obj = require_object(config, "config")
    reject_unknown_keys(obj, "config", ("players",))
    items = _players(obj.get("players"), "config.players")
    players = tuple(_player(item, f"config.players[{i}]") for i, item in enumerate(items))
    return rules.new_game(players)


def action_from_json(data: Mapping[str, Any]) -> Action:
    obj = require_object(data, "action")
    kind = require_choice(
        obj.get("type"), "action.type",
        ["set_dice", "set_agents", "set_missions", "set_risk_draw", "set_copy"],
    )
    if kind == "set_dice":
        reject_unknown_keys(obj, "action", ("type", "zones"))
        zones = require_object(obj.get("zones"), "action.zones")
        return SetDice(tuple(
            (require_str(zone, "action.zones key"), dice_from_json(dice, f"action.zones.{zone}"))
            for zone, dice in zones.items()
        ))
    if kind == "set_agents":
        reject_unknown_keys(obj, "action", ("type", "district", "agents"))
        return SetAgents(_district(obj.get("district"), "action.district"),
                         _agents(obj.get("agents"), "action.agents"))
    player = require_str(obj.get("player"), "action.player", max_len=40)
    if kind == "set_missions":
        reject_unknown_keys(obj, "action", ("type", "player", "missions"))
        return SetMissions(player, _missions(obj.get("missions"), "action.missions"))
    if kind == "set_risk_draw":
        reject_unknown_keys(obj, "action", ("type", "player", "mission"))
        mission = obj.get("mission")
        return SetRiskDraw(player, None if mission is None else _mission(mission, "action.mission"))
    reject_unknown_keys(obj, "action", ("type", "player", "target"))
    return SetCopy(player, _copy(obj.get("target"), "action.target"))


def action_to_json(action: Action) -> dict[str, Any]:
    if isinstance(action, SetDice):
        return {"type": "set_dice",
                "zones": {zone: [die_to_json(d) for d in dice] for zone, dice in action.zones}}
    if isinstance(action, SetAgents):
        return {"type": "set_agents", "district": action.district.value,
                "agents": dict(action.agents)}
    if isinstance(action, SetMissions):
        return {"type": "set_missions", "player": action.player,
                "missions": list(action.missions)}
    if isinstance(action, SetRiskDraw):
        return {"type": "set_risk_draw", "player": action.player, "mission": action.mission}
    target = None if action.target is None else {
        "player": action.target[0], "mission": action.target[1]}
    return {"type": "set_copy", "player": action.player, "target": target}


def apply(state: GameState, action: Action) -> GameState:
    return rules.apply(state, action)


def state_to_json(state: GameState) -> dict[str, Any]:
    data = result_to_json(state.result, state.position)
    data["game"] = "dicetopia"
    data["title"] = TITLE
    data["table"] = {
        "players": [
            {"name": p.name, "faction": p.faction.value if p.faction else None,
             "missions": list(p.missions), "risk_draw": p.risk_draw,
             "copy": None if p.copy is None else {"player": p.copy[0], "mission": p.copy[1]}}
            for p in state.position.players
        ],
        "zones": {
            **{d.value: [die_to_json(x) for x in dice]
               for d, dice in zip(DISTRICTS, state.position.district_dice, strict=True)},
            **{rules.board_zone(p.name): [die_to_json(x) for x in board]
               for p, board in zip(state.position.players, state.position.boards, strict=True)},
        },
        "agents": {
            d.value: {name: a for name, a in zip(state.position.names, agents, strict=True) if a}
            for d, agents in zip(DISTRICTS, state.position.agents, strict=True)
        },
    }
    data["legal"] = rules.legal_actions(state)
    return data




def catalogue() -> dict[str, Any]:
    """Display names for the ids the state uses (factions, districts, missions with their
    rule text), so the page shows them without copying the cards."""
    return {
        "factions": {f.value: name for f, name in FACTION_NAMES.items()},
        "districts": {d.value: name for d, name in DISTRICT_NAMES.items()},
        # per language: the card's German title and text, the English name and how dicecam
        # scores the card (English)
        "missions": {m.id: {"name": m.name, "rule": m.rule, "reading": m.reading,
                            "names": {"en": MISSION_NAMES_EN[m.id], "de": m.name},
                            "rules": {"en": m.reading,
                                      "de": MISSION_READINGS_DE.get(m.id, m.rule)}}
                     for m in MISSIONS.values()},
        "board_fields": BOARD_FIELDS,
    }


def mission_cards() -> list[dict[str, Any]]:
    """Every mission card as the rulebook prints it and how dicecam scores it (the ids are
    what ``dicecam score`` and the web app accept)."""
    return [{"id": m.id, "title": m.title, "name": m.name, "rule": m.rule,
             "reading": m.reading, "kind": m.kind.value} for m in MISSIONS.values()]


def standing(state: GameState) -> Standing:
    """Stars per player; the winners once the table is complete (before, a leader only)."""
    data = state_to_json(state)
    return Standing(tuple((p["name"], p["total"]) for p in data["players"]),
                    tuple(data["winners"]) if data["complete"] else (), data["complete"])
