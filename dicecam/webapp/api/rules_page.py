"""The short help per game that the page shows (the ? in the bar), in English and German,
and the rules page behind its link (``/rules/<game>``).

The rulebooks themselves are the publishers' texts and carry no licence to copy them (the
Dicetopia rulebook is "© All Or None Games"; the others state none), so dicecam does not
ship them: the rules page gives this help, the game's own data tables (V6's jokers,
Dicetopia's missions) and the rulebook's title, and shows the owner's copy of the
rulebook in full where one was put in ``$DICECAM_HOME/rulebooks/`` (``RULEBOOK_FILES``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dicecam.paths import dicecam_home
from dicecam.scorer.registry import get_game

LANGUAGES = ("en", "de")

#: what the players see on the table, step by step: {game: {lang: [(heading, text)]}}
HELP: dict[str, dict[str, list[tuple[str, str]]]] = {
    "diceparty": {
        "en": [
            ("The game", "Each player hosts a party of dice: yellow Party People, orange VIPs, "
             "red Mobs. The pips are a guest's level. Win by an escalation of every other "
             "party, by a millionaire, or with 6 wallets."),
            ("1 Throw", "The player whose turn it is throws the whole party. The camera reads "
             "it, or tap Enter dice by hand and count the dice per colour and pips."),
            ("2 Escalation?", "The party escalates when the Mobs' levels add up to more than "
             "the guests'. The groups below the verdict show which guests cover which Mobs."),
            ("On the dice", "Once a throw is read, the camera picture shows the verdict on the "
             "dice: a group of guests and the Mobs they cover share an outline colour and a "
             "number (the legend under the picture adds them up); a Mob no group covers is "
             "crossed out in red; the millionaire's VIPs are gold; W marks a wallet to steal."),
            ("Zones", "Several parties on the table? Draw a zone per player (a rectangle "
             "dragged on the picture): each throw then counts only the dice in its thrower's "
             "zone. The counter die beside a party: one tap on the button that names it leaves "
             "it out of the throw."),
            ("3 Millionaire?", "Several VIPs on the same level with no Mob on it bring a "
             "millionaire: the round is won."),
            ("4 Pickpocket", "Party People on level 6 may steal wallets; each stolen wallet "
             "counts on the counter die."),
            ("5 Provoke", "VIPs on level 4 or higher may be sent away; each one sends Mobs to "
             "the other parties (tap whom, in order)."),
            ("6 Grow", "Choose how the party grows: a) new VIPs for the Party People's points, "
             "b) new Party People for the VIPs' points. Both outcomes are shown first."),
            ("The table", "party / stock: the dice per colour at the party and in the box; "
             "wallets stolen; escalations so far (Party Animal: the third puts a player out); "
             "wins by condition."),
        ],
        "de": [
            ("Das Spiel", "Alle veranstalten eine Party aus Würfeln: gelbes Partyvolk, orange "
             "VIPs, rote Mobs. Die Augen sind die Stufe eines Gastes. Gewonnen wird, wenn alle "
             "anderen Partys eskalieren, durch einen Millionär oder mit 6 Geldbörsen."),
            ("1 Werfen", "Wer dran ist, wirft die ganze Party. Die Kamera liest sie, oder tippe "
             "auf Würfel von Hand eingeben und zähle die Würfel nach Farbe und Augen."),
            ("2 Eskalation?", "Die Party eskaliert, wenn die Stufen der Mobs zusammen höher sind "
             "als die der Gäste. Die Gruppen unter dem Urteil zeigen, wer welche Mobs deckt."),
            ("Auf den Würfeln", "Ist ein Wurf gelesen, zeigt das Kamerabild das Urteil auf den "
             "Würfeln: eine Gruppe von Gästen und die Mobs, die sie deckt, haben dieselbe "
             "Rahmenfarbe und Nummer (die Legende unter dem Bild rechnet sie vor); ein Mob, den "
             "keine Gruppe deckt, ist rot durchgestrichen; die VIPs des Millionärs sind gold; W "
             "markiert eine Geldbörse zum Stehlen."),
            ("Zonen", "Mehrere Partys auf dem Tisch? Zeichne eine Zone pro Spieler (ein "
             "Rechteck, auf dem Bild gezogen): jeder Wurf zählt dann nur die Würfel in der Zone "
             "des Werfenden. Der Zählwürfel neben einer Party: ein Tipp auf die Schaltfläche, "
             "die ihn nennt, lässt ihn aus dem Wurf."),
            ("3 Millionär?", "Mehrere VIPs auf derselben Stufe, auf der kein Mob ist, bringen "
             "einen Millionär: die Runde ist gewonnen."),
            ("4 Taschendiebstahl", "Partyvolk auf Stufe 6 darf Geldbörsen stehlen; der "
             "Zählwürfel zählt sie."),
            ("5 Provozieren", "VIPs ab Stufe 4 dürfen gehen; jeder schickt Mobs zu den anderen "
             "Partys (der Reihe nach antippen, wer sie bekommt)."),
            ("6 Wachsen", "Wähle, wie die Party wächst: a) neue VIPs für die Punkte des "
             "Partyvolks, b) neues Partyvolk für die Punkte der VIPs. Beide Ergebnisse stehen "
             "vorher da."),
            ("Die Tabelle", "Party / Vorrat: Würfel je Farbe auf der Party und in der Schachtel; "
             "gestohlene Geldbörsen; Eskalationen bisher (Party Animal: die dritte scheidet "
             "aus); Siege je Bedingung."),
        ],
    },
    "charidice": {
        "en": [
            ("The game", "Seven rounds. The player whose turn it is throws six dice up to three "
             "times, keeps dice between throws, then scores one option. Part of it is a gift "
             "to the next player."),
            ("Keeping dice", "Tap a die to keep it (yellow outline) for the next throw; tap it "
             "again to throw it too."),
            ("Score this: 14 + 0 ... gift 6", "Each option shows its points + bonus (a "
             "combination: four of a colour, a straight, equal numbers) and the gift the next "
             "player receives. The dice with a green outline are the ones the option scores. "
             "The best option for points comes first; (gives most) marks the biggest gift."),
            ("Big gift", "Once per game the receiving player may ask for the big gift: the "
             "gift of this turn counts double."),
            ("Score sheets", "scored, bonus, received and given per round; at the end the "
             "player who gave most gets the charity bonus. Print gives the sheets only."),
        ],
        "de": [
            ("Das Spiel", "Sieben Runden. Wer dran ist, wirft sechs Würfel bis zu dreimal, "
             "behält Würfel zwischen den Würfen und wertet dann eine Möglichkeit. Ein Teil "
             "davon ist eine Spende an den nächsten Spieler."),
            ("Würfel behalten", "Tippe einen Würfel an, um ihn für den nächsten Wurf zu "
             "behalten (gelber Rand); nochmal antippen, um ihn mitzuwerfen."),
            ("Werten: 14 + 0 ... Spende 6", "Jede Möglichkeit zeigt Punkte + Bonus (eine "
             "Kombination: vier einer Farbe, eine Straße, gleiche Zahlen) und die Spende, die "
             "der nächste Spieler bekommt. Die Würfel mit grünem Rand sind die, die diese "
             "Möglichkeit wertet. Die beste für Punkte steht oben; (spendet am meisten) "
             "markiert die größte Spende."),
            ("Große Spende", "Einmal im Spiel darf der Empfänger die große Spende fordern: die "
             "Spende dieses Zuges zählt doppelt."),
            ("Wertungsblätter", "gewertet, Bonus, erhalten und gespendet je Runde; am Ende "
             "bekommt, wer am meisten gespendet hat, den Wohltäter-Bonus. Drucken druckt nur "
             "die Blätter."),
        ],
    },
    "dicetopia": {
        "en": [
            ("The endgame", "dicecam scores the end of a game of Dicetopia: dice on the six "
             "districts and on each faction board, the agents in the districts, and the "
             "mission cards each player holds."),
            ("Dice", "Enter dice per district or faction board (or let the camera read them "
             "with a zone map). Loot: the pips on your faction board."),
            ("Agents + and −", "Count each player's agents per district. They only matter for "
             "the end of the game: most agents in a district controls it (5 stars plus the "
             "pips left there) and some missions count them. Nothing is scored during play."),
            ("Missions", "Tap the cards each player holds (two, three for Centauri). The "
             "breakdown shows the stars each card scored."),
            ("Winner", "Most stars wins; ties go to most districts controlled, then the "
             "highest pip total on the faction board. Until everything is entered the leader "
             "is provisional."),
        ],
        "de": [
            ("Die Schlusswertung", "dicecam wertet das Ende einer Partie Dicetopia: Würfel in "
             "den sechs Bezirken und auf jeder Fraktionstafel, die Agenten in den Bezirken und "
             "die Missionskarten jedes Spielers."),
            ("Würfel", "Gib die Würfel je Bezirk oder Fraktionstafel ein (oder lass sie mit "
             "einer Zonenkarte von der Kamera lesen). Beute: die Augen auf deiner "
             "Fraktionstafel."),
            ("Agenten + und −", "Zähle die Agenten jedes Spielers je Bezirk. Sie zählen nur "
             "für die Schlusswertung: die meisten Agenten kontrollieren einen Bezirk (5 Sterne "
             "plus die Augen dort) und manche Missionen zählen sie. Während des Spiels wird "
             "nichts gewertet."),
            ("Missionen", "Tippe die Karten an, die jeder hält (zwei, bei Centauri drei). Die "
             "Wertung zeigt die Sterne jeder Karte."),
            ("Sieger", "Die meisten Sterne gewinnen; bei Gleichstand die meisten "
             "kontrollierten Bezirke, dann die höchste Augensumme auf der Fraktionstafel. "
             "Bis alles eingegeben ist, ist die Führung vorläufig."),
        ],
    },
    "v6": {
        "en": [
            ("The round", "One player's round: the croupier throws one die again and again and "
             "the pips add up. The player may stop and keep them at any time after the free "
             "throw."),
            ("The six", "A six loses everything thrown this round: the player becomes a "
             "zombie (0 pips, 0 placement points) and the next player's round begins."),
            ("Zombie", "A player who lost to the six, or whom thieving ones brought down to 0. "
             "Robbing a player down to 0 gives the thief 5 zombie pips extra."),
            ("Thieving one", "A one (after the free throw) may steal pips from an opponent in "
             "the group; the player may also pass it up and steal nothing."),
            ("Jokers", "Before a round the player names up to three jokers (their rules are "
             "listed beside them). Only announcements that are legal now appear as buttons."),
            ("Points", "After every pass the group is ranked by pips: placement points 6, 4, "
             "2, 0 (zombies 0). Ties are decided by a throw-off."),
        ],
        "de": [
            ("Die Runde", "Die Runde eines Spielers: der Croupier wirft einen Würfel immer "
             "wieder, die Augen zählen zusammen. Nach dem Freiwurf darf der Spieler jederzeit "
             "aufhören und sie behalten."),
            ("Die Sechs", "Eine Sechs kostet alle Augen dieser Runde: der Spieler wird zum "
             "Zombie (0 Augen, 0 Platzierungspunkte), der nächste ist dran."),
            ("Zombie", "Wer an der Sechs gescheitert ist oder durch diebische Einsen auf 0 "
             "fällt. Wer jemanden auf 0 bestiehlt, bekommt 5 Zombie-Augen dazu."),
            ("Diebische Eins", "Eine Eins (nach dem Freiwurf) darf einem Gegner der Gruppe "
             "Augen stehlen; der Spieler darf auch darauf verzichten."),
            ("Joker", "Vor der Runde nennt der Spieler bis zu drei Joker (ihre Regeln stehen "
             "daneben). Nur Ansagen, die gerade erlaubt sind, erscheinen als Knöpfe."),
            ("Punkte", "Nach jedem Durchgang wird die Gruppe nach Augen gereiht: "
             "Platzierungspunkte 6, 4, 2, 0 (Zombies 0). Gleichstand entscheidet ein Stechen."),
        ],
    },
}

#: the rulebook each game implements, cited by title (the publisher's text is not shipped)
RULEBOOKS = {
    "diceparty": {"en": "Dice Party rules (English edition)",
                  "de": "Dice Party Spielregeln (deutsche Ausgabe)"},
    "charidice": {"en": "Charidice rules (German edition)",
                  "de": "Charidice Spielregeln"},
    "dicetopia": {"en": "Dicetopia rules (German edition, © All Or None Games 2018)",
                  "de": "Dicetopia Spielregeln (© All Or None Games 2018)"},
    "v6": {"en": "V6 – die verflixte Sechs, Würfelturnier rules (German)",
           "de": "V6 – die verflixte Sechs, Würfelturnier-Regeln"},
}

#: the owner's own copy of a rulebook, if put in $DICECAM_HOME/rulebooks/: tried in order
RULEBOOK_FILES = {
    "diceparty": {"en": ("dice-party-rules-en.txt",), "de": ("dice-party-rules-de.txt",)},
    "charidice": {"en": ("charidice-rules-de.md",), "de": ("charidice-rules-de.md",)},
    "dicetopia": {"en": ("dicetopia-rules-de.md",), "de": ("dicetopia-rules-de.md",)},
    "v6": {"en": ("v6-wuerfelturnier-rules-de.txt",), "de": ("v6-wuerfelturnier-rules-de.txt",)},
}


def help_json() -> dict[str, Any]:
    """For the page: every game's help and rulebook title, per language."""
    return {game: {"sections": {lang: [{"title": t, "text": x} for t, x in sections]
                                for lang, sections in by_lang.items()},
                   "rulebook": RULEBOOKS[game]}
            for game, by_lang in HELP.items()}


def rules_tables(game: str, lang: str) -> list[dict[str, Any]]:
    """The game's own tables for its rules page, from the engine's data: V6's jokers,
    Dicetopia's mission cards (name and rule per language)."""
    describe = get_game(game).catalogue
    data = describe() if describe is not None else {}
    tables = []
    if "jokers" in data:
        tables.append({"title": {"en": "Jokers", "de": "Joker"}[lang], "rows": [
            (j["name"], j["rules"][lang]) for j in data["jokers"].values()]})
    if "missions" in data:
        tables.append({"title": {"en": "Mission cards", "de": "Missionskarten"}[lang],
                       "rows": [(m["names"][lang], m["rules"][lang])
                                for m in data["missions"].values()]})
    return tables


def rulebooks_folder() -> Path:
    return dicecam_home() / "rulebooks"


def owners_rulebook(game: str, lang: str) -> tuple[str, str] | None:
    """(file name, text) of the owner's copy of the game's rulebook, in ``lang`` where there
    is one, else the other language's; None when no copy was put there."""
    names = RULEBOOK_FILES.get(game, {})
    for wanted in (lang, *(x for x in LANGUAGES if x != lang)):
        for name in names.get(wanted, ()):
            path = rulebooks_folder() / name
            if path.is_file():
                return name, path.read_text(encoding="utf-8", errors="replace")
    return None
