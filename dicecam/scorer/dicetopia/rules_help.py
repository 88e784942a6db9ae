"""What the page says of Dicetopia: the help behind the ? in the bar and on its rules
page, in English and German, and the rulebook it cites (``descriptor.GameHelp``)."""

from __future__ import annotations

from dicecam.scorer.descriptor import GameHelp

HELP = GameHelp(
    sections={
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
    rulebook={"en": "Dicetopia rules (German edition, © All Or None Games 2018)",
              "de": "Dicetopia Spielregeln (© All Or None Games 2018)"},
    rulebook_files={"en": ("dicetopia-rules-de.md",),
                    "de": ("dicetopia-rules-de.md",)},
)
