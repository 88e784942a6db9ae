"""A Dice Party game played to big parties: the demo's full-party game and the benchmarks of big
throws.

The camera's values are inputs, so a benchmark can choose them: Party People show 6 and
Mobs 1 (no escalation), VIPs are spread over the levels so that no level makes a
millionaire, nobody pickpockets or provokes, and each growth takes the option that adds
the most guests. Turn by turn the parties grow until each holds at least ``size`` dice
(or the stock runs out). The actions are returned as JSON, ready for a session.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from dicecam.reading import DieReading
from dicecam.scorer.diceparty import codec, rules
from dicecam.scorer.diceparty.verdict import (
    COLOUR_OF,
    KIND_OF_COLOUR,
    MILLIONAIRE_ALONE,
    MILLIONAIRE_UNCONTESTED,
    Die,
    GrowthOption,
    Kind,
)

#: VIPs spread over six levels without a millionaire: three a level, four where a Mob is
MAX_VIPS = 5 * (MILLIONAIRE_UNCONTESTED - 1) + min(MILLIONAIRE_UNCONTESTED, MILLIONAIRE_ALONE - 1)
#: the most dice a party this game reaches (20 Party People, the VIPs above, 20 Mobs)
MAX_PARTY = 20 + MAX_VIPS + 20


def grown_parties(players: list[str], size: int, max_turns: int = 400
                  ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(config, JSON actions) of a game whose parties hold at least ``size`` dice each
    (at most ``MAX_PARTY``), with the next throw due."""
    config = {"players": players}
    state = codec.new_game(config)
    actions: list[dict[str, Any]] = []

    def act(action: Any) -> None:
        nonlocal state
        state = rules.apply(state, action)
        actions.append(codec.action_to_json(action))

    act(rules.PrepartyThrow(tuple(
        (name, _values(state.players[i].party, first=i == 0))
        for i, name in enumerate(players))))
    grown_to: dict[int | None, list[int]] = {}
    for _ in range(max_turns):
        sizes = [p.party.total for p in state.players]
        if state.phase == rules.Phase.THROW and (min(sizes) >= min(size, MAX_PARTY)
                                                 or sizes == grown_to.get(state.active)):
            break  # big enough, or this party stopped growing (a full round without growth)
        if state.phase == rules.Phase.THROW:
            grown_to[state.active] = sizes
        if state.phase == rules.Phase.THROW:
            assert state.active is not None
            act(rules.Throw(_values(state.players[state.active].party)))
        elif state.phase == rules.Phase.PICKPOCKET:
            act(rules.Pickpocket(0))
        elif state.phase == rules.Phase.PROVOKE:
            act(rules.Provoke(0))
        elif state.phase == rules.Phase.GROW:
            options = rules.growth_options(state)
            assert state.active is not None
            vips = state.players[state.active].party.vip
            allowed = [o for o in options if o != GrowthOption.VIP
                       or vips + options[o].new_guests <= MAX_VIPS] or list(options)
            best = max(allowed, key=lambda o: options[o].new_guests + options[o].mobs.added)
            act(rules.Grow(GrowthOption(best)))
        else:
            break
    return config, actions


def _values(party: Any, first: bool = False) -> tuple[Die, ...]:
    """A party's dice with values that neither escalate nor make a millionaire."""
    dice = [Die(Kind.PARTY_PEOPLE, 6 if first else 5) for _ in range(party.party_people)]
    levels: Counter = Counter()
    mobs = party.mob
    for _ in range(party.vip):
        # the level with fewest VIPs, never as many as make a millionaire (a Mob shares
        # level 1 when there is one, which allows one VIP more there)
        level = min(range(1, 7), key=lambda lv: (levels[lv], -lv))
        cap = MILLIONAIRE_UNCONTESTED if (level == 1 and mobs) else MILLIONAIRE_UNCONTESTED - 1
        if levels[level] >= cap:
            level = 1
        levels[level] += 1
        dice.append(Die(Kind.VIP, level))
    dice += [Die(Kind.MOB, 1) for _ in range(mobs)]
    return tuple(dice)


def quiet_throw(colours: Sequence[str | None]) -> tuple[DieReading, ...]:
    """The dice of a throw of a party of these colours (the demo's ``throw_due``) as a
    hand-entered roll that neither escalates nor makes a millionaire: what a bench's
    players type in when the camera's reading of a throw was asked and not confirmed."""
    counts = Counter(KIND_OF_COLOUR[colour] for colour in colours)
    party = SimpleNamespace(party_people=counts[Kind.PARTY_PEOPLE], vip=counts[Kind.VIP],
                            mob=counts[Kind.MOB])
    return tuple(DieReading(x=40.0 + 70 * (i % 8), y=40.0 + 70 * (i // 8), w=50.0, h=50.0,
                            value=d.pips, colour=COLOUR_OF[d.kind], confidence=1.0,
                            corrected=True)
                 for i, d in enumerate(_values(party)))


#: the dice each party of the demo's crowded game holds (54-die throws)
FULL_PARTY = 54


def full_parties(players: Sequence[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The demo's crowded Dice Party game: (config, actions) of a game of ``players``
    whose parties were grown to ``FULL_PARTY`` dice each."""
    return grown_parties(list(players), FULL_PARTY)
