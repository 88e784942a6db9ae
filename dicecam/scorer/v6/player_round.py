"""One V6 round: a player's turn at the croupier's table, as a sequence of events.

The croupier throws one die at a time; after each throw the player stops, goes on, or
announces a joker. ``new_round`` starts a round, ``apply(state, action)`` gives the next
state or raises ``RuleError`` with a sentence. Every state carries the running total, what
is active, and ``legal(state)``: the actions allowed now, each with the reason.

Readings of the rulebook (Regelwerk 2020) where it leaves room, chosen as a table would:

* The thieving one: the n-th thieving one of the round steals min(n, 5) pips; only ones
  thrown while the thief is in force count (the free throw's one and ones under a joker do
  not). The thief gains the full amount even from a zombie or a poorer victim; the victim
  never goes below zero. Reducing a victim from above zero to zero earns 5 zombie pips and
  makes the victim a zombie. Without opponents (scoring a lone round) the pips are credited
  and nobody is robbed.
* Totals never go below zero: joker losses (Kälteschutz, Spelunkenbold, Pony, Anaconda,
  Rattenlord, Sekante) stop at zero and play goes on; only the six and a lost All In end a
  round with nothing (the player is then a zombie).
* Jokers switch the thief off on the throws they govern (section 3); Elas' Ventil and the
  auto-jokers Törtchen and Runkelrüb do not. Ahris Tentakel switches it off for the whole
  round ("für die gesamte Dauer"); a throw governed by any other joker covers the
  Tentakel, which then pays no +5 on that throw, but the thief stays off (so with the
  Tentakel chosen, a 1 on the Ventil's throw steals nothing).
* Jules Törtchen pays +1 on every throw after the free throw, losses and joker throws
  included, except under Fumo (suspended), on a cursed six, on a lost All In, and on
  Runkelrüb's throws; a multi-throw joker pays it once after its last throw (IIb).
* Elas' Ventil secures the total at the moment it is announced and governs the next throw
  (no other joker for it); it then keeps protecting for the rest of the round. After every
  event the secured amount is lowered to the total if the total fell below it (the Pony and
  Rattenlord examples); gains never raise it. A six then ends the round at the secured
  amount (outcome "secured", not a zombie). It is powerless against a lost All In.
* Fumo governs every throw from its announcement until the player ends it, announces
  another joker (which ends it), stops, or Runkelrüb annuls it. Announcing it takes the
  next throw, so no other joker can be announced before the first Fumo throw.
* The thieving one is the player's option ("hat er die Möglichkeit"): with opponents in
  the round the player robs one of them or passes the theft up (``PassSteal``). A one passed
  up brings no pips (outside the free throw a one counts only as the theft), yet it still
  counts as a thieving one for the amount of the next; Törtchen still pays its +1.
* Runkelrüb answers the first cursed six, Ventil or not, but "kann" is the player's
  choice: before its first throw the player may let the six stand (``LetSixStand``); the
  round then ends as the six says (zombie, or the Ventil's pips), and Runkelrüb stays
  unused, so it may be chosen again this evening. Used, it always takes two throws, as in
  the rulebook's example ("Runk: 3, 1"). On success the six is void (no
  Törtchen pip) and, if Fumo was running, the doublings of that Fumo run are taken back and
  Fumo ends ("Fumo ungültig"). It does not answer a lost All In: that loss is All In's.
* Kälteschutz: each announcement is one use governing one throw; use n adds a throw above
  n and subtracts the others; a six is always added and spends the joker. Five uses at most.
* Multi-throw jokers take the croupier's throws as the rulebook lists them: Monokel's kept
  throws show in the total at once; Höschen's four attempts come first, then Cherry's
  counters, one per success (an attempt succeeds on a 3+: the text's "auf die 3" is read
  with the heading "Die 3+ Joker"); the Rattenlord stops at a first 5 or 6; Sekante's
  opponent is named with the announcement, a tie in a duel is lost, and the net result is
  settled after the fifth throw: a net loss goes to the opponent in full (unless a zombie),
  even when the player's own total stops at zero, just as the thief takes the full amount
  from a poorer victim.
* The opponent's totals are the standing totals of this pass (players who have not played
  yet stand at zero); a round may start above zero when a Sekante gave the player pips
  before his turn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from dicecam.errors import RuleError
from dicecam.messages import Message, Text, concat, joined
from dicecam.scorer.v6.jokers import (
    ANNOUNCED,
    CHOICE,
    JOKERS,
    KAELTE_MAX_USES,
    MAX_CHOSEN,
    JokerId,
    Kind,
    Step,
    ThrowContext,
    ThrowEffect,
    Toertchen,
    joker_name,
)
from dicecam.scorer.v6.messages import MESSAGES as M
from dicecam.scorer.v6.messages import either, joker_rule, option_word

MAX_STEAL = 5
ZOMBIE_PIPS = 5


class Phase(StrEnum):
    FREE_THROW = "free_throw"  # waiting for the croupier's free throw
    ANNOUNCE = "announce"  # the player stops, goes on (a throw), or announces a joker
    THROW = "throw"  # a throw is due for the joker in play
    CHOOSE = "choose"  # the joker in play waits for the player's choice
    VICTIM = "victim"  # a thieving one: whom to rob
    OVER = "over"


class Outcome(StrEnum):
    PLAYING = "playing"
    STOPPED = "stopped"  # the player ended the round and keeps the total
    SECURED = "secured"  # the six struck but Elas' Ventil kept the secured pips
    ZOMBIE = "zombie"  # the six (or a lost All In) took everything


# --- actions ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Throw:
    value: int


@dataclass(frozen=True)
class Announce:
    joker: JokerId
    opponent: str | None = None  # Senigmas Sekante only


@dataclass(frozen=True)
class EndFumo:
    pass


@dataclass(frozen=True)
class Stop:
    pass


@dataclass(frozen=True)
class Choose:
    option: str


@dataclass(frozen=True)
class Steal:
    victim: str


@dataclass(frozen=True)
class PassSteal:
    """A thieving one's theft passed up: nobody is robbed, the one brings no pips."""


@dataclass(frozen=True)
class LetSixStand:
    """The six struck and Runkelrüb is ready: the player lets the six stand and keeps
    Runkelrüb unused (for a later round of the evening)."""


RoundAction = Throw | Announce | EndFumo | Stop | Choose | Steal | PassSteal | LetSixStand


# --- state --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Opponent:
    name: str
    total: int = 0
    zombie: bool = False


@dataclass(frozen=True)
class InPlay:
    """The announced joker governing the coming throw(s), and where its program stands."""

    joker: JokerId
    step: str = ""
    memo: tuple[int, ...] = ()
    expects: str = "throw"
    options: tuple[str, ...] = ()
    prompt: Text = ""
    opponent: str | None = None


@dataclass(frozen=True)
class Entry:
    """One line of the round's log: an event and the total after it."""

    event: str
    label: Text
    total: int
    note: Text
    value: int | None = None
    joker: JokerId | None = None


@dataclass(frozen=True)
class Legal:
    """An action allowed now, with the reason the tablet shows on its button."""

    action: RoundAction
    why: Text


@dataclass(frozen=True)
class RoundState:
    player: str
    jokers: tuple[JokerId, ...]
    opponents: tuple[Opponent, ...] = ()
    total: int = 0
    phase: Phase = Phase.FREE_THROW
    outcome: Outcome = Outcome.PLAYING
    turns: int = 0  # regular throws made; a multi-throw joker counts as one (section 3 IIb)
    ones: int = 0  # thieving ones so far
    used: frozenset[JokerId] = frozenset()
    kaelte_uses: int = 0
    kaelte_spent: bool = False
    fumo_extra: int | None = None  # None: Fumo is not running; else its doublings' extra pips
    protected: int | None = None  # Elas' Ventil: the secured pips
    play: InPlay | None = None
    steal_pips: int = 0  # in Phase.VICTIM: how many pips the thief takes
    log: tuple[Entry, ...] = ()
    note: Text = ""

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def fumo_running(self) -> bool:
        return self.fumo_extra is not None

    def opponent(self, name: str) -> Opponent:
        for opp in self.opponents:
            if opp.name == name:
                return opp
        known: Text = ", ".join(o.name for o in self.opponents) or M("v6.no.nobody")
        raise RuleError(M("v6.no.not_opponent", name=name, known=known))


def new_round(player: str, jokers: tuple[JokerId, ...] | list[JokerId],
              opponents: tuple[Opponent, ...] | list[Opponent] = (),
              start_total: int = 0) -> RoundState:
    """A round before the free throw. Up to three distinct jokers; opponents are optional."""
    chosen = tuple(JokerId(j) for j in jokers)
    if len(chosen) > MAX_CHOSEN:
        raise RuleError(M("v6.no.round_at_most", max=MAX_CHOSEN, n=len(chosen)))
    if len(set(chosen)) != len(chosen):
        raise RuleError(M("v6.no.round_once"))
    opps = tuple(opponents)
    names = [o.name for o in opps]
    if len(set(names)) != len(names) or player in names:
        raise RuleError(M("v6.no.opponent_names"))
    if start_total < 0 or any(o.total < 0 for o in opps):
        raise RuleError(M("v6.no.negative"))
    if any(o.zombie and o.total for o in opps):
        raise RuleError(M("v6.no.zombie_zero"))
    return RoundState(player, chosen, opps, start_total,
                      note=M("v6.note.free_throw_first"))


def available(state: RoundState, joker: JokerId) -> str | None:
    """None if the player may announce this joker now, else the reason why not (in
    English; ``why_not`` gives it as a message)."""
    why = why_not(state, joker)
    return None if why is None else why.text("en")


def why_not(state: RoundState, joker: JokerId) -> Message | None:
    """None if the player may announce this joker now, else the reason why not."""
    if joker not in state.jokers:
        return M("v6.no.not_chosen", joker=joker_name(joker))
    spec = JOKERS[joker]
    if spec.kind is Kind.AUTO:
        return M("v6.no.auto", joker=spec.name)
    if state.phase is Phase.FREE_THROW:
        return M("v6.no.before_free_throw")
    if state.phase is Phase.OVER:
        return M("v6.no.round_ended")
    if state.phase is Phase.VICTIM:
        return M("v6.no.victim_first")
    if state.phase is not Phase.ANNOUNCE:
        in_play = state.play.joker if state.play else None
        what: Text = joker_name(in_play) if in_play else M("v6.no.the_thief")
        return M("v6.no.one_per_throw", what=what)
    if joker is JokerId.KAELTE:
        if state.kaelte_spent:
            return M("v6.no.kaelte_spent")
        if state.kaelte_uses >= KAELTE_MAX_USES:
            return M("v6.no.kaelte_max", n=KAELTE_MAX_USES)
        return None
    if joker in state.used:
        return M("v6.no.used", joker=spec.name)
    if spec.needs_opponent and not state.opponents:
        return M("v6.no.no_opponents", joker=spec.name)
    return None


def legal(state: RoundState) -> tuple[Legal, ...]:
    """Every action allowed now, with the reason (what it would do)."""
    phase = state.phase
    if phase is Phase.OVER:
        return ()
    if phase is Phase.FREE_THROW:
        return (Legal(Throw(0), M("v6.why.free_throw")),)
    if phase is Phase.VICTIM:
        return (*(Legal(Steal(o.name), _steal_why(state, o)) for o in state.opponents),
                Legal(PassSteal(), M("v6.why.pass_steal", pips=state.steal_pips)))
    if phase is Phase.THROW:
        assert state.play is not None
        if _runkelrueb_waits(state):
            return (Legal(Throw(0), state.play.prompt),
                    Legal(LetSixStand(), M("v6.why.let_six_stand", six=_six_note(state))))
        return (Legal(Throw(0), state.play.prompt),)
    if phase is Phase.CHOOSE:
        assert state.play is not None
        return tuple(Legal(Choose(option), state.play.prompt) for option in state.play.options)
    moves = [Legal(Throw(0), _go_on_why(state)),
             Legal(Stop(), M("v6.why.stop", pips=state.total))]
    if state.fumo_running:
        moves.append(Legal(EndFumo(), M("v6.why.end_fumo")))
    for joker in state.jokers:
        if why_not(state, joker) is not None:
            continue
        spec = JOKERS[joker]
        why: Text = joker_rule(joker.value, spec.rule_text)
        if joker is JokerId.KAELTE:
            why = M("v6.why.kaelte_use", n=state.kaelte_uses + 1, rule=why)
        if state.fumo_running:
            why = M("v6.why.ends_fumo", why=why)
        if spec.needs_opponent:
            moves.extend(Legal(Announce(joker, o.name), M("v6.why.against", why=why,
                                                          opponent=o.name))
                         for o in state.opponents)
        else:
            moves.append(Legal(Announce(joker), why))
    return tuple(moves)


def unavailable(state: RoundState) -> tuple[tuple[JokerId, str], ...]:
    """The chosen jokers the player cannot announce now, each with the reason."""
    return tuple((j, why) for j in state.jokers if (why := available(state, j)) is not None)


def active(state: RoundState) -> tuple[str, ...]:
    """What is in force now, in words for the tablet."""
    out = []
    started = state.turns >= 1 and not state.over
    covered = state.fumo_running or (state.play is not None
                                     and state.play.joker is not JokerId.RUNKELRUEB)
    if JokerId.JULE in state.jokers and started:
        out.append("Jules Törtchen: suspended by Fumo" if state.fumo_running
                   else "Jules Törtchen: +1 per throw")
    if JokerId.AHRI in state.jokers and started:
        out.append("Ahris Tentakel: covered by the joker in play" if covered
                   else "Ahris Tentakel: +5 on a 1 or 2, no thieving one")
    if _runkelrueb_waits(state):
        out.append("Runkelrüb: the six struck; throw for Runkelrüb or let the six stand")
    elif JokerId.RUNKELRUEB in state.jokers and JokerId.RUNKELRUEB not in state.used:
        out.append("Runkelrüb: ready for the six")
    if state.fumo_running:
        out.append(f"Fumo: doubling every throw but the six (+{state.fumo_extra} extra so far)")
    if state.protected is not None and not state.over:
        out.append(f"Elas' Ventil: {state.protected} pips secured")
    if state.kaelte_uses and not state.over:
        out.append("Kälteschutz: spent, it saved the player from a six" if state.kaelte_spent
                   else f"Kälteschutz: used {state.kaelte_uses}, "
                        f"{KAELTE_MAX_USES - state.kaelte_uses} left")
    if state.play is not None:
        out.append(f"in play: {joker_name(state.play.joker)}")
    if started and state.phase is Phase.ANNOUNCE and _thief_on(state, None):
        out.append(f"thieving one: next one steals {min(state.ones + 1, MAX_STEAL)}")
    return tuple(out)


# --- applying actions ---------------------------------------------------------------------


def apply(state: RoundState, action: RoundAction) -> RoundState:
    """The state after one event, or RuleError saying why the event is not allowed now."""
    if state.over:
        raise RuleError(M("v6.no.round_over", player=state.player,
                          outcome=M(f"v6.outcome.{state.outcome.value}")))
    if isinstance(action, Throw):
        return _throw(state, action.value)
    if isinstance(action, Announce):
        return _announce(state, action)
    if isinstance(action, Choose):
        return _choose(state, action.option)
    if isinstance(action, Steal):
        return _steal(state, action.victim)
    if isinstance(action, PassSteal):
        return _pass_steal(state)
    if isinstance(action, LetSixStand):
        return _let_six_stand(state)
    if isinstance(action, EndFumo):
        _need_announce(state, M("v6.do.end_fumo"))
        if not state.fumo_running:
            raise RuleError(M("v6.no.fumo_not_running"))
        return _log(replace(state, fumo_extra=None), "end_fumo", M("v6.label.end_fumo"),
                    M("v6.note.fumo_ended"))
    if isinstance(action, Stop):
        _need_announce(state, M("v6.do.stop"))
        done = replace(state, phase=Phase.OVER, outcome=Outcome.STOPPED, fumo_extra=None)
        return _log(done, "stop", M("v6.label.stop"),
                    M("v6.note.stops", player=state.player, pips=state.total))
    raise RuleError(f"unknown V6 action {action!r}")


def _need_announce(state: RoundState, what: Message) -> None:
    if state.phase is Phase.ANNOUNCE:
        return
    reasons = {
        Phase.FREE_THROW: "v6.no.free_throw_first",
        Phase.VICTIM: "v6.no.victim_first",
        Phase.THROW: "v6.no.joker_throw_first",
        Phase.CHOOSE: "v6.no.choice_first",
    }
    raise RuleError(M("v6.no.not_now", what=what, reason=M(reasons[state.phase])))


def _announce(state: RoundState, action: Announce) -> RoundState:
    joker = action.joker
    why = why_not(state, joker)
    if why is not None:
        raise RuleError(M("v6.no.announce", joker=joker_name(joker), why=why))
    spec = JOKERS[joker]
    if spec.needs_opponent:
        if action.opponent is None:
            raise RuleError(M("v6.no.name_opponent", joker=spec.name,
                              names=", ".join(o.name for o in state.opponents)))
        state.opponent(action.opponent)
    elif action.opponent is not None:
        raise RuleError(M("v6.no.takes_no_opponent", joker=spec.name))
    ended: Text = M("v6.note.fumo_ends") if state.fumo_running else ""
    state = replace(state, fumo_extra=None, used=state.used | {joker})
    if joker is JokerId.FUMO:
        state = replace(state, fumo_extra=0)
    if joker is JokerId.VENTIL:
        state = replace(state, protected=state.total)
        ended = concat(ended, M("v6.note.secured", pips=state.total))
    if joker is JokerId.KAELTE:
        state = replace(state, kaelte_uses=state.kaelte_uses + 1)
        ended = concat(M("v6.note.kaelte_use", n=state.kaelte_uses), ended)
    if spec.program is not None:
        first = spec.program("", (), "")
        play = InPlay(joker, first.step, first.memo, first.expects, first.options,
                      first.prompt, action.opponent)
    else:
        play = InPlay(joker, prompt=M("v6.prompt.throw_under", joker=spec.name))
    state = replace(state, play=play, phase=Phase.THROW)
    return _log(state, "joker", spec.name,
                concat(M("v6.note.announces", player=state.player, joker=spec.name), ended),
                joker=joker)


def _throw(state: RoundState, value: int) -> RoundState:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
        raise RuleError(M("v6.no.die", value=repr(value)))
    if state.phase is Phase.FREE_THROW:
        state = replace(state, total=state.total + value, turns=1, phase=Phase.ANNOUNCE)
        return _log(state, "throw", M("v6.label.free_throw"),
                    M("v6.note.free_throw", value=value), value)
    if state.phase in (Phase.VICTIM, Phase.CHOOSE):
        _need_announce(state, M("v6.do.throw"))
    play = state.play
    if play is not None and JOKERS[play.joker].program is not None:
        return _program_event(state, value)
    governing = play.joker if play else (JokerId.FUMO if state.fumo_running else None)
    autos = state.used | {j for j in (JokerId.JULE, JokerId.AHRI) if j in state.jokers}
    state = replace(state, turns=state.turns + 1, play=None, phase=Phase.ANNOUNCE, used=autos)
    if governing in (None, JokerId.VENTIL):
        return _regular_throw(state, value, governing)
    spec = JOKERS[governing]
    assert spec.throw_rule is not None
    effect: ThrowEffect = spec.throw_rule(value, ThrowContext(state.total, state.kaelte_uses))
    label = M("v6.label.throw_under", n=state.turns, joker=spec.name)
    if effect.cursed:
        return _six(state, value, label, governing)
    if effect.busted:
        done = replace(state, total=0, phase=Phase.OVER, outcome=Outcome.ZOMBIE,
                       fumo_extra=None, protected=None)
        return _log(done, "throw", label, joined(effect.note, M("v6.note.ventil_cannot_help")),
                    value, governing)
    gain, note = effect.points, effect.note
    if spec.toertchen is Toertchen.EACH_THROW and JokerId.JULE in state.jokers:
        gain, note = gain + 1, joined(note, M("v6.note.toertchen"))
    if governing is JokerId.FUMO:
        state = replace(state, fumo_extra=(state.fumo_extra or 0) + effect.fumo_extra)
    if effect.expires:
        state = replace(state, kaelte_spent=True)
    return _log(_add(state, gain), "throw", label, note, value, governing)


def _thief_on(state: RoundState, governing: JokerId | None) -> bool:
    # The Tentakel sets the thief aside "für die gesamte Dauer": a joker covering it takes
    # away its +5, not that.
    if JokerId.AHRI in state.jokers:
        return False
    if governing is not None:
        return not JOKERS[governing].thief_off
    return not state.fumo_running


def _regular_throw(state: RoundState, value: int, governing: JokerId | None) -> RoundState:
    label = (M("v6.label.throw_under", n=state.turns, joker="Ventil") if governing
             else M("v6.label.throw", n=state.turns))
    if value == 6:
        return _six(state, value, label, governing)
    ahri_on = JokerId.AHRI in state.jokers and governing is None
    parts: list[Text] = []
    steal = 0
    if value == 1 and _thief_on(state, governing):
        steal = min(state.ones + 1, MAX_STEAL)
        gain = steal
        parts.append(M("v6.note.thief", n=state.ones + 1, pips=steal))
        state = replace(state, ones=state.ones + 1)
    else:
        gain = value
        parts.append(M("v6.note.plus", n=value))
    for joker in state.jokers:
        bonus = JOKERS[joker].bonus
        if bonus is None or (joker is JokerId.AHRI and not ahri_on):
            continue
        if extra := bonus(value):
            gain += extra
            parts.append(M("v6.note.bonus", joker=JOKERS[joker].name, n=extra))
    state = _add(state, gain)
    if steal and state.opponents:
        state = replace(state, phase=Phase.VICTIM, steal_pips=steal)
        parts.append(M("v6.note.choose_victim"))
    return _log(state, "throw", label, joined(*parts), value, governing)


def _six(state: RoundState, value: int, label: Text,
         joker: JokerId | None = None) -> RoundState:
    """The verflixte Sechs struck: Runkelrüb answers first, then the Ventil or nothing."""
    if JokerId.RUNKELRUEB in state.jokers and JokerId.RUNKELRUEB not in state.used:
        program = JOKERS[JokerId.RUNKELRUEB].program
        assert program is not None
        first = program("", (), "")
        play = InPlay(JokerId.RUNKELRUEB, first.step, first.memo, first.expects, (),
                      first.prompt)
        # spent once its first throw is made: until then the player may let the six stand
        state = replace(state, play=play, phase=Phase.THROW)
        return _log(state, "throw", label, M("v6.note.runkelrueb_called"), value, joker)
    return _log(_six_stands(state), "throw", label, _six_note(state), value, joker)


def _six_note(state: RoundState) -> Message:
    if state.protected is not None:
        return M("v6.note.six_secured", pips=state.protected)
    return M("v6.note.six_zombie")


def _six_stands(state: RoundState) -> RoundState:
    if state.protected is not None:
        return replace(state, total=state.protected, phase=Phase.OVER,
                       outcome=Outcome.SECURED, fumo_extra=None, play=None)
    return replace(state, total=0, phase=Phase.OVER, outcome=Outcome.ZOMBIE,
                   fumo_extra=None, play=None)


def _choose(state: RoundState, option: str) -> RoundState:
    if state.phase is not Phase.CHOOSE or state.play is None:
        _need_announce(state, M("v6.do.choose", option=option_word(option)))
        raise RuleError(M("v6.no.nothing_to_choose", option=option_word(option)))
    if option not in state.play.options:
        raise RuleError(M("v6.no.not_an_option", option=option_word(option),
                          options=either(state.play.options)))
    return _program_event(state, option)


def _program_event(state: RoundState, event: int | str) -> RoundState:
    play = state.play
    assert play is not None
    spec = JOKERS[play.joker]
    assert spec.program is not None
    if isinstance(event, int) and play.expects == CHOICE:
        raise RuleError(M("v6.no.waits_for_choice", joker=spec.name,
                          options=either(play.options)))
    step: Step = spec.program(play.step, play.memo, event)
    value = event if isinstance(event, int) else None
    kind = "throw" if value is not None else "choose"
    label = spec.name
    if play.joker is JokerId.RUNKELRUEB:
        state = replace(state, used=state.used | {JokerId.RUNKELRUEB})
        return _runkelrueb_step(state, step, value, label)
    if not step.done:
        state = _add(state, step.points)
        state = replace(state, play=replace(play, step=step.step, memo=step.memo,
                                            expects=step.expects, options=step.options,
                                            prompt=step.prompt),
                        phase=Phase.THROW if step.expects != CHOICE else Phase.CHOOSE)
        return _log(state, kind, label, step.prompt, value, play.joker)
    # One change for the whole joker, Törtchen included: the Ventil's secured pips follow
    # the total after it (Rattenlord example: 22 - 10 + 1 = 13, secured 13).
    note, gain = step.note, step.points
    if JokerId.JULE in state.jokers:
        gain += 1
        note = joined(note, M("v6.note.toertchen_after"))
    state = _add(state, gain)
    if play.joker is JokerId.SEKANTE and play.opponent is not None and step.duel:
        state, extra = _duel(state, play.opponent, step.duel)
        note = joined(note, extra)
    state = replace(state, play=None, phase=Phase.ANNOUNCE, turns=state.turns + 1,
                    used=state.used | {j for j in (JokerId.JULE, JokerId.AHRI)
                                       if j in state.jokers})
    return _log(state, kind, label, note, value, play.joker)


def _runkelrueb_step(state: RoundState, step: Step, value: int | None,
                     label: Text) -> RoundState:
    play = state.play
    assert play is not None
    if not step.done:
        state = replace(state, play=replace(play, step=step.step, memo=step.memo,
                                            prompt=step.prompt))
        return _log(state, "throw", label, step.prompt, value, JokerId.RUNKELRUEB)
    if not step.success:
        return _log(_six_stands(state), "throw", label, joined(step.note, _six_note(state)),
                    value, JokerId.RUNKELRUEB)
    note = step.note
    if state.fumo_running:
        note = joined(note, M("v6.note.fumo_void", n=state.fumo_extra or 0))
        state = _add(replace(state, fumo_extra=None), -(state.fumo_extra or 0))
    state = replace(state, play=None, phase=Phase.ANNOUNCE)
    return _log(state, "throw", label, note, value, JokerId.RUNKELRUEB)


def _duel(state: RoundState, name: str, net: int) -> tuple[RoundState, Text]:
    """Settle Senigmas Sekante's net result with the opponent (the player's side is done)."""
    opp = state.opponent(name)
    if net > 0:
        left = max(0, opp.total - net)
        zombified = opp.total > 0 and left == 0 and not opp.zombie
        new = replace(opp, total=left, zombie=opp.zombie or zombified)
        extra: Text = M("v6.note.duel_loses", opponent=name, n=opp.total - left)
        if zombified:
            state = _add(state, ZOMBIE_PIPS)
            extra = concat(extra, M("v6.note.duel_zombie", n=ZOMBIE_PIPS))
    else:
        new = opp if opp.zombie else replace(opp, total=opp.total - net)
        extra = (M("v6.note.duel_gains", opponent=name, n=-net) if not opp.zombie
                 else M("v6.note.duel_zombie_stays", opponent=name))
    return _replace_opponent(state, new), extra


def _steal(state: RoundState, name: str) -> RoundState:
    if state.phase is not Phase.VICTIM:
        raise RuleError(M("v6.no.nothing_to_steal"))
    opp = state.opponent(name)
    pips = state.steal_pips
    left = max(0, opp.total - pips)
    zombified = opp.total > 0 and left == 0 and not opp.zombie
    state = _replace_opponent(state, replace(opp, total=left, zombie=opp.zombie or zombified))
    note: Text = (M("v6.note.robs_poor", player=state.player, victim=name, pips=pips,
                    had=opp.total, left=left) if opp.total < pips
                  else M("v6.note.robs", player=state.player, victim=name, pips=pips))
    if zombified:
        state = _add(state, ZOMBIE_PIPS)
        note = joined(note, M("v6.note.victim_zombie", victim=name, n=ZOMBIE_PIPS))
    state = replace(state, phase=Phase.ANNOUNCE, steal_pips=0)
    return _log(state, "steal", M("v6.label.rob", victim=name), note)


def _pass_steal(state: RoundState) -> RoundState:
    if state.phase is not Phase.VICTIM:
        raise RuleError(M("v6.no.no_theft"))
    pips = state.steal_pips
    # the theft's pips were counted with the throw (``_regular_throw``): taken back
    state = replace(_add(state, -pips), phase=Phase.ANNOUNCE, steal_pips=0)
    return _log(state, "pass_steal", M("v6.label.rob_nobody"),
                M("v6.note.pass_steal", player=state.player, pips=pips))


def _runkelrueb_waits(state: RoundState) -> bool:
    """The six has struck and Runkelrüb has not thrown yet."""
    play = state.play
    return (state.phase is Phase.THROW and play is not None
            and play.joker is JokerId.RUNKELRUEB and JokerId.RUNKELRUEB not in state.used)


def _let_six_stand(state: RoundState) -> RoundState:
    if not _runkelrueb_waits(state):
        raise RuleError(M("v6.no.no_six"))
    note = joined(M("v6.note.let_six_stand", player=state.player), _six_note(state))
    return _log(_six_stands(state), "let_six_stand", M("v6.label.six_stands"), note)


def _replace_opponent(state: RoundState, new: Opponent) -> RoundState:
    return replace(state, opponents=tuple(new if o.name == new.name else o
                                          for o in state.opponents))


def _add(state: RoundState, points: int) -> RoundState:
    """Add (or take) pips: never below zero, and the Ventil's secured pips follow a fall."""
    total = max(0, state.total + points)
    protected = state.protected
    if protected is not None:
        protected = min(protected, total)
    return replace(state, total=total, protected=protected)


def _log(state: RoundState, event: str, label: Text, note: Text, value: int | None = None,
         joker: JokerId | None = None) -> RoundState:
    entry = Entry(event, label, state.total, note, value, joker)
    return replace(state, log=state.log + (entry,), note=note)


def _go_on_why(state: RoundState) -> Message:
    if state.fumo_running:
        return M("v6.why.go_on_fumo")
    if state.protected is not None:
        return M("v6.why.go_on_secured", pips=state.protected)
    if JokerId.RUNKELRUEB in state.jokers and JokerId.RUNKELRUEB not in state.used:
        return M("v6.why.go_on_runkelrueb")
    return M("v6.why.go_on")


def _steal_why(state: RoundState, opp: Opponent) -> Message:
    pips = state.steal_pips
    if opp.zombie:
        return M("v6.why.rob_zombie", victim=opp.name, pips=pips)
    if 0 < opp.total <= pips:
        return M("v6.why.rob_zombify", victim=opp.name, pips=pips, zombie=ZOMBIE_PIPS)
    return M("v6.why.rob", victim=opp.name, pips=pips, total=opp.total)


__all__ = [
    "ANNOUNCED", "Announce", "Choose", "EndFumo", "Entry", "InPlay", "LetSixStand", "Legal",
    "Opponent", "Outcome", "PassSteal", "Phase", "RoundAction", "RoundState", "Steal", "Stop",
    "Throw", "active",
    "apply", "available", "legal", "new_round", "unavailable", "why_not",
]
