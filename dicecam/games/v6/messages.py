"""V6's texts for players in German beside the engine's English ones: the jokers' rules, so
the croupier's screen describes every joker in the player's language before it is chosen."""

from __future__ import annotations

#: each joker's rule in German (the English one is ``JokerSpec.rule_text``)
JOKER_RULES_DE = {
    "jule": "+1 Auge auf jeden Wurf nach dem Freiwurf",
    "ahri": "+5 Augen auf jede 1 oder 2 nach dem Freiwurf; keine diebische Eins",
    "fumo": "verdoppelt jeden Wurf außer der Sechs, bis er beendet wird; setzt die Törtchen aus",
    "all_in": "nächster Wurf 1-3 verdoppelt die Summe, 4-6 kostet alles",
    "ventil": "sichert die Summe gegen die Sechs (nicht gegen All In); eine Sechs beendet die "
              "Runde",
    "hirte": "nächster Wurf wird verdoppelt, auch die Sechs",
    "kaelte": "bis zu fünf Einsätze: ein Wurf über der Zahl des Einsatzes wird addiert, sonst "
              "abgezogen; eine Sechs wird addiert und verbraucht ihn",
    "spelunke": "nächster Wurf 1-5 bringt 5 Augen mehr, eine Sechs kostet 3",
    "monokel": "zwei Würfe, jeder darf einmal wiederholt werden",
    "pony": "drei Würfe: 11 oder mehr werden addiert, sonst -3",
    "oce": "schlage den Wurf der Anakonda: Wurf + 12, sonst -10; Ausweichen kostet 2",
    "ratte": "eine 5 oder 6 in zwei Würfen bringt +18, sonst -10; Rückzug kostet 2",
    "sekante": "fünf Würfe gegen einen gewählten Gegner, 2 Augen je gewonnenem oder verlorenem "
               "Duell",
    "hoeschen": "vier Versuche auf 3+, Cherry kontert mit 5-6; +3 je behaltenem Erfolg",
    "runkelrueb": "wenn die Sechs fällt: zwei Würfe, eine 3+ macht die Sechs ungültig (und "
                  "Fumos Verdopplungen)",
}
