"""Dice Party's sentences for players, in English and German (see ``dicecam.messages``)."""

from __future__ import annotations

from dicecam.messages import Catalogue, Message, Text

MESSAGES = Catalogue({
    # what the game waits for
    "dp.unread": {"en": "a die in {player}'s zone could not be read; tap it to enter its value",
                  "de": "ein Würfel in der Zone von {player} ist nicht lesbar; tippe ihn an, um "
                        "seine Augen einzugeben"},
    "dp.wrong_colour": {"en": "a die in {player}'s zone has colour {colour}, not one of "
                              "{colours}; tap it to correct the colour",
                        "de": "ein Würfel in der Zone von {player} hat die Farbe {colour}, keine "
                              "von {colours}; tippe ihn an, um die Farbe zu korrigieren"},
    "dp.party_mismatch": {"en": "{player}'s party has {have}, but the throw shows {seen}; throw "
                                "exactly the party's dice (the counter die stays aside)",
                          "de": "Die Party von {player} hat {have}, aber der Wurf zeigt {seen}; "
                                "wirf genau die Würfel der Party (der Zählwürfel bleibt "
                                "beiseite)"},
    "dp.not_now": {"en": "{action} is not possible now: {waiting}",
                   "de": "{action} geht jetzt nicht: {waiting}"},
    "dp.action.preparty": {"en": "The preparty throw", "de": "Der Vorparty-Wurf"},
    "dp.action.throw": {"en": "A throw", "de": "Ein Wurf"},
    "dp.action.pickpocket": {"en": "Pickpocketing", "de": "Taschendiebstahl"},
    "dp.action.provoke": {"en": "Provoking", "de": "Provozieren"},
    "dp.action.grow": {"en": "Growing the party", "de": "Die Party wachsen lassen"},
    "dp.action.next_round": {"en": "Starting the next round",
                             "de": "Die nächste Runde beginnen"},
    "dp.wait.preparty_all": {"en": "every party is thrown to find the start player",
                             "de": "alle Partys werden geworfen, um den Startspieler zu finden"},
    "dp.wait.preparty_next": {"en": "{player} throws the preparty",
                              "de": "{player} wirft die Vorparty"},
    "dp.wait.throw": {"en": "{player} throws the party", "de": "{player} wirft die Party"},
    "dp.wait.pickpocket": {"en": "{player} chooses how many wallets to steal",
                           "de": "{player} wählt, wie viele Geldbörsen gestohlen werden"},
    "dp.wait.provoke": {"en": "{player} chooses how many VIPs to provoke",
                        "de": "{player} wählt, wie viele VIPs provoziert werden"},
    "dp.wait.grow": {"en": "{player} chooses how the party grows",
                     "de": "{player} wählt, wie die Party wächst"},
    "dp.wait.round_over": {"en": "the round is over; start the next round",
                           "de": "die Runde ist vorbei; starte die nächste Runde"},
    "dp.wait.game_over": {"en": "the game is over", "de": "das Spiel ist vorbei"},
    # what the dice just seen count as (the tablet's roll panel)
    "dp.seen": {"en": "{n} {n:die|dice}", "de": "{n} Würfel"},
    "dp.seen_in_zones": {"en": "{n} {n:die|dice}, {k} of them in the zone of {players}",
                         "de": "{n} Würfel, {k} davon in der Zone von {players}"},
    "dp.whose.party": {"en": "{players}'s party", "de": "Party von {players}"},
    "dp.whose.preparty": {"en": "the preparty throw of {players}",
                          "de": "Vorparty-Wurf von {players}"},
    "dp.roll.scored": {"en": "{seen}, scored as {whose}", "de": "{seen}, gewertet als {whose}"},
    "dp.roll.check": {"en": "{seen}, to count as {whose} once they are right",
                      "de": "{seen}, zählen als {whose}, sobald sie stimmen"},
    "dp.roll.refused": {"en": "{seen} for {whose}, not scored: the reason is below",
                        "de": "{seen} für {whose}, nicht gewertet: der Grund steht darunter"},
    # said of the last roll seen while the game moves on: "was", so it stays true
    "dp.roll.ignored": {"en": "{n} {n:die|dice}, not counted: no throw was due",
                        "de": "{n} Würfel, nicht gezählt: es war kein Wurf dran"},
    "dp.aside.counter_die": {
        "en": "The yellow {value} is {player}'s counter die ({wallets} {wallets:wallet|wallets}): "
              "leave it out",
        "de": "Die gelbe {value} ist der Zählwürfel von {player} ({wallets} "
              "{wallets:Geldbörse|Geldbörsen}): "
              "weglassen"},
    # step 2's verdict, as the FAQ explains it
    "dp.no_mob": {"en": "No Mob is at the party, so it cannot escalate.",
                  "de": "Kein Mob ist auf der Party, also kann sie nicht eskalieren."},
    "dp.escalated": {
        "en": "Escalated: the Mobs' level {mobs} is higher than the guests' level {guests}; "
              "no group of Party People/VIPs covers {uncovered}.",
        "de": "Eskaliert: die Stufe der Mobs ({mobs}) ist höher als die der Gäste ({guests}); "
              "keine Gruppe aus Partyvolk/VIPs deckt {uncovered}."},
    "dp.calm": {
        "en": "Calm: the Mobs' level {mobs} is not higher than the guests' level {guests}; "
              "every Mob is covered by a group of Party People/VIPs.",
        "de": "Ruhig: die Stufe der Mobs ({mobs}) ist nicht höher als die der Gäste "
              "({guests}); jeder Mob ist von einer Gruppe aus Partyvolk/VIPs gedeckt."},
    "dp.die": {"en": "{kind} {pips}", "de": "{kind} {pips}"},
    "dp.plus": {"en": "{first} + {second}", "de": "{first} + {second}"},
    "dp.group_exact": {"en": "{guests} = {mobs}", "de": "{guests} = {mobs}"},
    "dp.group_over": {"en": "{guests} > {mobs}", "de": "{guests} > {mobs}"},
    "dp.kind.party_people": {"en": "Party People", "de": "Partyvolk"},
    "dp.kind.vip": {"en": "VIP", "de": "VIP"},
    "dp.kind.mob": {"en": "Mob", "de": "Mob"},
    "dp.millionaire_level": {"en": "{n} VIPs have level {level}",
                             "de": "{n} VIPs haben Stufe {level}"},
    "dp.millionaire_level_no_mob": {
        "en": "{n} VIPs have level {level} and no Mob has that level",
        "de": "{n} VIPs haben Stufe {level} und kein Mob hat diese Stufe"},
    # what happened (the events of the last action)
    "dp.ev.start": {
        "en": "Everyone builds a party of 2 Party People and 2 VIPs and throws it to find the "
              "start player.",
        "de": "Alle bauen eine Party aus 2 Partyvolk und 2 VIPs und werfen sie, um den "
              "Startspieler zu finden."},
    "dp.ev.preparty_some": {"en": "{given} threw; waiting for {rest}.",
                            "de": "{given} hat geworfen; es fehlen noch {rest}."},
    "dp.ev.preparty_tie": {"en": "{tied} tie with {total}: everyone throws again.",
                           "de": "{tied} haben beide {total}: alle werfen nochmal."},
    "dp.ev.preparty_start": {"en": "{player} has the highest total ({total}) and starts.",
                             "de": "{player} hat die höchste Summe ({total}) und beginnt."},
    "dp.ev.empty_party": {"en": "{player}'s party has no guests, so the turn passes.",
                          "de": "Die Party von {player} hat keine Gäste, der Zug geht weiter."},
    "dp.ev.millionaire_again": {
        "en": "A millionaire arrives ({reason}), but {player} has already won a round by "
              "millionaire: no win, and the turn ends here.",
        "de": "Ein Millionär kommt ({reason}), aber {player} hat schon eine Runde durch einen "
              "Millionär gewonnen: kein Sieg, der Zug endet hier."},
    "dp.ev.millionaire": {"en": "A millionaire arrives at {player}'s party ({reason}).",
                          "de": "Ein Millionär kommt auf die Party von {player} ({reason})."},
    "dp.ev.escalates": {"en": "{player}'s party escalates and is out of this round.",
                        "de": "Die Party von {player} eskaliert und ist aus dieser Runde raus."},
    "dp.ev.third_escalation": {
        "en": "That is {player}'s third escalation: out of the following rounds.",
        "de": "Das ist die dritte Eskalation von {player}: raus aus den folgenden Runden."},
    "dp.ev.last_party": {"en": "Every other party has escalated: {player} wins the round.",
                         "de": "Alle anderen Partys sind eskaliert: {player} gewinnt die Runde."},
    "dp.ev.steals_nothing": {"en": "{player} steals nothing.", "de": "{player} stiehlt nichts."},
    "dp.ev.no_wallets": {
        "en": "{player} has no Party People at level 6: no wallet to steal.",
        "de": "{player} hat kein Partyvolk auf Stufe 6: keine Geldbörse zu stehlen."},
    "dp.ev.nobody_to_provoke": {
        "en": "{player} has no VIP at level 4 or higher: nobody to provoke.",
        "de": "{player} hat keinen VIP ab Stufe 4: niemand zu provozieren."},
    "dp.ev.no_growth": {
        "en": "{player}'s party does not grow: neither option brings a guest ({pp} Party "
              "People points, {vip} VIP points).",
        "de": "Die Party von {player} wächst nicht: keine Option bringt einen Gast ({pp} "
              "Partyvolk-Punkte, {vip} VIP-Punkte)."},
    "dp.ev.steals": {
        "en": "{player} steals {n} {n:wallet|wallets}; the counter die shows {counter}.",
        "de": "{player} stiehlt {n} {n:Geldbörse|Geldbörsen}; der Zählwürfel zeigt {counter}."},
    "dp.ev.wallets": {"en": "{player} has {n} {n:wallet|wallets}.",
                      "de": "{player} hat {n} {n:Geldbörse|Geldbörsen}."},
    "dp.ev.provokes_nobody": {"en": "{player} provokes nobody.",
                              "de": "{player} provoziert niemanden."},
    "dp.ev.provokes": {"en": "{player} provokes {dice}.", "de": "{player} provoziert {dice}."},
    "dp.ev.gets": {"en": "{player} gets {mobs}.", "de": "{player} bekommt {mobs}."},
    "dp.mobs": {"en": "{n} {n:Mob|Mobs}", "de": "{n} {n:Mob|Mobs}"},
    "dp.mobs_short": {"en": "{n} of {due} {due:Mob|Mobs} (the stock ran out)",
                      "de": "{n} von {due} {due:Mob|Mobs} (der Vorrat ist leer)"},
    "dp.mobs_short_leave": {
        "en": "{n} of {due} {due:Mob|Mobs} (the stock ran out; {gone} {gone:leaves|leave} "
              "instead)",
        "de": "{n} von {due} {due:Mob|Mobs} (der Vorrat ist leer; dafür {gone:geht|gehen} "
              "{gone})"},
    "dp.count_kind": {"en": "{n} {kind}", "de": "{n} {kind}"},
    "dp.ev.grows": {
        "en": "{player}'s party grows by {n} {kind} ({points} {source} points){short}{mobs}.",
        "de": "Die Party von {player} wächst um {n} {kind} ({points} {source}-Punkte)"
              "{short}{mobs}."},
    "dp.grow_short": {"en": ", {n} fewer than due (stock empty)",
                      "de": ", {n} weniger als fällig (Vorrat leer)"},
    "dp.grow_mobs": {"en": " and {mobs}", "de": " und {mobs}"},
    "dp.ev.stalled": {
        "en": "Every party left in the round is empty, so nobody can act: the round ends "
              "without a winner.",
        "de": "Jede Party in der Runde ist leer, niemand kann handeln: die Runde endet ohne "
              "Sieger."},
    "dp.ev.round_won": {"en": "{player} wins the round by {how}.",
                        "de": "{player} gewinnt die Runde durch {how}."},
    "dp.how.escalation": {"en": "escalation", "de": "Eskalation"},
    "dp.how.millionaire": {"en": "millionaire", "de": "Millionär"},
    "dp.how.wallets": {"en": "wallets", "de": "Geldbörsen"},
    "dp.ev.crowned": {"en": "{player} has won by all three conditions and is crowned Party "
                            "Animal!",
                      "de": "{player} hat mit allen drei Bedingungen gewonnen und ist das "
                            "Party Animal!"},
    "dp.ev.last_standing": {
        "en": "Every other player is out by a third escalation: {player} is the Party Animal!",
        "de": "Alle anderen sind durch eine dritte Eskalation raus: {player} ist das Party "
              "Animal!"},
    "dp.ev.next_round": {
        "en": "Round {round}: fresh parties of 2 Party People and 2 VIPs; everyone still in "
              "throws to find the start player.",
        "de": "Runde {round}: neue Partys aus 2 Partyvolk und 2 VIPs; alle, die noch dabei "
              "sind, werfen, um den Startspieler zu finden."},
})


def kind_name(kind_value: str) -> Message:
    return MESSAGES(f"dp.kind.{kind_value}")


def dice_sum(dice: list[tuple[str, int]]) -> Text:
    """Dice as players add them up, "Party People 2 + VIP 1", from (kind, pips) pairs."""
    text: Text = ""
    for kind, pips in dice:
        die = MESSAGES("dp.die", kind=kind_name(kind), pips=pips)
        text = die if text == "" else MESSAGES("dp.plus", first=text, second=die)
    return text
