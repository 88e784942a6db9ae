"""Random play: many V6 rounds and a few whole evenings with seeded random throws and
random legal choices, checking the invariants after every event."""

from __future__ import annotations

import json
import random

import pytest

from dicecam.errors import RuleError
from dicecam.scorer.v6 import codec as codec
from dicecam.scorer.v6 import player_round as r
from dicecam.scorer.v6 import rules as v6
from dicecam.scorer.v6.jokers import ANNOUNCED, KAELTE_MAX_USES, JokerId

ROUNDS = 600
EVENINGS = 12
MAX_EVENTS = 400


def random_move(rng: random.Random, state: r.RoundState) -> r.RoundAction:
    moves = [m.action for m in r.legal(state)]
    # going on is likelier than stopping, so rounds get long enough to use the jokers
    weights = [1 if isinstance(a, r.Stop) else 4 for a in moves]
    move = rng.choices(moves, weights)[0]
    return r.Throw(rng.randint(1, 6)) if isinstance(move, r.Throw) else move


def check_invariants(state: r.RoundState) -> None:
    assert state.total >= 0
    assert all(o.total >= 0 for o in state.opponents)
    assert all(o.total == 0 for o in state.opponents if o.zombie)
    if state.protected is not None and not state.over:
        assert 0 <= state.protected <= state.total
    if state.outcome is r.Outcome.ZOMBIE:
        assert state.total == 0
    assert state.over == (state.outcome is not r.Outcome.PLAYING)
    assert state.over == (not r.legal(state))
    assert state.kaelte_uses <= KAELTE_MAX_USES
    # one joker per throw: never two announcements without a throw between them
    announced_since_throw = 0
    for entry in state.log:
        if entry.event == "joker":
            announced_since_throw += 1
            assert announced_since_throw <= 1
        elif entry.event == "throw":
            announced_since_throw = 0
    announced = [e.joker for e in state.log if e.event == "joker"]
    for joker in set(announced):
        limit = KAELTE_MAX_USES if joker is JokerId.KAELTE else 1
        assert announced.count(joker) <= limit


def check_refusals(state: r.RoundState) -> None:
    """Every chosen joker the state says is unavailable is refused with a reason."""
    offered = [m.action for m in r.legal(state)]
    for joker in ANNOUNCED:
        if joker in state.jokers and not any(isinstance(a, r.Announce) and a.joker is joker
                                             for a in offered):
            with pytest.raises(RuleError):
                r.apply(state, r.Announce(joker, state.opponents[0].name))


def test_random_rounds_keep_the_invariants() -> None:
    rng = random.Random(6)
    outcomes = {o: 0 for o in r.Outcome if o is not r.Outcome.PLAYING}
    announced: set[JokerId] = set()
    for _ in range(ROUNDS):
        jokers = rng.sample(list(JokerId), rng.randint(0, 3))
        opponents = [r.Opponent(name, rng.choice([0, 1, 3, 8, 20]))
                     for name in ("Bea", "Cem", "Dan")]
        state = r.new_round("Ann", jokers, opponents)
        for _ in range(MAX_EVENTS):
            if state.over:
                break
            if rng.random() < 0.1:
                check_refusals(state)
            action = random_move(rng, state)
            assert codec.action_from_json(codec.action_to_json(action)) == action
            state = r.apply(state, action)
            check_invariants(state)
        assert state.over, "a random round should end well within the event limit"
        outcomes[state.outcome] += 1
        announced |= {e.joker for e in state.log if e.event == "joker" and e.joker}
    # the random games really reach every ending and every announced joker
    assert all(outcomes.values()), outcomes
    assert announced == set(ANNOUNCED)


def test_random_evenings_hand_out_points_by_the_rules() -> None:
    rng = random.Random(2020)
    for index in range(EVENINGS):
        players = [f"P{i}" for i in range(rng.randint(2, 9))]
        state = codec.new_game({"players": players, "group_seed": index,
                                "final": index % 3 == 0})
        steps = 0
        while state.phase is not v6.EveningPhase.OVER:
            steps += 1
            assert steps < 20_000
            legal = codec.state_to_json(state)["legal"]
            move = rng.choice(legal)
            if move["type"] == "jokers" and not move.get("free_choice"):
                # a joker this player already used this evening is refused
                spent = state.spent_by(state.player)
                assert not set(spent) & {JokerId(j) for j in move["choices"]}
                if spent:
                    with pytest.raises(RuleError, match="this evening"):
                        codec.apply(state, v6.ChooseJokers((rng.choice(spent),)))
            if move["type"] == "jokers":
                jokers = rng.sample(move["choices"], min(len(move["choices"]),
                                                         rng.randint(0, 3)))
                action = v6.ChooseJokers(tuple(JokerId(j) for j in jokers),
                                         move.get("free_choice", False))
            elif move["type"] == "throw":
                action = r.Throw(rng.randint(1, 6))
            elif move["type"] == "stop" and rng.random() < 0.6:
                action = r.Throw(rng.randint(1, 6))
            else:
                action = codec.action_from_json({k: v for k, v in move.items() if k != "why"})
            state = codec.apply(state, action)
            if state.round is not None:
                check_invariants(state.round)
        json.dumps(codec.state_to_json(state))
        outcome = {(res.group, res.pass_no, res.player): res.outcome for res in state.results}
        for group in range(len(state.groups)):
            for pass_no in range(state.config.passes):
                got = {n: v for g, p, n, v in state.pass_points if (g, p) == (group, pass_no)}
                assert sorted(got) == sorted(state.groups[group])
                assert all(0 <= v <= max(v6.PLACE_POINTS) for v in got.values())
                out = [n for n in got if outcome[group, pass_no, n] in ("zombie", "skipped")]
                assert all(got[n] == 0 for n in out)  # zombies score nothing
                if len(out) < len(got):  # the best survivor always gets the 6
                    assert max(got.values()) == max(v6.PLACE_POINTS)
        assert len(state.qualified) == sum(min(len(g), state.config.qualify)
                                           for g in state.groups)
