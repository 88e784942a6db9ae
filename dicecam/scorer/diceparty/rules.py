"""Dice Party: the game engine the live view drives turn by turn.

The rulebook (*Dice Party*, English and German editions) is the spec.
``new_game(config)`` starts the parties (2 Party People and 2 VIPs each); ``apply(state,
action)`` returns the next state or raises ``RuleError`` with a sentence. The dice values
of every throw are inputs. ``legal_actions(state)`` says what the tablet may offer now.

Flow of one round: ``PrepartyThrow`` (everyone throws; the highest total starts, a tie for
the highest means everyone throws again), then for each turn ``Throw`` (steps 1-3: the
engine checks escalation and millionaire itself), ``Pickpocket`` (step 4), ``Provoke``
(step 5) and ``Grow`` (step 6). Steps 4-6 are separate actions where the player has a choice; a step
with one possible outcome is taken by itself within the action that reached it, and said
in ``events`` (no Party People at level 6: nothing to steal; no VIP at level 4 or higher:
nobody to provoke; both growth options leave the party as it is: it does not grow), so the
tablet asks only where the rulebook gives a choice. Such a step's action may still come
(a journal stored before steps were taken by themselves, a tablet that had not heard yet):
until the game's next own action, the step's one choice (count 0; either growth option) is
taken as said already and changes nothing (``State.steps_taken``).

Every player's 60 dice are tracked: party + stock + the wallet counter die (a yellow die
taken from the stock at the first theft) always make 20 per colour.

Readings chosen where the rulebook leaves room (each is tested):

- Preparty: only a tie for the *highest* total means a re-throw ("a tie" in the text);
  everyone throws again, as both texts say, not just the tied players. The parties may be
  thrown together or one after another (a table without zones throws them in turn, so the
  camera can tell them apart): each ``PrepartyThrow`` gives some parties' throws, and the
  start player is found once every party in the round has thrown.
- Growth: the English text "sums up his Party Peoples' and VIPs levels" could read as one
  sum; the German text counts the Party People's points and then, separately, the VIPs'
  points, and option a) names Party People points, b) VIP points. We follow the German.
- Growth Mobs come from the guests actually added (FAQ 3), and a missing Mob takes a VIP
  off the party (new VIPs included, since the party grew first), else a Party People.
- Provoking: the issue asks for the FAQ's Mob shortfall rule when an opponent's stock runs
  out of Mobs (the rulebook is silent there); when the party has no guest left to remove,
  the missing Mobs are simply not added (reported as ``unfilled``).
- Pickpocketing 6 or more wallets in total wins at once (steps 5-6 are skipped); the
  counter die shows at most 6. A millionaire wins at once (steps 4-6 are skipped).
- Escalation (step 2) is checked before the millionaire (step 3): an escalated party loses
  even with five VIPs on one level.
- Escalated players are out of the round: they get no Mobs and take no turns. The round
  is won when one party is left ("All other Partys are escalated").
- An empty party (FAQ 5) still takes its turn, which is a throw of no dice and ends at
  once. If every party left in the round is empty nobody can ever act again; the round
  then ends without a winner (``Outcome.STALLED``) instead of looping forever.
- Party Animal (``party_animal=True``): rounds follow each other (``NextRound``) until a
  player has won by all three conditions, or every other player is out by a third
  escalation ("A player may also win if all opponents lose by triple Escalation"). A
  second millionaire for a player who already won by millionaire cancels the rest of the
  turn (steps 4-6) and wins nothing. Without the variant the game is one round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from dicecam.errors import InputError, RuleError
from dicecam.messages import Message
from dicecam.scorer.diceparty.messages import MESSAGES, kind_name
from dicecam.scorer.diceparty.verdict import (
    DICE_PER_COLOUR,
    KINDS,
    Counts,
    Die,
    Escalation,
    GrowthOption,
    GrowthOutcome,
    Kind,
    Millionaire,
    MobArrival,
    escalation,
    growth_outcomes,
    millionaire,
    mob_arrival,
    pickpocketable,
    provokable,
    provoke_mobs,
    provoked_dice,
    without,
)

MIN_PLAYERS = 2
#: Not a rulebook limit: a table (and a tablet screen) with more parties is impractical.
MAX_PLAYERS = 8
START_PARTY = Counts(party_people=2, vip=2, mob=0)
#: "A player has pickpocketed 6 wallets from his guests."
WALLETS_TO_WIN = 6
#: The counter die is a d6.
COUNTER_DIE_MAX = 6
#: Party Animal: "A player whose Party escalates for the third time" is out.
ESCALATIONS_OUT = 3
MAX_NAME_LENGTH = 40


class Phase(StrEnum):
    PREPARTY = "preparty"
    THROW = "throw"
    PICKPOCKET = "pickpocket"
    PROVOKE = "provoke"
    GROW = "grow"
    ROUND_OVER = "round_over"
    GAME_OVER = "game_over"


class Victory(StrEnum):
    """The three victory conditions (rulebook back page)."""

    ESCALATION = "escalation"
    MILLIONAIRE = "millionaire"
    WALLETS = "wallets"


class Outcome(StrEnum):
    """How a round or the full game ended."""

    ESCALATION = "escalation"
    MILLIONAIRE = "millionaire"
    WALLETS = "wallets"
    STALLED = "stalled"
    CROWNED = "crowned"
    LAST_STANDING = "last_standing"


@dataclass(frozen=True)
class Config:
    players: tuple[str, ...]
    party_animal: bool = False

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= len(self.players) <= MAX_PLAYERS:
            raise InputError(f"Dice Party needs {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                             f"got {len(self.players)}")
        for name in self.players:
            if not name.strip() or len(name) > MAX_NAME_LENGTH:
                raise InputError(f"player names must be 1 to {MAX_NAME_LENGTH} characters, "
                                 f"got {name!r}")
        if len(set(self.players)) != len(self.players):
            raise InputError("player names must differ, so every party can be told apart")


@dataclass(frozen=True)
class Player:
    """One host: this round's party and stock, and the full game's record."""

    name: str
    party: Counts
    stock: Counts
    wallets: int = 0
    in_round: bool = True
    escalations: int = 0
    wins: tuple[Victory, ...] = ()

    @property
    def counter_die(self) -> int | None:
        """The value the wallet counter die shows, or None before the first theft."""
        return min(self.wallets, COUNTER_DIE_MAX) if self.wallets else None

    @property
    def out(self) -> bool:
        """Party Animal: out of the following rounds after the third escalation (asked only
        in Party Animal mode; a single round counts escalations for the record only)."""
        return self.escalations >= ESCALATIONS_OUT

    @property
    def crowned(self) -> bool:
        return all(v in self.wins for v in Victory)

    def set_total(self) -> Counts:
        """Party + stock + counter die: 20 of each colour when everything is in order."""
        counter = Counts(party_people=1) if self.wallets else Counts()
        return self.party.add(self.stock).add(counter)


@dataclass(frozen=True)
class PrepartyResult:
    totals: tuple[tuple[str, int], ...]
    tied: tuple[str, ...]


@dataclass(frozen=True)
class Delivery:
    """Mobs that a provoke sent to one opponent."""

    player: str
    arrival: MobArrival


@dataclass(frozen=True)
class Turn:
    """The active player's turn so far: the dice as they lie now, and what happened."""

    player: int
    thrown: tuple[Die, ...]
    dice: tuple[Die, ...]
    escalation: Escalation
    millionaire: Millionaire
    stolen: int = 0
    provoked: tuple[Die, ...] = ()
    deliveries: tuple[Delivery, ...] = ()
    growth: GrowthOutcome | None = None
    cancelled: bool = False


@dataclass(frozen=True)
class State:
    config: Config
    players: tuple[Player, ...]
    phase: Phase
    round: int = 1
    active: int | None = None
    turn: Turn | None = None
    last_turn: Turn | None = None
    preparty: PrepartyResult | None = None
    #: the preparty throws made so far, while some parties have not thrown yet
    preparty_thrown: tuple[tuple[str, tuple[Die, ...]], ...] = ()
    round_winner: int | None = None
    round_outcome: Outcome | None = None
    champion: int | None = None
    game_outcome: Outcome | None = None
    events: tuple[Message, ...] = field(default=())  # what the last action did, to show
    #: the steps the last action took by itself, in order ("pickpocket", "provoke",
    #: "grow"): their one choice sent after all is taken as said already
    steps_taken: tuple[str, ...] = ()


# --- actions ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PrepartyThrow:
    """Parties of the round throw their starting party: (name, dice) pairs, all at once or
    some now and the rest in later throws."""

    throws: tuple[tuple[str, tuple[Die, ...]], ...]


@dataclass(frozen=True)
class Throw:
    """Step 1: the active player's whole party, thrown (no dice for an empty party)."""

    dice: tuple[Die, ...]


@dataclass(frozen=True)
class Pickpocket:
    """Step 4: steal from this many level-6 Party People (0 steals nothing)."""

    count: int


@dataclass(frozen=True)
class Provoke:
    """Step 5: provoke this many VIPs (highest first); Mobs go to ``order`` n, n-1, ..."""

    count: int
    order: tuple[str, ...] = ()


@dataclass(frozen=True)
class Grow:
    """Step 6: option a) VIPs or b) Party People."""

    option: GrowthOption


@dataclass(frozen=True)
class NextRound:
    """Party Animal: start the next round after one ended."""


Action = PrepartyThrow | Throw | Pickpocket | Provoke | Grow | NextRound


# --- the game -----------------------------------------------------------------------------


def new_game(config: Config) -> State:
    players = tuple(_fresh_player(name) for name in config.players)
    return State(config, players, Phase.PREPARTY,
                 events=(MESSAGES("dp.ev.start"),))


def _fresh_player(name: str, escalations: int = 0, wins: tuple[Victory, ...] = ()) -> Player:
    stock = Counts(*(DICE_PER_COLOUR - START_PARTY[k] for k in KINDS))
    return Player(name, START_PARTY, stock, escalations=escalations, wins=wins)


def apply(state: State, action: Action) -> State:
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise InputError(f"unknown Dice Party action {action!r}")
    expected = _PHASE_OF[type(action)]
    if state.phase not in expected:
        if _says_a_step_taken(state, action):
            return replace(state, steps_taken=state.steps_taken[1:])
        raise RuleError(MESSAGES("dp.not_now", action=_action_name(action),
                                 waiting=waiting_for(state)))
    return _take_steps_by_themselves(handler(replace(state, steps_taken=()), action))


def _says_a_step_taken(state: State, action: Action) -> bool:
    """Whether ``action`` is the one choice of the next step the last action took by
    itself (a count of 0; either growth option, both coming to the same)."""
    if not state.steps_taken:
        return False
    step = state.steps_taken[0]
    if isinstance(action, Pickpocket | Provoke):
        return step == ("pickpocket" if isinstance(action, Pickpocket) else "provoke") and (
            action.count == 0) and not getattr(action, "order", ())
    return isinstance(action, Grow) and step == "grow"


def only_outcome(state: State) -> Action | None:
    """The action of the step the game waits for when that step has one possible outcome
    (nothing to steal, nobody to provoke, both growth options alike), else None: the
    player chooses."""
    turn = state.turn
    if turn is None or state.active is None:
        return None
    if state.phase is Phase.PICKPOCKET and pickpocketable(turn.dice) == 0:
        return Pickpocket(0)
    if state.phase is Phase.PROVOKE and provokable(turn.dice) == 0:
        return Provoke(0)
    if state.phase is Phase.GROW:
        player = state.players[state.active]
        results = {o.apply(player.party, player.stock) for o in growth_options(state).values()}
        if len(results) == 1:
            return Grow(GrowthOption.VIP)
    return None


def _take_steps_by_themselves(state: State) -> State:
    """Take every step from here on that has one possible outcome, each said after what
    the action itself did."""
    events, taken = list(state.events), []
    while (action := only_outcome(state)) is not None:
        assert state.active is not None
        name = state.players[state.active].name
        if isinstance(action, Pickpocket):
            state = replace(_pickpocket(state, action),
                            events=(MESSAGES("dp.ev.no_wallets", player=name),))
            taken.append("pickpocket")
        elif isinstance(action, Provoke):
            state = replace(_provoke(state, action),
                            events=(MESSAGES("dp.ev.nobody_to_provoke", player=name),))
            taken.append("provoke")
        else:
            assert isinstance(action, Grow)
            options = growth_options(state)
            state = _grow(state, action, MESSAGES(
                "dp.ev.no_growth", player=name,
                pp=options[GrowthOption.VIP].points, vip=options[GrowthOption.PARTY_PEOPLE].points))
            taken.append("grow")
        events.extend(state.events)
    return replace(state, events=tuple(events), steps_taken=tuple(taken))


def waiting_for(state: State) -> Message:
    """One sentence: what the game waits for."""
    name = state.players[state.active].name if state.active is not None else ""
    if state.phase is Phase.PREPARTY:
        return (MESSAGES("dp.wait.preparty_next", player=preparty_next(state))
                if state.preparty_thrown else MESSAGES("dp.wait.preparty_all"))
    if state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
        return MESSAGES(f"dp.wait.{state.phase.value}")
    return MESSAGES(f"dp.wait.{state.phase.value}", player=name)


def preparty_waiting(state: State) -> list[str]:
    """The parties of the round that have not thrown their preparty yet, in seat order."""
    thrown = {name for name, _ in state.preparty_thrown}
    return [state.players[i].name for i in in_round(state)
            if state.players[i].name not in thrown]


def preparty_next(state: State) -> str:
    """Whose preparty throw comes next (the first party in seat order still to throw)."""
    waiting = preparty_waiting(state)
    return waiting[0] if waiting else ""


def in_round(state: State) -> list[int]:
    return [i for i, p in enumerate(state.players) if p.in_round]


def opponents(state: State) -> list[str]:
    """The parties the active player may send Mobs to (still in the round)."""
    return [state.players[i].name for i in in_round(state) if i != state.active]


@dataclass(frozen=True)
class Legal:
    """One kind of action offered now, with the range of its choices."""

    type: str
    min: int = 0
    max: int = 0
    options: tuple[str, ...] = ()


def legal_actions(state: State) -> tuple[Legal, ...]:
    if state.phase == Phase.PREPARTY:
        return (Legal("preparty", options=tuple(preparty_waiting(state))),)
    if state.phase == Phase.THROW:
        return (Legal("throw"),)
    turn = state.turn
    assert turn is not None or state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER)
    if state.phase == Phase.PICKPOCKET:
        return (Legal("pickpocket", max=pickpocketable(turn.dice)),)
    if state.phase == Phase.PROVOKE:
        return (Legal("provoke", max=provokable(turn.dice), options=tuple(opponents(state))),)
    if state.phase == Phase.GROW:
        return (Legal("grow", options=tuple(o.value for o in GrowthOption)),)
    if state.phase == Phase.ROUND_OVER:
        return (Legal("next_round"),)
    return ()


def _action_name(action: Action) -> Message:
    return MESSAGES({PrepartyThrow: "dp.action.preparty", Throw: "dp.action.throw",
                     Pickpocket: "dp.action.pickpocket", Provoke: "dp.action.provoke",
                     Grow: "dp.action.grow", NextRound: "dp.action.next_round"}[type(action)])


def _set_player(state: State, index: int, player: Player) -> tuple[Player, ...]:
    players = list(state.players)
    players[index] = player
    return tuple(players)


def _check_party_dice(player: Player, dice: Sequence[Die]) -> None:
    got = Counts.of(dice)
    if got != player.party:
        def counted(counts: Counts) -> tuple[Message, ...]:
            return tuple(MESSAGES("dp.count_kind", n=counts[k], kind=kind_name(k.value))
                         for k in KINDS)

        raise RuleError(MESSAGES("dp.party_mismatch", player=player.name,
                                 have=counted(player.party), seen=counted(got)))


def _preparty(state: State, action: PrepartyThrow) -> State:
    names = [state.players[i].name for i in in_round(state)]
    waiting = preparty_waiting(state)
    given = [name for name, _ in action.throws]
    if not given or len(set(given)) != len(given) or not set(given) <= set(waiting):
        raise RuleError(f"the preparty needs one throw from each of {', '.join(names)}"
                        + (f" (still to throw: {', '.join(waiting)})" if state.preparty_thrown
                           else "")
                        + f"; got throws from {', '.join(given) or 'nobody'}")
    index = {p.name: i for i, p in enumerate(state.players)}
    for name, dice in action.throws:
        _check_party_dice(state.players[index[name]], dice)
    thrown = state.preparty_thrown + action.throws
    if len(thrown) < len(names):
        rest = [n for n in waiting if n not in given]
        return replace(state, preparty_thrown=thrown,
                       events=(MESSAGES("dp.ev.preparty_some", given=tuple(given),
                                        rest=tuple(rest)),))
    state = replace(state, preparty_thrown=())
    totals = [(name, sum(d.pips for d in dice)) for name, dice in thrown]
    totals.sort(key=lambda item: index[item[0]])
    best = max(total for _, total in totals)
    top = tuple(name for name, total in totals if total == best)
    if len(top) > 1:
        return replace(state, preparty=PrepartyResult(tuple(totals), top),
                       events=(MESSAGES("dp.ev.preparty_tie", tied=top, total=best),))
    starter = index[top[0]]
    return replace(state, phase=Phase.THROW, active=starter,
                   preparty=PrepartyResult(tuple(totals), ()),
                   events=(MESSAGES("dp.ev.preparty_start", player=top[0], total=best),))


def _throw(state: State, action: Throw) -> State:
    assert state.active is not None
    player = state.players[state.active]
    _check_party_dice(player, action.dice)
    verdict = escalation(action.dice)
    rich = millionaire(action.dice)
    turn = Turn(state.active, action.dice, action.dice, verdict, rich)
    state = replace(state, turn=turn)
    if not action.dice:
        return _end_turn(state, (MESSAGES("dp.ev.empty_party", player=player.name),))
    if verdict.escalated:
        return _escalate(state, verdict)
    if rich.arrived:
        reason = rich.reasons
        if state.config.party_animal and Victory.MILLIONAIRE in player.wins:
            turn = replace(turn, cancelled=True)
            return _end_turn(replace(state, turn=turn), (
                MESSAGES("dp.ev.millionaire_again", reason=reason, player=player.name),))
        return _win_round(state, state.active, Victory.MILLIONAIRE,
                          (MESSAGES("dp.ev.millionaire", player=player.name, reason=reason),))
    return replace(state, phase=Phase.PICKPOCKET, events=(verdict.explanation(),))


def _escalate(state: State, verdict: Escalation) -> State:
    assert state.active is not None
    loser = state.players[state.active]
    # counted in every game (the tablet's table shows it); only Party Animal puts a player
    # out after the third
    loser = replace(loser, in_round=False, escalations=loser.escalations + 1)
    players = _set_player(state, state.active, loser)
    events = [MESSAGES("dp.ev.escalates", player=loser.name), verdict.explanation()]
    if state.config.party_animal and loser.out:
        events.append(MESSAGES("dp.ev.third_escalation", player=loser.name))
    state = replace(state, players=players)
    left = in_round(state)
    if len(left) == 1:
        winner = state.players[left[0]]
        return _win_round(state, left[0], Victory.ESCALATION,
                          (*events, MESSAGES("dp.ev.last_party", player=winner.name)))
    return _end_turn(state, tuple(events))


def _pickpocket(state: State, action: Pickpocket) -> State:
    assert state.turn is not None and state.active is not None
    turn = state.turn
    allowed = pickpocketable(turn.dice)
    if not 0 <= action.count <= allowed:
        raise RuleError(f"you may steal from 0 to {allowed} wallets now (Party People at "
                        f"level 6), not {action.count}")
    player = state.players[state.active]
    if action.count == 0:
        return replace(state, phase=Phase.PROVOKE,
                       events=(MESSAGES("dp.ev.steals_nothing", player=player.name),))
    stolen = (Die(Kind.PARTY_PEOPLE, 6),) * action.count
    party = player.party.plus(Kind.PARTY_PEOPLE, -action.count)
    stock = player.stock.plus(Kind.PARTY_PEOPLE, action.count)
    if player.wallets == 0:
        # The first theft turns a yellow die from the stock into the counter die.
        stock = stock.plus(Kind.PARTY_PEOPLE, -1)
    player = replace(player, party=party, stock=stock, wallets=player.wallets + action.count)
    turn = replace(turn, dice=without(turn.dice, stolen), stolen=action.count)
    state = replace(state, players=_set_player(state, state.active, player), turn=turn)
    event = MESSAGES("dp.ev.steals", player=player.name, n=action.count,
                     counter=player.counter_die or 0)
    if player.wallets >= WALLETS_TO_WIN:
        return _win_round(state, state.active, Victory.WALLETS, (
            event, MESSAGES("dp.ev.wallets", player=player.name, n=WALLETS_TO_WIN)))
    return replace(state, phase=Phase.PROVOKE, events=(event,))


def _provoke(state: State, action: Provoke) -> State:
    assert state.turn is not None and state.active is not None
    turn = state.turn
    allowed = provokable(turn.dice)
    if not 0 <= action.count <= allowed:
        raise RuleError(f"you may provoke 0 to {allowed} VIPs now (VIPs at level 4 or "
                        f"higher), not {action.count}")
    player = state.players[state.active]
    if action.count == 0:
        if action.order:
            raise RuleError("an order of opponents only matters when VIPs are provoked")
        return replace(state, phase=Phase.GROW, turn=turn,
                       events=(MESSAGES("dp.ev.provokes_nobody", player=player.name),))
    rivals = opponents(state)
    mobs = provoke_mobs(action.count, len(rivals))
    order = list(action.order)
    unknown = [name for name in order if name not in rivals]
    if unknown or len(set(order)) != len(order) or len(order) < len(mobs):
        raise RuleError(f"name the order of the opponents that get Mobs: {len(mobs)} "
                        f"different name(s) from {', '.join(rivals)}; got "
                        f"{', '.join(order) or 'none'}")
    provoked = provoked_dice(turn.dice, action.count)
    player = replace(player, party=player.party.plus(Kind.VIP, -action.count),
                     stock=player.stock.plus(Kind.VIP, action.count))
    players = list(_set_player(state, state.active, player))
    index = {p.name: i for i, p in enumerate(players)}
    deliveries = []
    events = [MESSAGES("dp.ev.provokes", player=player.name,
                       dice=", ".join(str(d) for d in provoked))]
    for name, due in zip(order, mobs, strict=False):
        target = players[index[name]]
        arrival = mob_arrival(target.party, target.stock, due)
        party, stock = arrival.apply(target.party, target.stock)
        players[index[name]] = replace(target, party=party, stock=stock)
        deliveries.append(Delivery(name, arrival))
        events.append(_arrival_text(name, arrival))
    turn = replace(turn, dice=without(turn.dice, provoked), provoked=provoked,
                   deliveries=tuple(deliveries))
    return replace(state, players=tuple(players), phase=Phase.GROW, turn=turn,
                   events=tuple(events))


def _arrival_text(name: str, arrival: MobArrival) -> Message:
    return MESSAGES("dp.ev.gets", player=name, mobs=_mobs_text(arrival))


def _mobs_text(arrival: MobArrival) -> Message:
    if arrival.added >= arrival.due:
        return MESSAGES("dp.mobs", n=arrival.added)
    gone = tuple(MESSAGES("dp.count_kind", n=arrival.removed[k], kind=kind_name(k.value))
                 for k in (Kind.VIP, Kind.PARTY_PEOPLE) if arrival.removed[k])
    if not gone:
        return MESSAGES("dp.mobs_short", n=arrival.added, due=arrival.due)
    return MESSAGES("dp.mobs_short_leave", n=arrival.added, due=arrival.due, gone=gone)


def growth_options(state: State) -> dict[GrowthOption, GrowthOutcome]:
    """Both growth options, worked out before the player chooses (step 6)."""
    assert state.turn is not None and state.active is not None
    return growth_outcomes(state.turn.dice, state.players[state.active].stock)


def _grow(state: State, action: Grow, said: Message | None = None) -> State:
    """Step 6 by ``action``'s option; ``said`` (a growth taken by itself) words it."""
    assert state.turn is not None and state.active is not None
    outcome = growth_options(state)[action.option]
    player = state.players[state.active]
    party, stock = outcome.apply(player.party, player.stock)
    player = replace(player, party=party, stock=stock)
    turn = replace(state.turn, growth=outcome)
    state = replace(state, players=_set_player(state, state.active, player), turn=turn)
    source = Kind.VIP if outcome.option == GrowthOption.PARTY_PEOPLE else Kind.PARTY_PEOPLE
    short = (MESSAGES("dp.grow_short", n=outcome.due_guests - outcome.new_guests)
             if outcome.new_guests < outcome.due_guests else "")
    mobs = MESSAGES("dp.grow_mobs", mobs=_mobs_text(outcome.mobs)) if outcome.mobs.due else ""
    if said is not None:
        return _end_turn(state, (said,))
    return _end_turn(state, (MESSAGES(
        "dp.ev.grows", player=player.name, n=outcome.new_guests,
        kind=kind_name(outcome.kind.value), points=outcome.points,
        source=kind_name(source.value), short=short, mobs=mobs),))


def _end_turn(state: State, events: tuple[Message, ...]) -> State:
    left = in_round(state)
    if all(state.players[i].party.total == 0 for i in left):
        return _round_over(replace(state, events=events + (MESSAGES("dp.ev.stalled"),)),
                           None, Outcome.STALLED)
    assert state.active is not None
    seats = len(state.players)
    nxt = next(i % seats for i in range(state.active + 1, state.active + seats + 1)
               if state.players[i % seats].in_round)
    return replace(state, phase=Phase.THROW, active=nxt, turn=None, last_turn=state.turn,
                   events=events)


def _win_round(state: State, winner: int, victory: Victory,
               events: tuple[Message, ...]) -> State:
    player = state.players[winner]
    if victory not in player.wins:
        player = replace(player, wins=(*player.wins, victory))
    state = replace(state, players=_set_player(state, winner, player))
    won = MESSAGES("dp.ev.round_won", player=player.name,
                   how=MESSAGES(f"dp.how.{victory.value}"))
    return _round_over(replace(state, events=(*events, won)), winner, Outcome(victory.value))


def _round_over(state: State, winner: int | None, outcome: Outcome) -> State:
    state = replace(state, round_winner=winner, round_outcome=outcome, last_turn=state.turn,
                    turn=None)
    if not state.config.party_animal:
        return replace(state, phase=Phase.GAME_OVER, champion=winner, game_outcome=outcome)
    crowned = [i for i, p in enumerate(state.players) if p.crowned]
    if crowned:
        name = state.players[crowned[0]].name
        return replace(state, phase=Phase.GAME_OVER, champion=crowned[0],
                       game_outcome=Outcome.CROWNED,
                       events=state.events + (MESSAGES("dp.ev.crowned", player=name),))
    standing = [i for i, p in enumerate(state.players) if not p.out]
    if len(standing) == 1:
        name = state.players[standing[0]].name
        return replace(state, phase=Phase.GAME_OVER, champion=standing[0],
                       game_outcome=Outcome.LAST_STANDING,
                       events=state.events + (MESSAGES("dp.ev.last_standing", player=name),))
    return replace(state, phase=Phase.ROUND_OVER)


def _next_round(state: State, action: NextRound) -> State:
    players = tuple(
        replace(_fresh_player(p.name, p.escalations, p.wins), in_round=not p.out)
        for p in state.players
    )
    return State(state.config, players, Phase.PREPARTY, round=state.round + 1,
                 events=(MESSAGES("dp.ev.next_round", round=state.round + 1),))


_HANDLERS = {PrepartyThrow: _preparty, Throw: _throw, Pickpocket: _pickpocket,
             Provoke: _provoke, Grow: _grow, NextRound: _next_round}
_PHASE_OF: dict[type, tuple[Phase, ...]] = {
    PrepartyThrow: (Phase.PREPARTY,), Throw: (Phase.THROW,),
    Pickpocket: (Phase.PICKPOCKET,), Provoke: (Phase.PROVOKE,), Grow: (Phase.GROW,),
    NextRound: (Phase.ROUND_OVER,),
}
