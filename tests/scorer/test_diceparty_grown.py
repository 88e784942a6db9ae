"""The big Dice Party games the benches play: parties grown to size, throws that score."""

from __future__ import annotations

from collections import Counter

from dicecam.scorer.diceparty import codec, rules
from dicecam.scorer.diceparty.adapter import action_from_roll, throw_due
from dicecam.scorer.diceparty.grown import MAX_PARTY, grown_parties, quiet_throw


def _played(size: int):
    config, actions = grown_parties(["Ann", "Bo"], size)
    state = codec.new_game(config)
    for action in actions:
        state = codec.apply(state, codec.action_from_json(action))
    return state


def test_parties_grow_to_the_size_asked_and_wait_for_a_throw() -> None:
    state = _played(40)
    assert state.phase == rules.Phase.THROW
    assert all(p.party.total >= 40 for p in state.players)
    assert all(p.party.total <= MAX_PARTY for p in state.players)


def test_a_quiet_throw_of_the_due_party_is_taken_without_escalation() -> None:
    state = _played(30)
    due = throw_due(state)
    dice = quiet_throw(due.colours)
    assert Counter(d.colour for d in dice) == Counter(due.colours)
    assert all(d.corrected and not d.needs_check for d in dice)
    before = state.players[state.active].party.total
    after = codec.apply(state, action_from_roll(state, dice))
    assert after.phase in (rules.Phase.PICKPOCKET, rules.Phase.PROVOKE, rules.Phase.GROW)
    assert after.players[state.active].party.total == before  # nobody left the party
