"""Dice Party over JSON: the web app's game codec and ``dicecam score diceparty``.

Formats are documented in docs/diceparty.md. Every field is checked with
``dicecam.jsoncheck``; a bad one raises ``InputError`` naming it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
from dicecam.messages import Message, english
from dicecam.reading import DieReading
from dicecam.scorer.descriptor import Standing
from dicecam.scorer.diceparty import rules as rules
from dicecam.scorer.diceparty.dice_marks import DiceMarks, dice_marks
from dicecam.scorer.diceparty.messages import MESSAGES, dice_sum
from dicecam.scorer.diceparty.verdict import (
    DICE_PER_COLOUR,
    KINDS,
    Counts,
    Die,
    Escalation,
    Group,
    GrowthOption,
    GrowthOutcome,
    Kind,
    MobArrival,
    escalation,
    full_stock_minus,
    growth_outcomes,
    millionaire,
    pickpocketable,
    provokable,
)

TITLE = "Dice Party"
KIND_NAMES = tuple(k.value for k in KINDS)
MAX_DICE = len(KINDS) * DICE_PER_COLOUR

# --- reading JSON -------------------------------------------------------------------------


def die_from_json(data: Any, where: str) -> Die:
    obj = require_object(data, where)
    reject_unknown_keys(obj, where, ("kind", "pips"))
    kind = require_choice(obj.get("kind"), f"{where}.kind", KIND_NAMES)
    pips = require_int(obj.get("pips"), f"{where}.pips", 1, 6)
    return Die(Kind(kind), pips)


def dice_from_json(data: Any, where: str) -> tuple[Die, ...]:
    items = require_list(data, where, max_len=MAX_DICE)
    dice = tuple(die_from_json(item, f"{where}[{i}]") for i, item in enumerate(items))
    counts = Counts.of(dice)
    for kind in KINDS:
        if counts[kind] > DICE_PER_COLOUR:
            raise InputError(f"{where} holds {counts[kind]} dice of kind {kind.value}, more "
                             f"than the {DICE_PER_COLOUR} of one set")
    return dice


def counts_from_json(data: Any, where: str) -> Counts:
    obj = require_object(data, where)
    reject_unknown_keys(obj, where, KIND_NAMES)
    return Counts(*(require_int(obj.get(k, 0), f"{where}.{k}", 0, DICE_PER_COLOUR)
                    for k in KIND_NAMES))


def new_game(config: Mapping[str, Any]) -> rules.State:
    obj = require_object(config, "config")
    reject_unknown_keys(obj, "config", ("players", "party_animal"))
    names = require_list(obj.get("players"), "config.players", min_len=rules.MIN_PLAYERS,
                         max_len=rules.MAX_PLAYERS)
    players = tuple(require_str(n, f"config.players[{i}]", max_len=rules.MAX_NAME_LENGTH)
                    for i, n in enumerate(names))
    animal = require_bool(obj.get("party_animal", False), "config.party_animal")
    return rules.new_game(rules.Config(players, animal))


ACTION_TYPES = ("preparty", "throw", "pickpocket", "provoke", "grow", "next_round")


def action_from_json(data: Mapping[str, Any]) -> rules.Action:
    obj = require_object(data, "action")
    kind = require_choice(obj.get("type"), "action.type", ACTION_TYPES)
    if kind == "preparty":
        reject_unknown_keys(obj, "action", ("type", "throws"))
        throws = require_object(obj.get("throws"), "action.throws")
        return rules.PrepartyThrow(tuple(
            (require_str(name, "action.throws key", max_len=rules.MAX_NAME_LENGTH),
             dice_from_json(dice, f"action.throws.{name}"))
            for name, dice in throws.items()))
    if kind == "throw":
        reject_unknown_keys(obj, "action", ("type", "dice"))
        return rules.Throw(dice_from_json(obj.get("dice"), "action.dice"))
    if kind == "pickpocket":
        reject_unknown_keys(obj, "action", ("type", "count"))
        return rules.Pickpocket(require_int(obj.get("count"), "action.count", 0,
                                            DICE_PER_COLOUR))
    if kind == "provoke":
        reject_unknown_keys(obj, "action", ("type", "count", "order"))
        order = require_list(obj.get("order", []), "action.order", max_len=rules.MAX_PLAYERS)
        return rules.Provoke(
            require_int(obj.get("count"), "action.count", 0, DICE_PER_COLOUR),
            tuple(require_str(n, f"action.order[{i}]", max_len=rules.MAX_NAME_LENGTH)
                  for i, n in enumerate(order)))
    if kind == "grow":
        reject_unknown_keys(obj, "action", ("type", "option"))
        option = require_choice(obj.get("option"), "action.option",
                                tuple(o.value for o in GrowthOption))
        return rules.Grow(GrowthOption(option))
    reject_unknown_keys(obj, "action", ("type",))
    return rules.NextRound()


def action_to_json(action: rules.Action) -> dict[str, Any]:
    if isinstance(action, rules.PrepartyThrow):
        return {"type": "preparty",
                "throws": {name: [die_to_json(d) for d in dice] for name, dice in action.throws}}
    if isinstance(action, rules.Throw):
        return {"type": "throw", "dice": [die_to_json(d) for d in action.dice]}
    if isinstance(action, rules.Pickpocket):
        return {"type": "pickpocket", "count": action.count}
    if isinstance(action, rules.Provoke):
        return {"type": "provoke", "count": action.count, "order": list(action.order)}
    if isinstance(action, rules.Grow):
        return {"type": "grow", "option": action.option.value}
    if isinstance(action, rules.NextRound):
        return {"type": "next_round"}
    raise InputError(f"not a Dice Party action: {action!r}")


def apply(state: rules.State, action: rules.Action) -> rules.State:
    return rules.apply(state, action)


# --- writing JSON -------------------------------------------------------------------------


def die_to_json(die: Die) -> dict[str, Any]:
    return {"kind": die.kind.value, "pips": die.pips}


def escalation_to_json(verdict: Escalation) -> dict[str, Any]:
    return {
        "checked": verdict.checked,
        "escalated": verdict.escalated,
        "mob_level": verdict.mob_level,
        "guest_level": verdict.guest_level,
        "groups": [{"guests": [die_to_json(d) for d in g.guests],
                    "mobs": [die_to_json(d) for d in g.mobs],
                    "guest_level": g.guest_level, "mob_level": g.mob_level, "exact": g.exact,
                    "text": group_text(g).to_json()}
                   for g in verdict.groups],
        "uncovered_mobs": [die_to_json(d) for d in verdict.uncovered],
        "spare_guests": [die_to_json(d) for d in verdict.spare],
        "explanation": verdict.explanation().to_json(),
    }


def dice_marks_to_json(marks: DiceMarks | None) -> dict[str, Any] | None:
    """The verdict on a roll's dice for the tablet: the groups (numbered from 1 on the
    page), each die's part, the millionaire's levels."""
    if marks is None:
        return None
    verdict, rich = marks.escalation, marks.millionaire
    return {
        "player": marks.player,
        "checked": verdict.checked,
        "escalated": verdict.escalated,
        "explanation": verdict.explanation().to_json(),
        "groups": [{"text": group_text(g).to_json(), "exact": g.exact}
                   for g in verdict.groups],
        "uncovered": len(verdict.uncovered),
        "millionaire": {"levels": list(rich.levels),
                        "reasons": [r.to_json() for r in rich.reasons]},
        "dice": [None if m is None else {"role": m.role.value, "group": m.group,
                                         "millionaire": m.millionaire, "wallet": m.wallet}
                 for m in marks.marks],
    }


def roll_dice_marks(state: rules.State, dice: Sequence[DieReading]) -> dict[str, Any] | None:
    """The verdict on a roll's dice (``dice_marks``) as the tablet draws it."""
    return dice_marks_to_json(dice_marks(state, dice))


def group_text(group: Group) -> Message:
    """A group as players lay it out, e.g. "Party People 2 + VIP 1 = Mob 3"."""
    return MESSAGES("dp.group_exact" if group.exact else "dp.group_over",
                    guests=dice_sum([(d.kind.value, d.pips) for d in group.guests]),
                    mobs=dice_sum([(d.kind.value, d.pips) for d in group.mobs]))


def removed_to_json(removed: Counts) -> dict[str, int]:
    return {"party_people": removed.party_people, "vip": removed.vip}


def arrival_to_json(arrival: MobArrival) -> dict[str, Any]:
    return {"due_mobs": arrival.due, "new_mobs": arrival.added,
            "removed": removed_to_json(arrival.removed), "unfilled_mobs": arrival.unfilled}


def growth_to_json(outcome: GrowthOutcome) -> dict[str, Any]:
    noun = outcome.kind.value + ("s" if outcome.kind == Kind.VIP else "")
    return {"option": outcome.option.value, "points": outcome.points,
            f"due_{noun}": outcome.due_guests, f"new_{noun}": outcome.new_guests,
            **arrival_to_json(outcome.mobs)}


def growth_options_to_json(options: Mapping[GrowthOption, GrowthOutcome]) -> dict[str, Any]:
    return {f"{option.value}_option": growth_to_json(outcome)
            for option, outcome in options.items()}


def _turn_to_json(state: rules.State, turn: rules.Turn) -> dict[str, Any]:
    rich = turn.millionaire
    return {
        "player": state.players[turn.player].name,
        "thrown": [die_to_json(d) for d in turn.thrown],
        "dice": [die_to_json(d) for d in turn.dice],
        "escalation": escalation_to_json(turn.escalation),
        "millionaire": {"arrived": rich.arrived, "levels": list(rich.levels),
                        "reasons": [r.to_json() for r in rich.reasons],
                        "cancelled_turn": turn.cancelled},
        "pickpocketable": pickpocketable(turn.dice),
        "provokable": provokable(turn.dice),
        "stolen": turn.stolen,
        "provoked": [die_to_json(d) for d in turn.provoked],
        "deliveries": [{"player": d.player, **arrival_to_json(d.arrival)}
                       for d in turn.deliveries],
        "growth": growth_to_json(turn.growth) if turn.growth else None,
    }


def _player_to_json(state: rules.State, player: rules.Player) -> dict[str, Any]:
    return {
        "name": player.name,
        "in_round": player.in_round,
        "party": player.party.to_json(),
        "stock": player.stock.to_json(),
        "counter_die": player.counter_die,
        "wallets": player.wallets,
        "set_total": player.set_total().to_json(),
        "escalations": player.escalations,
        "out": state.config.party_animal and player.out,
        "wins": [v.value for v in player.wins],
        "crowned": player.crowned,
    }


def state_to_json(state: rules.State) -> dict[str, Any]:
    def name(index: int | None) -> str | None:
        return None if index is None else state.players[index].name

    grow = state.phase == rules.Phase.GROW
    return {
        "game": "diceparty",
        "title": TITLE,
        "party_animal": state.config.party_animal,
        "round": state.round,
        "phase": state.phase.value,
        "waiting_for": rules.waiting_for(state).to_json(),
        "active": name(state.active),
        "players": [_player_to_json(state, p) for p in state.players],
        "preparty": None if state.preparty is None else {
            "totals": dict(state.preparty.totals), "tied": list(state.preparty.tied)},
        "preparty_thrown": {name: sum(d.pips for d in dice)
                            for name, dice in state.preparty_thrown},
        "turn": _turn_to_json(state, state.turn) if state.turn else None,
        "last_turn": _turn_to_json(state, state.last_turn) if state.last_turn else None,
        "growth_options": growth_options_to_json(rules.growth_options(state)) if grow else None,
        "round_result": None if state.round_outcome is None else {
            "winner": name(state.round_winner), "outcome": state.round_outcome.value},
        "game_result": None if state.game_outcome is None else {
            "winner": name(state.champion), "outcome": state.game_outcome.value},
        "events": [e.to_json() for e in state.events],
        "legal": [{"type": legal.type, "min": legal.min, "max": legal.max,
                   "options": list(legal.options)} for legal in rules.legal_actions(state)],
    }


# --- dicecam score diceparty --------------------------------------------------------------


def score(payload: Any) -> dict[str, Any]:
    """One thrown party: every check of steps 2-6, worked out on the party as given."""
    obj = require_object(payload, "input")
    reject_unknown_keys(obj, "input", ("party", "stock"))
    if "party" not in obj:
        raise InputError("input needs a \"party\": a list of {\"kind\", \"pips\"} dice")
    dice = dice_from_json(obj["party"], "party")
    party = Counts.of(dice)
    if "stock" in obj:
        # A kind left out of "stock" is as full as the party allows, so {"mob": 0} asks
        # about a Mob shortage alone instead of emptying the other two stocks as well.
        given = dict(require_object(obj["stock"], "stock"))
        defaults = full_stock_minus(party).to_json()
        stock = counts_from_json({**defaults, **given}, "stock")
        for kind in KINDS:
            if party[kind] + stock[kind] > DICE_PER_COLOUR:
                raise InputError(f"party and stock hold {party[kind] + stock[kind]} dice of "
                                 f"kind {kind.value}, more than the {DICE_PER_COLOUR} of one "
                                 f"set")
    else:
        stock = full_stock_minus(party)
    verdict = escalation(dice)
    rich = millionaire(dice)
    # the command line's output is English text (the tablet words the messages itself)
    return english({
        "escalated": verdict.escalated,
        "mob_level": verdict.mob_level,
        "guest_level": verdict.guest_level,
        "millionaire": rich.arrived,
        "pickpocketable": pickpocketable(dice),
        "provokable": provokable(dice),
        "growth": growth_options_to_json(growth_outcomes(dice, stock)),
        "party": party.to_json(),
        "stock": stock.to_json(),
        "escalation": escalation_to_json(verdict),
        "millionaire_levels": list(rich.levels),
        "millionaire_reasons": [r.to_json() for r in rich.reasons],
    })


def standing(state: rules.State) -> Standing:
    """Rounds won per player (Party Animal plays several); the game's winner once over."""
    data = state_to_json(state)
    result = data["game_result"]
    winner = result["winner"] if result else None
    return Standing(tuple((p["name"], len(p["wins"])) for p in data["players"]),
                    (winner,) if winner else (), data["phase"] == "game_over")
