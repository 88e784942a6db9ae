"""Dicetopia's endgame scoring (rulebook sections 6-8): loot, control, missions, winner.

``score_position(position)`` is pure: the same table gives the same result, with a
breakdown per player, per district and per mission card, the faction abilities used and a
sentence explaining the winner. The session the web app drives (set dice, agents, missions
one action at a time) lives in ``rules.py``; the cards in
``missions.py``.

Readings chosen where the rulebook leaves room (each one is tested):

- Control: the player(s) with the most agents (at least one) in a district control it and
  score 5 stars plus the pips of the dice left there; tied players each get that sum
  divided by their number, rounded up (section 6). A player who shares a district
  "controls" it for the first tie-break (most districts controlled) but not for
  INFILTRATION, which excludes ties.
- Winner: most stars, then most districts controlled (shared ones included), then the
  highest pip total on the faction board; players equal on all three share the win and
  the rank.
- Faction abilities at scoring time (section 7); the engine picks the best use for the
  owner (most stars for the owner, then the widest lead over the best rival, then not
  using it) and says which it picked:
  - Bingmai Gamblers: decide one tied district; the chosen player (any player in that tie)
    controls it alone and scores all of it. It then counts as won outright, also for
    INFILTRATION and SPIONAGE.
  - Centauri Bureau: holds three missions and scores the best two.
  - Dangmer Program: once, one die on Dangmer's board takes the colour or the value of one
    die on the right-hand neighbour's board (play passes clockwise, so that neighbour is
    the previous player in seating order). The changed die counts as changed for
    everything scored afterwards: loot, every player's missions, tie-breaks.
  When Bingmai and Dangmer both play, the earlier of them in seating order chooses first,
  knowing that the later one will answer with its own best choice (section 7: conflicts
  are settled in player order).
  The other seven factions (Banxa, Ewo, Hollows, Roamers, Shakra, Perceptioneers, Tuulu)
  act during play, Roamers' saved turn included ("am Spielende", before the scoring): the
  table given to the engine already shows what they did, so scoring ignores them.
- TRITTBRETTGÄNGER copies one card held by another player (any of their cards, a Centauri
  player's unscored third card included, never a TRITTBRETTGÄNGER); when no card is given
  the engine picks the best. Copying RISIKO scores that player's drawn card, doubled, with
  the copier's dice. RISIKO scores twice what the drawn card scores; a drawn card must come
  from the deck, so nobody may hold it. Without a drawn card RISIKO scores 0 and the result
  says it waits for the draw.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum

from dicecam.errors import RuleError
from dicecam.messages import Message, Text, joined
from dicecam.scorer.dicetopia.messages import MESSAGES, die_label, district_name
from dicecam.scorer.dicetopia.missions import (
    COPY_MISSION,
    DRAW_MISSION,
    MISSIONS,
    MissionKind,
    mission_name,
)
from dicecam.scorer.dicetopia.model import (
    AGENTS_PER_PLAYER,
    BOARD_FIELDS,
    CONTROL_STARS,
    DISTRICTS,
    FACTION_NAMES,
    Die,
    District,
    Faction,
    Position,
    ScoringView,
    board_pips,
    check_position,
    right_neighbour,
)

#: missions a player holds at the end; Centauri keeps a third one to choose from
MISSIONS_HELD = 2
CENTAURI_MISSIONS_HELD = 3


class CloneTrait(StrEnum):
    COLOUR = "colour"
    VALUE = "value"


@dataclass(frozen=True)
class BingmaiChoice:
    district: int  # index into DISTRICTS
    winner: int  # player index


@dataclass(frozen=True)
class DangmerChoice:
    own_die: int  # index into Dangmer's board
    source_die: int  # index into the right-hand neighbour's board
    trait: CloneTrait


@dataclass(frozen=True)
class DistrictResult:
    district: District
    agents: tuple[int, ...]
    dice_pips: int
    tied: tuple[int, ...]  # players tied for the most agents (empty without a tie)
    controllers: tuple[int, ...]  # players scoring this district
    stars_each: int
    decided_by: int | None  # the Bingmai player who settled the tie


@dataclass(frozen=True)
class MissionResult:
    mission: str
    stars: int
    counted: bool  # False for the card a Centauri player leaves out
    note: Text = ""


@dataclass(frozen=True)
class AbilityUse:
    player: int
    faction: Faction
    used: bool
    text: Message


@dataclass(frozen=True)
class PlayerResult:
    name: str
    faction: Faction | None
    board: tuple[Die, ...]  # as scored, after a Dangmer clone
    loot: int
    control: int
    missions: int
    total: int
    rank: int
    districts_controlled: int
    mission_results: tuple[MissionResult, ...]


@dataclass(frozen=True)
class ScoreResult:
    players: tuple[PlayerResult, ...]
    districts: tuple[DistrictResult, ...]
    abilities: tuple[AbilityUse, ...]
    winners: tuple[int, ...]
    explanation: Message
    waiting_for: tuple[Message, ...]  # what is missing before this is the final score

    @property
    def complete(self) -> bool:
        return not self.waiting_for


def check_missions(position: Position) -> None:
    """RuleError unless every mission, draw and copy choice is one a real table allows."""
    for player in position.players:
        limit = CENTAURI_MISSIONS_HELD if player.faction is Faction.CENTAURI_BUREAU else (
            MISSIONS_HELD
        )
        for mission in player.missions:
            _require_mission(mission, f"{player.name}'s missions")
        if len(player.missions) > limit:
            who = MESSAGES("dt.who.centauri" if limit == CENTAURI_MISSIONS_HELD
                           else "dt.who.player")
            raise RuleError(MESSAGES("dt.too_many_missions", player=player.name,
                                     n=len(player.missions), who=who, limit=limit))
        if player.risk_draw is not None:
            _require_mission(player.risk_draw, f"{player.name}'s risk draw")
            if DRAW_MISSION not in player.missions:
                raise RuleError(f"{player.name} has a risk draw but does not hold {DRAW_MISSION}")
        if player.copy is not None:
            if COPY_MISSION not in player.missions:
                raise RuleError(f"{player.name} copies a card but does not hold {COPY_MISSION}")
            target_name, mission = player.copy
            target = position.index_of(target_name)
            if position.players[target].name == player.name:
                raise RuleError(f"{player.name} must copy another player's card, not their own")
            if mission == COPY_MISSION or mission not in position.players[target].missions:
                raise RuleError(
                    f"{player.name} can copy only a card {target_name} holds other than "
                    f"{COPY_MISSION}; {target_name} holds "
                    f"{', '.join(position.players[target].missions) or 'none'}"
                )


def _require_mission(mission: str, where: str) -> None:
    if mission not in MISSIONS:
        raise RuleError(
            f"{where}: unknown mission {mission!r}; `dicecam missions dicetopia` lists the ids"
        )


def score_position(position: Position) -> ScoreResult:
    """Score the table as section 6 does; RuleError if the position cannot exist."""
    check_position(position)
    check_missions(position)
    owners = _ability_owners(position)
    choices = _best_choices(position, owners, 0, {})
    return _finish(position, choices)


# --- one evaluation of the table under given ability choices ---------------------------


@dataclass(frozen=True)
class _Outcome:
    view: ScoringView
    districts: tuple[DistrictResult, ...]
    missions: tuple[tuple[MissionResult, ...], ...]
    loot: tuple[int, ...]
    control: tuple[int, ...]
    totals: tuple[int, ...]


def _evaluate(position: Position, choices: dict[int, object]) -> _Outcome:
    n = len(position.players)
    boards = list(position.boards)
    bingmai: tuple[int, BingmaiChoice] | None = None
    for owner, choice in choices.items():
        if isinstance(choice, DangmerChoice):
            boards[owner] = _cloned(position, owner, choice)
        elif isinstance(choice, BingmaiChoice):
            bingmai = (owner, choice)
    districts = tuple(
        _control(d, position.district_dice[d], position.agents[d], bingmai)
        for d in range(len(DISTRICTS))
    )
    view = ScoringView(
        boards=tuple(boards),
        district_dice=position.district_dice,
        agents=position.agents,
        controllers=tuple(frozenset(r.controllers) for r in districts),
    )
    loot = tuple(board_pips(b) for b in boards)
    control = tuple(
        sum(r.stars_each for r in districts if p in r.controllers) for p in range(n)
    )
    missions = tuple(_player_missions(position, view, p) for p in range(n))
    totals = tuple(
        loot[p] + control[p] + sum(m.stars for m in missions[p] if m.counted) for p in range(n)
    )
    return _Outcome(view, districts, missions, loot, control, totals)


def _cloned(position: Position, owner: int, choice: DangmerChoice) -> tuple[Die, ...]:
    board = list(position.boards[owner])
    source = position.boards[right_neighbour(owner, len(position.players))][choice.source_die]
    die = board[choice.own_die]
    if choice.trait is CloneTrait.COLOUR:
        board[choice.own_die] = replace(die, colour=source.colour)
    else:
        board[choice.own_die] = replace(die, value=source.value)
    return tuple(board)


def _control(
    d: int, dice: tuple[Die, ...], agents: tuple[int, ...],
    bingmai: tuple[int, BingmaiChoice] | None,
) -> DistrictResult:
    most = max(agents)
    leaders = tuple(p for p, a in enumerate(agents) if a == most) if most > 0 else ()
    tied = leaders if len(leaders) > 1 else ()
    controllers = leaders
    decided_by = None
    if bingmai is not None and bingmai[1].district == d and bingmai[1].winner in tied:
        controllers = (bingmai[1].winner,)
        decided_by = bingmai[0]
    pips = board_pips(dice)
    stars = -(-(CONTROL_STARS + pips) // len(controllers)) if controllers else 0
    return DistrictResult(DISTRICTS[d], agents, pips, tied, controllers, stars, decided_by)


def _player_missions(
    position: Position, view: ScoringView, me: int
) -> tuple[MissionResult, ...]:
    player = position.players[me]
    results = [_card(position, view, me, m) for m in player.missions]
    if player.faction is Faction.CENTAURI_BUREAU and len(results) > MISSIONS_HELD:
        # keep the best two; on equal stars keep the earlier card
        ranked = sorted(range(len(results)), key=lambda i: (-results[i].stars, i))
        keep = set(ranked[:MISSIONS_HELD])
        results = [
            r if i in keep else replace(r, counted=False,
                                        note=joined(r.note, MESSAGES("dt.note.left_out")))
            for i, r in enumerate(results)
        ]
    return tuple(results)


def _card(position: Position, view: ScoringView, me: int, mission: str) -> MissionResult:
    card = MISSIONS[mission]
    if card.kind is MissionKind.PLAIN:
        assert card.score is not None
        return MissionResult(mission, card.score(view, me), True)
    if card.kind is MissionKind.COPY:
        return _copy(position, view, me, position.players[me].copy)
    return _draw(position, view, me, position.players[me].risk_draw, doubled_for=mission)


def _copy(
    position: Position, view: ScoringView, me: int, chosen: tuple[str, str] | None
) -> MissionResult:
    if chosen is not None:
        targets = [chosen]
    else:
        targets = [
            (other.name, m)
            for other in position.players
            if other.name != position.players[me].name
            for m in other.missions
            if m != COPY_MISSION
        ]
    best: MissionResult | None = None
    for owner_name, mission in targets:
        owner = position.index_of(owner_name)
        if MISSIONS[mission].kind is MissionKind.DRAW:
            inner = _draw(position, view, me, position.players[owner].risk_draw, mission)
        else:
            inner = _card(position, view, me, mission)
        how = MESSAGES("dt.note.chosen" if chosen is not None else "dt.note.best_pick")
        result = MissionResult(
            COPY_MISSION, inner.stars, True,
            joined(MESSAGES("dt.note.copies", owner=owner_name, mission=mission_name(mission),
                            how=how), inner.note),
        )
        if best is None or result.stars > best.stars:
            best = result
    if best is None:
        return MissionResult(COPY_MISSION, 0, True, MESSAGES("dt.note.nothing_to_copy"))
    return best


def _draw(
    position: Position, view: ScoringView, me: int, drawn: str | None, doubled_for: str
) -> MissionResult:
    if drawn is None:
        return MissionResult(DRAW_MISSION, 0, True, MESSAGES("dt.note.waiting_draw"))
    if MISSIONS[drawn].kind is MissionKind.COPY:
        inner = _copy(position, view, me, None)
    else:
        inner = _card(position, view, me, drawn)
    note = joined(MESSAGES("dt.note.drew", mission=mission_name(drawn), stars=inner.stars),
                  inner.note)
    return MissionResult(doubled_for, 2 * inner.stars, True, note)


def _die(die: Die) -> Message:
    return die_label(die.colour.value, die.value)


# --- picking the abilities' uses ----------------------------------------------------------


def _ability_owners(position: Position) -> list[int]:
    return [
        p for p, player in enumerate(position.players)
        if player.faction in (Faction.BINGMAI_GAMBLERS, Faction.DANGMER_PROGRAM)
    ]


def _options(position: Position, owner: int) -> list[object | None]:
    options: list[object | None] = [None]
    faction = position.players[owner].faction
    if faction is Faction.BINGMAI_GAMBLERS:
        for d, agents in enumerate(position.agents):
            most = max(agents)
            tied = [p for p, a in enumerate(agents) if a == most and most > 0]
            if len(tied) > 1:
                options += [BingmaiChoice(d, w) for w in tied]
    elif faction is Faction.DANGMER_PROGRAM:
        own = position.boards[owner]
        source = position.boards[right_neighbour(owner, len(position.players))]
        seen: set[tuple[int, Die]] = set()
        for i, die in enumerate(own):
            for j, other in enumerate(source):
                for trait, new in (
                    (CloneTrait.COLOUR, replace(die, colour=other.colour)),
                    (CloneTrait.VALUE, replace(die, value=other.value)),
                ):
                    if new != die and (i, new) not in seen:
                        seen.add((i, new))
                        options.append(DangmerChoice(i, j, trait))
    return options


def _best_choices(
    position: Position, owners: list[int], k: int, fixed: dict[int, object]
) -> dict[int, object]:
    """Backward induction over the abilities that change the table, in seating order."""
    if k == len(owners):
        return fixed
    owner = owners[k]
    best: dict[int, object] | None = None
    best_key: tuple[int, int] | None = None
    for option in _options(position, owner):
        trial = dict(fixed)
        if option is not None:
            trial[owner] = option
        answer = _best_choices(position, owners, k + 1, trial)
        totals = _evaluate(position, answer).totals
        rivals = [t for p, t in enumerate(totals) if p != owner]
        key = (totals[owner], totals[owner] - max(rivals))
        if best_key is None or key > best_key:
            best, best_key = answer, key
    assert best is not None
    return best


# --- the final result ---------------------------------------------------------------------


def _finish(position: Position, choices: dict[int, object]) -> ScoreResult:
    outcome = _evaluate(position, choices)
    n = len(position.players)
    controlled = tuple(
        sum(1 for r in outcome.districts if p in r.controllers) for p in range(n)
    )
    keys = [(outcome.totals[p], controlled[p], outcome.loot[p]) for p in range(n)]
    ranks = [1 + sum(1 for q in range(n) if keys[q] > keys[p]) for p in range(n)]
    winners = tuple(p for p in range(n) if ranks[p] == 1)
    players = tuple(
        PlayerResult(
            name=player.name,
            faction=player.faction,
            board=outcome.view.boards[p],
            loot=outcome.loot[p],
            control=outcome.control[p],
            missions=outcome.totals[p] - outcome.loot[p] - outcome.control[p],
            total=outcome.totals[p],
            rank=ranks[p],
            districts_controlled=controlled[p],
            mission_results=outcome.missions[p],
        )
        for p, player in enumerate(position.players)
    )
    return ScoreResult(
        players=players,
        districts=outcome.districts,
        abilities=tuple(_ability_uses(position, choices, outcome)),
        winners=winners,
        explanation=_explain(players, winners),
        waiting_for=tuple(_waiting_for(position)),
    )


def _ability_uses(
    position: Position, choices: dict[int, object], outcome: _Outcome
) -> Iterable[AbilityUse]:
    for p, player in enumerate(position.players):
        faction = player.faction
        name = player.name
        if faction is Faction.BINGMAI_GAMBLERS:
            choice = choices.get(p)
            if isinstance(choice, BingmaiChoice):
                district = district_name(DISTRICTS[choice.district].value)
                winner = position.players[choice.winner].name
                yield AbilityUse(p, faction, True, MESSAGES(
                    "dt.ab.bingmai", player=name, district=district, winner=winner))
            else:
                yield AbilityUse(p, faction, False, MESSAGES("dt.ab.bingmai_none", player=name))
        elif faction is Faction.DANGMER_PROGRAM:
            choice = choices.get(p)
            source_player = position.players[right_neighbour(p, len(position.players))].name
            if isinstance(choice, DangmerChoice):
                before = position.boards[p][choice.own_die]
                after = outcome.view.boards[p][choice.own_die]
                source = position.boards[right_neighbour(p, len(position.players))]
                yield AbilityUse(p, faction, True, MESSAGES(
                    "dt.ab.dangmer", player=name, trait=MESSAGES(f"dt.trait.{choice.trait.value}"),
                    source=source_player, die=_die(source[choice.source_die]),
                    before=_die(before), after=_die(after)))
            else:
                yield AbilityUse(p, faction, False, MESSAGES(
                    "dt.ab.dangmer_none", player=name, source=source_player))
        elif faction is Faction.CENTAURI_BUREAU:
            dropped = [m.mission for m in outcome.missions[p] if not m.counted]
            if dropped:
                kept = [m.mission for m in outcome.missions[p] if m.counted]
                yield AbilityUse(p, faction, True, MESSAGES(
                    "dt.ab.centauri", player=name, kept=tuple(mission_name(m) for m in kept),
                    dropped=mission_name(dropped[0])))
            else:
                yield AbilityUse(p, faction, False, MESSAGES("dt.ab.centauri_all", player=name))


def _explain(players: tuple[PlayerResult, ...], winners: tuple[int, ...]) -> Message:
    top = max(p.total for p in players)
    first = [p for p in players if p.total == top]
    names = tuple(players[w].name for w in winners)
    if len(first) == 1:
        return MESSAGES("dt.wins", player=first[0].name, stars=top)
    tied = tuple(p.name for p in first)
    most = max(p.districts_controlled for p in first)
    second = [p for p in first if p.districts_controlled == most]
    if len(second) == 1:
        counts = ", ".join(f"{p.name} {p.districts_controlled}" for p in first)
        return MESSAGES("dt.tie_districts", tied=tied, stars=top, winner=names, counts=counts)
    loot = ", ".join(f"{p.name} {p.loot}" for p in second)
    if len(winners) == 1:
        return MESSAGES("dt.tie_loot", tied=tied, stars=top, districts=most, winner=names,
                        loot=loot)
    return MESSAGES("dt.shared_win", tied=tied, stars=top, districts=most, winner=names,
                    loot=loot)


def _waiting_for(position: Position) -> Iterable[Message]:
    for p, player in enumerate(position.players):
        board = position.boards[p]
        if len(board) < BOARD_FIELDS:
            yield MESSAGES("dt.wait_board", player=player.name, n=len(board), of=BOARD_FIELDS)
        placed = sum(agents[p] for agents in position.agents)
        if placed < AGENTS_PER_PLAYER:
            yield MESSAGES("dt.wait_agents", player=player.name, n=placed,
                           of=AGENTS_PER_PLAYER)
        need = CENTAURI_MISSIONS_HELD if player.faction is Faction.CENTAURI_BUREAU else (
            MISSIONS_HELD
        )
        if len(player.missions) < need:
            yield MESSAGES("dt.wait_missions", player=player.name, n=len(player.missions),
                           of=need)
        if DRAW_MISSION in player.missions and player.risk_draw is None:
            yield MESSAGES("dt.wait_risk_draw", player=player.name,
                           mission=MISSIONS[DRAW_MISSION].name)


def faction_name(faction: Faction | None) -> str:
    return FACTION_NAMES[faction] if faction is not None else ""

