"""Simulated V6 evenings for tests and benchmarks: every round played by the engine with
seeded random throws and random legal choices, as a croupier's tablet would send them."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dicecam.scorer.v6 import codec, rules
from dicecam.scorer.v6 import player_round as rnd
from dicecam.scorer.v6.jokers import MAX_CHOSEN

MAX_ACTIONS = 5000  # a whole group's evening takes a few hundred


@dataclass(frozen=True)
class PlayedEvening:
    """One table's evening: its config, the actions as stored in the journal (JSON) and
    the state after each action (the codec's JSON, as the table publishes it)."""

    config: dict[str, Any]
    actions: tuple[dict[str, Any], ...]
    states: tuple[dict[str, Any], ...]
    final_state: rules.Evening


def random_action(rng: random.Random, state: rules.Evening) -> rules.Action:
    if state.phase is rules.EveningPhase.JOKERS:
        player = state.player
        assert player is not None
        free = rules.free_choice_open(state, player) and rng.random() < 0.4
        allowed = [j for j, why in rules.choosable(state, player) if why is None or free]
        return rules.ChooseJokers(tuple(rng.sample(allowed, min(len(allowed),
                                                                rng.randint(0, MAX_CHOSEN)))),
                                  free_choice=free)
    if state.phase is rules.EveningPhase.THROW_OFF:
        return rnd.Throw(rng.randint(1, 6))
    assert state.round is not None
    moves = [m.action for m in rnd.legal(state.round)]
    # going on is likelier than stopping, so rounds get long enough to use the jokers
    move = rng.choices(moves, [1 if isinstance(a, rnd.Stop) else 4 for a in moves])[0]
    return rnd.Throw(rng.randint(1, 6)) if isinstance(move, rnd.Throw) else move


def play_group(group: Sequence[str], seed: int | str, final: bool = False,
               spent: Mapping[str, Sequence[str]] | None = None) -> PlayedEvening:
    """One group's whole evening (three passes, four in a final) at one table; ``spent``:
    the jokers its players used earlier that evening (a final's group)."""
    rng = random.Random(f"{seed}")
    config: dict[str, Any] = {"players": list(group), "groups": [list(group)], "final": final}
    if spent:
        config["spent"] = {name: list(jokers) for name, jokers in spent.items()}
    state = codec.new_game(config)
    actions, states = [], []
    while state.phase is not rules.EveningPhase.OVER:
        if len(actions) >= MAX_ACTIONS:
            raise RuntimeError(f"the simulated evening of {list(group)} did not end")
        action = random_action(rng, state)
        state = rules.apply(state, action)
        actions.append(codec.action_to_json(action))
        states.append(codec.state_to_json(state))
    return PlayedEvening(config, tuple(actions), tuple(states), state)


def reference_points(groups: Sequence[Sequence[str]], played: Sequence[PlayedEvening],
                     final: bool = False) -> rules.Evening:
    """One single-process evening of every group, fed the tables' actions one group after
    the other: the reference the hub's standings must equal."""
    players = [name for group in groups for name in group]
    spent = {name: jokers for evening in played
             for name, jokers in evening.config.get("spent", {}).items()}
    state = codec.new_game({"players": players, "groups": [list(g) for g in groups],
                            "final": final, "spent": spent})
    for evening in played:
        for action in evening.actions:
            state = rules.apply(state, codec.action_from_json(action))
    return state
