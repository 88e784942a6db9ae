"""V6 over JSON: the web app's game codec (a tournament evening) and ``dicecam score v6``
(one round: the jokers chosen and the event list).

Formats, with a worked example, are in docs/v6.md. Every field is checked with
dicecam.jsoncheck, so bad input is a one-line InputError naming the field; events the rules
forbid are a RuleError naming the event.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dicecam.errors import InputError, RuleError
from dicecam.jsoncheck import (
    reject_unknown_keys,
    require_bool,
    require_choice,
    require_int,
    require_list,
    require_object,
    require_str,
)
from dicecam.messages import Text, english, text_json
from dicecam.scorer.descriptor import Standing
from dicecam.scorer.v6 import player_round as rnd
from dicecam.scorer.v6 import rules as rules
from dicecam.scorer.v6.groups import MIN_GROUP, form_groups, groups_in_order
from dicecam.scorer.v6.jokers import JOKERS, MAX_CHOSEN, JokerId
from dicecam.scorer.v6.messages import JOKER_RULES_DE
from dicecam.scorer.v6.messages import MESSAGES as M

TITLE = "V6 dice tournament"

ACTION_TYPES = ("groups", "jokers", "throw", "joker", "end_fumo", "stop", "choose", "steal",
                "pass_steal", "let_six_stand")
JOKER_IDS = tuple(j.value for j in JokerId)
OPTIONS = ("keep", "reroll", "fight", "dodge", "again", "retreat", "challenge", "pass")
MAX_EVENTS = 2000


# --- config and actions ----------------------------------------------------------------------


def _name(value: Any, where: str) -> str:
    name = require_str(value, where, max_len=rules.MAX_NAME_LENGTH)
    if not name.strip():
        raise InputError(f"{where} must be a name, got an empty string")
    return name


def _groups(value: Any, where: str) -> tuple[tuple[str, ...], ...]:
    groups = require_list(value, where, min_len=1, max_len=rules.MAX_PLAYERS)
    return tuple(tuple(_name(p, f"{where}[{i}][{k}]")
                       for k, p in enumerate(require_list(g, f"{where}[{i}]", min_len=1,
                                                          max_len=rules.MAX_GROUP)))
                 for i, g in enumerate(groups))


def _jokers(value: Any, where: str) -> tuple[JokerId, ...]:
    items = require_list(value, where, max_len=MAX_CHOSEN)
    jokers = tuple(JokerId(require_choice(j, f"{where}[{i}]", JOKER_IDS))
                   for i, j in enumerate(items))
    if len(set(jokers)) != len(jokers):
        raise InputError(f"{where} names a joker twice; each joker once per round")
    return jokers


def new_game(config: Mapping[str, Any]) -> rules.Evening:
    """An evening from {"players", "groups"? | "group_seed"? | "seating"?, "final"?,
    "qualify"?, "spent"?}: the groups given, drawn from the seed, or ``"seating":
    "in_order"`` (the players as entered, dealt round the groups); with none of them the
    evening waits for a ``groups`` action. ``spent`` maps a player to the jokers used
    earlier this evening at another table (the tournament hub sends it with a final
    group)."""
    config = require_object(config, "config")
    reject_unknown_keys(config, "config", ("players", "groups", "group_seed", "seating",
                                           "final", "qualify", "spent"))
    players = require_list(config.get("players"), "config.players", min_len=MIN_GROUP,
                           max_len=rules.MAX_PLAYERS)
    names = tuple(_name(p, f"config.players[{i}]") for i, p in enumerate(players))
    groups = None
    given = [key for key in ("groups", "group_seed", "seating") if key in config]
    if len(given) > 1:
        raise InputError(f"config gives {' and '.join(given)}; give one of them")
    if "seating" in config:
        require_choice(config["seating"], "config.seating", ("in_order",))
        groups = groups_in_order(names)
    elif "groups" in config:
        groups = _groups(config["groups"], "config.groups")
    elif "group_seed" in config:
        seed = config["group_seed"]
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise InputError("config.group_seed must be a string or an integer")
        groups = form_groups(names, seed)
    final = require_bool(config.get("final", False), "config.final")
    qualify = require_int(config.get("qualify", rules.QUALIFY), "config.qualify", 1,
                          rules.MAX_GROUP)
    spent_json = require_object(config.get("spent", {}), "config.spent")
    spent = tuple((_name(name, "config.spent"),
                   _spent_jokers(jokers, f"config.spent.{name}"))
                  for name, jokers in spent_json.items())
    return rules.new_game(rules.Config(names, groups, final, qualify, spent))


def _spent_jokers(value: Any, where: str) -> tuple[JokerId, ...]:
    """Jokers a player used earlier this evening (any number, each once)."""
    items = require_list(value, where, max_len=len(JOKER_IDS))
    return tuple(JokerId(require_choice(j, f"{where}[{i}]", JOKER_IDS))
                 for i, j in enumerate(items))


def action_from_json(data: Mapping[str, Any], where: str = "action") -> rules.Action:
    data = require_object(data, where)
    kind = require_choice(data.get("type"), f"{where}.type", ACTION_TYPES)
    fields = {"groups": ("groups",), "jokers": ("jokers", "free_choice"), "throw": ("value",),
              "joker": ("joker", "opponent"), "choose": ("option",), "steal": ("victim",)}
    reject_unknown_keys(data, where, ("type",) + fields.get(kind, ()))
    if kind == "groups":
        return rules.SetGroups(_groups(data.get("groups"), f"{where}.groups"))
    if kind == "jokers":
        return rules.ChooseJokers(_jokers(data.get("jokers"), f"{where}.jokers"),
                                  require_bool(data.get("free_choice", False),
                                               f"{where}.free_choice"))
    if kind == "throw":
        return rnd.Throw(require_int(data.get("value"), f"{where}.value", 1, 6))
    if kind == "joker":
        joker = JokerId(require_choice(data.get("joker"), f"{where}.joker", JOKER_IDS))
        opponent = data.get("opponent")
        return rnd.Announce(joker, None if opponent is None
                            else _name(opponent, f"{where}.opponent"))
    if kind == "end_fumo":
        return rnd.EndFumo()
    if kind == "stop":
        return rnd.Stop()
    if kind == "pass_steal":
        return rnd.PassSteal()
    if kind == "let_six_stand":
        return rnd.LetSixStand()
    if kind == "choose":
        return rnd.Choose(require_choice(data.get("option"), f"{where}.option", OPTIONS))
    return rnd.Steal(_name(data.get("victim"), f"{where}.victim"))


def action_to_json(action: rules.Action) -> dict[str, Any]:
    if isinstance(action, rules.SetGroups):
        return {"type": "groups", "groups": [list(g) for g in action.groups]}
    if isinstance(action, rules.ChooseJokers):
        out: dict[str, Any] = {"type": "jokers", "jokers": [j.value for j in action.jokers]}
        if action.free_choice:
            out["free_choice"] = True
        return out
    if isinstance(action, rnd.Throw):
        # value 0 marks "a throw" in the legal list, where the die is not known yet
        return {"type": "throw", "value": action.value} if action.value else {"type": "throw"}
    if isinstance(action, rnd.Announce):
        out = {"type": "joker", "joker": action.joker.value}
        if action.opponent is not None:
            out["opponent"] = action.opponent
        return out
    if isinstance(action, rnd.EndFumo):
        return {"type": "end_fumo"}
    if isinstance(action, rnd.Stop):
        return {"type": "stop"}
    if isinstance(action, rnd.Choose):
        return {"type": "choose", "option": action.option}
    if isinstance(action, rnd.Steal):
        return {"type": "steal", "victim": action.victim}
    if isinstance(action, rnd.PassSteal):
        return {"type": "pass_steal"}
    if isinstance(action, rnd.LetSixStand):
        return {"type": "let_six_stand"}
    raise InputError(f"not a V6 action: {action!r}")


def apply(state: rules.Evening, action: rules.Action) -> rules.Evening:
    return rules.apply(state, action)


# --- state ---------------------------------------------------------------------------------


def _legal_json(action: rules.Action, why: Text) -> dict[str, Any]:
    return {**action_to_json(action), "why": text_json(why)}


def _joker_json(joker: JokerId) -> dict[str, Any]:
    spec = JOKERS[joker]
    return {"id": joker.value, "name": spec.name, "kind": spec.kind.value,
            "rule": spec.rule_text}


def round_to_json(game: rnd.RoundState) -> dict[str, Any]:
    """One round: the total, what is active, what may happen next and why."""
    play = game.play
    return {
        "player": game.player,
        "jokers": [_joker_json(j) for j in game.jokers],
        "total": game.total,
        "phase": game.phase.value,
        "outcome": game.outcome.value,
        "active": list(rnd.active(game)),
        "protected": game.protected,
        "fumo_running": game.fumo_running,
        "kaelte_uses": game.kaelte_uses,
        "thieving_ones": game.ones,
        "used": [j.value for j in game.jokers if j in game.used],
        "in_play": None if play is None else {
            "joker": play.joker.value, "expects": play.expects, "prompt": text_json(play.prompt),
            "options": list(play.options), "opponent": play.opponent},
        "opponents": [{"name": o.name, "total": o.total, "zombie": o.zombie}
                      for o in game.opponents],
        "legal": [_legal_json(m.action, m.why) for m in rnd.legal(game)],
        "unavailable": [{"joker": j.value, "why": why} for j, why in rnd.unavailable(game)],
        "log": [{"event": e.event, "label": text_json(e.label), "value": e.value,
                 "joker": e.joker.value if e.joker else None, "total": e.total,
                 "note": text_json(e.note)} for e in game.log],
        "note": text_json(game.note),
    }


def _evening_legal(state: rules.Evening) -> list[dict[str, Any]]:
    phase = state.phase
    if phase is rules.EveningPhase.GROUPS:
        return [{"type": "groups", "groups": [list(g) for g in
                                              groups_in_order(state.config.players)],
                 "why": "give the groups (every player exactly once, 2 to 4 per group); "
                        "proposed: the players as entered"}]
    if phase is rules.EveningPhase.JOKERS:
        player = state.player
        assert player is not None
        allowed = [j.value for j, why in rules.choosable(state, player) if why is None]
        moves = [{"type": "jokers", "choices": allowed, "max": MAX_CHOSEN,
                  "why": f"{player} names up to {MAX_CHOSEN} jokers (or none)"}]
        if rules.free_choice_open(state, player):
            moves.append({"type": "jokers", "free_choice": True, "choices": list(JOKER_IDS),
                          "max": MAX_CHOSEN,
                          "why": f"{player}'s one free-choice round of the final: any jokers"})
        return moves
    if phase is rules.EveningPhase.THROW_OFF:
        return [{"type": "throw", "why": text_json(M("v6.why.throw_off",
                                                     player=state.throw_offs[0].thrower))}]
    if phase is rules.EveningPhase.ROUND and state.round is not None:
        return [_legal_json(m.action, m.why) for m in rnd.legal(state.round)]
    return []


def state_to_json(state: rules.Evening) -> dict[str, Any]:
    off = state.throw_offs[0] if state.throw_offs else None
    player = state.player
    return {
        "game": "v6",
        "phase": state.phase.value,
        "final": state.config.final,
        "groups": [list(g) for g in state.groups],
        "group": state.group + 1 if state.groups else None,
        "pass": state.pass_no + 1 if state.groups else None,
        "passes": state.config.passes,
        "player": player,
        "round": None if state.round is None else round_to_json(state.round),
        "standing": [{"name": o.name, "total": o.total, "zombie": o.zombie}
                     for o in state.standing],
        "points": dict(state.points),
        "pass_points": [{"group": g + 1, "pass": p + 1, "player": n, "points": v}
                        for g, p, n, v in state.pass_points],
        "results": [{"group": r.group + 1, "pass": r.pass_no + 1, "player": r.player,
                     "jokers": [j.value for j in r.jokers], "total": r.total,
                     "outcome": r.outcome, "free_choice": r.free_choice,
                     "used": [j.value for j in r.used]}
                    for r in state.results],
        "pass_totals": [{"group": t.group + 1, "pass": t.pass_no + 1, "player": t.player,
                         "total": t.total, "zombie": t.zombie} for t in state.pass_totals],
        "spent_jokers": {name: [j.value for j in js] for name, js in state.spent},
        "free_choice_used": sorted(state.free_used),
        "choosable_jokers": [] if player is None or state.phase is not rules.EveningPhase.JOKERS
        else [{"joker": j.value, "name": JOKERS[j].name,
               "why_not": None if why is None else text_json(why)}
              for j, why in rules.choosable(state, player)],
        "throw_off": None if off is None else {
            "kind": off.kind, "points": off.base, "tied": list(off.blocks[0]),
            "thrower": off.thrower, "throws": list(off.throws), "decided": list(off.order)},
        "rankings": [list(r) for r in state.rankings],
        "qualified": list(state.qualified),
        "legal": _evening_legal(state),
        "note": text_json(state.note),
    }


# --- dicecam score v6 ------------------------------------------------------------------------


def score(payload: Any) -> dict[str, Any]:
    """One round: {"player"?, "jokers", "opponents"?, "events"} -> the state after each event
    and the final total."""
    payload = require_object(payload, "input")
    reject_unknown_keys(payload, "input", ("player", "jokers", "opponents", "events"))
    player = _name(payload.get("player", "player"), "input.player")
    jokers = _jokers(payload.get("jokers", []), "input.jokers")
    opponents = []
    for i, item in enumerate(require_list(payload.get("opponents", []), "input.opponents",
                                          max_len=rules.MAX_GROUP - 1)):
        where = f"input.opponents[{i}]"
        item = require_object(item, where)
        reject_unknown_keys(item, where, ("name", "total", "zombie"))
        opponents.append(rnd.Opponent(_name(item.get("name"), f"{where}.name"),
                                      require_int(item.get("total", 0), f"{where}.total", 0,
                                                  10_000),
                                      require_bool(item.get("zombie", False),
                                                   f"{where}.zombie")))
    events = require_list(payload.get("events"), "input.events", max_len=MAX_EVENTS)
    game = rnd.new_round(player, jokers, opponents)
    steps = []
    for i, data in enumerate(events):
        action = action_from_json(data, f"input.events[{i}]")
        if isinstance(action, rules.SetGroups | rules.ChooseJokers):
            raise InputError(f"input.events[{i}] is an evening action; a round's events are "
                             "throw, joker, end_fumo, stop, choose, steal, pass_steal and "
                             "let_six_stand")
        try:
            game = rnd.apply(game, action)
        except RuleError as exc:
            raise RuleError(f"input.events[{i}] ({data.get('type')}): {exc}") from None
        steps.append({"event": action_to_json(action), "total": game.total,
                      "phase": game.phase.value, "protected": game.protected,
                      "active": list(rnd.active(game)), "note": text_json(game.note)})
    # the command line's output is English text (the tablet words the messages itself)
    return english({"game": "v6", "player": player, "steps": steps, "total": game.total,
                    "outcome": game.outcome.value, "state": round_to_json(game)})


def standing(state: rules.Evening) -> Standing:
    """The evening's placement points; the players with the most once the evening is over."""
    points = dict(state.points)
    over = state.phase is rules.EveningPhase.OVER
    best = max(points.values(), default=0)
    winners = tuple(name for name, p in points.items() if p == best) if over else ()
    return Standing(tuple(points.items()), winners, over)


def catalogue() -> dict[str, Any]:
    """The jokers with their rules in both languages, for the croupier's screen and the
    rules page (read from the joker table, never copied)."""
    return {"jokers": {j.value: {"name": spec.name, "kind": spec.kind.value,
                                 "rules": {"en": spec.rule_text, "de": JOKER_RULES_DE[j.value]}}
                       for j, spec in JOKERS.items()}}
