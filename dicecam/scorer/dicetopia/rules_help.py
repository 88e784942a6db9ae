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
            ("Dice from the camera", "Lay the camera over the table at the end of the game. "
             "Once, tap Mark the boards and drag a rectangle around the city map and one "
             "around each faction board: every die is then counted in the district or on the "
             "board it lies on, and a die beside the boards not at all. A die the camera is "
             "unsure of is asked (an agent taken for a die: Not a die)."),
            ("Dice by hand", "Enter dice per district or faction board (Enter dice) where "
             "there is no camera or it saw something else. Loot: the pips on your faction "
             "board."),
            ("Agents + and −", "The camera reads dice only: count each player's agents per "
             "district. They only matter for "
             "the end of the game: most agents in a district controls it (5 stars plus the "
             "pips left there) and some missions count them. Nothing is scored during play."),
            ("Missions", "Tap the cards each player holds (two, three for Centauri): each "
             "card's rule is written under its name. The breakdown shows the stars each card "
             "scored."),
            ("Winner", "Most stars wins; ties go to most districts controlled, then the "
             "highest pip total on the faction board. Until everything is entered the leader "
             "is provisional."),
        ],
        "de": [
            ("Die Schlusswertung", "dicecam wertet das Ende einer Partie Dicetopia: Würfel in "
             "den sechs Bezirken und auf jeder Fraktionstafel, die Agenten in den Bezirken und "
             "die Missionskarten jedes Spielers."),
            ("Würfel von der Kamera", "Richte die Kamera am Spielende auf den Tisch. Tippe "
             "einmal Tafeln markieren und ziehe ein Rechteck um den Stadtplan und je eines um "
             "jede Fraktionstafel: dann zählt jeder Würfel in dem Bezirk oder auf der Tafel, "
             "wo er liegt, und ein Würfel neben den Tafeln gar nicht. Ist die Kamera bei einem "
             "Würfel unsicher, fragt sie nach (ein Agent, der für einen Würfel gehalten wurde: "
             "Kein Würfel)."),
            ("Würfel von Hand", "Gib die Würfel je Bezirk oder Fraktionstafel ein (Würfel "
             "eingeben), wenn keine Kamera da ist oder sie etwas anderes sah. Beute: die "
             "Augen auf deiner Fraktionstafel."),
            ("Agenten + und −", "Die Kamera liest nur Würfel: zähle die Agenten jedes "
             "Spielers je Bezirk. Sie zählen nur "
             "für die Schlusswertung: die meisten Agenten kontrollieren einen Bezirk (5 Sterne "
             "plus die Augen dort) und manche Missionen zählen sie. Während des Spiels wird "
             "nichts gewertet."),
            ("Missionen", "Tippe die Karten an, die jeder hält (zwei, bei Centauri drei): die "
             "Regel jeder Karte steht unter ihrem Namen. Die Wertung zeigt die Sterne jeder "
             "Karte."),
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
