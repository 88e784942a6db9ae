"""Dice Party: the verdict tied to the dice of a roll (``dice_marks``), so the tablet can
draw on the dice which guests cover which Mobs, the uncovered Mobs, the millionaire's VIPs
and the wallets. Dice are written as in test_diceparty_verdict: "P6", "V4", "M3"."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from dicecam.reading import DieReading
from dicecam.scorer.diceparty import rules
from dicecam.scorer.diceparty.codec import roll_dice_marks
from dicecam.scorer.diceparty.dice_marks import Role, dice_marks
from dicecam.scorer.diceparty.verdict import (
    COLOUR_OF,
    DICE_PER_COLOUR,
    KINDS,
    Counts,
    Die,
    Kind,
    escalation,
)

LETTER = {"P": Kind.PARTY_PEOPLE, "V": Kind.VIP, "M": Kind.MOB}


def readings(text: str, zone: str | None = None) -> list[DieReading]:
    return [DieReading(40.0 + 50 * i, 40.0, 36.0, 36.0, int(w[1:]), COLOUR_OF[LETTER[w[0]]],
                       0.99, zone) for i, w in enumerate(text.split())]


def turn_of(party: Counts, player: int = 0) -> rules.State:
    """Ann's (or Bo's) turn to throw, with the party given (stock: the rest of the set)."""
    state = rules.new_game(rules.Config(("Ann", "Bo")))
    players = tuple(replace(p, party=party, stock=Counts(*(DICE_PER_COLOUR - party[k]
                                                           for k in KINDS)))
                    for p in state.players)
    return replace(state, players=players, phase=rules.Phase.THROW, active=player)


def party_of(dice: list[DieReading]) -> Counts:
    kinds = {"yellow": Kind.PARTY_PEOPLE, "orange": Kind.VIP, "red": Kind.MOB}
    return Counts.of(Die(kinds[d.colour], d.value) for d in dice)


def test_an_escalation_marks_the_covering_group_and_the_uncovered_mob() -> None:
    dice = readings("M5 P2 M3 V1")
    marks = dice_marks(turn_of(party_of(dice)), dice)
    assert marks is not None and marks.player == "Ann" and marks.escalation.escalated
    roles = [(m.role, m.group) for m in marks.marks]
    assert roles == [(Role.UNCOVERED, None), (Role.GUEST, 0), (Role.MOB, 0), (Role.GUEST, 0)]


def test_millionaire_vips_and_wallets_are_flagged() -> None:
    dice = readings("V4 V4 V4 V4 P6 P3 V2")
    marks = dice_marks(turn_of(party_of(dice)), dice)
    assert marks is not None and marks.millionaire.levels == (4,)
    assert [m.millionaire for m in marks.marks] == [True] * 4 + [False] * 3
    assert [m.wallet for m in marks.marks] == [False] * 4 + [True, False, False]
    # no Mob: nothing to cover, every guest is spare
    assert {m.role for m in marks.marks} == {Role.SPARE}


def test_dice_outside_the_throwers_zone_are_not_marked() -> None:
    dice = readings("P2 M1", zone="Ann") + readings("P6 P6", zone="Bo")
    marks = dice_marks(turn_of(Counts(1, 0, 1)), dice)
    assert marks is not None
    assert [m is not None for m in marks.marks] == [True, True, False, False]


def test_no_marks_in_the_preparty_or_for_an_unread_die() -> None:
    dice = readings("P2 P3 V1 V6")
    preparty = rules.new_game(rules.Config(("Ann", "Bo")))
    assert dice_marks(preparty, dice) is None
    unread = [*dice[:3], replace(dice[3], value=None)]
    assert dice_marks(turn_of(Counts(2, 2, 0)), unread) is None


@pytest.mark.parametrize("seed", range(40))
def test_every_die_of_a_throw_stands_for_exactly_one_die_of_the_verdict(seed: int) -> None:
    rng = random.Random(seed)
    counts = Counts(rng.randint(0, 20), rng.randint(0, 20), rng.randint(1, 20))
    words = [f"{letter}{rng.randint(1, 6)}" for letter, kind in LETTER.items()
             for _ in range(counts[kind])]
    rng.shuffle(words)
    dice = readings(" ".join(words))
    marks = dice_marks(turn_of(counts), dice)
    assert marks is not None and None not in marks.marks
    verdict = escalation([Die(LETTER[w[0]], int(w[1:])) for w in words])
    for number, group in enumerate(verdict.groups):
        members = [Die(LETTER[w[0]], int(w[1:])) for w, m in zip(words, marks.marks, strict=True)
                   if m.group == number]
        assert Counter(members) == Counter(group.guests + group.mobs)
        # a group's guests are guests and its Mobs are Mobs
        assert all((m.role == Role.MOB) == (w[0] == "M")
                   for w, m in zip(words, marks.marks, strict=True) if m.group == number)
    uncovered = [w for w, m in zip(words, marks.marks, strict=True) if m.role == Role.UNCOVERED]
    assert len(uncovered) == len(verdict.uncovered)
    assert bool(uncovered) == verdict.escalated


def test_the_tablets_json_numbers_groups_and_words_them() -> None:
    dice = readings("M5 P2 M3 V1")
    data = roll_dice_marks(turn_of(party_of(dice)), dice)
    assert data is not None and data["escalated"] and data["uncovered"] == 1
    assert data["groups"][0]["text"]["msg"] == "dp.group_exact"
    assert data["dice"][0] == {"role": "uncovered", "group": None, "millionaire": False,
                               "wallet": False}


# --- the wallet counter die seen with a throw -----------------------------------------------


def with_wallets(state: rules.State, wallets: int) -> rules.State:
    players = list(state.players)
    players[0] = replace(players[0], wallets=wallets)
    return replace(state, players=tuple(players))


def test_the_counter_die_is_the_extra_yellow_showing_the_wallets_farthest_aside() -> None:
    from dicecam.scorer.diceparty.adapter import aside_dice, counter_die

    party = readings("P3 V2 M1")  # Ann's party of three, in a row from x=40
    near = replace(readings("P3")[0], x=190.0)  # a yellow 3 beside the party
    far = replace(readings("P3")[0], x=900.0, y=500.0)  # a yellow 3 well aside
    state = with_wallets(turn_of(Counts(1, 1, 1)), 3)
    assert counter_die(state, [*party, near, far]) is None  # two too many: not just it
    assert counter_die(state, [*party, far]) == 3
    assert counter_die(state, [*party[1:], near, far]) == 3  # the one aside, of two 3s
    assert aside_dice(state, [*party, far])[0][1].param("wallets") == 3
    # no theft yet, another value than the counter's, or the throw fits: no counter die
    assert counter_die(turn_of(Counts(1, 1, 1)), [*party, far]) is None
    assert counter_die(with_wallets(turn_of(Counts(1, 1, 1)), 4), [*party, far]) is None
    assert counter_die(state, party) is None
