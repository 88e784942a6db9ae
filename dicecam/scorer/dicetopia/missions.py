"""The 40 Dicetopia mission cards (rulebook section 8) as a data table: id -> pure function.

Each plain card is a function ``(view, me) -> stars`` over the table at scoring time
(``ScoringView``). "Your dice" are the dice on your faction board (section 9: "Würfel auf
deiner Fraktionstafel, aber nicht in Bezirken, die du kontrollierst"). Two cards need more
than the table: TRITTBRETTGÄNGER copies another player's card and RISIKO scores a card drawn
at random; their kind says so and the scoring engine resolves them (``scoring.py``).

A card's id is its title exactly as the rules file prints it, lower case, with ä->ae,
ö->oe, ü->ue, ß->ss and spaces -> "_"; PDF extraction garbled some titles
("STRASSENNYNTE", "NOTAALRESERVE", "TRITTBRETTGÄNGER", "KONTAMINIERTER WAREN"), and the ids
keep them as printed while ``name`` gives the corrected title.

Readings chosen where a card is ambiguous (each one is tested):

- "the most" / "the highest" / "the lowest" (WAFFENKAMMER, GELD REGIERT DIE WELT, INSIDER,
  NOTAALRESERVE, DISKRETION) compare the faction boards of all players. Players tied for
  first split the stars, rounded up, as section 6 splits a tied district. Having none of a
  colour is never "the most" of it.
- NOTAALRESERVE and DISKRETION compare pip totals of whole faction boards ("Augenzahl auf
  der Fraktionstafel", the same words section 6 uses for loot), not single dice; DISKRETION
  only counts players with at least one die on their board.
- Pairs (FÄLSCHUNG, REPLIK) are disjoint: three equal dice make one pair, four make two.
- ALLER GUTEN DINGE SIND DREI scores 8 once when at least three of your dice share a value
  (unlike the pair cards, it does not say "für jedes").
- "All your dice" cards (KLONE, EXZENTRIKER, PERFEKTIONIST) need at least one die on your
  board; "no die of ..." cards are true of an empty board, as written.
- DER GROSSE COUP needs six dice showing 1, 2, 3, 4, 5 and 6 (the only six consecutive values).
- INFILTRATION: 4 extra stars for each district you control alone; SPIONAGE: 4 for each
  district controlled by others only, in which you have at least one agent (a district you
  share control of is not "unter fremder Kontrolle").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from dicecam.messages import Catalogue, Message
from dicecam.scorer.dicetopia.messages import MISSION_NAMES_EN
from dicecam.scorer.dicetopia.model import DISTRICTS, Colour, Die, ScoringView, board_pips

MissionFn = Callable[[ScoringView, int], int]


class MissionKind(StrEnum):
    PLAIN = "plain"  # a pure function of the table
    COPY = "copy"  # TRITTBRETTGÄNGER: scores another player's card with your dice
    DRAW = "draw"  # RISIKO: scores a card drawn before final scoring, doubled


@dataclass(frozen=True)
class Mission:
    id: str
    title: str  # as printed in the rules file, garbling included
    name: str  # corrected display name
    rule: str  # the card's German text as printed
    reading: str  # how dicecam scores it, in English
    kind: MissionKind
    score: MissionFn | None  # None only for COPY and DRAW, which the engine resolves


def mission_id(title: str) -> str:
    """The id rule of issue 4: lower case, umlauts spelled out, ß->ss, spaces -> _."""
    text = title.lower()
    for old, new in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss"), (" ", "_")):
        text = text.replace(old, new)
    return text


def _mine(view: ScoringView, me: int) -> tuple[Die, ...]:
    return view.boards[me]


def _split_first(values: list[int], me: int, stars: int, *, lowest: bool = False) -> int:
    """``stars`` for the player whose value is best; tied players split, rounded up."""
    best = min(values) if lowest else max(values)
    if values[me] != best:
        return 0
    winners = sum(1 for v in values if v == best)
    return -(-stars // winners)


def _most_colour(colour: Colour, stars: int) -> MissionFn:
    def score(view: ScoringView, me: int) -> int:
        counts = [sum(d.colour is colour for d in board) for board in view.boards]
        if counts[me] == 0:
            return 0
        return _split_first(counts, me, stars)

    return score


def _no_colour(colour: Colour, stars: int) -> MissionFn:
    def score(view: ScoringView, me: int) -> int:
        return 0 if any(d.colour is colour for d in _mine(view, me)) else stars

    return score


def _per_own_colour(colour: Colour, stars: int) -> MissionFn:
    def score(view: ScoringView, me: int) -> int:
        return stars * sum(d.colour is colour for d in _mine(view, me))

    return score


def _per_map_colour(colour: Colour, stars: int) -> MissionFn:
    def score(view: ScoringView, me: int) -> int:
        return stars * sum(d.colour is colour for d in view.map_dice)

    return score


def _per_own_value(value: int, stars: int) -> MissionFn:
    def score(view: ScoringView, me: int) -> int:
        return stars * sum(d.value == value for d in _mine(view, me))

    return score


def _no_value(value: int, stars: int) -> MissionFn:
    def score(view: ScoringView, me: int) -> int:
        return 0 if any(d.value == value for d in _mine(view, me)) else stars

    return score


def _faelschung(view: ScoringView, me: int) -> int:
    return 4 * sum(n // 2 for n in Counter(d.value for d in _mine(view, me)).values())


def _replik(view: ScoringView, me: int) -> int:
    return 7 * sum(n // 2 for n in Counter(_mine(view, me)).values())


def _drei(view: ScoringView, me: int) -> int:
    counts = Counter(d.value for d in _mine(view, me))
    return 8 if counts and max(counts.values()) >= 3 else 0


def _klone(view: ScoringView, me: int) -> int:
    values = {d.value for d in _mine(view, me)}
    return 18 if len(values) == 1 else 0


def _grosser_coup(view: ScoringView, me: int) -> int:
    return 25 if sorted(d.value for d in _mine(view, me)) == [1, 2, 3, 4, 5, 6] else 0


def _alleskoenner(view: ScoringView, me: int) -> int:
    return 8 if {d.colour for d in _mine(view, me)} == set(Colour) else 0


def _all_parity(remainder: int) -> MissionFn:
    def score(view: ScoringView, me: int) -> int:
        board = _mine(view, me)
        return 10 if board and all(d.value % 2 == remainder for d in board) else 0

    return score


def _notfallreserve(view: ScoringView, me: int) -> int:
    if not _mine(view, me):
        return 0
    return _split_first([board_pips(b) for b in view.boards], me, 10)


def _diskretion(view: ScoringView, me: int) -> int:
    if not _mine(view, me):
        return 0
    # an empty board (a game still being entered) is not "the lowest"
    totals = [board_pips(b) if b else 10**6 for b in view.boards]
    return _split_first(totals, me, 14, lowest=True)


def _infiltration(view: ScoringView, me: int) -> int:
    return 4 * sum(1 for c in view.controllers if c == frozenset({me}))


def _spionage(view: ScoringView, me: int) -> int:
    return 4 * sum(
        1
        for controllers, agents in zip(view.controllers, view.agents, strict=True)
        if controllers and me not in controllers and agents[me] >= 1
    )


def _dominanz(view: ScoringView, me: int) -> int:
    return 10 * sum(1 for agents in view.agents if agents[me] >= 3)


def _spezialagenten(view: ScoringView, me: int) -> int:
    placed = sum(1 for agents in view.agents if agents[me] >= 1)
    return 10 if placed == len(DISTRICTS) else 0


P, W, T = Colour.PURPLE, Colour.WHITE, Colour.TURQUOISE
_PLAIN = MissionKind.PLAIN

# (printed title, corrected name, printed rule, reading, kind, function)
_CARDS: tuple[tuple[str, str, str, str, MissionKind, MissionFn | None], ...] = (
    ("WAFFENKAMMER", "Waffenkammer", "12 ★ für die meisten lilafarbenen Würfel",
     "12 for the most purple dice on a faction board (ties split, rounded up)",
     _PLAIN, _most_colour(P, 12)),
    ("GELD REGIERT DIE WELT", "Geld regiert die Welt", "12 ★ für die meisten weißen Würfel",
     "12 for the most white dice on a faction board (ties split, rounded up)",
     _PLAIN, _most_colour(W, 12)),
    ("INSIDER", "Insider", "12 ★ für die meisten türkisfarbenen Würfel",
     "12 for the most turquoise dice on a faction board (ties split, rounded up)",
     _PLAIN, _most_colour(T, 12)),
    ("PAZIFIST", "Pazifist", "9 ★, wenn du keine lilafarbenen Würfel hast",
     "9 if your board has no purple die", _PLAIN, _no_colour(P, 9)),
    ("FALSCHGELD", "Falschgeld", "9 ★, wenn du keinen weißen Würfel hast",
     "9 if your board has no white die", _PLAIN, _no_colour(W, 9)),
    ("FEHLINFORMATION", "Fehlinformation", "9 ★, wenn du keinen türkisfarbenen Würfel hast",
     "9 if your board has no turquoise die", _PLAIN, _no_colour(T, 9)),
    ("SCHMUGGLER", "Schmuggler", "3 ★ für jeden deiner lilafarbenen Würfel",
     "3 per purple die on your board", _PLAIN, _per_own_colour(P, 3)),
    ("GELDWÄSCHE", "Geldwäsche", "3 ★ für jeden deiner weißen Würfel",
     "3 per white die on your board", _PLAIN, _per_own_colour(W, 3)),
    ("VERRÄTER", "Verräter", "3 ★ für jeden deiner türkisfarbenen Würfel",
     "3 per turquoise die on your board", _PLAIN, _per_own_colour(T, 3)),
    ("TOTER BRIEFKASTEN", "Toter Briefkasten", "4 ★ für jeden weißen Würfel auf dem Spielplan",
     "4 per white die left in the districts", _PLAIN, _per_map_colour(W, 4)),
    ("BÜRGERWEHR", "Bürgerwehr", "4 ★ für jeden lilafarbenen Würfel auf dem Stadtplan",
     "4 per purple die left in the districts", _PLAIN, _per_map_colour(P, 4)),
    ("GEHEIMKAMMERN", "Geheimkammern", "4 ★ für jeden türkisfarbenen Würfel auf dem Stadtplan",
     "4 per turquoise die left in the districts", _PLAIN, _per_map_colour(T, 4)),
    ("WENIGER IST MEHR", "Weniger ist mehr", "8 ★ für jeden deiner Würfel mit Wert 1",
     "8 per 1 on your board", _PLAIN, _per_own_value(1, 8)),
    ("LANGSAM ABER STETIG", "Langsam aber stetig", "7 ★ für jeden deiner Würfel mit Wert 2",
     "7 per 2 on your board", _PLAIN, _per_own_value(2, 7)),
    ("STRASSENNYNTE", "Straßenmünze", "6 ★ für jeden deiner Würfel mit Wert 3",
     "6 per 3 on your board (title garbled in the rules file; name reconstructed)",
     _PLAIN, _per_own_value(3, 6)),
    ("GLÜCKSKLEE", "Glücksklee", "5 ★ für jeden deiner Würfel mit Wert 4",
     "5 per 4 on your board", _PLAIN, _per_own_value(4, 5)),
    ("IM GROSSEN STIL", "Im großen Stil", "4 ★ für jeden deiner Würfel mit Wert 5",
     "4 per 5 on your board", _PLAIN, _per_own_value(5, 4)),
    ("MEHR IST BESSER", "Mehr ist besser", "4 ★ für jeden deiner Würfel mit Wert 6",
     "4 per 6 on your board", _PLAIN, _per_own_value(6, 4)),
    ("KEIN KLEINGELD", "Kein Kleingeld", "9 ★, wenn du keinen Würfel mit Wert 1 hast",
     "9 if your board has no 1", _PLAIN, _no_value(1, 9)),
    ("KONTAMINIERTER WAREN", "Kontaminierte Waren", "8 ★, wenn du keinen Würfel mit Wert 2 hast",
     "8 if your board has no 2", _PLAIN, _no_value(2, 8)),
    ("ALLES ODER NICHTS", "Alles oder nichts", "8 ★, wenn du keinen Würfel mit Wert 3 hast",
     "8 if your board has no 3", _PLAIN, _no_value(3, 8)),
    ("UNSICHTBAR", "Unsichtbar", "9 ★, wenn du keinen Würfel mit Wert 4 hast",
     "9 if your board has no 4", _PLAIN, _no_value(4, 9)),
    ("RISIKOMANAGEMENT", "Risikomanagement", "11 ★, wenn du keinen Würfel mit Wert 5 hast",
     "11 if your board has no 5", _PLAIN, _no_value(5, 11)),
    ("UNTER DEM RADAR", "Unter dem Radar", "12 ★, wenn du keinen Würfel mit Wert 6 hast",
     "12 if your board has no 6", _PLAIN, _no_value(6, 12)),
    ("FÄLSCHUNG", "Fälschung", "4 ★ für jedes Würfelpaar mit gleicher Augenzahl",
     "4 per pair of equal values on your board; pairs are disjoint (three equal dice make "
     "one pair)", _PLAIN, _faelschung),
    ("REPLIK", "Replik", "7 ★ für jedes identische Würfelpaar (Augen und Farbe)",
     "7 per pair of dice equal in colour and value on your board; pairs are disjoint",
     _PLAIN, _replik),
    ("ALLER GUTEN DINGE SIND DREI", "Aller guten Dinge sind drei",
     "8 ★ für drei Würfel mit gleichem Wert",
     "8, once, if at least three dice on your board share a value", _PLAIN, _drei),
    ("KLONE", "Klone", "18 ★, wenn alle deine Würfel denselben Wert haben",
     "18 if every die on your (non-empty) board shows the same value", _PLAIN, _klone),
    ("DER GROSSE COUP", "Der große Coup", "25 ★ für sechs aufeinander folgende, eigene Würfel",
     "25 if your six dice show 1, 2, 3, 4, 5 and 6", _PLAIN, _grosser_coup),
    ("ALLESKÖNNER", "Alleskönner", "8 ★, wenn du Würfel aller Farben hast",
     "8 if your board has a purple, a white and a turquoise die", _PLAIN, _alleskoenner),
    ("EXZENTRIKER", "Exzentriker", "10 ★, wenn deine Würfel nur ungerade Augenzahlen haben",
     "10 if every die on your (non-empty) board is odd", _PLAIN, _all_parity(1)),
    ("PERFEKTIONIST", "Perfektionist", "10 ★, wenn deine Würfel nur gerade Augenzahlen haben",
     "10 if every die on your (non-empty) board is even", _PLAIN, _all_parity(0)),
    ("NOTAALRESERVE", "Notfallreserve", "10 ★ für die höchste Augenzahl auf der Fraktionstafel",
     "10 for the highest pip total on a faction board (ties split, rounded up)",
     _PLAIN, _notfallreserve),
    ("DISKRETION", "Diskretion", "14 ★ für die niedrigste Augenzahl auf der Fraktionstafel",
     "14 for the lowest pip total on a faction board (ties split, rounded up)",
     _PLAIN, _diskretion),
    ("TRITTBRETTGÄNGER", "Trittbrettfahrer",
     "Kopiere eine beliebige Missionskarte eines anderen Spielers. Werte sie mit deinen "
     "Würfeln und Agenten aus",
     "scores one mission card held by another player with your own dice and agents; give the "
     "card or the engine picks the best one (never another TRITTBRETTGÄNGER)",
     MissionKind.COPY, None),
    ("RISIKO", "Risiko",
     "Ziehe vor der Endwertung eine zufällige Missionskarte. Du bekommst bei Erfolg der "
     "Mission doppelt so viele Punkte wie auf der Karte angegeben sind",
     "scores the card drawn before final scoring twice over (0 when that card scores 0); the "
     "drawn card is an input",
     MissionKind.DRAW, None),
    ("INFILTRATION", "Infiltration",
     "4 zusätzliche ★ für kontrollierte Bezirke (nicht bei Gleichstand)",
     "4 per district you control alone (a district won through Bingmai's decision counts)",
     _PLAIN, _infiltration),
    ("SPIONAGE", "Spionage",
     "4 ★ für jeden Bezirk unter fremder Kontrolle mit mindestens einem eigenen Agenten",
     "4 per district controlled only by others in which you have at least one agent",
     _PLAIN, _spionage),
    ("DOMINANZ", "Dominanz", "10 ★ für jeden Bezirk mit mindestens drei eigenen Agenten",
     "10 per district holding at least three of your agents", _PLAIN, _dominanz),
    ("SPEZIALAGENTEN", "Spezialagenten",
     "10 ★, wenn du deine Agenten in jedem Bezirk platziert hast",
     "10 if you have an agent in each of the six districts", _PLAIN, _spezialagenten),
)

#: mission id -> card, in the order section 8 prints them
MISSIONS: dict[str, Mission] = {
    mission_id(title): Mission(mission_id(title), title, name, rule, reading, kind, fn)
    for title, name, rule, reading, kind, fn in _CARDS
}

COPY_MISSION = mission_id("TRITTBRETTGÄNGER")
DRAW_MISSION = mission_id("RISIKO")


#: how dicecam scores a card, in German, where the printed text leaves out what the English
#: reading says (ties, pairs, an empty board): the tablet shows German players the same rule
#: English players read. A card not named here is scored as printed.
MISSION_READINGS_DE: dict[str, str] = {
    "waffenkammer": "12 ★ für die meisten lilafarbenen Würfel auf einer Fraktionstafel "
                    "(bei Gleichstand geteilt, aufgerundet)",
    "geld_regiert_die_welt": "12 ★ für die meisten weißen Würfel auf einer Fraktionstafel "
                             "(bei Gleichstand geteilt, aufgerundet)",
    "insider": "12 ★ für die meisten türkisfarbenen Würfel auf einer Fraktionstafel "
               "(bei Gleichstand geteilt, aufgerundet)",
    "notaalreserve": "10 ★ für die höchste Augensumme auf einer Fraktionstafel "
                     "(bei Gleichstand geteilt, aufgerundet)",
    "diskretion": "14 ★ für die niedrigste Augensumme auf einer Fraktionstafel "
                  "(bei Gleichstand geteilt, aufgerundet)",
    "toter_briefkasten": "4 ★ für jeden weißen Würfel, der in den Bezirken liegt",
    "faelschung": "4 ★ für jedes Würfelpaar mit gleicher Augenzahl auf deiner Tafel; jeder "
                  "Würfel zählt in höchstens einem Paar (drei gleiche ergeben ein Paar)",
    "replik": "7 ★ für jedes Würfelpaar gleicher Farbe und Augenzahl auf deiner Tafel; jeder "
              "Würfel zählt in höchstens einem Paar",
    "aller_guten_dinge_sind_drei": "8 ★, einmal, wenn mindestens drei Würfel deiner Tafel "
                                   "denselben Wert haben",
    "klone": "18 ★, wenn alle Würfel deiner (nicht leeren) Tafel denselben Wert haben",
    "der_grosse_coup": "25 ★, wenn deine sechs Würfel 1, 2, 3, 4, 5 und 6 zeigen",
    "exzentriker": "10 ★, wenn alle Würfel deiner (nicht leeren) Tafel ungerade sind",
    "perfektionist": "10 ★, wenn alle Würfel deiner (nicht leeren) Tafel gerade sind",
    "trittbrettgaenger": "Kopiere eine Missionskarte eines anderen Spielers und werte sie mit "
                         "deinen Würfeln und Agenten; ohne Angabe wählt dicecam die beste "
                         "(nie einen anderen Trittbrettfahrer)",
    "risiko": "Ziehe vor der Endwertung eine zufällige Missionskarte: sie zählt doppelt (0, "
              "wenn sie nichts bringt); die gezogene Karte wird eingegeben",
    "infiltration": "4 ★ für jeden Bezirk, den du allein kontrollierst (nicht bei "
                    "Gleichstand; ein durch Bingmais Entscheidung gewonnener Bezirk zählt)",
    "spezialagenten": "10 ★, wenn du in jedem der sechs Bezirke einen Agenten hast",
}


#: each card's name as a message: English (``MISSION_NAMES_EN``) or the card's German title
MISSION_NAMES = Catalogue({f"dt.mission.{m.id}": {"en": MISSION_NAMES_EN[m.id], "de": m.name}
                           for m in MISSIONS.values()})


def mission_name(mission: str) -> Message:
    """A mission card's name in the player's language (never its id)."""
    return MISSION_NAMES(f"dt.mission.{mission}")
