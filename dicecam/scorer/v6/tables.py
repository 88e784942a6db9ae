"""A V6 tournament evening across many tables: the plan and the one standings board.

Each table's croupier runs the evening of its own group in ``rules`` (one group of four,
three passes, or four in the final); this module joins the tables (Regelwerk 2020,
section 4): players drawn into groups of four, one group per table, placement points
6/4/2/0 per pass with zombies at 0, throw-offs for ties, the best two of each group through
to the final, jokers once per evening and player across every table, the final's four passes.

What a table sends is a *report*: a settled pass (``PassReport``) or its group's settled
table after the last pass (``RankingReport``). Each is keyed by (table, round, action id):
the round is the stage and pass (``prelim/pass2``, ``final/table``), the action id names
the table's content, so a report sent twice counts once and a corrected one (an undo at
the table, then another result) replaces the earlier one for that round.

Pure: frozen dataclasses in, frozen dataclasses out, no I/O; ``standings`` is what the hub
shows and what a single-process reference must equal.

Readings chosen where the rulebook leaves room (beside those of ``rules``):

* Throw-offs are thrown at the table; a report carries their result as the points the
  table awarded. The hub checks them against the rule (a tie's winner gets the place's
  points, each further player one less; a group table's tie costs one point per place
  behind its winner) and refuses a report that breaks it, naming the player.
* The final: the qualified players of every group, in group order, are drawn into groups of
  four from the evening's seed (``final_groups``), the k-th final group at the k-th table.
  The final standings rank finalists by final points, then by the place in their final
  group (its throw-off settled), then by evening points.
* The evening's joker limit spans tables: a joker a player used in one pass (outside the
  final's free-choice round) may not be used again that evening at any table. A final
  table learns the jokers its players used in the preliminary passes (``spent_by``, given
  to its engine as ``Config.spent``), so its engine refuses them; should a reuse still
  arrive (a table that started its game by hand), the hub lists it as a conflict for the
  referee rather than dropping a result.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dicecam.errors import InputError
from dicecam.scorer.v6.groups import GROUP_SIZE, MIN_GROUP, form_groups
from dicecam.scorer.v6.jokers import JokerId, joker_name
from dicecam.scorer.v6.rules import FINAL_PASSES, MAX_NAME_LENGTH, PASSES, PLACE_POINTS, QUALIFY

PRELIM = "prelim"
FINAL = "final"
STAGES = (PRELIM, FINAL)
MAX_TABLES = 64
MAX_CODE_LENGTH = 32
JOKER_IDS = frozenset(j.value for j in JokerId)


def passes_of(stage: str) -> int:
    return FINAL_PASSES if stage == FINAL else PASSES


# --- the plan -------------------------------------------------------------------------------


@dataclass(frozen=True)
class EveningPlan:
    """Who plays at which table: ``groups[i]`` plays the preliminary passes at ``tables[i]``."""

    players: tuple[str, ...]
    tables: tuple[str, ...]
    seed: str
    groups: tuple[tuple[str, ...], ...]
    qualify: int = QUALIFY

    def table_of(self, index: int) -> str:
        return self.tables[index]


def plan_evening(players: Sequence[str], tables: Sequence[str], seed: str,
                 qualify: int = QUALIFY) -> EveningPlan:
    """Draw the groups of four from ``seed`` and seat group i at table i."""
    players = tuple(players)
    tables = tuple(tables)
    for name in players:
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_LENGTH:
            raise InputError(f"a player's name is 1 to {MAX_NAME_LENGTH} characters, "
                             f"got {name!r}")
    if len(set(tables)) != len(tables) or not 1 <= len(tables) <= MAX_TABLES:
        raise InputError(f"an evening has 1 to {MAX_TABLES} tables with distinct codes, "
                         f"got {len(tables)}")
    if not 1 <= qualify <= GROUP_SIZE:
        raise InputError(f"qualify must be 1 to {GROUP_SIZE}, got {qualify}")
    groups = form_groups(players, seed)
    if len(groups) > len(tables):
        raise InputError(f"{len(players)} players make {len(groups)} groups of at most "
                         f"{GROUP_SIZE}; the evening has only {len(tables)} tables: add "
                         f"{len(groups) - len(tables)} more")
    return EveningPlan(players, tables, str(seed), groups, qualify)


def final_groups(plan: EveningPlan, qualified: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """The final's groups, drawn from the qualified players with the evening's seed."""
    if len(qualified) < MIN_GROUP:
        return (tuple(qualified),) if qualified else ()
    return form_groups(list(qualified), f"{plan.seed}/final")


# --- reports ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerPass:
    """One player's pass as the table settled it."""

    player: str
    total: int  # the standing total the pass was ranked by
    zombie: bool
    points: int  # placement points the table awarded (throw-off included)
    used: tuple[str, ...] = ()  # jokers the player's round used
    free_choice: bool = False  # the final's free-choice round: spends no joker


@dataclass(frozen=True)
class PassReport:
    table: str
    stage: str
    pass_no: int  # 1-based
    group: tuple[str, ...]  # the group's players in seating order
    players: tuple[PlayerPass, ...]
    action_id: str

    @property
    def round_key(self) -> str:
        return f"{self.stage}/pass{self.pass_no}"


@dataclass(frozen=True)
class RankingReport:
    """A group's table after its last pass, ties settled by throw-off: best first."""

    table: str
    stage: str
    group: tuple[str, ...]
    order: tuple[str, ...]
    points: tuple[int, ...]  # the evening points of ``order``, throw-off deductions made
    action_id: str

    @property
    def round_key(self) -> str:
        return f"{self.stage}/table"


Report = PassReport | RankingReport


def report_key(report: Report) -> tuple[str, str, str]:
    return (report.table, report.round_key, report.action_id)


def _text(value: Any, where: str, limit: int = MAX_NAME_LENGTH) -> str:
    if not isinstance(value, str) or not value or len(value) > limit:
        raise InputError(f"{where} must be a text of 1 to {limit} characters, got {value!r}")
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in value):
        raise InputError(f"{where} holds a control character: {value!r}")
    return value


def _int(value: Any, where: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InputError(f"{where} must be a whole number from {low} to {high}, got {value!r}")
    return value


def _names(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not MIN_GROUP <= len(value) <= GROUP_SIZE:
        raise InputError(f"{where} must list {MIN_GROUP} to {GROUP_SIZE} players, got {value!r}")
    names = tuple(_text(v, f"{where}[{i}]") for i, v in enumerate(value))
    if len(set(names)) != len(names):
        raise InputError(f"{where} names a player twice: {list(names)}")
    return names


def _object(value: Any, where: str, keys: Sequence[str]) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise InputError(f"{where} must be an object, got {type(value).__name__}")
    unknown = sorted(set(value) - set(keys))
    if unknown:
        raise InputError(f"{where} has unknown fields {unknown}; known: {list(keys)}")
    return value


def report_from_json(data: Any, where: str = "report") -> Report:
    """A report from its JSON; a malformed one raises InputError naming the field."""
    data = _object(data, where, ("kind", "table", "stage", "pass", "group", "players", "order",
                                 "points", "action_id"))
    kind = data.get("kind")
    table = _text(data.get("table"), f"{where}.table", MAX_CODE_LENGTH)
    stage = data.get("stage")
    if stage not in STAGES:
        raise InputError(f"{where}.stage must be one of {list(STAGES)}, got {stage!r}")
    group = _names(data.get("group"), f"{where}.group")
    action_id = _text(data.get("action_id"), f"{where}.action_id", 80)
    if kind == "pass":
        pass_no = _int(data.get("pass"), f"{where}.pass", 1, passes_of(stage))
        rows = data.get("players")
        if not isinstance(rows, list) or len(rows) != len(group):
            raise InputError(f"{where}.players must hold one entry per player of the group")
        players = []
        for i, row in enumerate(rows):
            at = f"{where}.players[{i}]"
            row = _object(row, at, ("player", "total", "zombie", "points", "used",
                                    "free_choice"))
            used = row.get("used", [])
            if not isinstance(used, list) or any(not isinstance(j, str) or j not in JOKER_IDS
                                                 for j in used):
                raise InputError(f"{at}.used must list joker ids {sorted(JOKER_IDS)}, "
                                 f"got {used!r}")
            zombie, free = row.get("zombie", False), row.get("free_choice", False)
            if not isinstance(zombie, bool) or not isinstance(free, bool):
                raise InputError(f"{at}.zombie and .free_choice are true or false")
            players.append(PlayerPass(_text(row.get("player"), f"{at}.player"),
                                      _int(row.get("total"), f"{at}.total", 0, 100_000),
                                      zombie, _int(row.get("points"), f"{at}.points", 0,
                                                   PLACE_POINTS[0]), tuple(used), free))
        if sorted(p.player for p in players) != sorted(group):
            raise InputError(f"{where}.players must be the group's players {list(group)}")
        return PassReport(table, stage, pass_no, group, tuple(players), action_id)
    if kind == "ranking":
        order = _names(data.get("order"), f"{where}.order")
        points = data.get("points")
        if not isinstance(points, list) or len(points) != len(order):
            raise InputError(f"{where}.points must hold one number per player of the order")
        if sorted(order) != sorted(group):
            raise InputError(f"{where}.order must rank the group's players {list(group)}")
        top = PLACE_POINTS[0] * FINAL_PASSES
        return RankingReport(table, stage, group, order,
                             tuple(_int(p, f"{where}.points[{i}]", -GROUP_SIZE, top)
                                   for i, p in enumerate(points)), action_id)
    raise InputError(f"{where}.kind must be 'pass' or 'ranking', got {kind!r}")


def report_to_json(report: Report) -> dict[str, Any]:
    base = {"table": report.table, "stage": report.stage, "group": list(report.group),
            "action_id": report.action_id}
    if isinstance(report, PassReport):
        return {"kind": "pass", **base, "pass": report.pass_no, "players": [
            {"player": p.player, "total": p.total, "zombie": p.zombie, "points": p.points,
             "used": list(p.used), "free_choice": p.free_choice} for p in report.players]}
    return {"kind": "ranking", **base, "order": list(report.order),
            "points": list(report.points)}


# --- the rule checks --------------------------------------------------------------------------


def placement_points(players: Sequence[PlayerPass]) -> dict[str, int]:
    """The points a pass gives (section 4 "Punkte"), ties ordered as the table's throw-off
    ordered them (the reported points, higher first; seating order where they are equal)."""
    alive = [p for p in players if not p.zombie]
    alive.sort(key=lambda p: -p.total)  # stable: seating order inside a tie
    points = {p.player: 0 for p in players}
    place = 0
    while place < len(alive):
        block = [p for p in alive[place:] if p.total == alive[place].total]
        base = PLACE_POINTS[place]
        block.sort(key=lambda p: -p.points)
        for behind, p in enumerate(block):
            points[p.player] = max(0, base - behind) if len(block) > 1 else base
        place += len(block)
    return points


def check_pass(report: PassReport) -> None:
    """Raise InputError when the points break the placement rule (naming who)."""
    expected = placement_points(report.players)
    for p in report.players:
        if p.zombie and p.total != 0:
            raise InputError(f"{report.table} {report.round_key}: {p.player} is a zombie "
                             f"with {p.total} pips; a zombie has none")
        if expected[p.player] != p.points:
            raise InputError(f"{report.table} {report.round_key}: {p.player} got "
                             f"{p.points} points; the placement rule gives "
                             f"{expected[p.player]} for {p.total} pips")


def check_ranking(report: RankingReport, pass_sums: Mapping[str, int]) -> None:
    """The group's table: sorted by summed pass points, a tie's k-th player one point down."""
    sums = [pass_sums.get(name, 0) for name in report.order]
    for i in range(1, len(sums)):
        if sums[i] > sums[i - 1]:
            raise InputError(f"{report.table} {report.round_key}: {report.order[i]} "
                             f"({sums[i]} points) is ranked behind {report.order[i - 1]} "
                             f"({sums[i - 1]})")
    first_of_tie = 0
    for i, (name, got) in enumerate(zip(report.order, report.points, strict=True)):
        if i > 0 and sums[i] != sums[i - 1]:
            first_of_tie = i
        want = sums[i] - (i - first_of_tie)
        if got != want:
            raise InputError(f"{report.table} {report.round_key}: {name} has {got} points; "
                             f"{sums[i]} from the passes and place {i - first_of_tie + 1} "
                             f"in the throw-off give {want}")


# --- standings --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    player: str
    table: str  # the table of the player's preliminary group
    points: int  # preliminary (evening) points, throw-offs included
    passes: int  # preliminary passes counted
    zombies: int  # passes ended as a zombie (preliminary and final)
    qualified: bool
    final_table: str | None = None
    final_points: int | None = None
    final_place: int | None = None  # place in the final group once its table is settled


@dataclass(frozen=True)
class Standings:
    rows: tuple[Row, ...]  # the board's order: finalists first, then by evening points
    final: tuple[tuple[str, ...], ...] = ()  # the final's groups, once every group is done
    final_tables: tuple[str, ...] = ()
    over: bool = False  # every final group's table is settled
    winner: str | None = None
    counted: int = 0  # reports that count
    duplicates: int = 0  # reports seen again (same key) and counted once
    joker_conflicts: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()  # reports that break the rules or the plan, not counted
    spent: tuple[tuple[str, tuple[str, ...]], ...] = ()  # jokers each player used so far

    def spent_by(self, players: Sequence[str]) -> dict[str, list[str]]:
        """The jokers these players used this evening (outside free-choice rounds): what a
        final table must know, since its engine only sees its own passes."""
        spent = dict(self.spent)
        return {name: list(spent[name]) for name in players if spent.get(name)}


def standings(plan: EveningPlan, reports: Sequence[Report]) -> Standings:
    """The evening's board from every report received, in the order received."""
    seen: set[tuple[str, str, str]] = set()
    latest: dict[tuple[str, str], Report] = {}
    duplicates = 0
    for report in reports:
        key = report_key(report)
        if key in seen:
            duplicates += 1
            continue
        seen.add(key)
        latest[(report.table, report.round_key)] = report  # a correction replaces

    problems: list[str] = []
    prelim = _stage(PRELIM, dict(zip(plan.tables, plan.groups, strict=False)), latest,
                    problems)
    qualified = tuple(name for index, group in enumerate(plan.groups)
                      for name in prelim.ranked.get(plan.tables[index], ())[:plan.qualify])
    all_ranked = all(plan.tables[i] in prelim.ranked for i in range(len(plan.groups)))
    final = final_groups(plan, qualified) if all_ranked else ()
    final_tables = plan.tables[:len(final)]
    finals = _stage(FINAL, dict(zip(final_tables, final, strict=True)), latest, problems)
    seated = plan.tables[:len(plan.groups)]
    for (table, round_key), report in latest.items():
        if report.stage == FINAL and table not in final_tables:
            problems.append(f"{table} {round_key}: a final result, but no final group plays "
                            "at this table (yet)")
        elif report.stage == PRELIM and table not in seated:
            problems.append(f"{table} {round_key}: a result from a table where the evening "
                            "seats no group")

    table_of = {name: plan.tables[i] for i, group in enumerate(plan.groups) for name in group}
    final_table_of = {name: final_tables[i] for i, group in enumerate(final) for name in group}
    place_in_final = {name: place + 1 for order in finals.ranked.values()
                      for place, name in enumerate(order)}
    rows = []
    for name in plan.players:
        in_final = name in final_table_of
        rows.append(Row(
            player=name, table=table_of[name], points=prelim.points.get(name, 0),
            passes=prelim.passes.get(name, 0),
            zombies=prelim.zombies.get(name, 0) + finals.zombies.get(name, 0),
            qualified=name in qualified, final_table=final_table_of.get(name),
            final_points=finals.points.get(name, 0) if in_final else None,
            final_place=place_in_final.get(name)))
    rows.sort(key=lambda r: (r.final_points is None, -(r.final_points or 0),
                             r.final_place or 99, -r.points, r.player))
    over = bool(final) and all(t in finals.ranked for t in final_tables)
    counted = prelim.counted + finals.counted
    conflicts, spent = _jokers_used(latest)
    return Standings(tuple(rows), final, final_tables, over,
                     rows[0].player if over else None, counted, duplicates,
                     conflicts, tuple(problems), spent)


def refusal(plan: EveningPlan, reports: Sequence[Report], report: Report) -> str | None:
    """Why the hub must refuse ``report`` before storing it, given the ``reports`` stored
    (in the order received); None when it may count. A report is checked against the
    seating (its table's group at its stage, the final drawn), the placement rule and,
    for a group's table, its passes, exactly as ``standings`` would count it: a refused
    one is never stored, so it can never replace a result that counts (a correction
    counts only when it is valid)."""
    return refusal_between(standings(plan, reports), standings(plan, [*reports, report]),
                           report)


def refusal_between(before: Standings, after: Standings, report: Report) -> str | None:
    """``refusal`` from the boards without and with ``report`` (a hub that has the board
    before at hand computes only the one after)."""
    prefix = f"{report.table} {report.round_key}:"
    new = [p for p in after.problems if p.startswith(prefix) and p not in before.problems]
    return new[0] if new else None


@dataclass(frozen=True)
class _StageTotals:
    points: Mapping[str, int]
    passes: Mapping[str, int]
    zombies: Mapping[str, int]
    ranked: Mapping[str, tuple[str, ...]]  # table -> its group's settled order
    counted: int


def _stage(stage: str, groups: Mapping[str, tuple[str, ...]],
           latest: Mapping[tuple[str, str], Report], problems: list[str]) -> _StageTotals:
    points: dict[str, int] = {}
    passes: dict[str, int] = {}
    zombies: dict[str, int] = {}
    ranked: dict[str, tuple[str, ...]] = {}
    counted = 0
    for table, group in groups.items():
        sums = {name: 0 for name in group}
        complete = True
        for pass_no in range(1, passes_of(stage) + 1):
            report = latest.get((table, f"{stage}/pass{pass_no}"))
            if report is None:
                complete = False
                continue
            assert isinstance(report, PassReport)
            if not _belongs(report, group, problems):
                complete = False
                continue
            try:
                check_pass(report)
            except InputError as exc:
                problems.append(str(exc))
                complete = False
                continue
            counted += 1
            for p in report.players:
                sums[p.player] += p.points
                passes[p.player] = passes.get(p.player, 0) + 1
                zombies[p.player] = zombies.get(p.player, 0) + int(p.zombie)
        settled = dict(sums)
        ranking = latest.get((table, f"{stage}/table"))
        if ranking is not None and isinstance(ranking, RankingReport):
            if not complete:
                problems.append(f"{table} {ranking.round_key}: the group's table came before "
                                "all its passes; it counts once they are in")
            elif _belongs(ranking, group, problems):
                try:
                    check_ranking(ranking, sums)
                except InputError as exc:
                    problems.append(str(exc))
                else:
                    counted += 1
                    settled.update(zip(ranking.order, ranking.points, strict=True))
                    ranked[table] = ranking.order
        points.update(settled)
    return _StageTotals(points, passes, zombies, ranked, counted)


def _belongs(report: Report, group: tuple[str, ...], problems: list[str]) -> bool:
    if sorted(report.group) != sorted(group):
        problems.append(f"{report.table} {report.round_key}: the table reports the group "
                        f"{list(report.group)}, but the evening seats {list(group)} there")
        return False
    return True


def _jokers_used(latest: Mapping[tuple[str, str], Report]
                 ) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]:
    """(every reuse of a joker by a player this evening, the jokers each player used)."""
    first_use: dict[tuple[str, str], str] = {}
    conflicts = []
    ordered = sorted((r for r in latest.values() if isinstance(r, PassReport)),
                     key=lambda r: (STAGES.index(r.stage), r.pass_no, r.table))
    for report in ordered:
        for p in report.players:
            if p.free_choice:
                continue
            for joker in p.used:
                where = f"{report.table} {report.round_key}"
                before = first_use.setdefault((p.player, joker), where)
                if before != where:
                    conflicts.append(f"{p.player} used {joker_name(JokerId(joker))} again at "
                                     f"{where} (already at {before}); a joker is chosen once "
                                     "per evening")
    spent: dict[str, list[str]] = {}
    for player, joker in first_use:
        spent.setdefault(player, []).append(joker)
    return tuple(conflicts), tuple((p, tuple(js)) for p, js in sorted(spent.items()))


# --- from a table's engine ------------------------------------------------------------------


def reports_from_state(table: str, game_key: str, state: Mapping[str, Any]) -> list[Report]:
    """Every settled pass and group table of one table's V6 evening, from the engine's
    ``codec.state_to_json``; ``game_key`` names the table's game (its journal id), so the
    action ids of two games at one table never meet."""
    stage = FINAL if state.get("final") else PRELIM
    groups = [tuple(g) for g in state.get("groups") or []]
    points = {(r["group"], r["pass"], r["player"]): r["points"]
              for r in state.get("pass_points", [])}
    totals = {(t["group"], t["pass"], t["player"]): t for t in state.get("pass_totals", [])}
    rounds = {(r["group"], r["pass"], r["player"]): r for r in state.get("results", [])}
    off = state.get("throw_off")
    reports: list[Report] = []
    for g, group in enumerate(groups, start=1):
        for pass_no in range(1, int(state.get("passes") or passes_of(stage)) + 1):
            keys = [(g, pass_no, name) for name in group]
            if not all(k in points and k in totals for k in keys):
                break
            players = []
            for key in keys:
                played = rounds.get(key, {})
                players.append(PlayerPass(key[2], totals[key]["total"], totals[key]["zombie"],
                                          points[key], tuple(played.get("used", [])),
                                          bool(played.get("free_choice", False))))
            reports.append(_with_id(PassReport(table, stage, pass_no, group, tuple(players),
                                               ""), game_key))
        rankings = state.get("rankings") or []
        table_off = (off is not None and off.get("kind") == "table"
                     and state.get("group") == g)
        if len(rankings) >= g and not table_off:
            order = tuple(rankings[g - 1])
            reports.append(_with_id(RankingReport(
                table, stage, group, order, tuple(state["points"][n] for n in order), ""),
                game_key))
    return reports


def _with_id(report: Report, game_key: str) -> Report:
    content = report_to_json(report)
    content.pop("action_id")
    digest = hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()[:16]
    action_id = f"{game_key}:{digest}"
    if isinstance(report, PassReport):
        return PassReport(report.table, report.stage, report.pass_no, report.group,
                          report.players, action_id)
    return RankingReport(report.table, report.stage, report.group, report.order,
                         report.points, action_id)
