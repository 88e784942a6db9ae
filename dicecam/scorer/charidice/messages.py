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
    # the rules' refusals a tablet's tap can meet (malformed JSON stays English: no tap
    # sends it)
    "cd.over": {"en": "the game is over; start a new game to play again",
                "de": "das Spiel ist zu Ende; starte ein neues Spiel, um weiterzuspielen"},
    "cd.keep_before_throw": {
        "en": "throw the dice first; keeping dice is for the throws after the first",
        "de": "wirf zuerst die Würfel; behalten wird für die Würfe nach dem ersten"},
    "cd.no_throw_left": {"en": "there is no throw left; choose how to score this throw",
                         "de": "es ist kein Wurf mehr übrig; wähle, wie dieser Wurf gewertet "
                               "wird"},
    "cd.keep_all": {"en": "keeping all six dice leaves nothing to throw; choose an option "
                          "instead",
                    "de": "wer alle sechs Würfel behält, hat nichts mehr zu werfen; wähle "
                          "stattdessen eine Möglichkeit"},
    "cd.big_gift_who": {"en": "only {asker}, who receives {player}'s gift, may ask for the "
                              "big gift now, not {other}",
                        "de": "nur {asker}, die Person, die das Geschenk von {player} "
                              "bekommt, darf jetzt um das große Geschenk bitten, nicht {other}"},
    "cd.big_gift_used": {"en": "{asker} has already asked for the big gift in this game",
                         "de": "{asker} hat in diesem Spiel schon um das große Geschenk "
                               "gebeten"},
    "cd.big_gift_turn": {"en": "{asker} has already asked for the big gift this turn",
                         "de": "{asker} hat in diesem Zug schon um das große Geschenk "
                               "gebeten"},
    "cd.big_gift_late": {"en": "the big gift must be asked for before the third throw",
                         "de": "um das große Geschenk muss vor dem dritten Wurf gebeten "
                               "werden"},
    "cd.choose_before_throw": {"en": "throw the dice first, then choose how to score them",
                               "de": "wirf zuerst die Würfel, dann wähle, wie sie gewertet "
                                     "werden"},
    "cd.choose_none": {"en": "choose at least one die to score",
                       "de": "wähle mindestens einen Würfel zum Werten"},
    "cd.one_colour_mixed": {"en": "scoring one colour means every scored die shows that "
                                  "colour; these show {colours}",
                            "de": "eine Farbe werten heißt: jeder gewertete Würfel hat diese "
                                  "Farbe; diese zeigen {colours}"},
    "cd.one_colour_few": {"en": "only {n} dice show {colour}; scoring one colour needs at "
                                "least {least} dice of it",
                          "de": "nur {n} Würfel sind {colour}; eine Farbe werten braucht "
                                "mindestens {least} Würfel davon"},
    "cd.one_colour_all": {"en": "score all {n} {colour} dice, or exactly the dice of one bonus "
                                "combination (four dice, or a straight)",
                          "de": "werte alle {n} Würfel in {colour}, oder genau die Würfel einer "
                                "Bonus-Kombination (vier Würfel oder eine Straße)"},
    "cd.per_colour_twice": {"en": "score one die per colour; {colour} is scored {n} times",
                            "de": "werte einen Würfel je Farbe; {colour} wird {n}-mal "
                                  "gewertet"},
    "cd.per_colour_missing": {
        "en": "score one die of every rolled colour ({n} colours); none is scored for "
              "{colours} (unless you score four or more equal numbers for their bonus)",
        "de": "werte einen Würfel jeder geworfenen Farbe ({n} Farben); für {colours} ist "
              "keiner gewertet (außer du wertest vier oder mehr gleiche Zahlen für ihren "
              "Bonus)"},
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
