"""The evening across tables (``scorer/v6/tables.py``): the rulebook's placement points,
throw-offs, qualification and joker limit checked from reports, reports counted once, and
a simulated evening of 8 tables equal to one single-process evening of the engine."""

from __future__ import annotations

import pytest

from dicecam.errors import InputError, RuleError
from dicecam.scorer.v6 import codec, rules
from dicecam.scorer.v6 import tables as t
from dicecam.tools.v6_evening import play_group, reference_points

PLAYERS = [f"P{i:02d}" for i in range(32)]
TABLES = [f"T{i}" for i in range(1, 9)]


def pp(player: str, total: int, points: int, zombie: bool = False,
       used: tuple[str, ...] = ()) -> t.PlayerPass:
    return t.PlayerPass(player, total, zombie, points, used)


def pass_report(table: str, group: tuple[str, ...], pass_no: int, rows: list[t.PlayerPass],
                action_id: str = "a", stage: str = t.PRELIM) -> t.PassReport:
    return t.PassReport(table, stage, pass_no, group, tuple(rows), action_id)


def test_placement_points_6_4_2_0_and_zombies_get_nothing() -> None:
    # section 4 "Punkte": places 6/4/2/0; zombies 0, their places' points not handed out
    rows = [pp("A", 30, 6), pp("B", 12, 4), pp("C", 0, 0, zombie=True), pp("D", 0, 0, True)]
    assert t.placement_points(rows) == {"A": 6, "B": 4, "C": 0, "D": 0}
    rows = [pp("A", 3, 0), pp("B", 12, 0), pp("C", 7, 0), pp("D", 9, 0)]
    assert t.placement_points(rows) == {"B": 6, "D": 4, "C": 2, "A": 0}


def test_a_tie_is_ordered_by_the_tables_throw_off() -> None:
    # a tie on first place: the throw-off's winner gets 6, the other one less (5)
    rows = [pp("A", 20, 5), pp("B", 20, 6), pp("C", 9, 2), pp("D", 4, 0)]
    assert t.placement_points(rows) == {"B": 6, "A": 5, "C": 2, "D": 0}
    t.check_pass(pass_report("T1", ("A", "B", "C", "D"), 1, rows))


def test_points_that_break_the_placement_rule_are_refused_with_the_player() -> None:
    rows = [pp("A", 20, 6), pp("B", 20, 6), pp("C", 9, 2), pp("D", 4, 0)]
    with pytest.raises(InputError, match="A got 6 points|B got 6 points"):
        t.check_pass(pass_report("T1", ("A", "B", "C", "D"), 1, rows))
    with pytest.raises(InputError, match="zombie"):
        t.check_pass(pass_report("T1", ("A", "B"), 1, [pp("A", 5, 6), pp("B", 3, 0, True)]))


def test_a_group_table_tie_costs_the_throw_off_loser_a_point() -> None:
    ranking = t.RankingReport("T1", t.PRELIM, ("A", "B", "C", "D"), ("B", "A", "C", "D"),
                              (12, 11, 6, 0), "r")
    t.check_ranking(ranking, {"A": 12, "B": 12, "C": 6, "D": 0})
    wrong = t.RankingReport("T1", t.PRELIM, ("A", "B", "C", "D"), ("B", "A", "C", "D"),
                            (12, 12, 6, 0), "r")
    with pytest.raises(InputError, match="A has 12 points"):
        t.check_ranking(wrong, {"A": 12, "B": 12, "C": 6, "D": 0})


def test_malformed_reports_name_the_field() -> None:
    good = t.report_to_json(pass_report("T1", ("A", "B"), 1, [pp("A", 5, 6), pp("B", 3, 4)]))
    assert t.report_from_json(good) == t.report_from_json(dict(good))
    with pytest.raises(InputError, match=r"report.pass must be"):
        t.report_from_json({**good, "pass": 4})
    with pytest.raises(InputError, match=r"report.players\[0\].used"):
        t.report_from_json({**good, "players": [{**good["players"][0], "used": ["magic"]},
                                                good["players"][1]]})
    with pytest.raises(InputError, match="unknown fields"):
        t.report_from_json({**good, "extra": 1})


def test_too_few_tables_for_the_players_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="add 1 more"):
        t.plan_evening(PLAYERS[:9], ["T1", "T2"], "s")


def _play_prelim(plan: t.EveningPlan) -> tuple[list, list]:
    played = [play_group(group, f"{plan.seed}/{i}") for i, group in enumerate(plan.groups)]
    reports = [r for i, p in enumerate(played)
               for r in t.reports_from_state(plan.tables[i], f"g{i}", p.states[-1])]
    return played, reports


def test_a_report_sent_twice_counts_once_and_a_correction_replaces() -> None:
    plan = t.plan_evening(PLAYERS[:8], TABLES[:2], "dup")
    _, reports = _play_prelim(plan)
    once = t.standings(plan, reports)
    twice = t.standings(plan, reports + reports[:5])
    assert twice.rows == once.rows and twice.duplicates == 5 and once.duplicates == 0
    first = next(r for r in reports if isinstance(r, t.PassReport))
    names = [p.player for p in first.players]
    # the table undid the pass and settled it again another way: the new result counts
    swapped = tuple(t.PlayerPass(p.player, 0, True, 0, p.used) for p in first.players)
    corrected = t.PassReport(first.table, first.stage, 1, first.group, swapped, "later")
    after = t.standings(plan, [first, corrected])
    assert all(r.points == 0 for r in after.rows if r.player in names)


def test_a_final_table_is_told_the_jokers_used_before_and_its_engine_refuses_them() -> None:
    plan = t.plan_evening(["A", "B", "C", "D"], ["T1"], "j")
    group = plan.groups[0]
    rows = [pp(n, 10 - i, t.PLACE_POINTS[i], used=("fumo", "jule") if n == "A" else ())
            for i, n in enumerate(group)]
    board = t.standings(plan, [pass_report("T1", group, 1, rows, "x")])
    assert board.spent_by(["A", "B"]) == {"A": ["fumo", "jule"]}
    final = codec.new_game({"players": ["A", "B"], "groups": [["A", "B"]], "final": True,
                            "spent": board.spent_by(["A", "B"])})
    first = final.groups[0][0]
    if first != "A":  # B plays first: let B's round pass
        final = rules.apply(final, rules.ChooseJokers(()))
        final = rules.apply(final, codec.action_from_json({"type": "throw", "value": 6}))
        final = rules.apply(final, codec.action_from_json({"type": "throw", "value": 6}))
    with pytest.raises(RuleError, match="A already used Fumo this evening"):
        rules.apply(final, codec.action_from_json({"type": "jokers", "jokers": ["fumo"]}))
    # the final's free-choice round may take it again (section 4, "Finale")
    rules.apply(final, codec.action_from_json({"type": "jokers", "jokers": ["fumo"],
                                               "free_choice": True}))


def test_jokers_are_once_per_evening_across_tables() -> None:
    plan = t.plan_evening(["A", "B", "C", "D"], ["T1"], "j")
    group = plan.groups[0]
    rows1 = [pp(n, 10 - i, t.PLACE_POINTS[i], used=("fumo",) if n == "A" else ())
             for i, n in enumerate(group)]
    rows2 = [pp(n, 10 - i, t.PLACE_POINTS[i], used=("fumo",) if n == "A" else ())
             for i, n in enumerate(group)]
    board = t.standings(plan, [pass_report("T1", group, 1, rows1, "x"),
                               pass_report("T1", group, 2, rows2, "y")])
    assert len(board.joker_conflicts) == 1 and "A used Fumo again at T1 prelim/pass2" in \
        board.joker_conflicts[0]


def test_a_report_from_the_wrong_group_is_a_problem_not_a_count() -> None:
    plan = t.plan_evening(PLAYERS[:8], TABLES[:2], "w")
    rows = [pp(n, 10 - i, t.PLACE_POINTS[i]) for i, n in enumerate(plan.groups[1])]
    board = t.standings(plan, [pass_report("T1", plan.groups[1], 1, rows)])
    assert board.counted == 0 and "evening seats" in board.problems[0]
    assert all(r.points == 0 for r in board.rows)
    spare = t.plan_evening(PLAYERS[:8], TABLES[:3], "w")  # two groups, a third table
    board = t.standings(spare, [pass_report("T3", spare.groups[0], 1, rows)])
    assert board.counted == 0 and board.problems == (
        "T3 prelim/pass1: a result from a table where the evening seats no group",)
    final_too_early = pass_report("T1", spare.groups[0], 1, rows, stage=t.FINAL)
    assert "no final group plays at this table (yet)" in t.standings(
        spare, [final_too_early]).problems[0]


def test_a_correction_is_refused_before_it_counts_unless_it_fits_the_seating() -> None:
    plan = t.plan_evening(PLAYERS[:8], TABLES[:2], "fix")
    _, reports = _play_prelim(plan)
    mine = [r for r in reports if r.table == "T1"]
    first = next(r for r in mine if isinstance(r, t.PassReport))
    assert all(t.refusal(plan, mine[:i], r) is None for i, r in enumerate(mine))
    # another group's players for the seated one's pass 1: refused, naming the seating
    rows = [pp(n, 10 - i, t.PLACE_POINTS[i]) for i, n in enumerate(plan.groups[1])]
    wrong = pass_report("T1", plan.groups[1], 1, rows, action_id="other")
    assert "the evening seats" in (t.refusal(plan, mine, wrong) or "")
    # the same pass with points the rule does not give
    broken = t.PassReport("T1", t.PRELIM, 1, first.group, tuple(
        t.PlayerPass(p.player, p.total, p.zombie, 6, p.used) for p in first.players), "6s")
    assert "the placement rule gives" in (t.refusal(plan, mine, broken) or "")
    # a valid correction (undone, settled another way) may count; a report again too
    swapped = tuple(t.PlayerPass(p.player, 0, True, 0, p.used) for p in first.players)
    assert t.refusal(plan, mine, t.PassReport("T1", t.PRELIM, 1, first.group, swapped,
                                              "later")) is None
    assert t.refusal(plan, mine, first) is None


def test_a_simulated_evening_of_8_tables_equals_one_single_process_evening() -> None:
    plan = t.plan_evening(PLAYERS, TABLES, "evening-1")
    played, reports = _play_prelim(plan)
    reference = reference_points(plan.groups, played)
    board = t.standings(plan, list(reversed(reports)) + reports)  # any order, twice
    by_name = {r.player: r for r in board.rows}
    assert {n: by_name[n].points for n in PLAYERS} == dict(reference.points)
    assert {r.player for r in board.rows if r.qualified} == set(reference.qualified)
    assert len(board.final) == 4 and not board.over and board.counted == 8 * 4
    # the final: four passes at the first four tables
    # each final table knows the jokers its players used in the preliminary passes
    finals = [play_group(g, f"final/{i}", final=True, spent=board.spent_by(g))
              for i, g in enumerate(board.final)]
    final_reports = [r for i, p in enumerate(finals)
                     for r in t.reports_from_state(board.final_tables[i], f"f{i}",
                                                   p.states[-1])]
    done = t.standings(plan, reports + final_reports)
    ref_final = reference_points(board.final, finals, final=True)
    assert {r.player: r.final_points for r in done.rows if r.final_points is not None} == \
        dict(ref_final.points)
    assert done.over and done.winner == done.rows[0].player
    assert done.rows[0].final_place == 1 and not done.problems
    assert not done.joker_conflicts  # no joker used twice across the tables
    for evening in finals:  # and the finals did choose: the limit was not met by chance
        assert any(r.jokers for r in evening.final_state.results)
