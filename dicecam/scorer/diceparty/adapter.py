"""A settled roll -> the Dice Party throw the game waits for.

Zones are named after the players ("Anna", or "party:anna" as ``dicecam calibrate zones``
suggests; the tablet draws them named "Anna"); a die counts for a party when it lies in
that player's zone, and its colour gives the guest kind (yellow Party People, orange VIP,
red Mob). Dice outside the parties' zones (the counter die, the stock) are ignored.

A table with no zone map (no die carries a zone) still plays: a party is thrown one player
at a time, so while the game waits for one player's throw, the settled dice are that
player's throw; in the preparty, the next party still to throw (in seat order). With zones,
the preparty takes the throws of the parties whose zones hold dice.

The game also knows how many dice of each colour a throw must show (the thrower's party),
so ``colour_groups`` hands those counts to the colour decision
(``dicecam.scorer.colour_counts``) before the throw is read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dicecam.errors import InputError
from dicecam.messages import Message
from dicecam.reading import DieReading
from dicecam.scorer.descriptor import ThrowDue
from dicecam.scorer.diceparty import rules
from dicecam.scorer.diceparty.messages import MESSAGES
from dicecam.scorer.diceparty.verdict import (
    COLOUR_OF,
    KIND_OF_COLOUR,
    KINDS,
    MILLIONAIRE_UNCONTESTED,
    Die,
    Kind,
)

#: the level the demo's staged millionaire shows its VIPs at
MILLIONAIRE_LEVEL = 6


def action_from_roll(state: rules.State, dice: Sequence[DieReading]) -> rules.Action | None:
    """The preparty throw or the active player's throw; None when no throw is due."""
    throws = thrown_dice(state, dice)
    if throws is None:
        return None
    parties = tuple((name, _party_dice(dice, indices, name)) for name, indices in throws.items())
    if state.phase == rules.Phase.PREPARTY:
        return rules.PrepartyThrow(parties)
    return rules.Throw(parties[0][1])


#: a zone map's drawn areas for the parties are named "party:NAME" by convention
#: (docs/calibration.md); a zone named just like the player counts too
PARTY_ZONE_PREFIX = "party:"


def zone_owner(zone: str | None, player: str) -> bool:
    """Whether a die in ``zone`` lies in ``player``'s party area (names compared as a
    person would: "party:anna" is Anna's)."""
    if not zone:
        return False
    name = zone[len(PARTY_ZONE_PREFIX):] if zone.startswith(PARTY_ZONE_PREFIX) else zone
    return name.casefold() == player.casefold()


def thrown_dice(state: rules.State, dice: Sequence[DieReading]) -> dict[str, list[int]] | None:
    """Which dice (their indices) are whose throw now; None when no throw is due."""
    unzoned = not any(d.zone for d in dice)  # no zone map: the dice are the thrower's
    if state.phase == rules.Phase.PREPARTY:
        if unzoned:
            return {rules.preparty_next(state): list(range(len(dice)))} if dice else None
        throws = {name: [i for i, d in enumerate(dice) if zone_owner(d.zone, name)]
                  for name in rules.preparty_waiting(state)}
        return {name: indices for name, indices in throws.items() if indices} or None
    if state.phase == rules.Phase.THROW:
        assert state.active is not None
        name = state.players[state.active].name
        if unzoned:
            return {name: list(range(len(dice)))}
        return {name: [i for i, d in enumerate(dice) if zone_owner(d.zone, name)]}
    return None


def throw_due(state: rules.State) -> ThrowDue | None:
    """The party the game waits to see thrown: the next preparty throw or the active
    player's turn. A party is thrown whole, by itself: nothing to choose first.

    Random dice seldom bring a millionaire, so the demo table would never show one: a
    party thrown with at least four VIPs, by a player not yet rich, shows its VIPs at level
    6 and its Mobs below it (the rulebook's "4 VIPs of one level and no Mob of it"); its
    Party People still fall as they may. The demo is the only one throwing what this says."""
    if state.phase == rules.Phase.PREPARTY:
        name = rules.preparty_next(state)
    elif state.phase == rules.Phase.THROW and state.active is not None:
        name = state.players[state.active].name
    else:
        return None
    player = next(p for p in state.players if p.name == name)
    party = player.party
    colours = tuple(COLOUR_OF[kind] for kind in KINDS for _ in range(party[kind]))
    if (state.phase != rules.Phase.THROW or party[Kind.VIP] < MILLIONAIRE_UNCONTESTED
            or rules.Victory.MILLIONAIRE in player.wins):
        return ThrowDue.of(colours, by_itself=True)
    staged = {Kind.PARTY_PEOPLE: lambda k: None, Kind.VIP: lambda k: MILLIONAIRE_LEVEL,
              Kind.MOB: lambda k: 1 + k % (MILLIONAIRE_LEVEL - 1)}
    values = tuple(staged[kind](k) for kind in KINDS for k in range(party[kind]))
    return ThrowDue(colours, values, by_itself=True)


def colour_groups(state: rules.State, dice: Sequence[DieReading]
                  ) -> list[tuple[list[int], Mapping[str, int]]]:
    """Each throw's dice with the number of dice of each colour its party holds."""
    throws = thrown_dice(state, dice) or {}
    parties = {p.name: p.party for p in state.players}
    return [(indices, {COLOUR_OF[kind]: parties[name][kind] for kind in KINDS})
            for name, indices in throws.items() if indices]


def _party_dice(dice: Sequence[DieReading], indices: Sequence[int], zone: str
                ) -> tuple[Die, ...]:
    found = []
    for i in indices:
        die = dice[i]
        if die.value is None:
            raise InputError(MESSAGES("dp.unread", player=zone))
        if die.colour not in KIND_OF_COLOUR:
            raise InputError(MESSAGES("dp.wrong_colour", player=zone, colour=str(die.colour),
                                      colours=tuple(KIND_OF_COLOUR)))
        found.append(Die(KIND_OF_COLOUR[die.colour], die.value))
    return tuple(found)


def roll_summary(state: rules.State, dice: Sequence[DieReading], status: str
                 ) -> Message | None:
    """What the dice just seen count as, judged on ``state`` (the state the roll came in):
    whose party or preparty throw, and whether it was scored, waits for a check, or was
    refused (the refusal's reason is shown beside it). ``status`` is the roll's status in
    the web app: "applied", "pending", "refused" (waiting, with the rules' reason shown
    beside) or "shown"."""
    if status == "shown":
        return MESSAGES("dp.roll.ignored", n=len(dice))
    try:
        throws = thrown_dice(state, dice)
    except InputError:
        throws = None
    if not throws:
        return MESSAGES("dp.roll.ignored", n=len(dice))
    names = tuple(throws)
    whose = MESSAGES("dp.whose.preparty" if state.phase == rules.Phase.PREPARTY
                     else "dp.whose.party", players=names)
    counted = sum(len(indices) for indices in throws.values())
    seen = (MESSAGES("dp.seen", n=len(dice)) if counted == len(dice)
            else MESSAGES("dp.seen_in_zones", n=len(dice), k=counted, players=names))
    if status == "applied":
        return MESSAGES("dp.roll.scored", seen=seen, whose=whose)
    if status == "refused":
        return MESSAGES("dp.roll.refused", seen=seen, whose=whose)
    return MESSAGES("dp.roll.check", seen=seen, whose=whose)


def counter_die(state: rules.State, dice: Sequence[DieReading]) -> int | None:
    """The die of a roll that is the thrower's wallet counter die, when the camera saw it
    with the throw (it lies beside the party, or in its zone): the throw shows exactly one
    Party People too many, and a yellow die shows the counter's value. Of those, the one
    farthest from the rest of the throw (the counter die lies aside). None otherwise: the
    rules' refusal then says what is wrong with the throw."""
    if state.phase != rules.Phase.THROW or state.active is None:
        return None
    if state.players[state.active].counter_die is None:  # no wallet stolen yet
        return None
    throws = thrown_dice(state, dice)
    if not throws:
        return None
    (name, indices), = throws.items()
    player = next(p for p in state.players if p.name == name)
    shown = {colour: sum(1 for i in indices if dice[i].colour == colour)
             for colour in KIND_OF_COLOUR}
    wanted = {COLOUR_OF[kind]: player.party[kind] for kind in KINDS}
    wanted[COLOUR_OF[Kind.PARTY_PEOPLE]] += 1
    if shown != wanted or len(indices) != sum(wanted.values()):
        return None
    yellow = COLOUR_OF[Kind.PARTY_PEOPLE]
    candidates = [i for i in indices
                  if dice[i].colour == yellow and dice[i].value == player.counter_die]
    if not candidates:
        return None

    def apart(i: int) -> float:
        others = [dice[k] for k in indices if k != i]
        if not others:
            return 0.0
        cx = sum(d.x for d in others) / len(others)
        cy = sum(d.y for d in others) / len(others)
        return (dice[i].x - cx) ** 2 + (dice[i].y - cy) ** 2

    return max(candidates, key=apart)


def aside_dice(state: rules.State, dice: Sequence[DieReading]) -> tuple[tuple[int, Message], ...]:
    """Dice of a roll that are no part of the throw, each with the sentence of the button
    that leaves it out (one tap): the thrower's counter die."""
    index = counter_die(state, dice)
    if index is None:
        return ()
    assert state.active is not None
    player = state.players[state.active]
    return ((index, MESSAGES("dp.aside.counter_die", player=player.name,
                             value=player.counter_die or 0, wallets=player.wallets)),)
