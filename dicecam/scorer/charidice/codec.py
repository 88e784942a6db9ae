"""Charidice over JSON: the web app's game codec and ``dicecam score charidice``.

Formats are described in docs/charidice.md. Every field is checked with dicecam.jsoncheck,
so bad input is a one-line InputError naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dicecam.errors import InputError
from dicecam.jsoncheck import (
    reject_unknown_keys,
    require_bool,
    require_choice,
    require_int,
    require_list,
    require_object,
    require_str,
)
from dicecam.scorer.charidice import rules as rules
from dicecam.scorer.charidice.messages import MESSAGES
from dicecam.scorer.charidice.options import (
    DICE_PER_THROW,
    Die,
    Kind,
    Option,
    list_options,
    most_given_index,
)
from dicecam.scorer.descriptor import Standing

TITLE = "Charidice"

ACTION_TYPES = ("throw", "keep", "choose", "big_gift")
#: The camera zone holding the six dice, when the table's zone map names one.

def new_game(config: Mapping[str, Any]) -> rules.State:
    config = require_object(config, "config")
    reject_unknown_keys(config, "config", ("players", "rounds", "throws_per_turn"))
    players = require_list(config.get("players"), "config.players",
                           min_len=rules.MIN_PLAYERS, max_len=rules.MAX_PLAYERS)
    names = tuple(require_str(p, f"config.players[{i}]", max_len=rules.MAX_NAME_LENGTH)
                  for i, p in enumerate(players))
    rounds = require_int(config.get("rounds", rules.ROUNDS), "config.rounds", 1, 20)
    throws = require_int(config.get("throws_per_turn", rules.THROWS_PER_TURN),
                         "config.throws_per_turn", 1, 6)
    return rules.new_game(rules.Config(names, rounds, throws))


def dice_from_json(value: Any, where: str) -> tuple[Die, ...]:
    items = require_list(value, where, min_len=DICE_PER_THROW, max_len=DICE_PER_THROW)
    dice = []
    for i, item in enumerate(items):
        item = require_object(item, f"{where}[{i}]")
        reject_unknown_keys(item, f"{where}[{i}]", ("colour", "value", "zone"))
        colour = require_str(item.get("colour"), f"{where}[{i}].colour", max_len=40)
        value = require_int(item.get("value"), f"{where}[{i}].value", 1, 6)
        dice.append(die_from_reading(colour, value, f"{where}[{i}]"))
    return tuple(dice)


def die_from_reading(colour: str, value: int, where: str) -> Die:
    """A die as read or typed: the colour of its numeral and its value (1-6, checked)."""
    if not colour.strip():
        raise InputError(f"{where}.colour must name a colour, got an empty string")
    return Die(colour, value)


def _indices(value: Any, where: str) -> tuple[int, ...]:
    items = require_list(value, where, max_len=DICE_PER_THROW)
    return tuple(require_int(v, f"{where}[{i}]", 0, DICE_PER_THROW - 1)
                 for i, v in enumerate(items))


def action_from_json(data: Mapping[str, Any]) -> rules.Action:
    data = require_object(data, "action")
    kind = require_choice(data.get("type"), "action.type", ACTION_TYPES)
    if kind == "throw":
        reject_unknown_keys(data, "action", ("type", "dice"))
        return rules.Throw(dice_from_json(data.get("dice"), "action.dice"))
    if kind == "keep":
        reject_unknown_keys(data, "action", ("type", "kept"))
        return rules.Keep(_indices(data.get("kept"), "action.kept"))
    if kind == "choose":
        reject_unknown_keys(data, "action", ("type", "kind", "scored"))
        how = require_choice(data.get("kind"), "action.kind", [k.value for k in Kind])
        return rules.Choose(Kind(how), _indices(data.get("scored"), "action.scored"))
    reject_unknown_keys(data, "action", ("type", "player"))
    return rules.AskBigGift(require_str(data.get("player"), "action.player",
                                        max_len=rules.MAX_NAME_LENGTH))


def action_to_json(action: rules.Action) -> dict[str, Any]:
    if isinstance(action, rules.Throw):
        return {"type": "throw", "dice": [_die_json(d) for d in action.dice]}
    if isinstance(action, rules.Keep):
        return {"type": "keep", "kept": list(action.kept)}
    if isinstance(action, rules.Choose):
        return {"type": "choose", "kind": action.kind.value, "scored": list(action.scored)}
    if isinstance(action, rules.AskBigGift):
        return {"type": "big_gift", "player": action.player}
    raise InputError(f"not a Charidice action: {action!r}")


def apply(state: rules.State, action: rules.Action) -> rules.State:
    return rules.apply(state, action)


def option_json(option: Option) -> dict[str, Any]:
    return {
        "kind": option.kind.value,
        "scored": list(option.scored),
        "points": option.points,
        "bonus": option.bonus,
        "combination": option.combination.value,
        "total": option.total,
        "gift": option.gift,
    }


def options_json(options: tuple[Option, ...]) -> dict[str, Any]:
    return {
        "options": [option_json(o) for o in options],
        "best_points": 0 if options else None,
        "most_given": most_given_index(options) if options else None,
    }


def state_to_json(state: rules.State) -> dict[str, Any]:
    players = state.config.players
    turn = state.turn
    outcome = rules.result(state)
    legal = rules.legal_actions(state)
    data: dict[str, Any] = {
        "game": "charidice",
        "title": TITLE,
        "phase": state.phase.value,
        "round": state.round + 1,
        "rounds": state.config.rounds,
        "players": [
            {
                "name": name,
                "rows": [[r.rolled, r.bonus, r.received, r.given] for r in rows],
                "big_gift_used": used,
                # the rounds whose gift this player received doubled (the 2x box ticked)
                "big_gift_rounds": [i + 1 for i, r in enumerate(rows) if r.big_gift],
                "rolled": res.rolled,
                "bonus": res.bonus,
                "received": res.received,
                "given": res.given,
                "charity_bonus": res.charity_bonus,
                "total": res.total,
            }
            for name, rows, used, res in zip(players, state.sheets, state.big_gift_used,
                                             outcome.players, strict=True)
        ],
        "active": None if turn is None else players[turn.player],
        "recipient": None if turn is None else players[state.left_of(turn.player)],
        "turn": None if turn is None else {
            "throws": turn.throws,
            "throws_left": state.config.throws_per_turn - turn.throws,
            "dice": [_die_json(d) for d in turn.dice],
            "kept": list(turn.kept),
            "big_gift": turn.big_gift,
        },
        "legal": [{"type": t, "why": why} for t, why in legal.items()],
        "last": None if state.last is None else _scoring_json(state, state.last),
        "charity_leaders": list(rules.charity_leaders(state)),
        "winners": list(outcome.winners) if turn is None else None,
    }
    data.update(options_json(rules.options(state)))
    data["explanation"] = _explain(state, data)
    return data


def _scoring_json(state: rules.State, last: rules.Scoring) -> dict[str, Any]:
    players = state.config.players
    return {
        "round": last.round + 1,
        "player": players[last.player],
        "recipient": players[last.recipient],
        "dice": [_die_json(d) for d in last.dice],
        "option": option_json(last.option),
        "big_gift": last.big_gift,
    }


def _explain(state: rules.State, data: dict[str, Any]) -> list[dict[str, Any]]:
    """What just happened and what comes next, as messages (the tablet words them)."""
    parts = []
    if state.last is not None:
        last = data["last"]
        option = last["option"]
        parts.append(MESSAGES(
            "cd.scored_big" if last["big_gift"] else "cd.scored", player=last["player"],
            points=option["points"], bonus=option["bonus"], gift=option["gift"],
            recipient=last["recipient"]))
    if state.turn is None:
        winners = tuple(data["winners"])
        parts.append(MESSAGES("cd.game_over_one" if len(winners) == 1 else "cd.game_over_many",
                              winners=winners))
    else:
        parts.append(MESSAGES("cd.round", round=data["round"], player=data["active"],
                              throw=state.turn.throws, throws=state.config.throws_per_turn))
    return [m.to_json() for m in parts]


def _die_json(die: Die) -> dict[str, Any]:
    return {"colour": die.colour, "value": die.value}


def score(payload: Any) -> dict[str, Any]:
    """``dicecam score charidice``: every option for six dice, best for points first."""
    payload = require_object(payload, "input")
    reject_unknown_keys(payload, "input", ("dice", "big_gift"))
    dice = dice_from_json(payload.get("dice"), "dice")
    big_gift = require_bool(payload.get("big_gift", False), "big_gift")
    result = options_json(list_options(dice, big_gift))
    result["colours"] = _colour_counts(dice)
    return result


def _colour_counts(dice: tuple[Die, ...]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for die in dice:
        counts[die.colour] = counts.get(die.colour, 0) + 1
    return counts


def standing(state: rules.State) -> Standing:
    """The score sheets' totals; the winners once the seven rounds are played."""
    data = state_to_json(state)
    return Standing(tuple((p["name"], p["total"]) for p in data["players"]),
                    tuple(data["winners"] or ()), data["phase"] == "over")
