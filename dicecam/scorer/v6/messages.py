"""V6's sentences for players, in English and German (see ``dicecam.messages``): what each
announcement would do, the round's notes and log, the joker programs' prompts, the
evening's notes; and the jokers' rules in German, so the croupier's screen describes every
joker in the player's language before it is chosen."""

from __future__ import annotations

from dicecam.messages import Catalogue, Message, Text
from dicecam.messages import en_de as _m

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


#: a joker program's choices in German, as the croupier's screen words them (``v6.js``;
#: in English the choice is named by its id)
OPTION_WORDS_DE = {
    "keep": "behalten", "reroll": "nochmal werfen", "fight": "kämpfen", "dodge": "ausweichen",
    "again": "nochmal", "retreat": "zurückziehen", "challenge": "herausfordern",
    "pass": "passen",
}


MESSAGES = Catalogue({
    # what a button would do (the legal moves' reasons)
    "v6.why.free_throw": _m("the free throw: a 1 or a 6 counts as plain pips",
                            "der Freiwurf: eine 1 oder 6 zählt als normale Augen"),
    "v6.why.rob": _m("rob {victim} of {pips} ({victim} has {total})",
                     "{victim} um {pips} bestehlen ({victim} hat {total})"),
    "v6.why.rob_zombie": _m("rob zombie {victim}: +{pips} for the thief, {victim} stays at 0",
                            "Zombie {victim} bestehlen: +{pips} für den Dieb, {victim} bleibt "
                            "bei 0"),
    "v6.why.rob_zombify": _m("rob {victim} of {pips}: {victim} becomes a zombie, +{zombie} more",
                             "{victim} um {pips} bestehlen: {victim} wird zum Zombie, "
                             "+{zombie} dazu"),
    "v6.why.pass_steal": _m("rob nobody: the one brings no pips (-{pips})",
                            "niemanden bestehlen: die Eins bringt keine Augen (-{pips})"),
    "v6.why.let_six_stand": _m("let the six stand: {six}; Runkelrüb stays unused for a later "
                               "round",
                               "die Sechs gelten lassen: {six}; Runkelrüb bleibt für eine "
                               "spätere Runde"),
    "v6.why.go_on": _m("go on: a six loses everything", "weiter: eine Sechs kostet alles"),
    "v6.why.go_on_fumo": _m("go on under Fumo: doubled, but a six is still the verflixte Sechs",
                            "weiter unter Fumo: verdoppelt, aber eine Sechs bleibt die "
                            "verflixte Sechs"),
    "v6.why.go_on_secured": _m("go on: a six ends the round at the secured {pips}",
                               "weiter: eine Sechs beendet die Runde bei den gesicherten "
                               "{pips}"),
    "v6.why.go_on_runkelrueb": _m("go on: a six calls Runkelrüb",
                                  "weiter: eine Sechs ruft den Runkelrüb"),
    "v6.why.stop": _m("stop and keep {pips} {pips:pip|pips}",
                      "aufhören und {pips} {pips:Auge|Augen} behalten"),
    "v6.why.end_fumo": _m("end Fumo: throws count single again",
                          "Fumo beenden: Würfe zählen wieder einfach"),
    "v6.why.kaelte_use": _m("use {n}: {rule}", "Einsatz {n}: {rule}"),
    "v6.why.ends_fumo": _m("{why} (ends Fumo)", "{why} (beendet Fumo)"),
    "v6.why.against": _m("{why}; against {opponent}", "{why}; gegen {opponent}"),
    "v6.why.throw_off": _m("throw-off: the croupier throws for {player}",
                           "Stechen: der Croupier würfelt für {player}"),
    "v6.why.already_used": _m("{player} already used {joker} this evening",
                              "{player} hat {joker} an diesem Abend schon benutzt"),
    # the round's log: labels
    "v6.label.free_throw": _m("free throw", "Freiwurf"),
    "v6.label.throw": _m("throw {n}", "Wurf {n}"),
    "v6.label.throw_under": _m("throw {n} ({joker})", "Wurf {n} ({joker})"),
    "v6.label.end_fumo": _m("end Fumo", "Fumo beenden"),
    "v6.label.stop": _m("stop", "aufhören"),
    "v6.label.rob": _m("rob {victim}", "{victim} bestehlen"),
    "v6.label.rob_nobody": _m("rob nobody", "niemanden bestehlen"),
    "v6.label.six_stands": _m("six stands", "Sechs gilt"),
    # the round's notes
    "v6.note.free_throw_first": _m("the croupier begins with the free throw",
                                   "der Croupier beginnt mit dem Freiwurf"),
    "v6.note.announces": _m("{player} announces {joker}", "{player} sagt {joker} an"),
    "v6.note.kaelte_use": _m(" (use {n})", " (Einsatz {n})"),
    "v6.note.fumo_ends": _m(" (Fumo ends)", " (Fumo endet)"),
    "v6.note.secured": _m("; {pips} {pips:pip|pips} secured",
                           "; {pips} {pips:Auge|Augen} gesichert"),
    "v6.note.free_throw": _m("free throw {value}: +{value}; the auto-jokers are now active",
                             "Freiwurf {value}: +{value}; die Auto-Joker sind jetzt aktiv"),
    "v6.note.ventil_cannot_help": _m("the Ventil cannot help", "das Ventil hilft nicht"),
    "v6.note.toertchen": _m("Törtchen +1", "Törtchen +1"),
    "v6.note.toertchen_after": _m("Törtchen +1 after the joker's throws",
                                  "Törtchen +1 nach den Würfen des Jokers"),
    "v6.note.thief": _m("thieving one no. {n}: steals {pips}",
                        "diebische Eins Nr. {n}: stiehlt {pips}"),
    "v6.note.plus": _m("+{n}", "+{n}"),
    "v6.note.bonus": _m("{joker} +{n}", "{joker} +{n}"),
    "v6.note.choose_victim": _m("choose whom to rob", "wähle, wen du bestiehlst"),
    "v6.note.runkelrueb_called": _m("the verflixte Sechs! Runkelrüb gets two throws to make it "
                                    "void",
                                    "die verflixte Sechs! Der Runkelrüb hat zwei Würfe, um sie "
                                    "ungültig zu machen"),
    "v6.note.six_secured": _m("the verflixte Sechs: Elas' Ventil keeps {pips} {pips:pip|pips}; "
                              "round over",
                              "die verflixte Sechs: Elas' Ventil hält {pips} "
                              "{pips:Auge|Augen}; Runde "
                              "vorbei"),
    "v6.note.six_zombie": _m("the verflixte Sechs: every pip is lost, the player is a zombie",
                             "die verflixte Sechs: alle Augen sind weg, der Spieler ist ein "
                             "Zombie"),
    "v6.note.fumo_void": _m("Fumo's doublings are void (-{n}) and Fumo ends",
                            "Fumos Verdopplungen sind ungültig (-{n}) und Fumo endet"),
    "v6.note.duel_loses": _m("{opponent} loses {n}", "{opponent} verliert {n}"),
    "v6.note.duel_zombie": _m(" and is a zombie: +{n} zombie {n:pip|pips}",
                              " und ist ein Zombie: +{n} {n:Zombie-Auge|Zombie-Augen}"),
    "v6.note.duel_gains": _m("{opponent} gains {n}", "{opponent} bekommt {n}"),
    "v6.note.duel_zombie_stays": _m("zombie {opponent} stays at 0",
                                    "Zombie {opponent} bleibt bei 0"),
    "v6.note.robs": _m("{player} robs {victim} of {pips}", "{player} bestiehlt {victim} um {pips}"),
    "v6.note.robs_poor": _m("{player} robs {victim} of {pips} ({victim} had {had}, stays at "
                            "{left})",
                            "{player} bestiehlt {victim} um {pips} ({victim} hatte {had}, "
                            "bleibt bei {left})"),
    "v6.note.victim_zombie": _m("{victim} is a zombie: +{n} zombie {n:pip|pips}",
                                "{victim} ist ein Zombie: +{n} {n:Zombie-Auge|Zombie-Augen}"),
    "v6.note.pass_steal": _m("{player} passes up the theft: nobody is robbed, -{pips}",
                             "{player} verzichtet auf den Diebstahl: niemand wird bestohlen, "
                             "-{pips}"),
    "v6.note.let_six_stand": _m("{player} lets the six stand and keeps Runkelrüb unused",
                                "{player} lässt die Sechs gelten und behält den Runkelrüb"),
    "v6.note.fumo_ended": _m("Fumo ended: throws count single again",
                             "Fumo beendet: Würfe zählen wieder einfach"),
    "v6.note.stops": _m("{player} stops with {pips} {pips:pip|pips}",
                         "{player} hört mit {pips} {pips:Auge|Augen} auf"),
    "v6.prompt.throw_under": _m("the throw under {joker}", "der Wurf unter {joker}"),
    # the jokers' own throws
    "v6.j.fumo": _m("Fumo doubles the {value}: +{n}", "Fumo verdoppelt die {value}: +{n}"),
    "v6.j.all_in_won": _m("All In won with a {value}: the total doubles",
                          "All In gewonnen mit einer {value}: die Summe verdoppelt sich"),
    "v6.j.all_in_lost": _m("All In lost with a {value}: every pip is gone",
                           "All In verloren mit einer {value}: alle Augen sind weg"),
    "v6.j.hirte": _m("Hirtenschutz doubles the {value}: +{n}",
                     "Hirtenschutz verdoppelt die {value}: +{n}"),
    "v6.j.kaelte_six": _m("Kälteschutz (use {use}) turns the six into +6 and is spent",
                          "Kälteschutz (Einsatz {use}) macht aus der Sechs +6 und ist "
                          "verbraucht"),
    "v6.j.kaelte_above": _m("Kälteschutz use {use}: {value} is above {use}, +{value}",
                            "Kälteschutz Einsatz {use}: {value} ist über {use}, +{value}"),
    "v6.j.kaelte_below": _m("Kälteschutz use {use}: {value} is not above {use}, -{value}",
                            "Kälteschutz Einsatz {use}: {value} ist nicht über {use}, "
                            "-{value}"),
    "v6.j.spelunke": _m("Spelunkenbold: {value} + {extra} = +{n}",
                        "Spelunkenbold: {value} + {extra} = +{n}"),
    "v6.j.monokel_ask": _m("Monokel: keep the {value} or throw it again?",
                           "Monokel: die {value} behalten oder nochmal werfen?"),
    "v6.j.monokel_again": _m("Monokel: throw {which} again (this one is kept)",
                             "Monokel: Wurf {which} nochmal (dieser wird behalten)"),
    "v6.j.monokel_second": _m("Monokel: {kept} kept; second throw",
                              "Monokel: {kept} behalten; zweiter Wurf"),
    "v6.j.monokel_done": _m("Monokel: the second throw {kept} is kept",
                            "Monokel: der zweite Wurf {kept} wird behalten"),
    "v6.j.pony_throw": _m("Pony: throw {n} of 3", "Pony: Wurf {n} von 3"),
    "v6.j.pony_made": _m("Pony made it: {total} reaches {limit}",
                         "Pony geschafft: {total} erreicht {limit}"),
    "v6.j.pony_failed": _m("Pony failed: {total} is below {limit}, -{loss}",
                           "Pony gescheitert: {total} ist unter {limit}, -{loss}"),
    "v6.j.oce_ask": _m("Anaconda threw {value}: fight her or dodge (-{loss})?",
                       "Die Anakonda warf {value}: kämpfen oder ausweichen (-{loss})?"),
    "v6.j.oce_dodged": _m("dodged the Anaconda: -{loss}", "der Anakonda ausgewichen: -{loss}"),
    "v6.j.oce_won": _m("beat the Anaconda {mine} to {snake}: {mine} + {win}",
                       "die Anakonda {mine} zu {snake} geschlagen: {mine} + {win}"),
    "v6.j.oce_lost": _m("the Anaconda won {snake} to {mine}: -{loss}",
                        "die Anakonda gewann {snake} zu {mine}: -{loss}"),
    "v6.j.ratte_retreated": _m("retreated from the Rattenlord: -{loss}",
                               "vor dem Rattenlord zurückgezogen: -{loss}"),
    "v6.j.ratte_won": _m("beat the Rattenlord with a {value}: +{win}",
                         "den Rattenlord mit einer {value} geschlagen: +{win}"),
    "v6.j.ratte_ask": _m("Rattenlord: {value} is no win; throw again or retreat (-{loss})?",
                         "Rattenlord: {value} gewinnt nicht; nochmal werfen oder zurückziehen "
                         "(-{loss})?"),
    "v6.j.ratte_lost": _m("lost to the Rattenlord: -{loss}",
                          "gegen den Rattenlord verloren: -{loss}"),
    "v6.j.sekante_ask": _m("Sekante {n}: the player threw {value}; let the opponent answer?",
                           "Sekante {n}: der Spieler warf {value}; soll der Gegner antworten?"),
    "v6.j.sekante_theirs": _m("Sekante {n}: the opponent's throw", "Sekante {n}: Wurf des Gegners"),
    "v6.j.sekante_next": _m("Sekante: throw {n} of 5 (score {wins}:{losses})",
                            "Sekante: Wurf {n} von 5 (Stand {wins}:{losses})"),
    "v6.j.sekante_done": _m("Sekante ends {won}:{lost}: {net}",
                            "Sekante endet {won}:{lost}: {net}"),
    "v6.j.hoeschen_try": _m("Höschen: attempt {n} of 4", "Höschen: Versuch {n} von 4"),
    "v6.j.hoeschen_counter": _m("Höschen: Cherry's counter {n} of {of} (5 or 6 averts)",
                                "Höschen: Cherrys Konter {n} von {of} (5 oder 6 wehrt ab)"),
    "v6.j.hoeschen_done": _m("Höschen: {hits} successful, {averted} averted: +{n}",
                             "Höschen: {hits} erfolgreich, {averted} abgewehrt: +{n}"),
    "v6.j.runkelrueb_saved": _m("Runkelrüb saved the player: the six is void",
                                "Der Runkelrüb hat den Spieler gerettet: die Sechs ist ungültig"),
    "v6.j.runkelrueb_failed": _m("Runkelrüb failed: the six stands",
                                 "Der Runkelrüb ist gescheitert: die Sechs gilt"),
    "v6.j.fumo_six": _m("a six under Fumo is the verflixte Sechs",
                        "eine Sechs unter Fumo ist die verflixte Sechs"),
    "v6.j.spelunke_six": _m("Spelunkenbold: the six costs {loss} pips, play goes on",
                            "Spelunkenbold: die Sechs kostet {loss} Augen, es geht weiter"),
    "v6.j.monokel_first": _m("Monokel: first throw", "Monokel: erster Wurf"),
    "v6.j.oce_snake": _m("Anaconda: the Anaconda's throw", "Anakonda: der Wurf der Anakonda"),
    "v6.j.oce_mine": _m("Anaconda: the player's throw", "Anakonda: der Wurf des Spielers"),
    "v6.j.ratte_first": _m("Rattenlord: first throw (5 or 6 wins)",
                           "Rattenlord: erster Wurf (5 oder 6 gewinnt)"),
    "v6.j.ratte_second": _m("Rattenlord: second throw (5 or 6 wins)",
                            "Rattenlord: zweiter Wurf (5 oder 6 gewinnt)"),
    "v6.j.sekante_first": _m("Sekante: throw 1 of 5", "Sekante: Wurf 1 von 5"),
    "v6.j.hoeschen_first": _m("Höschen: attempt 1 of 4 (3+ succeeds)",
                              "Höschen: Versuch 1 von 4 (3+ gelingt)"),
    "v6.j.runkelrueb_throw": _m("Runkelrüb: throw {n} of 2 against the six (3+ saves)",
                                "Runkelrüb: Wurf {n} von 2 gegen die Sechs (3+ rettet)"),
    "v6.one_die": _m("V6 throws one die at a time; the camera saw {n} dice. Leave exactly one "
                     "die in view.",
                     "V6 wirft einen Würfel nach dem anderen; die Kamera sah {n} Würfel. Lass "
                     "genau einen Würfel im Bild."),
    "v6.unread": _m("the die could not be read; tap it to enter its value",
                    "der Würfel ist nicht lesbar; tippe ihn an, um seine Augen einzugeben"),
    # the evening's notes
    "v6.ev.give_groups": _m("give the groups to begin", "zum Beginnen die Gruppen angeben"),
    "v6.ev.names_jokers": _m("group {group}, pass {pass_no}: {player} names the jokers",
                             "Gruppe {group}, Durchgang {pass_no}: {player} nennt die Joker"),
    "v6.ev.plays_with": _m("{player} plays with {jokers}; the croupier begins with the free "
                           "throw",
                           "{player} spielt mit {jokers}; der Croupier beginnt mit dem "
                           "Freiwurf"),
    "v6.ev.no_jokers": _m("no jokers", "keinen Jokern"),
    "v6.ev.next_names_jokers": _m("{player} names the jokers for the next round",
                                  "{player} nennt die Joker für die nächste Runde"),
    "v6.ev.tie_pass": _m("tie in pass {pass_no}: throw-off for {tied}",
                         "Gleichstand in Durchgang {pass_no}: Stechen für {tied}"),
    "v6.ev.tie_table": _m("tie in group {group}'s table: throw-off for {tied}",
                          "Gleichstand in der Tabelle von Gruppe {group}: Stechen für {tied}"),
    "v6.ev.over": _m("the evening is over; through: {qualified}",
                     "der Abend ist vorbei; weiter sind: {qualified}"),
    "v6.ev.threw_next": _m("{player} threw {value}; next {next}",
                           "{player} warf {value}; als Nächstes {next}"),
    "v6.ev.threw": _m("{player} threw {value}", "{player} warf {value}"),
    "v6.ev.still_tied": _m("still tied: {tied} throw again",
                           "immer noch gleich: {tied} werfen nochmal"),
    "v6.ev.order": _m("throw-off order: {order}", "Reihenfolge nach dem Stechen: {order}"),
    # each joker's rule, as a message (the announcement buttons say what a joker does)
    **{f"v6.rule.{joker}": _m("{rule}", rule) for joker, rule in JOKER_RULES_DE.items()},
    # a joker program's choices, as the croupier's screen names them (v6.js)
    **{f"v6.option.{option}": _m(option, word) for option, word in OPTION_WORDS_DE.items()},
    "v6.or": _m("{first} or {second}", "{first} oder {second}"),
    # how a round ended, in a refusal
    "v6.outcome.playing": _m("playing", "läuft"),
    "v6.outcome.stopped": _m("stopped", "aufgehört"),
    "v6.outcome.secured": _m("secured", "vom Ventil gesichert"),
    "v6.outcome.zombie": _m("zombie", "Zombie"),
    # the evening's refusals: setting it up
    "v6.no.players": _m("a V6 evening needs {low} to {high} players, got {n}",
                        "ein V6-Abend braucht {low} bis {high} Spieler, angegeben sind {n}"),
    "v6.no.names_distinct": _m("player names must be distinct",
                               "die Namen der Spieler müssen verschieden sein"),
    "v6.no.qualify": _m("qualify must be 1 to {high}, got {n}",
                        "je Gruppe kommen 1 bis {high} Spieler weiter (qualify), angegeben "
                        "ist {n}"),
    "v6.no.spent_stranger": _m("jokers used before are given for {names}, who does not play "
                               "this evening",
                               "schon benutzte Joker sind für Spieler angegeben, die an "
                               "diesem Abend nicht mitspielen: {names}"),
    "v6.no.draw_players": _m("a V6 evening needs at least {low} players, got {n}",
                             "ein V6-Abend braucht mindestens {low} Spieler, angegeben sind "
                             "{n}"),
    "v6.no.draw_distinct": _m("player names must be distinct to draw groups",
                              "zum Auslosen der Gruppen müssen die Namen der Spieler "
                              "verschieden sein"),
    "v6.no.draw_size": _m("groups hold at least {low} players, got size {size}",
                          "eine Gruppe hat mindestens {low} Spieler, angegeben ist die Größe "
                          "{size}"),
    # the evening's refusals: during play
    "v6.no.evening_over": _m("the evening is over", "der Abend ist vorbei"),
    "v6.no.groups_set": _m("the groups are already set; they cannot change during the evening",
                           "die Gruppen stehen schon fest; während des Abends ändern sie sich "
                           "nicht mehr"),
    "v6.no.groups_first": _m("set the groups first", "lege zuerst die Gruppen fest"),
    "v6.no.groups_every": _m("the groups must hold every player exactly once ({detail})",
                             "die Gruppen müssen jeden Spieler genau einmal enthalten "
                             "({detail})"),
    "v6.no.groups_missing": _m("missing {names}", "es fehlt: {names}"),
    "v6.no.groups_extra": _m("not a player: {names}", "spielt nicht mit: {names}"),
    "v6.no.groups_twice": _m("listed twice: {names}", "doppelt eingeteilt: {names}"),
    "v6.no.group_size": _m("group {group} has {n} players; a group holds {low} to {high}",
                           "Gruppe {group} hat {n} Spieler; eine Gruppe hat {low} bis {high} "
                           "Spieler"),
    "v6.no.jokers_first": _m("{player} names the jokers for the round first (up to three, or "
                             "none)",
                             "zuerst nennt {player} die Joker für die Runde (bis zu drei oder "
                             "keinen)"),
    "v6.no.throw_off": _m("a tie is being settled: the croupier throws for {player}",
                          "es läuft ein Stechen um einen Gleichstand: der Croupier würfelt für "
                          "{player}"),
    "v6.no.jokers_in_round": _m("jokers are named before a round begins, not during it",
                                "die Joker werden vor Beginn einer Runde genannt, nicht während "
                                "der Runde"),
    "v6.no.at_most": _m("{player} may choose at most {max} jokers, got {n}",
                        "{player} darf höchstens {max} Joker wählen, gewählt sind {n}"),
    "v6.no.free_final_only": _m("a free joker choice exists only in the final",
                                "eine freie Jokerwahl gibt es nur im Finale"),
    "v6.no.free_used": _m("{player} already had the free-choice round of this final",
                          "{player} hatte die Runde mit freier Jokerwahl in diesem Finale "
                          "schon"),
    "v6.no.choose_another": _m("{why}; choose another", "{why}; wähle einen anderen"),
    "v6.no.choose_another_free": _m("{why}; choose another (or use the final's free-choice "
                                    "round)",
                                    "{why}; wähle einen anderen (oder nutze die Runde mit "
                                    "freier Jokerwahl im Finale)"),
    "v6.no.die": _m("a die shows 1 to 6, got {value}",
                    "ein Würfel zeigt 1 bis 6, nicht {value}"),
    # a round's refusals: setting it up
    "v6.no.round_at_most": _m("a player chooses at most {max} jokers per round, got {n}",
                              "ein Spieler wählt höchstens {max} Joker je Runde, gewählt sind "
                              "{n}"),
    "v6.no.round_once": _m("a joker can be chosen only once per round; remove the duplicate",
                           "ein Joker kann je Runde nur einmal gewählt werden; nimm den "
                           "doppelten heraus"),
    "v6.no.opponent_names": _m("opponents must have distinct names, other than the player's",
                               "die Gegner brauchen verschiedene Namen, und keiner darf so "
                               "heißen wie der Spieler"),
    "v6.no.negative": _m("totals cannot be negative",
                         "eine Augensumme kann nicht negativ sein"),
    "v6.no.zombie_zero": _m("a zombie stands at zero pips", "ein Zombie steht bei null Augen"),
    # why a chosen joker cannot be announced now
    "v6.no.not_chosen": _m("{joker} was not chosen for this round",
                           "{joker} wurde für diese Runde nicht gewählt"),
    "v6.no.auto": _m("{joker} is an auto-joker: the croupier applies it",
                     "{joker} ist ein Auto-Joker: der Croupier aktiviert ihn"),
    "v6.no.before_free_throw": _m("jokers are announced after the free throw",
                                  "Joker werden erst nach dem Freiwurf angesagt"),
    "v6.no.round_ended": _m("the round is over", "die Runde ist vorbei"),
    "v6.no.victim_first": _m("first choose whom the thieving one robs",
                             "wähle zuerst, wen die diebische Eins bestiehlt"),
    "v6.no.one_per_throw": _m("one joker per throw: {what} must be finished first",
                              "ein Joker pro Wurf: erst muss {what} zu Ende gespielt sein"),
    "v6.no.the_thief": _m("the thieving one", "die diebische Eins"),
    "v6.no.kaelte_spent": _m("Kälteschutz is spent: it already saved the player from a six",
                             "Kälteschutz ist verbraucht: er hat den Spieler schon vor einer "
                             "Sechs bewahrt"),
    "v6.no.kaelte_max": _m("Kälteschutz has been used {n} times",
                           "Kälteschutz wurde schon {n}-mal eingesetzt"),
    "v6.no.used": _m("{joker} was already used this round",
                     "{joker} wurde in dieser Runde schon eingesetzt"),
    "v6.no.no_opponents": _m("{joker} needs an opponent, and this round has none",
                             "{joker} braucht einen Gegner, und in dieser Runde gibt es keinen"),
    # a round's refusals: during play
    "v6.no.round_over": _m("{player}'s round is over ({outcome}); start the next round",
                           "die Runde von {player} ist vorbei ({outcome}); beginne die "
                           "nächste Runde"),
    "v6.no.fumo_not_running": _m("Fumo is not running, so it cannot be ended",
                                 "Fumo läuft nicht und kann darum nicht beendet werden"),
    "v6.no.not_now": _m("cannot {what} now: {reason}", "{what} geht jetzt nicht: {reason}"),
    "v6.do.end_fumo": _m("end Fumo", "Fumo beenden"),
    "v6.do.stop": _m("stop", "Aufhören"),
    "v6.do.throw": _m("throw", "Werfen"),
    "v6.do.choose": _m("choose '{option}'", "„{option}“ wählen"),
    "v6.no.free_throw_first": _m("the free throw comes first", "zuerst kommt der Freiwurf"),
    "v6.no.joker_throw_first": _m("the croupier's throw for the joker in play comes first",
                                  "zuerst kommt der Wurf des Croupiers für den laufenden "
                                  "Joker"),
    "v6.no.choice_first": _m("the joker in play waits for a choice first",
                             "der laufende Joker wartet zuerst auf eine Wahl"),
    "v6.no.announce": _m("cannot announce {joker}: {why}",
                         "{joker} kann jetzt nicht angesagt werden: {why}"),
    "v6.no.name_opponent": _m("{joker} needs an opponent: name one of {names}",
                              "{joker} braucht einen Gegner: nenne einen von {names}"),
    "v6.no.takes_no_opponent": _m("{joker} takes no opponent",
                                  "{joker} wird ohne Gegner gespielt"),
    "v6.no.not_opponent": _m("'{name}' is not an opponent in this round (opponents: {known})",
                             "„{name}“ ist in dieser Runde kein Gegner (Gegner: {known})"),
    "v6.no.nobody": _m("none", "keine"),
    "v6.no.nothing_to_choose": _m("nothing to choose now; '{option}' is not an option",
                                  "jetzt gibt es nichts zu wählen; „{option}“ steht nicht zur "
                                  "Wahl"),
    "v6.no.not_an_option": _m("'{option}' is not an option now; choose {options}",
                              "„{option}“ steht jetzt nicht zur Wahl; wähle {options}"),
    "v6.no.waits_for_choice": _m("{joker} waits for a choice: {options}",
                                 "{joker} wartet auf eine Wahl: {options}"),
    "v6.no.nothing_to_steal": _m("there is nothing to steal now: only a thieving one lets the "
                                 "player rob an opponent",
                                 "jetzt gibt es nichts zu stehlen: nur eine diebische Eins "
                                 "lässt den Spieler einen Gegner bestehlen"),
    "v6.no.no_theft": _m("there is no theft to pass up now: only a thieving one lets the "
                         "player rob an opponent",
                         "jetzt gibt es keinen Diebstahl, auf den der Spieler verzichten "
                         "könnte: nur eine diebische Eins lässt ihn einen Gegner bestehlen"),
    "v6.no.no_six": _m("there is no six for Runkelrüb to answer now; letting the six stand "
                       "is a choice only right after it struck",
                       "jetzt gibt es keine Sechs, auf die der Runkelrüb antworten könnte; "
                       "die Sechs gelten lassen kann der Spieler nur gleich, nachdem sie "
                       "gefallen ist"),
})


def joker_rule(joker_id: str, english: str) -> Message:
    """A joker's rule in the player's language (English from the joker table)."""
    return MESSAGES(f"v6.rule.{joker_id}", rule=english)


def option_word(option: str) -> Text:
    """A joker program's choice in the player's language (an unknown one as it is)."""
    return MESSAGES(f"v6.option.{option}") if option in OPTION_WORDS_DE else option


def either(options: tuple[str, ...] | list[str]) -> Text:
    """Choices as "A or B" ("A oder B"), each in the player's language."""
    words = [option_word(o) for o in options]
    if not words:
        return ""
    text = words[0]
    for word in words[1:]:
        text = MESSAGES("v6.or", first=text, second=word)
    return text
