"""What the page says of Charidice: the help behind the ? in the bar and on its rules
page, in English and German, and the rulebook it cites (``descriptor.GameHelp``)."""

from __future__ import annotations

from dicecam.scorer.descriptor import GameHelp

HELP = GameHelp(
    sections={
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
             "davon ist ein Geschenk an den nächsten Spieler."),
            ("Würfel behalten", "Tippe einen Würfel an, um ihn für den nächsten Wurf zu "
             "behalten (gelber Rand); nochmal antippen, um ihn mitzuwerfen."),
            ("Werten: 14 + 0 ... Geschenk 6", "Jede Möglichkeit zeigt Punkte + Bonus (eine "
             "Kombination: vier einer Farbe, eine Straße, gleiche Zahlen) und das Geschenk, das "
             "der nächste Spieler bekommt. Die Würfel mit grünem Rand sind die, die diese "
             "Möglichkeit wertet. Die beste für Punkte steht oben; (verschenkt am meisten) "
             "markiert das größte Geschenk."),
            ("Großes Geschenk", "Einmal im Spiel darf die beschenkte Person um ein großes "
             "Geschenk bitten: das Geschenk dieses Zuges zählt doppelt."),
            ("Wertungsblätter", "gewertet, Bonus, erhalten und verschenkt je Runde; am Ende "
             "bekommt, wer am meisten verschenkt hat, den Charity-Bonus. Drucken druckt nur "
             "die Blätter."),
        ],
    },
    rulebook={"en": "Charidice rules (German edition)",
              "de": "Charidice Spielregeln"},
    rulebook_files={"en": ("charidice-rules-de.md",),
                    "de": ("charidice-rules-de.md",)},
)
