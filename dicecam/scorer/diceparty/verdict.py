"""Dice Party: what one thrown party means (rulebook "Party!", steps 2-6, and the FAQ).

Pure functions over the dice of one party: the escalation check with the FAQ's grouping
("Party People/VIPs = Mobs" groups of equal level, and the Mobs no group covers), the
millionaire check, what pickpocketing and provoking may take, and both growth options with
the FAQ's stock shortfall rules. The game engine (``rules.py``) and the ``dicecam score
diceparty`` command share them, so the tablet and the command always agree.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations_with_replacement

from dicecam.messages import Message
from dicecam.scorer.diceparty.messages import MESSAGES

#: Dice of each colour in one player's set (rulebook "The Guests").
DICE_PER_COLOUR = 20
#: "minimum 5 VIPs have the same level" (step 3).
MILLIONAIRE_ALONE = 5
#: "minimum 4 VIPs have the same level and no Mob has this exact level" (step 3).
MILLIONAIRE_UNCONTESTED = 4
#: "totally boozy Party People (level 6)" may be pickpocketed (step 4).
PICKPOCKET_LEVEL = 6
#: "VIPs with level 4 or higher" may be provoked (step 5).
PROVOKE_MIN_LEVEL = 4
#: "For each 6 ... level points" one guest arrives (step 6).
GROWTH_POINTS = 6
#: "If minimum 2 guests hit the Party, additionally half as many Mobs appear" (step 6).
GROWTH_MOBS_FROM = 2
#: Largest exact group the escalation explanation looks for before merging the rest.
SMALL_GROUP_DICE = 4


class Kind(StrEnum):
    """The three guest kinds, named as in the JSON formats."""

    PARTY_PEOPLE = "party_people"
    VIP = "vip"
    MOB = "mob"


KINDS: tuple[Kind, ...] = (Kind.PARTY_PEOPLE, Kind.VIP, Kind.MOB)
GUEST_KINDS: tuple[Kind, ...] = (Kind.PARTY_PEOPLE, Kind.VIP)
#: Dice colour of each kind (rulebook "The Guests"); the camera reports colours.
COLOUR_OF: dict[Kind, str] = {Kind.PARTY_PEOPLE: "yellow", Kind.VIP: "orange", Kind.MOB: "red"}
KIND_OF_COLOUR: dict[str, Kind] = {colour: kind for kind, colour in COLOUR_OF.items()}
LABEL: dict[Kind, str] = {Kind.PARTY_PEOPLE: "Party People", Kind.VIP: "VIP", Kind.MOB: "Mob"}


class GrowthOption(StrEnum):
    """Step 6: a) a VIP per 6 Party People points, or b) a Party People per 6 VIP points."""

    VIP = "vip"
    PARTY_PEOPLE = "party_people"


@dataclass(frozen=True)
class Die:
    """One thrown guest: its kind and its level (the pips)."""

    kind: Kind
    pips: int

    def __post_init__(self) -> None:
        if not isinstance(self.kind, Kind):
            raise ValueError(f"Die.kind must be a Kind, got {self.kind!r}")
        if isinstance(self.pips, bool) or self.pips not in range(1, 7):
            raise ValueError(f"Die.pips must be 1-6, got {self.pips!r}")

    def __str__(self) -> str:
        return f"{LABEL[self.kind]} {self.pips}"


@dataclass(frozen=True)
class Counts:
    """How many dice of each kind (a party, a stock, or dice moved between them)."""

    party_people: int = 0
    vip: int = 0
    mob: int = 0

    def __getitem__(self, kind: Kind) -> int:
        return getattr(self, kind.value)

    def plus(self, kind: Kind, n: int) -> Counts:
        values = {k.value: self[k] for k in KINDS}
        values[kind.value] += n
        return Counts(**values)

    def add(self, other: Counts) -> Counts:
        return Counts(*(self[k] + other[k] for k in KINDS))

    def sub(self, other: Counts) -> Counts:
        return Counts(*(self[k] - other[k] for k in KINDS))

    @property
    def total(self) -> int:
        return sum(self[k] for k in KINDS)

    @property
    def guests(self) -> int:
        """Party People and VIPs: the guests that are not Mobs."""
        return self.party_people + self.vip

    @classmethod
    def of(cls, dice: Iterable[Die]) -> Counts:
        tally = Counter(d.kind for d in dice)
        return cls(*(tally[k] for k in KINDS))

    def to_json(self) -> dict[str, int]:
        return {k.value: self[k] for k in KINDS}


def full_stock_minus(party: Counts) -> Counts:
    """The stock when nothing but the party is out of the box (no counter die)."""
    return Counts(*(DICE_PER_COLOUR - party[k] for k in KINDS))


# --- step 2: escalation -------------------------------------------------------------------


@dataclass(frozen=True)
class Group:
    """Guests whose levels cover Mobs: exact when both sides have the same total."""

    guests: tuple[Die, ...]
    mobs: tuple[Die, ...]

    @property
    def guest_level(self) -> int:
        return sum(d.pips for d in self.guests)

    @property
    def mob_level(self) -> int:
        return sum(d.pips for d in self.mobs)

    @property
    def exact(self) -> bool:
        return self.guest_level == self.mob_level


@dataclass(frozen=True)
class Escalation:
    """Step 2's verdict with the FAQ's explanation.

    ``checked`` is False when no Mob is on the party (the rulebook checks only then).
    Every Mob is either in one of ``groups`` or in ``uncovered``; the party escalates
    exactly when some Mob is uncovered, which is exactly when ``mob_level > guest_level``.
    ``spare`` are guests that no group needed.
    """

    mob_level: int
    guest_level: int
    groups: tuple[Group, ...]
    uncovered: tuple[Die, ...]
    spare: tuple[Die, ...]
    checked: bool

    @property
    def escalated(self) -> bool:
        return self.mob_level > self.guest_level

    def explanation(self) -> Message:
        if not self.checked:
            return MESSAGES("dp.no_mob")
        if self.escalated:
            return MESSAGES("dp.escalated", mobs=self.mob_level, guests=self.guest_level,
                            uncovered=", ".join(str(d) for d in self.uncovered))
        return MESSAGES("dp.calm", mobs=self.mob_level, guests=self.guest_level)


def _by_level(dice: Iterable[Die]) -> list[Die]:
    # Highest level first; among equals VIPs before Party People so results are stable.
    return sorted(dice, key=lambda d: (-d.pips, d.kind != Kind.VIP))


def escalation(dice: Sequence[Die]) -> Escalation:
    """Check step 2 and explain it the FAQ's way.

    First the Mobs that cannot be covered are chosen (highest first, each kept covered
    while the guests' level still has room), so they are shown exactly when the party
    escalates. The covered Mobs are then matched with guests in small groups of equal
    level (one against one, then up to ``SMALL_GROUP_DICE`` dice), and whatever is left is
    merged in level order, closing a group whenever both sides are equal.
    """
    mobs = _by_level(d for d in dice if d.kind == Kind.MOB)
    guests = _by_level(d for d in dice if d.kind != Kind.MOB)
    mob_level = sum(d.pips for d in mobs)
    guest_level = sum(d.pips for d in guests)
    if not mobs:
        return Escalation(0, guest_level, (), (), tuple(guests), checked=False)

    room = guest_level
    covered: list[Die] = []
    uncovered: list[Die] = []
    for mob in mobs:
        if mob.pips <= room:
            covered.append(mob)
            room -= mob.pips
        else:
            uncovered.append(mob)

    groups, guests_left, mobs_left = _exact_small_groups(guests, covered)
    merged, spare = _merge_rest(guests_left, mobs_left)
    return Escalation(mob_level, guest_level, tuple(groups + merged), tuple(uncovered),
                      tuple(spare), checked=True)


def _combos_by_sum(n: int) -> dict[int, list[tuple[int, ...]]]:
    table: dict[int, list[tuple[int, ...]]] = {}
    for values in combinations_with_replacement(range(6, 0, -1), n):
        table.setdefault(sum(values), []).append(values)
    return table


# Level combinations of 1 to 3 dice, by their total, highest levels first.
_COMBOS = {n: _combos_by_sum(n) for n in range(1, SMALL_GROUP_DICE)}


def _exact_small_groups(
    guests: list[Die], mobs: list[Die]
) -> tuple[list[Group], list[Die], list[Die]]:
    pool_g: dict[int, list[Die]] = {v: [d for d in guests if d.pips == v] for v in range(1, 7)}
    pool_m: dict[int, list[Die]] = {v: [d for d in mobs if d.pips == v] for v in range(1, 7)}
    groups: list[Group] = []
    for size in range(2, SMALL_GROUP_DICE + 1):
        for n_guests in range(1, size):
            n_mobs = size - n_guests
            while True:
                found = _find_exact(pool_g, pool_m, n_guests, n_mobs)
                if found is None:
                    break
                g_values, m_values = found
                groups.append(Group(tuple(pool_g[v].pop(0) for v in g_values),
                                    tuple(pool_m[v].pop(0) for v in m_values)))
    rest_g = _by_level(d for v in pool_g for d in pool_g[v])
    rest_m = _by_level(d for v in pool_m for d in pool_m[v])
    return groups, rest_g, rest_m


def _available(pool: dict[int, list[Die]], values: tuple[int, ...]) -> bool:
    return all(len(pool[v]) >= values.count(v) for v in values)


def _find_exact(
    pool_g: dict[int, list[Die]], pool_m: dict[int, list[Die]], n_guests: int, n_mobs: int
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    if sum(map(len, pool_g.values())) < n_guests or sum(map(len, pool_m.values())) < n_mobs:
        return None
    for total, m_options in sorted(_COMBOS[n_mobs].items(), reverse=True):
        g_options = _COMBOS[n_guests].get(total, [])
        if not g_options:
            continue
        for m_values in m_options:
            if not _available(pool_m, m_values):
                continue
            for g_values in g_options:
                if _available(pool_g, g_values):
                    return g_values, m_values
    return None


def _merge_rest(guests: list[Die], mobs: list[Die]) -> tuple[list[Group], list[Die]]:
    # The mobs here are covered by construction: their total fits the guests' total, and
    # every closed group consumed equal levels on both sides, so a guest is always left
    # while the open group's Mobs outweigh its guests.
    groups: list[Group] = []
    g_i = m_i = 0
    cur_g: list[Die] = []
    cur_m: list[Die] = []
    while True:
        g_sum = sum(d.pips for d in cur_g)
        m_sum = sum(d.pips for d in cur_m)
        if cur_m and g_sum == m_sum:
            groups.append(Group(tuple(cur_g), tuple(cur_m)))
            cur_g, cur_m = [], []
        elif m_i < len(mobs) and (not cur_m or m_sum < g_sum):
            cur_m.append(mobs[m_i])
            m_i += 1
        elif cur_m and g_sum < m_sum:
            cur_g.append(guests[g_i])
            g_i += 1
        else:
            break
    if cur_m:
        groups.append(Group(tuple(cur_g), tuple(cur_m)))
        cur_g = []
    return groups, cur_g + guests[g_i:]


# --- step 3: millionaire ------------------------------------------------------------------


@dataclass(frozen=True)
class Millionaire:
    """Which VIP levels bring a millionaire, and why (five alike, or four with no Mob)."""

    levels: tuple[int, ...]
    reasons: tuple[Message, ...]

    @property
    def arrived(self) -> bool:
        return bool(self.levels)


def millionaire(dice: Sequence[Die]) -> Millionaire:
    vips = Counter(d.pips for d in dice if d.kind == Kind.VIP)
    mob_levels = {d.pips for d in dice if d.kind == Kind.MOB}
    levels: list[int] = []
    reasons: list[Message] = []
    for level in range(6, 0, -1):
        n = vips[level]
        if n >= MILLIONAIRE_ALONE:
            levels.append(level)
            reasons.append(MESSAGES("dp.millionaire_level", n=n, level=level))
        elif n >= MILLIONAIRE_UNCONTESTED and level not in mob_levels:
            levels.append(level)
            reasons.append(MESSAGES("dp.millionaire_level_no_mob", n=n, level=level))
    return Millionaire(tuple(levels), tuple(reasons))


# --- steps 4 and 5: what may be taken -----------------------------------------------------


def pickpocketable(dice: Sequence[Die]) -> int:
    """Party People at level 6: how many wallets may be stolen now."""
    return sum(1 for d in dice if d.kind == Kind.PARTY_PEOPLE and d.pips == PICKPOCKET_LEVEL)


def provokable(dice: Sequence[Die]) -> int:
    """VIPs at level 4 or higher: how many may be provoked now."""
    return sum(1 for d in dice if d.kind == Kind.VIP and d.pips >= PROVOKE_MIN_LEVEL)


def provoked_dice(dice: Sequence[Die], count: int) -> tuple[Die, ...]:
    """The ``count`` VIPs that leave: always the highest levels first (step 5)."""
    return tuple(_by_level(d for d in dice if d.kind == Kind.VIP)[:count])


def provoke_mobs(count: int, opponents: int) -> tuple[int, ...]:
    """Mobs per opponent in the chosen order: n, n-1, ... until every party got some or 0."""
    return tuple(count - i for i in range(min(count, opponents)))


def without(dice: Sequence[Die], taken: Iterable[Die]) -> tuple[Die, ...]:
    """``dice`` with one occurrence of each taken die removed."""
    rest = list(dice)
    for die in taken:
        rest.remove(die)
    return tuple(rest)


# --- step 6 and the FAQ's stock rules -----------------------------------------------------


@dataclass(frozen=True)
class MobArrival:
    """Mobs joining a party from its own stock, with the FAQ's shortfall rule.

    For each Mob missing from the stock a VIP leaves the party, or a Party People when no
    VIP is left; ``unfilled`` counts missing Mobs for which no guest was left to remove.
    """

    due: int
    added: int
    removed: Counts
    unfilled: int

    def apply(self, party: Counts, stock: Counts) -> tuple[Counts, Counts]:
        moved = Counts(mob=self.added)
        return (party.add(moved).sub(self.removed), stock.sub(moved).add(self.removed))


def mob_arrival(party: Counts, stock: Counts, due: int) -> MobArrival:
    added = min(due, stock.mob)
    missing = due - added
    vips = min(missing, party.vip)
    people = min(missing - vips, party.party_people)
    return MobArrival(due, added, Counts(people, vips, 0), missing - vips - people)


@dataclass(frozen=True)
class GrowthOutcome:
    """One growth option worked out before the player chooses it."""

    option: GrowthOption
    points: int
    due_guests: int
    new_guests: int
    mobs: MobArrival

    @property
    def kind(self) -> Kind:
        return Kind.VIP if self.option == GrowthOption.VIP else Kind.PARTY_PEOPLE

    def apply(self, party: Counts, stock: Counts) -> tuple[Counts, Counts]:
        moved = Counts().plus(self.kind, self.new_guests)
        return self.mobs.apply(party.add(moved), stock.sub(moved))


def growth_due_mobs(new_guests: int) -> int:
    return math.ceil(new_guests / 2) if new_guests >= GROWTH_MOBS_FROM else 0


def growth_outcome(dice: Sequence[Die], stock: Counts, option: GrowthOption) -> GrowthOutcome:
    """Work out one option on the party as it stands (after pickpocketing and provoking).

    a) counts the Party People's levels and brings VIPs; b) counts the VIPs' levels and
    brings Party People. A short stock brings fewer guests and so fewer Mobs (FAQ 3).
    """
    source = Kind.PARTY_PEOPLE if option == GrowthOption.VIP else Kind.VIP
    arriving = Kind.VIP if option == GrowthOption.VIP else Kind.PARTY_PEOPLE
    points = sum(d.pips for d in dice if d.kind == source)
    due = points // GROWTH_POINTS
    new = min(due, stock[arriving])
    party = Counts.of(dice).plus(arriving, new)
    mobs = mob_arrival(party, stock.plus(arriving, -new), growth_due_mobs(new))
    return GrowthOutcome(option, points, due, new, mobs)


def growth_outcomes(dice: Sequence[Die], stock: Counts) -> dict[GrowthOption, GrowthOutcome]:
    return {option: growth_outcome(dice, stock, option) for option in GrowthOption}
