"""What the page says of V6: the help behind the ? in the bar and on its rules
page, in English and German, and the rulebook it cites (``descriptor.GameHelp``)."""

from __future__ import annotations

from dicecam.scorer.descriptor import GameHelp

HELP = GameHelp(
    sections={
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
    rulebook={"en": "V6 – die verflixte Sechs, Würfelturnier rules (German)",
              "de": "V6 – die verflixte Sechs, Würfelturnier-Regeln"},
    rulebook_files={"en": ("v6-wuerfelturnier-rules-de.txt",),
                    "de": ("v6-wuerfelturnier-rules-de.txt",)},
)
