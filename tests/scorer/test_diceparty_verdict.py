"""Dice Party: the rulebook's statements about one thrown party, kept as data in
dicecam/scorer/diceparty/cases.json.

Each case runs through the codec's ``score`` (what ``dicecam score diceparty`` prints)
and cites the rulebook section (English text; the German one says the same).
Dice are written compactly: "P6" a Party People at level 6, "V4" a VIP, "M3" a Mob.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from dicecam.scorer.diceparty.codec import score
from dicecam.scorer.diceparty.verdict import (
    Counts,
    Die,
    GrowthOption,
    Kind,
    escalation,
    growth_outcome,
    millionaire,
    mob_arrival,
    provoke_mobs,
    provoked_dice,
)
from dicecam.scorer.registry import get_game

KIND_OF_LETTER = {"P": Kind.PARTY_PEOPLE, "V": Kind.VIP, "M": Kind.MOB}


def dice(text: str) -> list[Die]:
    return [Die(KIND_OF_LETTER[word[0]], int(word[1:])) for word in text.split()]


def party_json(text: str) -> list[dict[str, Any]]:
    return [{"kind": d.kind.value, "pips": d.pips} for d in dice(text)]


CASES = get_game("diceparty").worked_examples("party")


def _subset(expected: Any, got: Any, where: str = "") -> None:
    if isinstance(expected, dict):
        assert isinstance(got, dict), where
        for key, value in expected.items():
            assert key in got, f"{where}.{key} missing"
            _subset(value, got[key], f"{where}.{key}")
    else:
        assert got == expected, f"{where}: expected {expected!r}, got {got!r}"


@pytest.mark.parametrize("case", CASES, ids=[c["description"] for c in CASES])
def test_rulebook_case(case: dict[str, Any]) -> None:
    payload = dict(case["input"])
    payload["party"] = party_json(payload["party"])
    _subset(case["expected"], score(payload))


def test_missing_mobs_remove_vips_then_party_people() -> None:
    arrival = mob_arrival(Counts(party_people=3, vip=1, mob=20), Counts(18, 19, 0), 3)
    assert (arrival.added, arrival.removed, arrival.unfilled) == (0, Counts(2, 1, 0), 0)
    arrival = mob_arrival(Counts(party_people=3, vip=1, mob=18), Counts(18, 19, 2), 3)
    assert (arrival.added, arrival.removed, arrival.unfilled) == (2, Counts(0, 1, 0), 0)


def test_missing_mobs_with_no_guest_left_stay_unfilled() -> None:
    arrival = mob_arrival(Counts(party_people=1, vip=0, mob=19), Counts(19, 20, 1), 3)
    assert (arrival.added, arrival.removed, arrival.unfilled) == (1, Counts(1, 0, 0), 1)


def test_growth_removal_never_runs_out_of_vips() -> None:
    """New guests always outnumber the Mobs they bring, so growth only ever removes VIPs
    (the Party People fallback of FAQ 3 matters for provoked Mobs)."""
    rng = random.Random(7)
    for _ in range(300):
        party = [Die(rng.choice(list(Kind)), rng.randint(1, 6)) for _ in range(rng.randint(1, 30))]
        counts = Counts.of(party)
        stock = Counts(*(rng.randint(0, 20 - counts[k]) for k in Kind))
        for option in GrowthOption:
            outcome = growth_outcome(party, stock, option)
            assert outcome.mobs.removed.party_people == 0 and outcome.mobs.unfilled == 0
            assert outcome.new_guests <= outcome.due_guests


def test_provoked_vips_are_always_the_highest() -> None:
    assert provoked_dice(dice("V4 V6 V5 V1 P6"), 2) == tuple(dice("V6 V5"))
    assert provoked_dice(dice("V4 V4 V6"), 1) == tuple(dice("V6"))


@pytest.mark.parametrize(("provoked", "opponents", "expected"), [
    (3, 3, (3, 2, 1)),   # first gets n, each following one less
    (3, 1, (3,)),        # every party got Mobs once: no more
    (3, 2, (3, 2)),
    (2, 4, (2, 1)),      # count reached 0: no more Mobs
    (1, 3, (1,)),
    (0, 2, ()),
])
def test_provoke_mobs_per_opponent(provoked: int, opponents: int,
                                   expected: tuple[int, ...]) -> None:
    assert provoke_mobs(provoked, opponents) == expected


def test_millionaire_reports_each_level() -> None:
    rich = millionaire(dice("V2 V2 V2 V2 V6 V6 V6 V6 V6 M6"))
    assert rich.levels == (6, 2)


# --- the FAQ's grouping explanation --------------------------------------------------------


def test_grouping_of_the_example_party() -> None:
    verdict = escalation(dice("P5 P3 P2 P1 V6 V4 V1 M6 M5 M4 M3 M3 M2"))
    assert verdict.escalated
    assert [str(d) for d in verdict.uncovered] == ["Mob 2"]
    assert all(g.exact for g in verdict.groups)


def test_grouping_prefers_equal_level_pairs() -> None:
    verdict = escalation(dice("P4 V3 M4 M3"))
    pairs = {(g.guests[0].pips, g.mobs[0].pips) for g in verdict.groups}
    assert pairs == {(4, 4), (3, 3)} and not verdict.uncovered


def test_one_guest_can_cover_two_mobs() -> None:
    verdict = escalation(dice("V5 M3 M2"))
    assert len(verdict.groups) == 1 and verdict.groups[0].exact
    assert not verdict.escalated


def test_calm_party_without_exact_groups_still_covers_every_mob() -> None:
    # 5 + 5 against 4 + 4 + 2: no small exact group, yet the party does not escalate.
    verdict = escalation(dice("V5 P5 M4 M4 M2"))
    assert not verdict.escalated and not verdict.uncovered
    assert sum(len(g.mobs) for g in verdict.groups) == 3


def test_guest_with_more_level_covers_a_smaller_mob() -> None:
    verdict = escalation(dice("P6 M5"))
    assert not verdict.escalated
    assert len(verdict.groups) == 1 and not verdict.groups[0].exact


@pytest.mark.parametrize("seed", range(400))
def test_grouping_explains_the_verdict(seed: int) -> None:
    """Random parties: the groups and uncovered Mobs always agree with the totals."""
    rng = random.Random(seed)
    party = [Die(rng.choice(list(Kind)), rng.randint(1, 6)) for _ in range(rng.randint(0, 25))]
    verdict = escalation(party)
    mobs = sorted((d for d in party if d.kind == Kind.MOB), key=lambda d: d.pips)
    guests = sorted((d for d in party if d.kind != Kind.MOB), key=lambda d: d.pips)
    assert verdict.escalated == (sum(d.pips for d in mobs) > sum(d.pips for d in guests))
    assert bool(verdict.uncovered) == verdict.escalated
    grouped_mobs = [d for g in verdict.groups for d in g.mobs] + list(verdict.uncovered)
    grouped_guests = [d for g in verdict.groups for d in g.guests] + list(verdict.spare)
    assert sorted(grouped_mobs, key=lambda d: d.pips) == mobs
    assert sorted(grouped_guests, key=lambda d: (d.pips, d.kind)) == sorted(
        guests, key=lambda d: (d.pips, d.kind))
    for group in verdict.groups:
        assert group.guests and group.mobs
        assert group.guest_level >= group.mob_level
