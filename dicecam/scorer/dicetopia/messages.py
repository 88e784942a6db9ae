"""Dicetopia's sentences for players, in English and German (see ``dicecam.messages``), and
the mission cards' English names (the cards are printed in German: the German name is the
card's own, ``missions.py``)."""

from __future__ import annotations

from dicecam.messages import Catalogue, Message

MESSAGES = Catalogue({
    "dt.wins": {"en": "{player} wins with {stars} stars.",
                "de": "{player} gewinnt mit {stars} Sternen."},
    "dt.tie_districts": {
        "en": "{tied} tie on {stars} stars; {winner} wins on most districts controlled "
              "({counts}).",
        "de": "{tied} haben gleich viele Sterne ({stars}); {winner} gewinnt mit den meisten "
              "kontrollierten Bezirken ({counts})."},
    "dt.tie_loot": {
        "en": "{tied} tie on {stars} stars and control {districts} districts each; {winner} "
              "wins on the highest pip total on the faction board ({loot}).",
        "de": "{tied} haben gleich viele Sterne ({stars}) und kontrollieren je {districts} "
              "Bezirke; {winner} gewinnt mit der höchsten Augensumme auf der Fraktionstafel "
              "({loot})."},
    "dt.shared_win": {
        "en": "{tied} tie on {stars} stars and control {districts} districts each and have "
              "the same pip total on the faction board ({loot}); {winner} share the win.",
        "de": "{tied} haben gleich viele Sterne ({stars}), kontrollieren je {districts} Bezirke "
              "und haben dieselbe Augensumme auf der Fraktionstafel ({loot}); {winner} teilen "
              "sich den Sieg."},
    "dt.name_count": {"en": "{player} {n}", "de": "{player} {n}"},
    "dt.wait_board": {"en": "{player}'s faction board holds {n} of {of} dice",
                      "de": "Auf der Fraktionstafel von {player} liegen {n} von {of} Würfeln"},
    "dt.wait_agents": {"en": "{player} has {n} of {of} agents in the districts",
                       "de": "{player} hat {n} von {of} Agenten in den Bezirken"},
    "dt.wait_missions": {"en": "{player} holds {n} of {of} missions",
                         "de": "{player} hat {n} von {of} Missionen"},
    "dt.wait_risk_draw": {"en": "{player} still draws the card for {mission}",
                          "de": "{player} zieht noch die Karte für {mission}"},
    "dt.district_full": {
        "en": "{district} holds {dice} and {agents}, but with {players} players a district "
              "has only {fields} fields; check that district",
        "de": "In {district} liegen {dice} und {agents}, aber bei {players} Spielern hat ein "
              "Bezirk nur {fields} Felder; prüfe diesen Bezirk"},
    # what a camera reading or a tap can run into: said in the player's language
    "dt.board_full": {"en": "{player}'s faction board holds {n} dice, but it has only {fields} "
                            "fields; check that board's dice",
                      "de": "Die Fraktionstafel von {player} hat {n} Würfel, aber nur {fields} "
                            "Felder; prüfe die Würfel dieser Tafel"},
    "dt.too_many_dice": {"en": "{n} dice are in play, but a {players}-player game uses {limit}; "
                               "check for dice read twice",
                         "de": "{n} Würfel sind im Spiel, aber ein Spiel zu {players} benutzt "
                               "{limit}; prüfe, ob Würfel doppelt gelesen wurden"},
    "dt.too_many_of_colour": {"en": "{n} {colour} dice are in play, but a {players}-player game "
                                    "uses {limit}; check the colours read",
                              "de": "{n} Würfel in {colour} sind im Spiel, aber ein Spiel zu "
                                    "{players} benutzt {limit}; prüfe die gelesenen Farben"},
    "dt.too_many_missions": {"en": "{player} holds {n} missions, but {who} holds {limit} at the "
                                   "end",
                             "de": "{player} hat {n} Missionen, aber {who} hat am Ende {limit}"},
    "dt.who.player": {"en": "a player", "de": "ein Spieler"},
    "dt.who.centauri": {"en": "a Centauri Bureau player", "de": "ein Spieler des Centauri Bureau"},
    "dt.mission_twice": {"en": "{player} holds the same mission twice; the deck has one of each",
                         "de": "{player} hat dieselbe Mission zweimal; das Deck hat jede einmal"},
    "dt.mission_shared": {"en": "mission {mission} is held by both {first} and {second}, but "
                                "the deck has one of each card",
                          "de": "die Mission {mission} haben {first} und {second}, aber das "
                                "Deck hat jede Karte einmal"},
    "dt.unread": {"en": "a die in {zone} could not be read (value or colour missing); correct "
                        "it on the tablet before scoring",
                  "de": "ein Würfel in {zone} ist nicht lesbar (Augen oder Farbe fehlen); "
                        "korrigiere ihn auf dem Tablet vor der Wertung"},
    # a roll of the endgame table: where its dice were read
    "dt.roll_zones": {"en": "{n} {n:die|dice} read where {n:it lies|they lie}: {parts}",
                      "de": "{n} Würfel dort gelesen, wo sie liegen: {parts}"},
    "dt.roll_on_board": {"en": "{n} on {player}'s board", "de": "{n} auf der Tafel von {player}"},
    "dt.roll_in_districts": {"en": "{n} in the districts", "de": "{n} in den Bezirken"},
    "dt.roll_in_districts_short": {
        "en": "{n} in the districts, where {of} lie at the end: {missing} hidden or missed?",
        "de": "{n} in den Bezirken, wo am Ende {of} liegen: {missing} verdeckt oder "
              "übersehen?"},
    "dt.roll_outside": {"en": "{n} beside the boards (not counted)",
                        "de": "{n} neben den Tafeln (nicht gezählt)"},
    "dt.roll_no_zones": {
        "en": "{n} {n:die|dice} seen, {n:not|none} on a marked board: mark the city map and "
              "each faction board on the picture once, and the camera places every die",
        "de": "{n} Würfel gesehen, keiner auf einer markierten Tafel: markiere den Stadtplan "
              "und jede Fraktionstafel einmal auf dem Bild, dann ordnet die Kamera jeden "
              "Würfel zu"},
    "dt.board_of": {"en": "{player}'s faction board", "de": "der Fraktionstafel von {player}"},
    "dt.one_die": {"en": "{n} die", "de": "{n} Würfel"},
    # mission notes
    "dt.note.copies": {"en": "copies {owner}'s {mission} ({how})",
                       "de": "kopiert {mission} von {owner} ({how})"},
    "dt.note.chosen": {"en": "chosen", "de": "gewählt"},
    "dt.note.best_pick": {"en": "best pick", "de": "beste Wahl"},
    "dt.note.nothing_to_copy": {"en": "no other player's card to copy",
                                "de": "keine Karte eines anderen Spielers zum Kopieren"},
    "dt.note.waiting_draw": {"en": "waiting for the card drawn before scoring",
                             "de": "wartet auf die vor der Wertung gezogene Karte"},
    "dt.note.drew": {"en": "drew {mission}: 2 x {stars}", "de": "zog {mission}: 2 x {stars}"},
    "dt.note.left_out": {"en": "left out", "de": "nicht gewertet"},
    # faction abilities used at scoring time
    "dt.ab.bingmai": {"en": "{player} (Bingmai) decides the tie in {district} for {winner}",
                      "de": "{player} (Bingmai) entscheidet den Gleichstand in {district} für "
                            "{winner}"},
    "dt.ab.bingmai_none": {"en": "{player} (Bingmai) leaves every district tie as it is",
                           "de": "{player} (Bingmai) lässt jeden Gleichstand in den Bezirken, "
                                 "wie er ist"},
    "dt.ab.dangmer": {"en": "{player} (Dangmer) copies the {trait} of {source}'s {die}: their "
                            "{before} scores as {after}",
                      "de": "{player} (Dangmer) kopiert {trait} von {die} bei {source}: "
                            "{before} zählt als {after}"},
    "dt.ab.dangmer_none": {"en": "{player} (Dangmer) copies nothing from {source}: no copy "
                                 "would gain stars",
                           "de": "{player} (Dangmer) kopiert nichts von {source}: keine Kopie "
                                 "brächte Sterne"},
    "dt.ab.centauri": {"en": "{player} (Centauri) scores {kept} and leaves out {dropped}",
                       "de": "{player} (Centauri) wertet {kept} und lässt {dropped} weg"},
    "dt.ab.centauri_all": {"en": "{player} (Centauri) scores every mission held (a third card "
                                 "is needed to choose)",
                           "de": "{player} (Centauri) wertet jede gehaltene Mission (zum "
                                 "Auswählen braucht es eine dritte Karte)"},
    "dt.trait.colour": {"en": "colour", "de": "die Farbe"},
    "dt.trait.value": {"en": "value", "de": "die Augenzahl"},
    "dt.die": {"en": "{colour} {value}", "de": "{colour} {value}"},
    "dt.colour.purple": {"en": "purple", "de": "lila"},
    "dt.colour.white": {"en": "white", "de": "weiß"},
    "dt.colour.turquoise": {"en": "turquoise", "de": "türkis"},
    "dt.n_dice": {"en": "{n} dice", "de": "{n} Würfel"},
    "dt.one_agent": {"en": "{n} agent", "de": "{n} Agent"},
    "dt.n_agents": {"en": "{n} agents", "de": "{n} Agenten"},
    "dt.agents_over": {
        "en": "{player} has {n} agents in the districts, but a player places only {of}; check "
              "the agent counts",
        "de": "{player} hat {n} Agenten in den Bezirken, aber jeder setzt nur {of}; prüfe die "
              "Agentenzahlen"},
    # district names: the board's own names, the same in both languages
    **{f"dt.district.{key}": {"en": name, "de": name} for key, name in (
        ("the_agency", "The Agency"), ("the_gugu_airforce", "The Gugu Airforce"),
        ("waste_management", "Waste Management"), ("twilight_congress", "Twilight Congress"),
        ("observatory_bank", "Observatory Bank"), ("nethal_syndicate", "Nethal Syndicate"))},
})

#: the mission cards' names in English (the German name is the card's title, ``Mission.name``)
MISSION_NAMES_EN = {
    "waffenkammer": "Armoury", "geld_regiert_die_welt": "Money Rules the World",
    "insider": "Insider", "pazifist": "Pacifist", "falschgeld": "Counterfeit Money",
    "fehlinformation": "Misinformation", "schmuggler": "Smuggler",
    "geldwaesche": "Money Laundering", "verraeter": "Traitor",
    "toter_briefkasten": "Dead Drop", "buergerwehr": "Vigilantes",
    "geheimkammern": "Secret Chambers", "weniger_ist_mehr": "Less Is More",
    "langsam_aber_stetig": "Slow but Steady", "strassennynte": "Street Coin",
    "gluecksklee": "Lucky Clover", "im_grossen_stil": "In Grand Style",
    "mehr_ist_besser": "More Is Better", "kein_kleingeld": "No Small Change",
    "kontaminierter_waren": "Contaminated Goods", "alles_oder_nichts": "All or Nothing",
    "unsichtbar": "Invisible", "risikomanagement": "Risk Management",
    "unter_dem_radar": "Under the Radar", "faelschung": "Forgery", "replik": "Replica",
    "aller_guten_dinge_sind_drei": "Third Time Lucky", "klone": "Clones",
    "der_grosse_coup": "The Big Heist", "alleskoenner": "Jack of All Trades",
    "exzentriker": "Eccentric", "perfektionist": "Perfectionist",
    "notaalreserve": "Emergency Reserve", "diskretion": "Discretion",
    "trittbrettgaenger": "Free Rider", "risiko": "Risk", "infiltration": "Infiltration",
    "spionage": "Espionage", "dominanz": "Dominance", "spezialagenten": "Special Agents",
}


def district_name(district_value: str) -> Message:
    return MESSAGES(f"dt.district.{district_value}")


def die_label(colour: str, value: int) -> Message:
    """A die as players name it, "purple 5" ("lila 5")."""
    return MESSAGES("dt.die", colour=MESSAGES(f"dt.colour.{colour}"), value=value)
