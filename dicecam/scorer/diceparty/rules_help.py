"""What the page says of Dice Party: the help behind the ? in the bar and on its rules
page, in English and German, and the rulebook it cites (``descriptor.GameHelp``)."""

from __future__ import annotations

from dicecam.scorer.descriptor import GameHelp

HELP = GameHelp(
    sections={
        "en": [
            ("The game", "Each player hosts a party of dice: yellow Party People, orange VIPs, "
             "red Mobs. The pips are a guest's level. Win by an escalation of every other "
             "party, by a millionaire, or with 6 wallets."),
            ("1 Throw", "The player whose turn it is throws the whole party. The camera reads "
             "it, or tap Enter dice by hand and count the dice per colour and pips."),
            ("2 Escalation?", "The party escalates when the Mobs' levels add up to more than "
             "the guests'. The groups below the verdict show which guests cover which Mobs."),
            ("On the dice", "Once a throw is read, the camera picture shows the verdict on the "
             "dice: a group of guests and the Mobs they cover share an outline colour and a "
             "number (the legend under the picture adds them up); a Mob no group covers is "
             "crossed out in red; the millionaire's VIPs are gold; W marks a wallet to steal."),
            ("Zones", "Several parties on the table? Draw a zone per player (a rectangle "
             "dragged on the picture): each throw then counts only the dice in its thrower's "
             "zone. The counter die beside a party: one tap on the button that names it leaves "
             "it out of the throw."),
            ("3 Millionaire?", "Several VIPs on the same level with no Mob on it bring a "
             "millionaire: the round is won."),
            ("4 Pickpocket", "Party People on level 6 may steal wallets; each stolen wallet "
             "counts on the counter die."),
            ("5 Provoke", "VIPs on level 4 or higher may be sent away; each one sends Mobs to "
             "the other parties (tap whom, in order)."),
            ("6 Grow", "Choose how the party grows: a) new VIPs for the Party People's points, "
             "b) new Party People for the VIPs' points. Both outcomes are shown first."),
            ("The table", "party / stock: the dice per colour at the party and in the box; "
             "wallets stolen; escalations so far (Party Animal: the third puts a player out); "
             "wins by condition."),
        ],
        "de": [
            ("Das Spiel", "Alle veranstalten eine Party aus Würfeln: gelbes Partyvolk, orange "
             "VIPs, rote Mobs. Die Augen sind die Stufe eines Gastes. Gewonnen wird, wenn alle "
             "anderen Partys eskalieren, durch einen Millionär oder mit 6 Geldbörsen."),
            ("1 Werfen", "Wer dran ist, wirft die ganze Party. Die Kamera liest sie, oder tippe "
             "auf Würfel von Hand eingeben und zähle die Würfel nach Farbe und Augen."),
            ("2 Eskalation?", "Die Party eskaliert, wenn die Stufen der Mobs zusammen höher sind "
             "als die der Gäste. Die Gruppen unter dem Urteil zeigen, wer welche Mobs deckt."),
            ("Auf den Würfeln", "Ist ein Wurf gelesen, zeigt das Kamerabild das Urteil auf den "
             "Würfeln: eine Gruppe von Gästen und die Mobs, die sie deckt, haben dieselbe "
             "Rahmenfarbe und Nummer (die Legende unter dem Bild rechnet sie vor); ein Mob, den "
             "keine Gruppe deckt, ist rot durchgestrichen; die VIPs des Millionärs sind gold; W "
             "markiert eine Geldbörse zum Stehlen."),
            ("Zonen", "Mehrere Partys auf dem Tisch? Zeichne eine Zone pro Spieler (ein "
             "Rechteck, auf dem Bild gezogen): jeder Wurf zählt dann nur die Würfel in der Zone "
             "des Werfenden. Der Zählwürfel neben einer Party: ein Tipp auf die Schaltfläche, "
             "die ihn nennt, lässt ihn aus dem Wurf."),
            ("3 Millionär?", "Mehrere VIPs auf derselben Stufe, auf der kein Mob ist, bringen "
             "einen Millionär: die Runde ist gewonnen."),
            ("4 Taschendiebstahl", "Partyvolk auf Stufe 6 darf Geldbörsen stehlen; der "
             "Zählwürfel zählt sie."),
            ("5 Provozieren", "VIPs ab Stufe 4 dürfen gehen; jeder schickt Mobs zu den anderen "
             "Partys (der Reihe nach antippen, wer sie bekommt)."),
            ("6 Wachsen", "Wähle, wie die Party wächst: a) neue VIPs für die Punkte des "
             "Partyvolks, b) neues Partyvolk für die Punkte der VIPs. Beide Ergebnisse stehen "
             "vorher da."),
            ("Die Tabelle", "Party / Vorrat: Würfel je Farbe auf der Party und in der Schachtel; "
             "gestohlene Geldbörsen; Eskalationen bisher (Party Animal: die dritte scheidet "
             "aus); Siege je Bedingung."),
        ],
    },
    rulebook={"en": "Dice Party rules (English edition)",
              "de": "Dice Party Spielregeln (deutsche Ausgabe)"},
    rulebook_files={"en": ("dice-party-rules-en.txt",),
                    "de": ("dice-party-rules-de.txt",)},
)
