"""Charidice's sentences for players, in English and German (see ``dicecam.messages``)."""

from __future__ import annotations

from dicecam.messages import Catalogue, Text

MESSAGES = Catalogue({
    "cd.scored": {"en": "{player} scored {points} + {bonus} bonus and gave {gift} to "
                        "{recipient}.",
                  "de": "{player} hat {points} + {bonus} Bonus gewertet und {recipient} "
                        "{gift} geschenkt."},
    "cd.scored_big": {"en": "{player} scored {points} + {bonus} bonus and gave {gift} to "
                            "{recipient} (big gift, doubled).",
                      "de": "{player} hat {points} + {bonus} Bonus gewertet und {recipient} "
                            "{gift} geschenkt (großes Geschenk, verdoppelt)."},
    "cd.game_over_one": {"en": "Game over: {winners} wins.",
                         "de": "Spielende: {winners} gewinnt."},
    "cd.game_over_many": {"en": "Game over: {winners} win.",
                          "de": "Spielende: {winners} gewinnen."},
    "cd.tray_count": {"en": "Charidice needs all {n} dice in the tray; the camera sees {seen}, "
                            "so check the tray and correct the reading",
                      "de": "Charidice braucht alle {n} Würfel in der Schale; die Kamera sieht "
                            "{seen}, also prüfe die Schale und korrigiere das Gelesene"},
    "cd.unread": {"en": "die {n} in the tray could not be read; tap it to correct it",
                  "de": "Würfel {n} in der Schale ist nicht lesbar; tippe ihn an, um ihn zu "
                        "korrigieren"},
    "cd.thrown_out": {"en": "{player} has thrown {n} {n:time|times}; choose how to score this "
                           "throw",
                      "de": "{player} hat {n}-mal geworfen; wähle, wie dieser Wurf gewertet "
                            "wird"},
    "cd.too_many_colours": {"en": "the dice have only {n} colours, but this game has now seen "
                                  "{seen} ({colours}); check the reading",
                            "de": "die Würfel haben nur {n} Farben, aber dieses Spiel hat jetzt "
                                  "{seen} gesehen ({colours}); prüfe das Gelesene"},
    "cd.kept_missing": {"en": "the kept {colour} {value} is not in the new throw; kept dice stay "
                              "as they are, so correct the reading or the kept dice",
                        "de": "die behaltene {colour} {value} ist nicht im neuen Wurf; behaltene "
                              "Würfel bleiben liegen, also korrigiere das Gelesene oder die "
                              "behaltenen Würfel"},
    **{f"cd.colour.{c}": {"en": en, "de": de} for c, en, de in (
        ("black", "black", "schwarz"), ("grey", "grey", "grau"), ("red", "red", "rot"),
        ("blue", "blue", "blau"), ("green", "green", "grün"), ("purple", "purple", "lila"),
        ("yellow", "yellow", "gelb"), ("orange", "orange", "orange"), ("white", "white", "weiß"))},
    "cd.round": {"en": "Round {round}: {player} to play, throw {throw} of {throws}.",
                 "de": "Runde {round}: {player} ist dran, Wurf {throw} von {throws}."},
})


def colour_name(colour: str) -> Text:
    """A numeral's colour in the player's language (a colour no catalogue knows, as read)."""
    key = f"cd.colour.{colour}"
    return MESSAGES(key) if key in MESSAGES.ids else colour
