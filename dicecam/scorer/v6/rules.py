"""The V6 tournament evening ("die verflixte Sechs", Regelwerk 2020, section 4).

A game for the web app is one evening at one croupier's table: players in groups (given
in the config, or later with a ``SetGroups`` action; ``v6_groups.form_groups`` draws them
from a seed the caller passes), each group playing its passes (three; four in a final)
one after the other, each player one round per pass (``player_round``). After a pass the
non-zombies are ranked by pips and score 6/4/2/0; zombies score 0 and their places'
points are not handed out. After the last pass the group's table is ranked by points and
the best two go through.

Readings chosen where the rulebook leaves room (section 4 says "Näheres dazu erfolgt dann
separat" about ties):

* Ties, in a pass's pips or the final table's points, are settled by a throw-off: each
  tied player throws one die (in seating order), higher wins, equal throws throw again
  among themselves. In a pass the winner gets the points of the shared place and each
  further player one less than the one before (6, 5, ...; never below 0); a tie on a
  place worth 0 needs no throw-off. In the final table each further player loses one
  point per place behind the winner (14, 13, ...).
* A zombie is a player whose round ended with nothing through the six or a lost All In,
  or who was robbed to zero (by the thief or Sekante). A player robbed to zero before his
  turn in the pass does not play that pass's round.
* Each player may choose each joker once per evening: a joker counts as chosen for the
  evening once the round actually used it (announced jokers when announced, Törtchen and
  Tentakel once a throw followed the free throw, Runkelrüb when a six called it); chosen
  but unused jokers may be chosen again. Jokers used at another table that evening come in
  as ``Config.spent`` (a final seated by the tournament hub knows the preliminary passes'
  jokers). In a final, each player has one free-choice round (named when choosing the
  jokers) that neither checks nor spends the evening's jokers.
* Pips move between players only within a pass: every pass starts everyone at zero.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from dicecam.errors import RuleError
from dicecam.messages import Message, Text, joined
from dicecam.scorer.v6 import player_round as rnd
from dicecam.scorer.v6.groups import MIN_GROUP
from dicecam.scorer.v6.jokers import MAX_CHOSEN, JokerId, joker_name
from dicecam.scorer.v6.messages import MESSAGES as M

PLACE_POINTS = (6, 4, 2, 0)
PASSES = 3
FINAL_PASSES = 4
MAX_GROUP = len(PLACE_POINTS)
QUALIFY = 2
MAX_PLAYERS = 64
MAX_NAME_LENGTH = 40


class EveningPhase(StrEnum):
    GROUPS = "groups"  # waiting for the groups
    JOKERS = "jokers"  # the current player names up to three jokers
    ROUND = "round"  # the current player's round is running
    THROW_OFF = "throw_off"  # a tie is being settled
    OVER = "over"


@dataclass(frozen=True)
class Config:
    players: tuple[str, ...]
    groups: tuple[tuple[str, ...], ...] | None = None
    final: bool = False
    qualify: int = QUALIFY
    # jokers each player already used this evening at another table (a final seated by
    # the tournament hub): they count as chosen, as if used at this table
    spent: tuple[tuple[str, tuple[JokerId, ...]], ...] = ()

    @property
    def passes(self) -> int:
        return FINAL_PASSES if self.final else PASSES


# --- evening actions (round actions pass through to the running round) ---------------------


@dataclass(frozen=True)
class SetGroups:
    groups: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class ChooseJokers:
    jokers: tuple[JokerId, ...]
    free_choice: bool = False  # final only: this player's one round of free joker choice


Action = SetGroups | ChooseJokers | rnd.RoundAction


@dataclass(frozen=True)
class RoundResult:
    group: int
    pass_no: int
    player: str
    jokers: tuple[JokerId, ...]
    total: int
    outcome: str  # a player_round.Outcome value, or "skipped" (zombified before the turn)
    free_choice: bool = False
    used: tuple[JokerId, ...] = ()  # the chosen jokers the round used (they count as spent)


@dataclass(frozen=True)
class PassTotal:
    """A player's standing total when a pass was ranked: what the placement points were
    given for (a later theft in the pass may have lowered the total the round ended with)."""

    group: int
    pass_no: int
    player: str
    total: int
    zombie: bool


@dataclass(frozen=True)
class ThrowOff:
    """A tie being settled. ``blocks`` are still-tied players in rank order; the first
    block is throwing now, ``throws`` holding its throws so far (seating order)."""

    kind: str  # "pass" or "table"
    base: int  # pass: the points of the shared place; table: the tied points
    blocks: tuple[tuple[str, ...], ...]
    order: tuple[str, ...] = ()
    throws: tuple[int, ...] = ()

    @property
    def thrower(self) -> str:
        return self.blocks[0][len(self.throws)]


@dataclass(frozen=True)
class Evening:
    config: Config
    groups: tuple[tuple[str, ...], ...] = ()
    phase: EveningPhase = EveningPhase.GROUPS
    group: int = 0
    pass_no: int = 0
    seat: int = 0
    standing: tuple[rnd.Opponent, ...] = ()  # this pass's totals in the current group
    round: rnd.RoundState | None = None
    free_round: bool = False
    results: tuple[RoundResult, ...] = ()
    points: tuple[tuple[str, int], ...] = ()  # evening points per player
    pass_points: tuple[tuple[int, int, str, int], ...] = ()  # (group, pass, player, points)
    pass_totals: tuple[PassTotal, ...] = ()  # the totals each settled pass was ranked by
    spent: tuple[tuple[str, tuple[JokerId, ...]], ...] = ()  # jokers used this evening
    free_used: frozenset[str] = frozenset()
    throw_offs: tuple[ThrowOff, ...] = ()  # the first one is running
    rankings: tuple[tuple[str, ...], ...] = ()  # per finished group, best first
    qualified: tuple[str, ...] = ()
    note: Text = ""

    @property
    def player(self) -> str | None:
        if self.phase in (EveningPhase.JOKERS, EveningPhase.ROUND):
            return self.groups[self.group][self.seat]
        return None

    def points_of(self, name: str) -> int:
        return dict(self.points)[name]

    def spent_by(self, name: str) -> tuple[JokerId, ...]:
        return dict(self.spent).get(name, ())


def new_game(config: Config) -> Evening:
    players = tuple(config.players)
    if len(players) < MIN_GROUP or len(players) > MAX_PLAYERS:
        raise RuleError(M("v6.no.players", low=MIN_GROUP, high=MAX_PLAYERS, n=len(players)))
    if len(set(players)) != len(players):
        raise RuleError(M("v6.no.names_distinct"))
    if not 1 <= config.qualify <= MAX_GROUP:
        raise RuleError(M("v6.no.qualify", high=MAX_GROUP, n=config.qualify))
    strangers = sorted({name for name, _ in config.spent} - set(players))
    if strangers:
        raise RuleError(M("v6.no.spent_stranger", names=", ".join(strangers)))
    evening = Evening(config, points=tuple((p, 0) for p in players),
                      spent=tuple((name, tuple(dict.fromkeys(jokers)))
                                  for name, jokers in config.spent if jokers),
                      note=M("v6.ev.give_groups"))
    if config.groups is not None:
        evening = _set_groups(evening, config.groups)
    return evening


def apply(state: Evening, action: Action) -> Evening:
    """The evening after one action, or RuleError with the reason it is not allowed now."""
    if state.phase is EveningPhase.OVER:
        raise RuleError(M("v6.no.evening_over"))
    if isinstance(action, SetGroups):
        if state.phase is not EveningPhase.GROUPS:
            raise RuleError(M("v6.no.groups_set"))
        return _set_groups(state, action.groups)
    if state.phase is EveningPhase.GROUPS:
        raise RuleError(M("v6.no.groups_first"))
    if isinstance(action, ChooseJokers):
        return _choose_jokers(state, action)
    if state.phase is EveningPhase.JOKERS:
        raise RuleError(M("v6.no.jokers_first", player=str(state.player)))
    if state.phase is EveningPhase.THROW_OFF:
        if not isinstance(action, rnd.Throw):
            raise RuleError(M("v6.no.throw_off", player=state.throw_offs[0].thrower))
        return _throw_off(state, action.value)
    assert state.round is not None
    state = replace(state, round=rnd.apply(state.round, action))
    state = replace(state, note=state.round.note)
    return _finish_round(state) if state.round.over else state


def choosable(state: Evening, player: str) -> tuple[tuple[JokerId, Message | None], ...]:
    """Every joker with None if the player may choose it now, else the reason."""
    spent = state.spent_by(player)
    return tuple((j, None if j not in spent else M("v6.why.already_used", player=player,
                                                   joker=joker_name(j))) for j in JokerId)


def free_choice_open(state: Evening, player: str) -> bool:
    return state.config.final and player not in state.free_used


# --- groups and jokers ------------------------------------------------------------------


def _set_groups(state: Evening, groups: tuple[tuple[str, ...], ...]) -> Evening:
    groups = tuple(tuple(g) for g in groups)
    listed = [p for g in groups for p in g]
    players = state.config.players
    if sorted(listed) != sorted(players):
        missing = sorted(set(players) - set(listed))
        extra = sorted(set(listed) - set(players))
        twice = sorted({p for p in listed if listed.count(p) > 1})
        detail = joined(
            M("v6.no.groups_missing", names=", ".join(missing)) if missing else "",
            M("v6.no.groups_extra", names=", ".join(extra)) if extra else "",
            M("v6.no.groups_twice", names=", ".join(twice)) if twice else "")
        raise RuleError(M("v6.no.groups_every", detail=detail))
    for index, group in enumerate(groups):
        if not MIN_GROUP <= len(group) <= MAX_GROUP:
            raise RuleError(M("v6.no.group_size", group=index + 1, n=len(group),
                              low=MIN_GROUP, high=MAX_GROUP))
    state = replace(state, groups=groups)
    return _start_pass(state, 0, 0)


def _start_pass(state: Evening, group: int, pass_no: int) -> Evening:
    standing = tuple(rnd.Opponent(p) for p in state.groups[group])
    state = replace(state, group=group, pass_no=pass_no, seat=0, standing=standing,
                    round=None, phase=EveningPhase.JOKERS)
    return replace(state, note=M("v6.ev.names_jokers", group=group + 1, pass_no=pass_no + 1,
                                 player=state.player))


def _choose_jokers(state: Evening, action: ChooseJokers) -> Evening:
    if state.phase is not EveningPhase.JOKERS:
        raise RuleError(M("v6.no.jokers_in_round"))
    player = state.player
    assert player is not None
    if len(action.jokers) > MAX_CHOSEN:
        raise RuleError(M("v6.no.at_most", player=player, max=MAX_CHOSEN,
                          n=len(action.jokers)))
    if action.free_choice and not state.config.final:
        raise RuleError(M("v6.no.free_final_only"))
    if action.free_choice and player in state.free_used:
        raise RuleError(M("v6.no.free_used", player=player))
    if not action.free_choice:
        for joker, why in choosable(state, player):
            if joker in action.jokers and why is not None:
                refusal = ("v6.no.choose_another_free" if free_choice_open(state, player)
                           else "v6.no.choose_another")
                raise RuleError(M(refusal, why=why))
    me = next(o for o in state.standing if o.name == player)
    others = tuple(o for o in state.standing if o.name != player)
    game = rnd.new_round(player, action.jokers, others, start_total=me.total)
    free_used = state.free_used | ({player} if action.free_choice else set())
    names: Text = ", ".join(joker_name(j) for j in action.jokers) or M("v6.ev.no_jokers")
    return replace(state, round=game, phase=EveningPhase.ROUND, free_round=action.free_choice,
                   free_used=frozenset(free_used),
                   note=M("v6.ev.plays_with", player=player, jokers=names))


# --- after a round --------------------------------------------------------------------------


def _finish_round(state: Evening) -> Evening:
    game = state.round
    assert game is not None
    zombie = game.outcome is rnd.Outcome.ZOMBIE
    me = rnd.Opponent(game.player, game.total, zombie)
    by_name = {o.name: o for o in game.opponents}
    standing = tuple(me if o.name == game.player else by_name[o.name] for o in state.standing)
    used = tuple(j for j in game.jokers if j in game.used)
    result = RoundResult(state.group, state.pass_no, game.player, game.jokers, game.total,
                         game.outcome.value, state.free_round, used)
    spent = dict(state.spent)
    if not state.free_round:
        spent[game.player] = tuple(dict.fromkeys(spent.get(game.player, ()) + used))
    state = replace(state, standing=standing, results=state.results + (result,),
                    spent=tuple(spent.items()), seat=state.seat + 1, round=None,
                    free_round=False)
    return _next_seat(state)


def _next_seat(state: Evening) -> Evening:
    group = state.groups[state.group]
    while state.seat < len(group):
        name = group[state.seat]
        if not next(o for o in state.standing if o.name == name).zombie:
            return replace(state, phase=EveningPhase.JOKERS,
                           note=M("v6.ev.next_names_jokers", player=name))
        skipped = RoundResult(state.group, state.pass_no, name, (), 0, "skipped")
        state = replace(state, results=state.results + (skipped,), seat=state.seat + 1)
    return _settle_pass(state)


def _blocks(items: list[tuple[str, int]]) -> list[tuple[tuple[str, ...], int, int]]:
    """Equal-valued runs of (name, value) sorted best first: (names, value, first index)."""
    out: list[tuple[tuple[str, ...], int, int]] = []
    index = 0
    for name, value in items:
        if out and out[-1][1] == value:
            out[-1] = (out[-1][0] + (name,), value, out[-1][2])
        else:
            out.append(((name,), value, index))
        index += 1
    return out


def _settle_pass(state: Evening) -> Evening:
    group = state.groups[state.group]
    state = replace(state, pass_totals=state.pass_totals + tuple(
        PassTotal(state.group, state.pass_no, o.name, o.total, o.zombie)
        for o in state.standing))
    alive = [(o.name, o.total) for o in state.standing if not o.zombie]
    alive.sort(key=lambda item: -item[1])  # stable: seating order within a tie
    points = {name: 0 for name in group}
    offs = []
    for names, _, place in _blocks(alive):
        base = PLACE_POINTS[place]
        if len(names) == 1 or base == 0:
            for name in names:
                points[name] = base
        else:
            offs.append(ThrowOff("pass", base, (names,)))
            for name in names:  # awarded when the throw-off is settled
                del points[name]
    state = _award_pass(state, points)
    if offs:
        return replace(state, phase=EveningPhase.THROW_OFF, throw_offs=tuple(offs),
                       note=M("v6.ev.tie_pass", pass_no=state.pass_no + 1,
                              tied=", ".join(offs[0].blocks[0])))
    return _after_pass(state)


def _award_pass(state: Evening, awarded: Mapping[str, int]) -> Evening:
    points = dict(state.points)
    for name, value in awarded.items():
        points[name] += value
    rows = state.pass_points + tuple((state.group, state.pass_no, n, v)
                                     for n, v in awarded.items())
    return replace(state, points=tuple(points.items()), pass_points=rows)


def _after_pass(state: Evening) -> Evening:
    if state.pass_no + 1 < state.config.passes:
        return _start_pass(state, state.group, state.pass_no + 1)
    group = state.groups[state.group]
    table = sorted(((n, state.points_of(n)) for n in group), key=lambda item: -item[1])
    offs = [ThrowOff("table", value, (names,)) for names, value, _ in _blocks(table)
            if len(names) > 1]
    state = replace(state, rankings=state.rankings + (tuple(n for n, _ in table),))
    if offs:
        return replace(state, phase=EveningPhase.THROW_OFF, throw_offs=tuple(offs),
                       note=M("v6.ev.tie_table", group=state.group + 1,
                              tied=", ".join(offs[0].blocks[0])))
    return _after_group(state)


def _after_group(state: Evening) -> Evening:
    ranking = state.rankings[-1]
    state = replace(state, qualified=state.qualified + ranking[:state.config.qualify])
    if state.group + 1 < len(state.groups):
        return _start_pass(state, state.group + 1, 0)
    return replace(state, phase=EveningPhase.OVER, round=None,
                   note=M("v6.ev.over", qualified=", ".join(state.qualified)))


def _throw_off(state: Evening, value: int) -> Evening:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
        raise RuleError(M("v6.no.die", value=repr(value)))
    off = state.throw_offs[0]
    who = off.thrower
    throws = off.throws + (value,)
    block = off.blocks[0]
    if len(throws) < len(block):
        off = replace(off, throws=throws)
        return replace(state, throw_offs=(off,) + state.throw_offs[1:],
                       note=M("v6.ev.threw_next", player=who, value=value, next=off.thrower))
    ranked = sorted(zip(block, throws, strict=True), key=lambda item: -item[1])
    blocks = tuple(names for names, _, _ in _blocks(ranked)) + off.blocks[1:]
    order = off.order
    while blocks and len(blocks[0]) == 1:
        order, blocks = order + blocks[0], blocks[1:]
    note = M("v6.ev.threw", player=who, value=value)
    if blocks:
        off = ThrowOff(off.kind, off.base, blocks, order)
        return replace(state, throw_offs=(off,) + state.throw_offs[1:],
                       note=joined(note, M("v6.ev.still_tied", tied=", ".join(blocks[0]))))
    state = replace(state, throw_offs=state.throw_offs[1:])
    if off.kind == "pass":
        state = _award_pass(state, {n: max(0, off.base - i) for i, n in enumerate(order)})
    else:
        points = dict(state.points)
        for i, name in enumerate(order):
            points[name] -= i
        ranking = list(state.rankings[-1])
        start = min(ranking.index(name) for name in order)
        ranking[start:start + len(order)] = order
        state = replace(state, points=tuple(points.items()),
                        rankings=state.rankings[:-1] + (tuple(ranking),))
    state = replace(state, note=joined(note, M("v6.ev.order", order=", ".join(order))))
    if state.throw_offs:
        return state
    return _after_pass(state) if off.kind == "pass" else _after_group(state)
