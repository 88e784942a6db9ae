"""The table's own refusals, in English and German (``dicecam.messages``): what a tap meets
that no game's rules decide (nothing to undo, a roll gone from the table, the demo busy).
The page words them in the player's language, as it words the games' refusals."""

from __future__ import annotations

from dicecam.messages import Catalogue
from dicecam.messages import en_de as _m

APP = Catalogue({
    "app.no_game_offered": _m("this server does not offer {game}; choose one of {games}",
                              "dieser Server bietet {game} nicht an; wähle eines von {games}"),
    "app.no_crowded_demo": _m("{game} has no crowded demo game: start it as a new game",
                              "{game} hat kein volles Demo-Spiel: starte es als neues Spiel"),
    "app.stored_other_game": _m("game {id} is a {game} game, which this server does not offer",
                                "Spiel {id} ist ein Spiel {game}, das dieser Server nicht "
                                "anbietet"),
    "app.nothing_to_undo": _m("there is nothing to undo: no action has been made yet",
                              "es gibt nichts zurückzunehmen: noch ist nichts geschehen"),
    "app.typed_no_picture_add": _m("dice typed in have no picture: add a die on the pad",
                                   "eingegebene Würfel haben kein Bild: ergänze einen Würfel "
                                   "auf dem Tastenfeld"),
    "app.added_off_picture": _m("a die added must lie on the picture ({width} x {height}), "
                                "got ({x}, {y})",
                                "ein ergänzter Würfel muss auf dem Bild liegen ({width} x "
                                "{height}), nicht bei ({x}, {y})"),
    "app.typed_no_picture_layout": _m("dice typed in have no picture: lay the dice out under "
                                      "the camera",
                                      "eingegebene Würfel haben kein Bild: lege die Würfel "
                                      "unter der Kamera aus"),
    "app.all_in_zones": _m("every die of this roll already lies in a zone",
                           "jeder Würfel dieses Wurfs liegt schon in einem Bereich"),
    "app.unread_dice": _m("{n} of the dice could not be read: tap each one marked ? and say "
                          "what it shows",
                          "{n} der Würfel {n:konnte|konnten} nicht gelesen werden: tippe jeden "
                          "mit ? an und sag, was er zeigt"),
    "app.roll_not_taken": _m("the game no longer takes dice for that roll",
                             "das Spiel nimmt für diesen Wurf keine Würfel mehr an"),
    "app.roll_scored_moved_on": _m("that roll was scored and play has moved on: undo back to "
                                   "it first, or correct the score by hand",
                                   "dieser Wurf ist gewertet und das Spiel ist weiter: nimm "
                                   "erst bis zu ihm zurück oder korrigiere die Wertung von "
                                   "Hand"),
    "app.roll_gone": _m("roll {id} is no longer on the table; tap a die of the roll shown now",
                        "Wurf {id} liegt nicht mehr auf dem Tisch; tippe einen Würfel des "
                        "jetzt gezeigten Wurfs an"),
    "app.no_game": _m("no game is running: start a new game or open a stored one",
                      "es läuft kein Spiel: starte ein neues oder öffne ein gespeichertes"),
    "app.zone_empty": _m("the area drawn is empty: drag across the area of the party",
                         "der gezeichnete Bereich ist leer: zieh über den Bereich der Party"),
    "app.zone_twice": _m("a zone is named twice: draw one area per player",
                         "ein Bereich ist doppelt benannt: zeichne einen Bereich je Person"),
    "app.demo_layout_no_game": _m("the demo lays the teaching layout out while a game thrown "
                                  "with dice is played: start one first",
                                  "die Demo legt die Lern-Aufstellung aus, während ein Spiel "
                                  "mit Würfeln läuft: starte zuerst eines"),
    "app.demo_nothing_due": _m("the game waits for no dice now, so the demo has nothing to "
                               "throw",
                               "das Spiel wartet gerade auf keine Würfel, also hat die Demo "
                               "nichts zu werfen"),
    "app.demo_thrown": _m("the demo has thrown: wait until the dice lie still",
                          "die Demo hat geworfen: warte, bis die Würfel still liegen"),
    "app.not_demo_party": _m("the camera is not the demo table: at a real table the game "
                             "grows as you play",
                             "die Kamera ist nicht der Demo-Tisch: an einem echten Tisch "
                             "wächst das Spiel, während ihr spielt"),
    "app.not_demo_throw": _m("the camera is not the demo table: throw the dice on the table",
                             "die Kamera ist nicht der Demo-Tisch: werft die Würfel auf den "
                             "Tisch"),
    "app.pin_digits": _m("a PIN is {n} digits", "eine PIN hat {n} Ziffern"),
})
