"""The V6 evening (Regelwerk section 4): passes, placement points, zombies, throw-offs,
the joker-per-evening rule, the final's free-choice round, qualification, group draws."""

from __future__ import annotations

import pytest

from dicecam.errors import InputError, RuleError
from dicecam.scorer.v6 import player_round as r
from dicecam.scorer.v6 import rules as v6
from dicecam.scorer.v6.groups import form_groups
from dicecam.scorer.v6.jokers import JokerId

FOUR = ("Ann", "Bea", "Cem", "Dan")


def evening(players=FOUR, groups=None, final=False) -> v6.Evening:
    return v6.new_game(v6.Config(tuple(players), groups or (tuple(players),), final))


def play(state: v6.Evening, *events: r.RoundAction, jokers=(), free=False) -> v6.Evening:
    state = v6.apply(state, v6.ChooseJokers(tuple(jokers), free))
    for event in events:
        state = v6.apply(state, event)
    return state


def stops_at(total: int) -> tuple[r.RoundAction, ...]:
    """Throws reaching ``total`` (2 to 50) without ones or sixes, then stop."""
    throws, left = [], total
    while left > 5:
        throws.append(5 if left - 5 != 1 else 4)
        left -= throws[-1]
    throws.append(left)
    return tuple(r.Throw(t) for t in throws) + (r.Stop(),)


ZOMBIE = (r.Throw(3), r.Throw(6))


def pass_points(state: v6.Evening, pass_no: int) -> dict[str, int]:
    return {n: v for _, p, n, v in state.pass_points if p == pass_no}


def test_placement_points_6_4_2_0() -> None:
    state = evening()
    for total in (10, 8, 5, 3):
        state = play(state, *stops_at(total))
    assert pass_points(state, 0) == {"Ann": 6, "Bea": 4, "Cem": 2, "Dan": 0}
    assert state.pass_no == 1 and state.phase is v6.EveningPhase.JOKERS
    assert state.standing == tuple(r.Opponent(n) for n in FOUR)  # a new pass starts at zero


def test_zombies_score_zero_and_their_places_are_not_handed_out() -> None:
    state = evening()
    for events in (stops_at(10), ZOMBIE, stops_at(5), ZOMBIE):
        state = play(state, *events)
    assert pass_points(state, 0) == {"Ann": 6, "Bea": 0, "Cem": 4, "Dan": 0}
    assert [res.outcome for res in state.results] == ["stopped", "zombie", "stopped", "zombie"]


def test_a_secured_player_is_ranked_not_a_zombie() -> None:
    state = evening()
    state = play(state, r.Throw(5), r.Announce(JokerId.VENTIL), r.Throw(4), r.Throw(6),
                 jokers=[JokerId.VENTIL])
    for events in (ZOMBIE, ZOMBIE, ZOMBIE):
        state = play(state, *events)
    assert pass_points(state, 0)["Ann"] == 6


def test_a_tie_is_settled_by_a_throw_off_winner_regular_loser_one_less() -> None:
    state = evening()
    for total in (10, 10, 5, 3):
        state = play(state, *stops_at(total))
    assert state.phase is v6.EveningPhase.THROW_OFF
    assert state.throw_offs[0].thrower == "Ann"
    with pytest.raises(RuleError, match="throws for Ann"):
        v6.apply(state, r.Stop())
    state = v6.apply(state, r.Throw(4))
    state = v6.apply(state, r.Throw(4))  # equal: throw again
    assert state.phase is v6.EveningPhase.THROW_OFF
    state = v6.apply(v6.apply(state, r.Throw(2)), r.Throw(5))
    assert pass_points(state, 0) == {"Ann": 5, "Bea": 6, "Cem": 2, "Dan": 0}
    assert state.phase is v6.EveningPhase.JOKERS and state.pass_no == 1


def test_a_tie_on_a_place_worth_nothing_needs_no_throw_off() -> None:
    state = evening(("Ann", "Bea", "Cem"), (("Ann", "Bea", "Cem"),))
    state = play(state, *stops_at(9))
    state = play(state, *ZOMBIE)
    state = play(state, *stops_at(9))
    assert state.phase is v6.EveningPhase.THROW_OFF  # a tie for first (6 and 5)
    state = v6.apply(v6.apply(state, r.Throw(1)), r.Throw(3))
    assert pass_points(state, 0) == {"Ann": 5, "Bea": 0, "Cem": 6}


def test_three_passes_table_and_the_best_two_go_through() -> None:
    state = evening()
    for pass_totals in ((10, 8, 5, 3), (3, 10, 8, 5), (8, 3, 10, 5)):
        for total in pass_totals:
            state = play(state, *stops_at(total))
    # Ann 6+0+4, Bea 4+6+0, Cem 2+4+6, Dan 0+2+2: Cem 12, then Ann and Bea tied on 10
    assert state.phase is v6.EveningPhase.THROW_OFF
    assert state.throw_offs[0].kind == "table" and state.throw_offs[0].blocks[0] == (
        "Ann", "Bea")
    state = v6.apply(v6.apply(state, r.Throw(2)), r.Throw(6))
    assert state.phase is v6.EveningPhase.OVER
    assert state.rankings == (("Cem", "Bea", "Ann", "Dan"),)
    assert dict(state.points) == {"Ann": 9, "Bea": 10, "Cem": 12, "Dan": 4}
    assert state.qualified == ("Cem", "Bea")
    with pytest.raises(RuleError, match="over"):
        v6.apply(state, r.Throw(3))


def test_each_joker_once_per_evening_unused_ones_again() -> None:
    state = evening()
    state = play(state, r.Throw(4), r.Announce(JokerId.HIRTE), r.Throw(3), r.Stop(),
                 jokers=[JokerId.HIRTE, JokerId.PONY])
    assert state.spent_by("Ann") == (JokerId.HIRTE,)
    for total in (8, 5, 3):
        state = play(state, *stops_at(total))
    with pytest.raises(RuleError, match="already used Hirtenschutz this evening"):
        v6.apply(state, v6.ChooseJokers((JokerId.HIRTE,)))
    state = v6.apply(state, v6.ChooseJokers((JokerId.PONY,)))  # chosen but unused: again
    assert state.phase is v6.EveningPhase.ROUND


def test_auto_jokers_count_as_used_once_a_throw_followed_the_free_throw() -> None:
    state = evening()
    state = play(state, r.Throw(4), r.Stop(), jokers=[JokerId.JULE, JokerId.RUNKELRUEB])
    assert state.spent_by("Ann") == ()
    state = play(state, r.Throw(4), r.Throw(6), r.Throw(1), r.Throw(1),
                 jokers=[JokerId.JULE, JokerId.RUNKELRUEB])
    assert set(state.spent_by("Bea")) == {JokerId.JULE, JokerId.RUNKELRUEB}


def test_runkelrueb_kept_unused_may_be_chosen_again_this_evening() -> None:
    state = evening()
    # Ann lets the six stand: a zombie this pass, but her Runkelrüb is not spent
    state = play(state, r.Throw(4), r.Throw(6), r.LetSixStand(), jokers=[JokerId.RUNKELRUEB])
    assert state.spent_by("Ann") == ()
    assert state.results[-1].outcome == "zombie"
    for total in (8, 5, 3):
        state = play(state, *stops_at(total))
    state = v6.apply(state, v6.ChooseJokers((JokerId.RUNKELRUEB,)))  # Ann again: allowed
    assert state.phase is v6.EveningPhase.ROUND


def test_the_other_players_jokers_are_their_own() -> None:
    state = evening()
    state = play(state, r.Throw(4), r.Announce(JokerId.HIRTE), r.Throw(3), r.Stop(),
                 jokers=[JokerId.HIRTE])
    state = v6.apply(state, v6.ChooseJokers((JokerId.HIRTE,)))
    assert state.round is not None and state.round.player == "Bea"


def test_the_final_has_four_passes_and_one_free_choice_round() -> None:
    state = evening(final=True)
    assert state.config.passes == 4
    with pytest.raises(RuleError, match="only in the final"):
        v6.apply(evening(), v6.ChooseJokers((), True))
    state = play(state, r.Throw(4), r.Announce(JokerId.HIRTE), r.Throw(3), r.Stop(),
                 jokers=[JokerId.HIRTE])
    for total in (8, 5, 3):
        state = play(state, *stops_at(total))
    with pytest.raises(RuleError, match="free-choice round"):
        v6.apply(state, v6.ChooseJokers((JokerId.HIRTE,)))
    state = play(state, r.Throw(4), r.Announce(JokerId.HIRTE), r.Throw(3), r.Stop(),
                 jokers=[JokerId.HIRTE], free=True)
    assert state.results[-1].free_choice
    for total in (8, 5, 3):
        state = play(state, *stops_at(total))
    with pytest.raises(RuleError, match="already had the free-choice round"):
        v6.apply(state, v6.ChooseJokers((JokerId.HIRTE,), True))


def test_robbing_a_player_who_already_played_lowers_his_pass_total() -> None:
    state = evening()
    state = play(state, *stops_at(10))
    state = play(state, r.Throw(3), r.Throw(1), r.Steal("Ann"), r.Stop())
    assert {o.name: o.total for o in state.standing}["Ann"] == 9


def test_a_player_robbed_to_zero_before_his_turn_skips_the_pass() -> None:
    state = evening()
    # Ann's Sekante loses one duel against Dan, who has not played: Dan gains 2 pips
    lost = (r.Throw(1), r.Choose("challenge"), r.Throw(2))
    passes = (r.Throw(1), r.Choose("pass")) * 4
    state = play(state, r.Throw(5), r.Announce(JokerId.SEKANTE, "Dan"), *lost, *passes,
                 r.Stop(), jokers=[JokerId.SEKANTE])
    assert {o.name: o.total for o in state.standing} == {"Ann": 3, "Bea": 0, "Cem": 0,
                                                          "Dan": 2}
    # Bea robs Dan of 1 and then 2: Dan reaches zero, a zombie; Bea earns 5 zombie pips
    state = play(state, r.Throw(3), r.Throw(1), r.Steal("Dan"), r.Throw(1), r.Steal("Dan"),
                 r.Stop())
    assert {o.name: o.total for o in state.standing}["Bea"] == 11
    state = play(state, *stops_at(4))
    assert [res.outcome for res in state.results][-1] == "skipped"
    assert pass_points(state, 0) == {"Ann": 2, "Bea": 6, "Cem": 4, "Dan": 0}


def test_groups_play_one_after_the_other_and_each_sends_two_through() -> None:
    players = [f"P{i}" for i in range(7)]
    groups = (tuple(players[:4]), tuple(players[4:]))
    state = evening(players, groups)
    totals = {name: 20 - i for i, name in enumerate(players)}
    while state.phase is not v6.EveningPhase.OVER:
        state = play(state, *stops_at(totals[state.player]))
    assert state.qualified == ("P0", "P1", "P4", "P5")
    assert state.rankings == (("P0", "P1", "P2", "P3"), ("P4", "P5", "P6"))
    assert dict(state.points)["P4"] == 18 and dict(state.points)["P6"] == 6


def test_groups_as_an_action_and_their_checks() -> None:
    state = v6.new_game(v6.Config(FOUR))
    assert state.phase is v6.EveningPhase.GROUPS
    with pytest.raises(RuleError, match="set the groups first"):
        v6.apply(state, v6.ChooseJokers(()))
    with pytest.raises(RuleError, match="missing Dan"):
        v6.apply(state, v6.SetGroups((("Ann", "Bea", "Cem"),)))
    with pytest.raises(RuleError, match="listed twice: Ann"):
        v6.apply(state, v6.SetGroups((("Ann", "Bea"), ("Ann", "Cem", "Dan"))))
    with pytest.raises(RuleError, match="group 1 has 1 players"):
        v6.apply(state, v6.SetGroups((("Ann",), ("Bea", "Cem", "Dan"))))
    state = v6.apply(state, v6.SetGroups((("Ann", "Bea"), ("Cem", "Dan"))))
    assert state.phase is v6.EveningPhase.JOKERS and state.player == "Ann"
    with pytest.raises(RuleError, match="already set"):
        v6.apply(state, v6.SetGroups((FOUR,)))


def test_form_groups_is_a_pure_even_draw() -> None:
    players = [f"P{i}" for i in range(10)]
    groups = form_groups(players, "2026-11-21")
    assert [len(g) for g in groups] == [4, 3, 3]
    assert sorted(p for g in groups for p in g) == sorted(players)
    assert form_groups(players, "2026-11-21") == groups
    assert form_groups(list(reversed(players)), "2026-11-21") == groups
    assert form_groups(players, "another evening") != groups
    assert [len(g) for g in form_groups(players[:8], 1)] == [4, 4]
    with pytest.raises(InputError, match="distinct"):
        form_groups(["A", "A"], 1)
