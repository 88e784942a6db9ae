"""Dice Party: the game engine, turn by turn (rulebook sections and FAQ items cited)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from dicecam.errors import InputError, RuleError
from dicecam.messages import english
from dicecam.scorer.diceparty import codec as dpj
from dicecam.scorer.diceparty import rules as dp
from dicecam.scorer.diceparty.verdict import (
    DICE_PER_COLOUR,
    Counts,
    Die,
    GrowthOption,
    Kind,
    escalation,
    millionaire,
)

KIND_OF_LETTER = {"P": Kind.PARTY_PEOPLE, "V": Kind.VIP, "M": Kind.MOB}


def dice(text: str) -> tuple[Die, ...]:
    return tuple(Die(KIND_OF_LETTER[w[0]], int(w[1:])) for w in text.split())


def started(names: tuple[str, ...] = ("Anna", "Ben"), starter: int = 0,
            party_animal: bool = False) -> dp.State:
    state = dp.new_game(dp.Config(names, party_animal))
    throws = tuple((name, dice("P6 P6 V6 V6") if i == starter else dice("P1 P1 V1 V1"))
                   for i, name in enumerate(names))
    return dp.apply(state, dp.PrepartyThrow(throws))


def seat(state: dp.State, name: str) -> int:
    return [p.name for p in state.players].index(name)


def with_party(state: dp.State, name: str, party: str | Counts, wallets: int = 0,
               **player_fields: object) -> dp.State:
    """Give a player a party (and the matching stock), as if the game had got there."""
    counts = Counts.of(dice(party)) if isinstance(party, str) else party
    counter = 1 if wallets else 0
    stock = Counts(DICE_PER_COLOUR - counts.party_people - counter,
                   DICE_PER_COLOUR - counts.vip, DICE_PER_COLOUR - counts.mob)
    index = seat(state, name)
    players = list(state.players)
    players[index] = replace(players[index], party=counts, stock=stock, wallets=wallets,
                             **player_fields)
    return replace(state, players=tuple(players))


def throw(state: dp.State, text: str) -> dp.State:
    return dp.apply(state, dp.Throw(dice(text)))


def player(state: dp.State, name: str) -> dp.Player:
    return state.players[seat(state, name)]


def assert_sets_complete(state: dp.State) -> None:
    for p in state.players:
        assert p.set_total() == Counts(DICE_PER_COLOUR, DICE_PER_COLOUR, DICE_PER_COLOUR), p
        for kind in Kind:
            assert p.party[kind] >= 0 and p.stock[kind] >= 0, p


# --- start of the evening and the preparty -------------------------------------------------


def test_start_parties_are_two_party_people_and_two_vips() -> None:
    state = dp.new_game(dp.Config(("Anna", "Ben", "Cleo")))
    assert state.phase == dp.Phase.PREPARTY
    for p in state.players:
        assert p.party == Counts(2, 2, 0) and p.stock == Counts(18, 18, 20)
    assert_sets_complete(state)


def test_preparty_highest_total_starts() -> None:
    state = dp.new_game(dp.Config(("Anna", "Ben", "Cleo")))
    state = dp.apply(state, dp.PrepartyThrow((
        ("Anna", dice("P1 P2 V3 V4")), ("Ben", dice("P6 P5 V4 V3")),
        ("Cleo", dice("P6 P1 V1 V1")))))
    assert state.phase == dp.Phase.THROW and state.active == 1
    assert dict(state.preparty.totals) == {"Anna": 10, "Ben": 18, "Cleo": 9}


def test_preparty_tie_for_highest_means_everyone_throws_again() -> None:
    state = dp.new_game(dp.Config(("Anna", "Ben", "Cleo")))
    state = dp.apply(state, dp.PrepartyThrow((
        ("Anna", dice("P6 P6 V1 V1")), ("Ben", dice("P3 P3 V4 V4")),
        ("Cleo", dice("P1 P1 V1 V1")))))
    assert state.phase == dp.Phase.PREPARTY and state.preparty.tied == ("Anna", "Ben")
    assert [legal.type for legal in dp.legal_actions(state)] == ["preparty"]
    # everyone throws again, Cleo too: the re-throw of the tied two alone decides nothing
    partial = dp.apply(state, dp.PrepartyThrow((("Anna", dice("P1 P1 V1 V1")),
                                                ("Ben", dice("P1 P1 V1 V2")))))
    assert partial.phase == dp.Phase.PREPARTY
    assert dp.legal_actions(partial) == (dp.Legal("preparty", options=("Cleo",)),)
    state = dp.apply(partial, dp.PrepartyThrow((("Cleo", dice("P1 P1 V1 V1")),)))
    assert state.phase == dp.Phase.THROW and state.active == 1


def test_preparty_tie_below_the_highest_does_not_matter() -> None:
    state = dp.new_game(dp.Config(("Anna", "Ben", "Cleo")))
    state = dp.apply(state, dp.PrepartyThrow((
        ("Anna", dice("P2 P2 V2 V2")), ("Ben", dice("P2 P2 V2 V2")),
        ("Cleo", dice("P3 P3 V3 V3")))))
    assert state.active == 2


def test_preparty_needs_every_party() -> None:
    state = dp.new_game(dp.Config(("Anna", "Ben")))
    with pytest.raises(RuleError, match="one throw from each of Anna, Ben"):
        dp.apply(state, dp.PrepartyThrow((("Dora", dice("P1 P1 V1 V1")),)))
    with pytest.raises(RuleError, match="one throw from each of Anna, Ben"):
        dp.apply(state, dp.PrepartyThrow(()))
    with pytest.raises(RuleError, match="Ben's party has 2 Party People, 2 VIP and 0 Mob"):
        dp.apply(state, dp.PrepartyThrow((("Anna", dice("P1 P1 V1 V1")),
                                          ("Ben", dice("P1 V1 V1")))))


def test_preparty_parties_may_throw_one_after_another() -> None:
    state = dp.new_game(dp.Config(("Anna", "Ben", "Cleo")))
    state = dp.apply(state, dp.PrepartyThrow((("Ben", dice("P3 P3 V4 V4")),)))
    assert state.phase == dp.Phase.PREPARTY and dp.preparty_next(state) == "Anna"
    assert english(dp.waiting_for(state)) == "Anna throws the preparty"
    with pytest.raises(RuleError, match=r"still to throw: Anna, Cleo\); got throws from Ben"):
        dp.apply(state, dp.PrepartyThrow((("Ben", dice("P1 P1 V1 V1")),)))
    state = dp.apply(state, dp.PrepartyThrow((("Anna", dice("P1 P1 V1 V1")),)))
    state = dp.apply(state, dp.PrepartyThrow((("Cleo", dice("P6 P6 V6 V6")),)))
    assert state.phase == dp.Phase.THROW and state.active == 2
    assert dict(state.preparty.totals) == {"Anna": 4, "Ben": 14, "Cleo": 24}
    assert state.preparty_thrown == ()


def test_config_is_checked() -> None:
    with pytest.raises(InputError, match="2 to 8 players"):
        dp.Config(("Solo",))
    with pytest.raises(InputError, match="must differ"):
        dp.Config(("Anna", "Anna"))


# --- a turn's six steps --------------------------------------------------------------------


def test_throw_must_be_the_whole_party() -> None:
    state = started()
    with pytest.raises(RuleError, match="throw exactly the party's dice"):
        throw(state, "P1 P2 V3")
    with pytest.raises(RuleError, match="not possible now"):
        dp.apply(state, dp.Pickpocket(0))


def test_a_full_turn_goes_through_every_step() -> None:
    state = started(("Anna", "Ben", "Cleo"))
    state = with_party(state, "Anna", "P6 P6 P3 V6 V5 V4 V1")
    state = throw(state, "P6 P6 P3 V6 V5 V4 V1")
    assert state.phase == dp.Phase.PICKPOCKET
    assert dp.legal_actions(state) == (dp.Legal("pickpocket", max=2),)
    state = dp.apply(state, dp.Pickpocket(1))
    assert player(state, "Anna").wallets == 1 and state.phase == dp.Phase.PROVOKE
    assert dp.legal_actions(state) == (dp.Legal("provoke", max=3, options=("Ben", "Cleo")),)
    state = dp.apply(state, dp.Provoke(2, ("Cleo", "Ben")))
    # the two highest VIPs left; Cleo got 2 Mobs, Ben 1
    assert state.turn.provoked == dice("V6 V5")
    assert player(state, "Cleo").party.mob == 2 and player(state, "Ben").party.mob == 1
    assert state.phase == dp.Phase.GROW
    options = dp.growth_options(state)
    # Party People left: 6 + 3 = 9 points -> 1 VIP; VIPs left: 4 + 1 = 5 points -> nobody
    assert options[GrowthOption.VIP].new_guests == 1
    assert options[GrowthOption.PARTY_PEOPLE].new_guests == 0
    state = dp.apply(state, dp.Grow(GrowthOption.VIP))
    assert player(state, "Anna").party == Counts(2, 3, 0)
    assert state.phase == dp.Phase.THROW and state.active == 1
    assert_sets_complete(state)


def test_steps_four_to_six_accept_zero() -> None:
    state = throw(started(), "P1 P1 V1 V1")
    state = dp.apply(state, dp.Pickpocket(0))
    state = dp.apply(state, dp.Provoke(0))
    state = dp.apply(state, dp.Grow(GrowthOption.PARTY_PEOPLE))
    assert player(state, "Anna").party == Counts(2, 2, 0) and state.active == 1


def test_steps_with_one_outcome_are_taken_by_themselves_and_said() -> None:
    """Issue 59: no level-6 Party People, no VIP at 4+: steps 4 and 5 have one outcome and
    are taken with the throw; the turn waits where the player chooses (the growth)."""
    state = with_party(started(), "Anna", "P6 P5 P1 V2")
    state = throw(state, "P5 P5 P3 V2")
    assert state.phase == dp.Phase.GROW and state.active == 0
    assert dp.legal_actions(state) == (dp.Legal("grow", options=("vip", "party_people")),)
    said = [english(e) for e in state.events]
    assert said[1:] == ["Anna has no Party People at level 6: no wallet to steal.",
                        "Anna has no VIP at level 4 or higher: nobody to provoke."]
    assert said[0].startswith("No Mob")  # the throw's own verdict comes first
    assert state.steps_taken == ("pickpocket", "provoke")


def test_a_growth_both_options_leave_alike_ends_the_turn_by_itself() -> None:
    """Both options bring nobody (5 and 3 points): the turn ends with the throw."""
    state = with_party(started(), "Anna", "P5 V3")
    state = throw(state, "P5 V3")
    assert state.phase == dp.Phase.THROW and state.active == 1
    assert player(state, "Anna").party == Counts(1, 1, 0)
    assert english(state.events[-1]) == (
        "Anna's party does not grow: neither option brings a guest (5 Party People points, "
        "3 VIP points).")
    assert state.last_turn is not None and state.last_turn.growth.new_guests == 0


def test_a_step_with_a_choice_still_waits() -> None:
    """A level-6 Party People: stealing it or not is the player's choice (0 or 1)."""
    state = throw(with_party(started(), "Anna", "P6 P1 V1"), "P6 P1 V1")
    assert state.phase == dp.Phase.PICKPOCKET
    assert dp.legal_actions(state) == (dp.Legal("pickpocket", max=1),)
    # 6 Party People points bring a VIP (a), 1 VIP point nobody (b): a choice again
    state = dp.apply(state, dp.Pickpocket(0))
    assert state.phase == dp.Phase.GROW and state.steps_taken == ("provoke",)


def test_a_stored_log_that_sent_the_one_choice_replays_to_the_same_game() -> None:
    """A journal from before (or a tablet that had not heard) sends the steps taken by
    themselves: each is taken as said already, up to the game's next own action."""
    now = throw(started(), "P1 P1 V1 V1")
    before = now
    for action in (dp.Pickpocket(0), dp.Provoke(0), dp.Grow(GrowthOption.PARTY_PEOPLE)):
        before = dp.apply(before, action)
    assert before.steps_taken == () and replace(before, steps_taken=now.steps_taken) == now
    assert before.players == now.players and before.active == now.active == 1
    with pytest.raises(RuleError, match="not possible now"):
        dp.apply(before, dp.Pickpocket(0))  # said once only
    with pytest.raises(RuleError, match="not possible now"):
        dp.apply(now, dp.Provoke(0))  # in the order taken: the pickpocket first
    with pytest.raises(RuleError, match="not possible now"):
        dp.apply(now, dp.Pickpocket(1))  # not the step's one choice
    ben = throw(now, "P6 P1 V1 V1")  # the game's own next action: Ben chooses to steal
    assert ben.phase == dp.Phase.PICKPOCKET and ben.steps_taken == ()
    with pytest.raises(RuleError, match="not possible now"):
        dp.apply(ben, dp.Grow(GrowthOption.VIP))


def test_growth_is_all_or_nothing() -> None:
    """FAQ 2: exactly the guests the chosen option's points bring, with their Mobs."""
    state = with_party(started(), "Anna", "P6 P6 P6 V2")
    state = throw(state, "P6 P6 P6 V2")
    state = dp.apply(dp.apply(state, dp.Pickpocket(0)), dp.Provoke(0))
    state = dp.apply(state, dp.Grow(GrowthOption.VIP))
    assert player(state, "Anna").party == Counts(3, 4, 2)


def test_pickpocketing_reduces_the_growth() -> None:
    """FAQ 2: pickpocketing first is the way to bring fewer guests."""
    state = with_party(started(), "Anna", "P6 P6 P6 V2")
    state = throw(state, "P6 P6 P6 V2")
    state = dp.apply(dp.apply(state, dp.Pickpocket(2)), dp.Provoke(0))
    assert dp.growth_options(state)[GrowthOption.VIP].new_guests == 1


# --- step 2: escalation --------------------------------------------------------------------


def test_escalation_loses_at_once_and_the_last_party_wins() -> None:
    state = with_party(started(), "Anna", "P1 V1 M3")
    state = throw(state, "P1 V1 M3")
    assert state.phase == dp.Phase.GAME_OVER
    assert state.round_outcome == dp.Outcome.ESCALATION
    assert state.champion == seat(state, "Ben")
    assert [str(d) for d in state.last_turn.escalation.uncovered] == ["Mob 3"]


def test_escalated_party_drops_out_of_the_round() -> None:
    state = with_party(started(("Anna", "Ben", "Cleo")), "Anna", "P1 V1 M3")
    state = throw(state, "P1 V1 M3")
    assert state.phase == dp.Phase.THROW and state.active == 1
    assert not player(state, "Anna").in_round
    state = with_party(state, "Ben", "P1 V6")
    state = dp.apply(dp.apply(throw(state, "P1 V6"), dp.Pickpocket(0)), dp.Provoke(0))
    state = dp.apply(state, dp.Grow(GrowthOption.VIP))
    assert state.active == 2  # Cleo, then Ben again: Anna takes no more turns
    state = dp.apply(dp.apply(throw(state, "P1 P1 V1 V1"), dp.Pickpocket(0)), dp.Provoke(0))
    state = dp.apply(state, dp.Grow(GrowthOption.VIP))
    assert state.active == 1


def test_escalated_party_gets_no_provoked_mobs() -> None:
    state = with_party(started(("Anna", "Ben", "Cleo")), "Anna", "P1 V1 M3")
    state = throw(state, "P1 V1 M3")
    state = with_party(state, "Ben", "P1 V6 V6")
    state = dp.apply(throw(state, "P1 V6 V6"), dp.Pickpocket(0))
    with pytest.raises(RuleError, match="from Cleo"):
        dp.apply(state, dp.Provoke(2, ("Anna", "Cleo")))
    state = dp.apply(state, dp.Provoke(2, ("Cleo",)))
    assert player(state, "Cleo").party.mob == 2 and player(state, "Anna").party.mob == 1


# --- step 3: millionaire -------------------------------------------------------------------


def test_millionaire_wins_at_once() -> None:
    state = with_party(started(), "Anna", "P1 V3 V3 V3 V3 M2")
    state = throw(state, "P1 V3 V3 V3 V3 M2")
    assert state.phase == dp.Phase.GAME_OVER and state.round_outcome == dp.Outcome.MILLIONAIRE
    assert state.champion == 0


def test_escalation_comes_before_millionaire() -> None:
    state = with_party(started(), "Anna", "V1 V1 V1 V1 V1 M6")
    state = throw(state, "V1 V1 V1 V1 V1 M6")
    assert state.round_outcome == dp.Outcome.ESCALATION and state.champion == 1


# --- step 4: pickpocket --------------------------------------------------------------------


def test_first_theft_turns_a_yellow_stock_die_into_the_counter() -> None:
    state = with_party(started(), "Anna", "P6 P6 P6 V1")
    state = dp.apply(throw(state, "P6 P6 P6 V1"), dp.Pickpocket(2))
    anna = player(state, "Anna")
    assert anna.party.party_people == 1 and anna.counter_die == 2
    assert anna.stock.party_people == 20 - 1 - 1  # two back in, one became the counter
    assert_sets_complete(state)


def test_later_thefts_turn_the_counter_up() -> None:
    state = with_party(started(), "Anna", "P6 P6 V1", wallets=3)
    state = dp.apply(throw(state, "P6 P6 V1"), dp.Pickpocket(1))
    anna = player(state, "Anna")
    assert anna.counter_die == 4 and anna.stock.party_people == 20 - 1 - 1
    assert_sets_complete(state)


def test_six_wallets_win() -> None:
    state = with_party(started(), "Anna", "P6 P6 V1", wallets=4)
    state = dp.apply(throw(state, "P6 P6 V1"), dp.Pickpocket(2))
    assert state.phase == dp.Phase.GAME_OVER and state.round_outcome == dp.Outcome.WALLETS
    assert player(state, "Anna").counter_die == 6


def test_counter_die_shows_at_most_six() -> None:
    """Stealing past the sixth wallet still wins; the counter die (a d6) stops at 6."""
    state = with_party(started(), "Anna", "P6 P6 V1", wallets=5)
    state = dp.apply(throw(state, "P6 P6 V1"), dp.Pickpocket(2))
    anna = player(state, "Anna")
    assert (anna.wallets, anna.counter_die) == (7, 6)
    assert state.round_outcome == dp.Outcome.WALLETS and state.champion == 0
    assert_sets_complete(state)


def test_only_level_six_party_people_can_be_robbed() -> None:
    state = with_party(started(), "Anna", "P6 P5 V6")
    state = throw(state, "P6 P5 V6")
    with pytest.raises(RuleError, match="0 to 1 wallets"):
        dp.apply(state, dp.Pickpocket(2))


def test_counter_die_never_joins_the_party() -> None:
    """FAQ 1: with no yellow die left in stock, growth brings no Party People even though
    the counter die is yellow."""
    full = Counts(party_people=19, vip=2, mob=0)
    state = with_party(started(), "Anna", full, wallets=1)
    assert player(state, "Anna").stock.party_people == 0
    state = throw(state, " ".join(["P1"] * 19 + ["V6", "V6"]))
    state = dp.apply(dp.apply(state, dp.Pickpocket(0)), dp.Provoke(0))
    option = dp.growth_options(state)[GrowthOption.PARTY_PEOPLE]
    assert option.due_guests == 2 and option.new_guests == 0
    state = dp.apply(state, dp.Grow(GrowthOption.PARTY_PEOPLE))
    assert player(state, "Anna").party.party_people == 19
    assert_sets_complete(state)


# --- step 5: provoke -----------------------------------------------------------------------


def test_provoke_sends_n_then_fewer_in_the_chosen_order() -> None:
    names = ("Anna", "Ben", "Cleo", "Dora")
    state = with_party(started(names), "Anna", "P1 V6 V5 V4")
    state = dp.apply(throw(state, "P1 V6 V5 V4"), dp.Pickpocket(0))
    state = dp.apply(state, dp.Provoke(3, ("Dora", "Ben", "Cleo")))
    assert [player(state, n).party.mob for n in ("Dora", "Ben", "Cleo")] == [3, 2, 1]
    assert player(state, "Anna").party.vip == 0 and player(state, "Anna").stock.vip == 20
    assert_sets_complete(state)


def test_provoke_stops_when_the_count_reaches_zero() -> None:
    names = ("Anna", "Ben", "Cleo", "Dora")
    state = with_party(started(names), "Anna", "P1 V6")
    state = dp.apply(throw(state, "P1 V6"), dp.Pickpocket(0))
    state = dp.apply(state, dp.Provoke(1, ("Cleo",)))
    assert [player(state, n).party.mob for n in ("Ben", "Cleo", "Dora")] == [0, 1, 0]


def test_provoke_needs_an_order_of_distinct_opponents() -> None:
    state = with_party(started(("Anna", "Ben", "Cleo")), "Anna", "P1 V6 V6")
    state = dp.apply(throw(state, "P1 V6 V6"), dp.Pickpocket(0))
    for order in [(), ("Ben",), ("Ben", "Ben"), ("Anna", "Ben"), ("Ben", "Zed")]:
        with pytest.raises(RuleError, match="order of the opponents"):
            dp.apply(state, dp.Provoke(2, order))
    with pytest.raises(RuleError, match="0 to 2 VIPs"):
        dp.apply(state, dp.Provoke(3, ("Ben", "Cleo")))
    with pytest.raises(RuleError, match="only matters"):
        dp.apply(state, dp.Provoke(0, ("Ben",)))


def test_provoked_mobs_follow_the_stock_shortfall_rule() -> None:
    """Issue: provoked Mobs come from each opponent's own stock, with FAQ 3's rule."""
    state = with_party(started(), "Anna", "P1 V6 V6 V6")
    state = with_party(state, "Ben", Counts(party_people=2, vip=1, mob=19))
    state = dp.apply(throw(state, "P1 V6 V6 V6"), dp.Pickpocket(0))
    state = dp.apply(state, dp.Provoke(3, ("Ben",)))
    ben = player(state, "Ben")
    assert ben.party == Counts(party_people=1, vip=0, mob=20)
    # Anna's one Party People at level 1 brings no guest either way: her growth was taken
    # by itself and the turn is over
    arrival = state.last_turn.deliveries[0].arrival
    assert (arrival.added, arrival.removed) == (1, Counts(1, 1, 0))
    assert_sets_complete(state)


# --- FAQ 5: an empty party -----------------------------------------------------------------


def test_empty_party_passes_its_turn_and_escalates_once_mobs_arrive() -> None:
    state = with_party(started(("Anna", "Ben", "Cleo")), "Anna", Counts())
    state = throw(state, "")
    assert state.active == 1 and player(state, "Anna").in_round
    state = with_party(state, "Ben", "P1 V6")
    state = dp.apply(throw(state, "P1 V6"), dp.Pickpocket(0))
    state = dp.apply(dp.apply(state, dp.Provoke(1, ("Anna",))), dp.Grow(GrowthOption.VIP))
    state = dp.apply(dp.apply(throw(state, "P1 P1 V1 V1"), dp.Pickpocket(0)), dp.Provoke(0))
    state = dp.apply(state, dp.Grow(GrowthOption.VIP))
    state = throw(state, "M2")
    assert not player(state, "Anna").in_round and state.active == 1


def test_every_party_empty_ends_the_round_without_a_winner() -> None:
    state = with_party(with_party(started(), "Anna", Counts()), "Ben", Counts())
    state = throw(state, "")
    assert state.phase == dp.Phase.GAME_OVER and state.round_outcome == dp.Outcome.STALLED
    assert state.champion is None


def test_party_emptied_by_pickpocketing_and_provoking() -> None:
    state = with_party(started(), "Anna", "P6 V6")
    state = dp.apply(dp.apply(throw(state, "P6 V6"), dp.Pickpocket(1)), dp.Provoke(1, ("Ben",)))
    state = dp.apply(state, dp.Grow(GrowthOption.VIP))
    assert player(state, "Anna").party == Counts() and state.active == 1
    assert_sets_complete(state)


# --- Party Animal --------------------------------------------------------------------------


def _win_by_millionaire(state: dp.State, name: str) -> dp.State:
    state = with_party(state, name, "V2 V2 V2 V2 V2")
    return throw(state, "V2 V2 V2 V2 V2")


def test_single_game_ends_after_one_round() -> None:
    state = _win_by_millionaire(started(), "Anna")
    assert state.phase == dp.Phase.GAME_OVER and dp.legal_actions(state) == ()
    with pytest.raises(RuleError, match="game is over"):
        dp.apply(state, dp.NextRound())


def test_party_animal_plays_rounds_until_crowned() -> None:
    state = _win_by_millionaire(started(party_animal=True), "Anna")
    assert state.phase == dp.Phase.ROUND_OVER
    assert player(state, "Anna").wins == (dp.Victory.MILLIONAIRE,)
    state = dp.apply(state, dp.NextRound())
    assert state.round == 2 and state.phase == dp.Phase.PREPARTY
    assert player(state, "Anna").party == Counts(2, 2, 0) and player(state, "Anna").wallets == 0
    state = dp.apply(state, dp.PrepartyThrow((("Anna", dice("P6 P6 V6 V6")),
                                              ("Ben", dice("P1 P1 V1 V1")))))
    state = with_party(state, "Anna", "P6 P6 P6 P6 P6 P6 V1")
    state = dp.apply(throw(state, "P6 P6 P6 P6 P6 P6 V1"), dp.Pickpocket(6))
    assert state.phase == dp.Phase.ROUND_OVER
    state = dp.apply(state, dp.NextRound())
    state = dp.apply(state, dp.PrepartyThrow((("Anna", dice("P1 P1 V1 V1")),
                                              ("Ben", dice("P6 P6 V6 V6")))))
    state = with_party(state, "Ben", "P1 V1 M6")
    state = throw(state, "P1 V1 M6")
    assert state.phase == dp.Phase.GAME_OVER and state.game_outcome == dp.Outcome.CROWNED
    assert state.champion == 0 and player(state, "Anna").crowned
    assert player(state, "Ben").escalations == 1


def test_second_millionaire_cancels_the_turn() -> None:
    state = _win_by_millionaire(started(party_animal=True), "Anna")
    state = dp.apply(state, dp.NextRound())
    state = dp.apply(state, dp.PrepartyThrow((("Anna", dice("P6 P6 V6 V6")),
                                              ("Ben", dice("P1 P1 V1 V1")))))
    state = with_party(state, "Anna", "P6 V4 V4 V4 V4 V4")
    state = throw(state, "P6 V4 V4 V4 V4 V4")
    assert state.phase == dp.Phase.THROW and state.active == 1
    assert state.last_turn.cancelled and player(state, "Anna").wallets == 0
    assert player(state, "Anna").party == Counts(1, 5, 0)  # no pickpocket, no growth
    assert player(state, "Anna").wins == (dp.Victory.MILLIONAIRE,)


def test_first_millionaire_in_party_animal_wins() -> None:
    state = _win_by_millionaire(started(party_animal=True), "Anna")
    assert state.round_outcome == dp.Outcome.MILLIONAIRE


def test_third_escalation_is_out_and_last_standing_wins() -> None:
    state = started(("Anna", "Ben", "Cleo"), party_animal=True)
    state = with_party(state, "Anna", "P1 M6", escalations=2)
    state = with_party(state, "Cleo", "P1 M6", escalations=2)
    state = throw(state, "P1 M6")
    assert player(state, "Anna").out and not player(state, "Anna").in_round
    state = dp.apply(dp.apply(throw(state, "P1 P1 V1 V1"), dp.Pickpocket(0)), dp.Provoke(0))
    state = dp.apply(state, dp.Grow(GrowthOption.VIP))
    state = throw(state, "P1 M6")
    assert state.phase == dp.Phase.GAME_OVER
    assert state.game_outcome == dp.Outcome.LAST_STANDING and state.champion == 1
    assert player(state, "Ben").wins == (dp.Victory.ESCALATION,)


def test_out_players_sit_out_the_following_rounds() -> None:
    state = started(("Anna", "Ben", "Cleo"), party_animal=True)
    state = with_party(state, "Anna", "P1 M6", escalations=2)
    state = throw(state, "P1 M6")
    state = _win_by_millionaire(state, "Ben")
    assert state.phase == dp.Phase.ROUND_OVER
    state = dp.apply(state, dp.NextRound())
    assert [p.in_round for p in state.players] == [False, True, True]
    assert dp.legal_actions(state) == (dp.Legal("preparty", options=("Ben", "Cleo")),)
    with pytest.raises(RuleError, match="each of Ben, Cleo"):
        dp.apply(state, dp.PrepartyThrow((("Anna", dice("P1 P1 V1 V1")),
                                          ("Ben", dice("P1 P1 V1 V1")),
                                          ("Cleo", dice("P1 P1 V1 V2")))))


def test_stalled_round_in_party_animal_goes_on_with_the_next_round() -> None:
    state = started(party_animal=True)
    state = with_party(with_party(state, "Anna", Counts()), "Ben", Counts())
    state = throw(state, "")
    assert state.phase == dp.Phase.ROUND_OVER and state.round_outcome == dp.Outcome.STALLED
    assert all(p.wins == () for p in state.players)
    state = dp.apply(state, dp.NextRound())
    assert state.phase == dp.Phase.PREPARTY and state.round == 2


def test_escalations_count_in_a_single_round_too_but_put_no_one_out() -> None:
    # the tablet's table has an escalations column: it must not stay 0 after one (issue 16)
    state = with_party(started(("Anna", "Ben", "Cleo")), "Anna", "P1 M6")
    state = throw(state, "P1 M6")
    assert player(state, "Anna").escalations == 1
    assert not player(state, "Anna").in_round
    assert dpj.state_to_json(state)["players"][0]["out"] is False


# --- random play ---------------------------------------------------------------------------


def _random_dice(party: Counts, rng: random.Random, calm: float) -> tuple[Die, ...]:
    """Seeded random dice for a party. A calm table re-throws (with probability ``calm``)
    throws that would escalate or bring a millionaire, so games last longer and parties
    grow bigger (stocks running dry is rare even then: random positions cover that)."""
    for _ in range(30):
        thrown = tuple(Die(k, rng.randint(1, 6)) for k in Kind for _ in range(party[k]))
        if rng.random() >= calm or not (escalation(thrown).escalated
                                         or millionaire(thrown).arrived):
            break
    return thrown


def _random_action(state: dp.State, rng: random.Random, calm: float = 0.0) -> dp.Action:
    if state.phase == dp.Phase.PREPARTY:
        return dp.PrepartyThrow(tuple((p.name, _random_dice(p.party, rng, 0.0))
                                      for p in state.players if p.in_round))
    if state.phase == dp.Phase.THROW:
        return dp.Throw(_random_dice(state.players[state.active].party, rng, calm))
    (legal,) = dp.legal_actions(state)
    if state.phase == dp.Phase.PICKPOCKET:
        return dp.Pickpocket(rng.randint(0, legal.max))
    if state.phase == dp.Phase.PROVOKE:
        count = rng.randint(0, legal.max)
        order = list(legal.options)
        rng.shuffle(order)
        return dp.Provoke(count, tuple(order) if count else ())
    if state.phase == dp.Phase.GROW:
        return dp.Grow(rng.choice(list(GrowthOption)))
    return dp.NextRound()


def _check_invariants(state: dp.State) -> None:
    assert_sets_complete(state)
    if state.turn is not None:
        assert Counts.of(state.turn.dice) == state.players[state.active].party
    assert all(0 <= p.wallets for p in state.players)


@pytest.mark.parametrize("party_animal", [False, True])
def test_random_play_keeps_every_set_at_twenty_per_colour(party_animal: bool) -> None:
    # (steps with one outcome are taken by themselves and draw no number: the seed was
    # moved from 20261121 to one whose 250 games again end all three ways; about 1 in 100
    # random games is won other than by escalation, so a seed may well miss one)
    rng = random.Random(1 + party_animal)
    endings: dict[dp.Outcome, int] = {}
    for game in range(50 if party_animal else 250):
        calm = (0.0, 0.9)[game % 2]
        names = tuple(f"P{i}" for i in range(rng.randint(2, 5)))
        state = dp.new_game(dp.Config(names, party_animal))
        for _ in range(20000):
            if state.phase == dp.Phase.GAME_OVER:
                break
            state = dp.apply(state, _random_action(state, rng, calm))
            _check_invariants(state)
        else:
            pytest.fail(f"game {game} did not end")
        endings[state.game_outcome] = endings.get(state.game_outcome, 0) + 1
        assert dp.legal_actions(state) == ()
    if party_animal:
        # Random hosts rarely win all three ways; crowning has its own tests above.
        assert dp.Outcome.LAST_STANDING in endings
        assert set(endings) <= {dp.Outcome.CROWNED, dp.Outcome.LAST_STANDING}, endings
    else:
        assert {dp.Outcome.ESCALATION, dp.Outcome.MILLIONAIRE, dp.Outcome.WALLETS} <= set(
            endings), endings


def _random_position(rng: random.Random) -> dp.State:
    """A game in some player's throw phase with random parties, stocks and wallets."""
    names = tuple(f"P{i}" for i in range(rng.randint(2, 5)))
    state = started(names, starter=rng.randrange(len(names)))
    for name in names:
        wallets = rng.randint(0, 5)
        party = Counts(rng.randint(0, 20 - (1 if wallets else 0)), rng.randint(0, 20),
                       rng.randint(0, 20))
        state = with_party(state, name, party, wallets=wallets)
    return state


def test_random_positions_keep_every_set_at_twenty_per_colour() -> None:
    """One turn from random mid-game positions: stocks often run dry here, so every
    shortfall path (too few guests, too few Mobs, removals) runs under the invariant."""
    rng = random.Random(60)
    seen = {"guests short": 0, "mobs short": 0, "party people removed": 0}
    for _ in range(400):
        state = _random_position(rng)
        assert_sets_complete(state)
        active = state.active
        while state.active == active and state.phase not in (dp.Phase.GAME_OVER,
                                                             dp.Phase.ROUND_OVER):
            if state.phase == dp.Phase.GROW:
                for outcome in dp.growth_options(state).values():
                    seen["guests short"] += outcome.new_guests < outcome.due_guests
                    seen["mobs short"] += outcome.mobs.added < outcome.mobs.due
            state = dp.apply(state, _random_action(state, rng))
            _check_invariants(state)
            turn = state.turn or state.last_turn
            if turn is not None and state.phase == dp.Phase.GROW:
                seen["party people removed"] += sum(d.arrival.removed.party_people
                                                    for d in turn.deliveries)
    assert all(seen.values()), seen
