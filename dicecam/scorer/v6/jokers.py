"""The fifteen V6 jokers as a data table: joker id -> its facts and pure rule functions.

Three kinds of joker, as the rulebook groups them (section 3):

* auto-jokers (Jules Törtchen, Ahris Tentakel, Runkelrüb) are never announced; Törtchen and
  Tentakel give a per-throw ``bonus``, Runkelrüb answers a cursed six with its own program;
* one-throw jokers (All In, Elas' Ventil, Hirtenschutz, Kälteschutz, Spelunkenbold, and each
  throw under Fumo) score the throw they govern with ``throw_rule``;
* multi-throw jokers (Moes Monokel, Pony, Anaconda/Oce, Rattenlord, Senigmas Sekante,
  Cherrys Höschen, and Runkelrüb) are small state machines: ``program(step, memo, event)``
  says what the joker waits for next (a throw or a choice) or that it is done, with the pips.

Everything here is pure: values in, values out. The round engine (``player_round``) decides
which rule applies to which throw, and applies Törtchen, the Ventil and the thieving one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from dicecam.messages import Text
from dicecam.scorer.v6.messages import MESSAGES as M


class JokerId(StrEnum):
    JULE = "jule"
    AHRI = "ahri"
    FUMO = "fumo"
    ALL_IN = "all_in"
    VENTIL = "ventil"
    HIRTE = "hirte"
    KAELTE = "kaelte"
    SPELUNKE = "spelunke"
    MONOKEL = "monokel"
    PONY = "pony"
    OCE = "oce"
    RATTE = "ratte"
    SEKANTE = "sekante"
    HOESCHEN = "hoeschen"
    RUNKELRUEB = "runkelrueb"


class Kind(StrEnum):
    AUTO = "auto"  # activated by the croupier after the free throw, never announced
    ONE_THROW = "one_throw"  # governs the next throw (Fumo: every throw until ended)
    MULTI_THROW = "multi_throw"  # several throws stand for one regular throw


class Toertchen(StrEnum):
    """When Jules Törtchen pays its pip on a throw this joker governs."""

    EACH_THROW = "each_throw"
    AFTER_ALL = "after_all"  # section 3 IIb: one pip after all the joker's throws
    NEVER = "never"  # Fumo suspends the Törtchen while it runs


# Fixed numbers of the rulebook (section 3), named so the rules below read like the text.
AHRI_PIPS = 5
SPELUNKE_PIPS = 5
SPELUNKE_SIX_LOSS = 3
KAELTE_MAX_USES = 5
PONY_LIMIT = 11
PONY_LOSS = 3
OCE_WIN = 12
OCE_LOSS = 10
RATTE_WIN = 18
RATTE_LOSS = 10
RETREAT_LOSS = 2  # dodging the Anaconda or retreating from the Rattenlord
SEKANTE_THROWS = 5
SEKANTE_STAKE = 2
HOESCHEN_ATTEMPTS = 4
HOESCHEN_PIPS = 3
THREE_PLUS = 3  # "auf die 3+": 3, 4, 5 or 6


@dataclass(frozen=True)
class ThrowContext:
    """What a one-throw rule may look at besides the die."""

    total: int
    kaelte_use: int = 0  # the number of this Kälteschutz use, 1-5


@dataclass(frozen=True)
class ThrowEffect:
    """What one throw under a one-throw joker does to the player's total."""

    points: int
    note: Text
    cursed: bool = False  # the verflixte Sechs struck (Fumo does not shield from it)
    busted: bool = False  # All In lost: everything gone, Ventil or not
    fumo_extra: int = 0  # the doubling's extra pips, which Runkelrüb may annul
    expires: bool = False  # Kälteschutz saved the player from a six and is spent


@dataclass(frozen=True)
class Step:
    """A multi-throw joker's answer to one event: wait for more, or done.

    ``points`` are credited at once (Monokel's kept throws show in the running total);
    ``duel`` is Senigmas Sekante's net result, taken from (or given to) the opponent.
    """

    step: str = ""
    memo: tuple[int, ...] = ()
    expects: str = "throw"  # "throw" or "choice"
    options: tuple[str, ...] = ()
    prompt: Text = ""
    points: int = 0
    done: bool = False
    note: Text = ""
    duel: int = 0
    success: bool = False  # Runkelrüb: the six is void


THROW = "throw"
CHOICE = "choice"

Program = Callable[[str, tuple[int, ...], "int | str"], Step]


# --- one-throw rules -------------------------------------------------------------------


def fumo_rule(value: int, ctx: ThrowContext) -> ThrowEffect:
    if value == 6:
        return ThrowEffect(0, M("v6.j.fumo_six"), cursed=True)
    return ThrowEffect(2 * value, M("v6.j.fumo", value=value, n=2 * value), fumo_extra=value)


def all_in_rule(value: int, ctx: ThrowContext) -> ThrowEffect:
    if value <= 3:
        return ThrowEffect(ctx.total, M("v6.j.all_in_won", value=value))
    return ThrowEffect(-ctx.total, M("v6.j.all_in_lost", value=value), busted=True)


def hirte_rule(value: int, ctx: ThrowContext) -> ThrowEffect:
    return ThrowEffect(2 * value, M("v6.j.hirte", value=value, n=2 * value))


def kaelte_rule(value: int, ctx: ThrowContext) -> ThrowEffect:
    use = ctx.kaelte_use
    if value == 6:
        return ThrowEffect(6, M("v6.j.kaelte_six", use=use), expires=True)
    if value > use:
        return ThrowEffect(value, M("v6.j.kaelte_above", use=use, value=value))
    return ThrowEffect(-value, M("v6.j.kaelte_below", use=use, value=value))


def spelunke_rule(value: int, ctx: ThrowContext) -> ThrowEffect:
    if value == 6:
        return ThrowEffect(-SPELUNKE_SIX_LOSS, M("v6.j.spelunke_six", loss=SPELUNKE_SIX_LOSS))
    gain = value + SPELUNKE_PIPS
    return ThrowEffect(gain, M("v6.j.spelunke", value=value, extra=SPELUNKE_PIPS, n=gain))


# --- auto-joker bonuses on regular throws ------------------------------------------------


def jule_bonus(value: int) -> int:
    return 1


def ahri_bonus(value: int) -> int:
    return AHRI_PIPS if value in (1, 2) else 0


# --- multi-throw programs ----------------------------------------------------------------
# Each program starts at step "" with an empty memo; its first answer is what it waits for.


def _throw(step: str, memo: tuple[int, ...], prompt: Text, points: int = 0) -> Step:
    return Step(step, memo, THROW, (), prompt, points)


def _choice(step: str, memo: tuple[int, ...], options: tuple[str, ...], prompt: Text) -> Step:
    return Step(step, memo, CHOICE, options, prompt)


def monokel_program(step: str, memo: tuple[int, ...], event: int | str) -> Step:
    # steps: "1"/"2" throw, "1?"/"2?" keep or reroll, "1r"/"2r" the reroll (always kept)
    if step == "":
        return _throw("1", (), M("v6.j.monokel_first"))
    which = step[0]
    if step in ("1", "2"):
        return _choice(which + "?", memo + (int(event),), ("keep", "reroll"),
                       M("v6.j.monokel_ask", value=int(event)))
    if step.endswith("?") and event == "reroll":
        return _throw(which + "r", memo, M("v6.j.monokel_again", which=which))
    kept = memo[-1] if step.endswith("?") else int(event)
    if which == "1":
        return Step("2", memo, THROW, (), M("v6.j.monokel_second", kept=kept), kept)
    return Step(done=True, points=kept, note=M("v6.j.monokel_done", kept=kept))


def pony_program(step: str, memo: tuple[int, ...], event: int | str) -> Step:
    if step == "":
        return _throw("1", (), M("v6.j.pony_throw", n=1))
    memo = memo + (int(event),)
    if len(memo) < 3:
        return _throw(str(len(memo) + 1), memo, M("v6.j.pony_throw", n=len(memo) + 1))
    total = sum(memo)
    if total >= PONY_LIMIT:
        return Step(done=True, points=total,
                    note=M("v6.j.pony_made", total=total, limit=PONY_LIMIT))
    return Step(done=True, points=-PONY_LOSS,
                note=M("v6.j.pony_failed", total=total, limit=PONY_LIMIT, loss=PONY_LOSS))


def oce_program(step: str, memo: tuple[int, ...], event: int | str) -> Step:
    if step == "":
        return _throw("snake", (), M("v6.j.oce_snake"))
    if step == "snake":
        return _choice("face", (int(event),), ("fight", "dodge"),
                       M("v6.j.oce_ask", value=int(event), loss=RETREAT_LOSS))
    if step == "face":
        if event == "dodge":
            return Step(done=True, points=-RETREAT_LOSS,
                        note=M("v6.j.oce_dodged", loss=RETREAT_LOSS))
        return _throw("fight", memo, M("v6.j.oce_mine"))
    snake, mine = memo[0], int(event)
    if mine >= snake:
        return Step(done=True, points=mine + OCE_WIN,
                    note=M("v6.j.oce_won", mine=mine, snake=snake, win=OCE_WIN))
    return Step(done=True, points=-OCE_LOSS,
                note=M("v6.j.oce_lost", snake=snake, mine=mine, loss=OCE_LOSS))


def ratte_program(step: str, memo: tuple[int, ...], event: int | str) -> Step:
    if step == "":
        return _throw("1", (), M("v6.j.ratte_first"))
    if step == "again?":
        if event == "retreat":
            return Step(done=True, points=-RETREAT_LOSS,
                        note=M("v6.j.ratte_retreated", loss=RETREAT_LOSS))
        return _throw("2", memo, M("v6.j.ratte_second"))
    value = int(event)
    if value >= 5:
        return Step(done=True, points=RATTE_WIN,
                    note=M("v6.j.ratte_won", value=value, win=RATTE_WIN))
    if step == "1":
        return _choice("again?", (value,), ("again", "retreat"),
                       M("v6.j.ratte_ask", value=value, loss=RETREAT_LOSS))
    return Step(done=True, points=-RATTE_LOSS, note=M("v6.j.ratte_lost", loss=RATTE_LOSS))


def sekante_program(step: str, memo: tuple[int, ...], event: int | str) -> Step:
    # memo = (throw number 1-5, wins, losses, the player's last throw)
    if step == "":
        return _throw("mine", (1, 0, 0, 0), M("v6.j.sekante_first"))
    number, wins, losses, _ = memo
    if step == "mine":
        return _choice("call?", (number, wins, losses, int(event)), ("challenge", "pass"),
                       M("v6.j.sekante_ask", n=number, value=int(event)))
    if step == "call?" and event == "challenge":
        return _throw("theirs", memo, M("v6.j.sekante_theirs", n=number))
    if step == "theirs":
        if memo[3] > int(event):
            wins += 1
        else:
            losses += 1
    if number < SEKANTE_THROWS:
        return _throw("mine", (number + 1, wins, losses, 0),
                      M("v6.j.sekante_next", n=number + 1, wins=wins, losses=losses))
    net = SEKANTE_STAKE * (wins - losses)
    return Step(done=True, duel=net, points=net,
                note=M("v6.j.sekante_done", won=SEKANTE_STAKE * wins,
                       lost=SEKANTE_STAKE * losses, net=f"{'+' if net >= 0 else ''}{net}"))


def hoeschen_program(step: str, memo: tuple[int, ...], event: int | str) -> Step:
    # memo = (attempts made, successes, counters made, counters that averted)
    if step == "":
        return _throw("try", (0, 0, 0, 0), M("v6.j.hoeschen_first"))
    tries, hits, counters, averted = memo
    value = int(event)
    if step == "try":
        tries += 1
        hits += value >= THREE_PLUS
        if tries < HOESCHEN_ATTEMPTS:
            return _throw("try", (tries, hits, 0, 0), M("v6.j.hoeschen_try", n=tries + 1))
    else:
        counters += 1
        averted += value >= 5
    if counters < hits:
        return _throw("counter", (tries, hits, counters, averted),
                      M("v6.j.hoeschen_counter", n=counters + 1, of=hits))
    gain = HOESCHEN_PIPS * (hits - averted)
    return Step(done=True, points=gain,
                note=M("v6.j.hoeschen_done", hits=hits, averted=averted, n=gain))


def runkelrueb_program(step: str, memo: tuple[int, ...], event: int | str) -> Step:
    if step == "":
        return _throw("1", (), M("v6.j.runkelrueb_throw", n=1))
    memo = memo + (int(event),)
    if len(memo) < 2:
        return _throw("2", memo, M("v6.j.runkelrueb_throw", n=2))
    if max(memo) >= THREE_PLUS:
        return Step(done=True, success=True, note=M("v6.j.runkelrueb_saved"))
    return Step(done=True, note=M("v6.j.runkelrueb_failed"))


@dataclass(frozen=True)
class JokerSpec:
    """One joker: its rulebook name and group, and the functions that are its rules."""

    id: JokerId
    name: str
    kind: Kind
    rule_text: str  # one line for the tablet
    throw_rule: Callable[[int, ThrowContext], ThrowEffect] | None = None
    program: Program | None = None
    bonus: Callable[[int], int] | None = None  # auto-jokers on regular throws
    thief_off: bool = True  # section 3: jokers switch the thieving one off, as a rule
    toertchen: Toertchen = Toertchen.EACH_THROW
    needs_opponent: bool = False
    max_uses: int = 1


JOKERS: dict[JokerId, JokerSpec] = {spec.id: spec for spec in (
    JokerSpec(JokerId.JULE, "Jules Törtchen", Kind.AUTO,
              "+1 pip on every throw after the free throw", bonus=jule_bonus, thief_off=False),
    JokerSpec(JokerId.AHRI, "Ahris Tentakel", Kind.AUTO,
              "+5 pips on every 1 or 2 after the free throw; no thieving one",
              bonus=ahri_bonus),
    JokerSpec(JokerId.FUMO, "Fumo", Kind.ONE_THROW,
              "doubles every throw but the six until ended; suspends the Törtchen",
              throw_rule=fumo_rule, toertchen=Toertchen.NEVER),
    JokerSpec(JokerId.ALL_IN, "All In", Kind.ONE_THROW,
              "next throw 1-3 doubles the total, 4-6 loses everything",
              throw_rule=all_in_rule),
    JokerSpec(JokerId.VENTIL, "Elas' Ventil", Kind.ONE_THROW,
              "secures the total against the six (not against All In); ends the round if a six "
              "falls", thief_off=False),
    JokerSpec(JokerId.HIRTE, "Hirtenschutz", Kind.ONE_THROW,
              "next throw doubled, six included", throw_rule=hirte_rule),
    JokerSpec(JokerId.KAELTE, "Kälteschutz", Kind.ONE_THROW,
              "up to five uses: a throw above the use count is added, otherwise subtracted; "
              "a six is added and spends it", throw_rule=kaelte_rule, max_uses=KAELTE_MAX_USES),
    JokerSpec(JokerId.SPELUNKE, "Spelunkenbold", Kind.ONE_THROW,
              "next throw 1-5 gives +5 more, a six costs 3", throw_rule=spelunke_rule),
    JokerSpec(JokerId.MONOKEL, "Moes Monokel", Kind.MULTI_THROW,
              "two throws, each may be thrown again once", program=monokel_program,
              toertchen=Toertchen.AFTER_ALL),
    JokerSpec(JokerId.PONY, "Pony Pusher", Kind.MULTI_THROW,
              "three throws: 11 or more are added, otherwise -3", program=pony_program,
              toertchen=Toertchen.AFTER_ALL),
    JokerSpec(JokerId.OCE, "Anaconda (Oce)", Kind.MULTI_THROW,
              "beat the Anaconda's throw: throw + 12, else -10; dodging costs 2",
              program=oce_program, toertchen=Toertchen.AFTER_ALL),
    JokerSpec(JokerId.RATTE, "Rattenlord", Kind.MULTI_THROW,
              "a 5 or 6 in two throws gives +18, else -10; retreating costs 2",
              program=ratte_program, toertchen=Toertchen.AFTER_ALL),
    JokerSpec(JokerId.SEKANTE, "Senigmas Sekante", Kind.MULTI_THROW,
              "five throws against a chosen opponent, 2 pips per duel won or lost",
              program=sekante_program, toertchen=Toertchen.AFTER_ALL, needs_opponent=True),
    JokerSpec(JokerId.HOESCHEN, "Cherrys Höschen", Kind.MULTI_THROW,
              "four attempts at 3+, Cherry counters with 5-6; +3 per success kept",
              program=hoeschen_program, toertchen=Toertchen.AFTER_ALL),
    JokerSpec(JokerId.RUNKELRUEB, "Runkelrüb", Kind.AUTO,
              "when the six strikes: two throws, a 3+ makes the six void (and Fumo's doublings)",
              program=runkelrueb_program, thief_off=False, toertchen=Toertchen.NEVER),
)}

#: The jokers a player names to the croupier (the auto-jokers are never announced).
ANNOUNCED = tuple(j for j in JokerId if JOKERS[j].kind is not Kind.AUTO)
MAX_CHOSEN = 3


def joker_name(joker: JokerId) -> str:
    return JOKERS[joker].name
