"""What the demo table throws in Dice Party (``adapter.throw_due``): whole games played
with the demo's dice, random where the game leaves them to chance, show every verdict the
page draws on the dice, a millionaire included (issue 29, point 8)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from dicecam.reading import DieReading
from dicecam.scorer.diceparty import rules
from dicecam.scorer.diceparty.verdict import Counts, GrowthOption
from dicecam.scorer.registry import get_game

GAME = get_game("diceparty")


def play(seed: int, players: list[str]) -> tuple[set[str], list[Any], rules.State]:
    """A game as the demo plays it: every throw the demo's (its fixed faces as given, the
    rest at random), the players' choices as a keen player makes them (steal everything,
    provoke everything, grow VIPs)."""
    rng = random.Random(seed)
    state = GAME.new_game({"players": players})
    seen: set[str] = set()
    rich_throws = []
    for _ in range(300):
        due = GAME.throw_due(state)
        if due is not None:
            dice = [DieReading(x=20.0 * k, y=0.0, w=10.0, h=10.0,
                               value=value or rng.randint(1, 6), colour=colour, confidence=1.0)
                    for k, (colour, value) in enumerate(zip(due.colours, due.values,
                                                            strict=True))]
            marks = GAME.dice_marks(state, dice)
            if marks is not None:
                for mark in marks["dice"]:
                    if mark is not None:
                        seen.add(mark["role"])
                        seen.update(k for k in ("millionaire", "wallet") if mark[k])
            if any(v is not None for v in due.values):
                rich_throws.append(state.players[state.active].name)
            state = GAME.codec.apply(state, GAME.adapter(state, dice))
            continue
        legal = rules.legal_actions(state)
        if not legal or legal[0].type == "next_round":
            break
        kind = legal[0]
        if kind.type == "pickpocket":
            state = rules.apply(state, rules.Pickpocket(kind.max))
        elif kind.type == "provoke":
            order = tuple(kind.options) if kind.max else ()
            state = rules.apply(state, rules.Provoke(kind.max, order))
        elif kind.type == "grow":
            state = rules.apply(state, rules.Grow(GrowthOption.VIP))
    return seen, rich_throws, state


def test_a_party_with_four_vips_is_thrown_as_a_millionaire_by_the_demo() -> None:
    start = GAME.new_game({"players": ["Anna", "Ben"]})
    anna = replace(start.players[0], party=Counts(party_people=2, vip=4, mob=3))
    rich = replace(start, players=(anna, start.players[1]), phase=rules.Phase.THROW, active=0)
    due = GAME.throw_due(rich)
    assert due is not None and due.by_itself
    assert due.colours == ("yellow",) * 2 + ("orange",) * 4 + ("red",) * 3
    assert due.values[:2] == (None, None)  # Party People fall as they may
    assert due.values[2:6] == (6, 6, 6, 6) and all(v < 6 for v in due.values[6:])
    # three VIPs, or a player who won by millionaire already: left to chance
    poorer = replace(anna, party=Counts(party_people=2, vip=3, mob=3))
    won = replace(anna, wins=(rules.Victory.MILLIONAIRE,))
    for player in (poorer, won):
        state = replace(rich, players=(player, start.players[1]))
        assert set(GAME.throw_due(state).values) == {None}
    # the preparty is never staged
    assert set(GAME.throw_due(start).values) == {None}


@pytest.mark.parametrize("players", [["Anna", "Ben"], ["Anna", "Ben", "Cleo"]])
def test_demo_games_show_every_verdict_drawn_on_the_dice(players: list[str]) -> None:
    seen: set[str] = set()
    ends = set()
    for seed in range(12):
        got, rich_throws, state = play(seed, players)
        seen |= got
        ends.add(state.round_outcome)
        if rich_throws:  # the staged throw wins the round by millionaire, at once
            assert state.round_outcome == rules.Outcome.MILLIONAIRE
    assert seen >= {"guest", "mob", "uncovered", "spare", "millionaire", "wallet"}, seen
    assert rules.Outcome.MILLIONAIRE in ends
