/* German and English for the page. Each game view adds its own words with DicecamI18n.add.
 * The language is the one chosen with the DE/EN switch (remembered on this tablet), else
 * the one the server picked from the browser's preferences (German if it prefers German).
 * Sentences from the rules engines come as {msg: id, params: {...}}: message(m) words them
 * from the engines' own tables in both languages (window.DICECAM_MESSAGES, from each game's
 * messages.py); a parameter may itself be a message, or a list ("A, B and C").
 */
(function () {
  "use strict";
  const WORDS = {
    en: {
      undo: "Undo", games: "Games", new_game: "New game", no_frame: "No camera picture yet.",
      confirm_roll: "Dice are right: score", enter_dice: "Enter dice by hand",
      demo_roll: "Throw the dice (demo)", demo_throwing: "The demo table throws the dice the game waits for.",
      welcome: "Welcome", welcome_text: "Start a new game, or open one of the stored games.",
      correct_die: "What does this die show?", not_a_die: "Not a die", cancel: "Cancel",
      save: "Save", score_dice: "Score these dice", game: "Game", players: "Players",
      start: "Start", stored_games: "Stored games", close: "Close",
      no_stored_games: "No games stored yet.", player_n: "Player {n}",
      help: "Help", full_rules: "Jokers, cards and the rulebook ({game})",
      open: "Open", end_game: "End game", delete: "Delete", delete_confirm: "Really delete?",
      ended: "ended", playing: "playing now", started: "started", last_move: "last move",
      finished: "finished",
      measure_diceparty: "rounds won", measure_charidice: "points", measure_dicetopia: "stars",
      measure_v6: "points",
      player_optional: "(optional)", no_answer: "The server did not answer; try again.",
      players_range: "{game}: {min} to {max} players.",
      players_full: "{game} takes at most {max} players: every field is in use.",
      name_at_most: "A name has at most {max} characters: this one ends there.",
      demo_full_party: "Demo: start at full parties (54 dice a throw)",
      same_players: "Same players: {names}",
      no_dice_entered: "Tap the values of the dice first.",
      camera_starting: "camera starting", camera_running: "camera live", camera_cpu: "CPU {n}%",
      camera_colours_fitted: "colours learnt at this table",
      camera_ended: "video ended", camera_lost: "camera lost, reconnecting",
      server_lost: "server lost, reconnecting", camera_offline: "server lost, reconnecting",
      roll_waiting: "Waiting for the dice to settle.",
      roll_waiting_for: "Now: {now}. Waiting for the dice to settle.",
      roll_sentence: "Now: {now}. Last seen: {roll}.",
      draw_zones: "Draw a zone per player", zones_save: "Save zones", zones_clear: "Remove zones",
      zones_offer: "More dice lie on the table than {p}'s party holds. Draw one area per player " +
        "on the picture: each throw then counts only the dice in its thrower's area, and the " +
        "other parties stay where they are.",
      zones_help: "Several parties on the table? Draw one area per player on the picture: each " +
        "throw then counts only the dice in its thrower's area.",
      zones_active: "Zones drawn: each throw counts only the dice in its thrower's area.",
      zones_draw_text: "Drag a rectangle around {p}'s party on the picture.",
      zones_draw_done: "Every player has an area. Save them, or drag again to redraw the one chosen.",
      roll_pending: "Roll of {n} {n:die|dice} waits for a check.",
      roll_applied: "Roll of {n} {n:die|dice} scored.",
      roll_shown: "Roll of {n} {n:die|dice} seen: the game waits for no dice now.",
      roll_check: "Tap each die marked red to correct it ({n}).",
      confirm_teach: "Read right: teach the table",
      check_asked: "Check the asked {n:die|dice} ({n})",
      asked_left: "{n} dice asked: each value you tap answers one and shows the next.",
      add_die_title: "A die here: what does it show?",
      add_die_hint: "The camera missed a die where you tapped; it joins the roll.",
      teach_none: "dicecam learns your dice from every die you confirm or correct.",
      teach_status: "dicecam is learning your dice: {n} taught, asks {now}% of dice",
      teach_status_was: "dicecam is learning your dice: {n} taught, asks {now}% of dice (was {was}%)",
      teach_status_taught: "dicecam is learning your dice: {n} taught",
      teach_learning: "learning…",
      teach_table: "Table “{name}”:",
      teach_asked_of: "asked about {asked} of the {read} dice it read",
      teach_asked_was: "(with the shipped reader: {asked} of {read})",
      teach_not_used: "the last learning read your held-back dice no better, so it reads as before",
      teach_kept_reader: "the reader it learnt last {why} on your held-back dice, so it reads as before",
      teach_kept_detector: "the detector it learnt last {why} on your held-back pictures, so it finds dice as before",
      worse_value: "read fewer of them right",
      worse_silent: "read more of them wrong without asking",
      worse_asked: "asked about more of them",
      worse_recall: "missed more dice",
      worse_precision: "took more things for dice",
      list_and: " and ",
      teach_failed: "the last learning failed; it reads as before",
      teach_version: "reads with its own version {v}",
      teach_layout_open: "Teach your dice in one minute",
      teach_detector: "finds dice with its own version {v}",
      teach_side_faces: "knows where the camera sees the dice's sides",
      layout_title: "Teach your dice in one minute",
      layout_text: "Lay out all your dice under the camera like this: every 1 in the top row, " +
        "the 2s in the row below, and so on down to the 6s at the bottom; one colour per " +
        "column. When they lie still, tap the button: each die teaches its row's value at once.",
      layout_hint: "A die between two rows, or one that looks like another value, is asked: " +
        "tap it and say what it shows.",
      layout_teach: "Teach from this picture",
      layout_demo: "Demo: lay the dice out",
      layout_demo_laying: "The demo lays its dice out in six rows: once they lie still, tap Teach from this picture.",
      layout_no_picture: "No dice lie still under the camera yet.",
      layout_columns: "Columns, left to right: {colours}.",
      layout_rows: "The camera sees {n} {n:row|rows} of dice: lay them out in six rows, the 1s at the top, the 6s at the bottom.",
      roll_layout: "Teaching layout: {n} {n:die|dice} taught by their rows.",
      yellow: "yellow", orange: "orange", red: "red", purple: "purple", white: "white",
      turquoise: "turquoise", black: "black", grey: "grey", blue: "blue", green: "green",
      total: "Total", round: "Round", player: "Player", winner: "Winner",
      print: "Print", why: "Why", game_over: "Game over", dice_lie_in: "These dice lie in:",
      pair_open: "Watching only: enter PIN to play",
      pair_title: "Enter the PIN to play",
      pair_text: "This tablet can watch the game. To change the score from it, type the PIN " +
        "shown on the computer where dicecam runs, in the window where it was started.",
      pair_submit: "Pair this tablet",
      pair_six_digits: "The PIN has 6 digits.",
      pair_placeholder: "type the 6 digits",
      pair_wrong_pin: "That is not the PIN. Look again at the computer where dicecam runs: " +
        "it shows a new PIN each time it starts.",
      pair_too_many_tries: "Too many wrong PINs. Wait a minute, then try again.",
    },
    de: {
      undo: "Rückgängig", games: "Spiele", new_game: "Neues Spiel", no_frame: "Noch kein Kamerabild.",
      confirm_roll: "Würfel stimmen: werten", enter_dice: "Würfel von Hand eingeben",
      demo_roll: "Würfeln (Demo)", demo_throwing: "Der Demo-Tisch würfelt, was das Spiel erwartet.",
      welcome: "Willkommen", welcome_text: "Starte ein neues Spiel oder öffne ein gespeichertes.",
      correct_die: "Was zeigt dieser Würfel?", not_a_die: "Kein Würfel", cancel: "Abbrechen",
      save: "Speichern", score_dice: "Diese Würfel werten", game: "Spiel", players: "Spieler",
      start: "Los", stored_games: "Gespeicherte Spiele", close: "Schließen",
      no_stored_games: "Noch keine Spiele gespeichert.", player_n: "Spieler {n}",
      help: "Hilfe", full_rules: "Joker, Karten und das Regelheft ({game})",
      open: "Öffnen", end_game: "Spiel beenden", delete: "Löschen", delete_confirm: "Wirklich löschen?",
      ended: "beendet", playing: "läuft gerade", started: "begonnen", last_move: "letzter Zug",
      finished: "zu Ende gespielt",
      measure_diceparty: "gewonnene Runden", measure_charidice: "Punkte",
      measure_dicetopia: "Sterne", measure_v6: "Punkte",
      player_optional: "(optional)", no_answer: "Der Server antwortet nicht; bitte nochmal.",
      players_range: "{game}: {min} bis {max} Spieler.",
      players_full: "{game} erlaubt höchstens {max} Spieler: alle Felder sind belegt.",
      name_at_most: "Ein Name hat höchstens {max} Zeichen: dieser endet dort.",
      demo_full_party: "Demo: mit vollen Partys beginnen (54 Würfel je Wurf)",
      same_players: "Dieselben Spieler: {names}",
      no_dice_entered: "Tippe zuerst die Augenzahlen der Würfel an.",
      camera_starting: "Kamera startet", camera_running: "Kamera live", camera_cpu: "CPU {n} %",
      camera_colours_fitted: "Farben an diesem Tisch gelernt",
      camera_ended: "Video zu Ende", camera_lost: "Kamera verloren, verbinde neu",
      server_lost: "Server verloren, verbinde neu", camera_offline: "Server verloren, verbinde neu",
      roll_waiting: "Warte, bis die Würfel liegen.",
      roll_waiting_for: "Jetzt: {now}. Warte, bis die Würfel liegen.",
      roll_sentence: "Jetzt: {now}. Zuletzt gesehen: {roll}.",
      draw_zones: "Eine Zone pro Spieler zeichnen", zones_save: "Zonen speichern",
      zones_clear: "Zonen entfernen",
      zones_offer: "Auf dem Tisch liegen mehr Würfel, als die Party von {p} hat. Zeichne auf dem " +
        "Bild einen Bereich pro Spieler: jeder Wurf zählt dann nur die Würfel im Bereich des " +
        "Werfenden, und die anderen Partys bleiben liegen.",
      zones_help: "Mehrere Partys auf dem Tisch? Zeichne auf dem Bild einen Bereich pro Spieler: " +
        "jeder Wurf zählt dann nur die Würfel im Bereich des Werfenden.",
      zones_active: "Zonen gezeichnet: jeder Wurf zählt nur die Würfel im Bereich des Werfenden.",
      zones_draw_text: "Ziehe auf dem Bild ein Rechteck um die Party von {p}.",
      zones_draw_done: "Jeder Spieler hat einen Bereich. Speichere sie, oder ziehe nochmal, um " +
        "den gewählten neu zu zeichnen.",
      roll_pending: "Wurf mit {n} {n:Würfel|Würfeln} wartet auf Prüfung.",
      roll_applied: "Wurf mit {n} {n:Würfel|Würfeln} gewertet.",
      roll_shown: "Wurf mit {n} {n:Würfel|Würfeln} gesehen: das Spiel erwartet gerade keine Würfel.",
      roll_check: "Tippe jeden rot markierten Würfel an, um ihn zu korrigieren ({n}).",
      confirm_teach: "Richtig gelesen: dem Tisch beibringen",
      check_asked: "Gefragte Würfel prüfen ({n})",
      asked_left: "{n} Würfel gefragt: jeder angetippte Wert beantwortet einen und zeigt den nächsten.",
      add_die_title: "Hier liegt ein Würfel: was zeigt er?",
      add_die_hint: "Die Kamera hat dort, wo du getippt hast, einen Würfel übersehen; er kommt zum Wurf dazu.",
      teach_none: "dicecam lernt eure Würfel von jedem Würfel, den ihr bestätigt oder korrigiert.",
      teach_status: "dicecam lernt eure Würfel: {n} gelernt, fragt bei {now}\u00a0% der Würfel nach",
      teach_status_was: "dicecam lernt eure Würfel: {n} gelernt, fragt bei {now}\u00a0% der Würfel nach (vorher {was}\u00a0%)",
      teach_status_taught: "dicecam lernt eure Würfel: {n} gelernt",
      teach_learning: "lernt gerade …",
      teach_table: "Tisch „{name}“:",
      teach_asked_of: "hat bei {asked} von {read} gelesenen Würfeln nachgefragt",
      teach_asked_was: "(mit dem mitgelieferten Leser: {asked} von {read})",
      teach_not_used: "das letzte Lernen hat eure zurückgehaltenen Würfel nicht besser gelesen, also liest es wie zuvor",
      teach_kept_reader: "der zuletzt gelernte Leser {why} (eure zurückgehaltenen Würfel), also liest es wie zuvor",
      teach_kept_detector: "der zuletzt gelernte Finder {why} (eure zurückgehaltenen Bilder), also findet es Würfel wie zuvor",
      worse_value: "hat weniger richtig gelesen",
      worse_silent: "hat mehr falsch gelesen, ohne zu fragen",
      worse_asked: "hat öfter nachgefragt",
      worse_recall: "hat mehr Würfel übersehen",
      worse_precision: "hat mehr für Würfel gehalten, was keine sind",
      list_and: " und ",
      teach_failed: "das letzte Lernen ist gescheitert; es liest wie zuvor",
      teach_version: "liest mit eigener Version {v}",
      teach_layout_open: "Würfel in einer Minute beibringen",
      teach_detector: "findet Würfel mit eigener Version {v}",
      teach_side_faces: "kennt die Seitenflächen, die die Kamera sieht",
      layout_title: "Würfel in einer Minute beibringen",
      layout_text: "Legt alle eure Würfel so unter die Kamera: jede 1 in die oberste Reihe, " +
        "die 2en in die Reihe darunter und so weiter bis zu den 6en ganz unten; eine Farbe je " +
        "Spalte. Wenn sie still liegen, tippt auf den Knopf: jeder Würfel bringt den Wert " +
        "seiner Reihe auf einmal bei.",
      layout_hint: "Ein Würfel zwischen zwei Reihen oder einer, der nach einem anderen Wert " +
        "aussieht, wird gefragt: tippt ihn an und sagt, was er zeigt.",
      layout_teach: "Von diesem Bild lernen",
      layout_demo: "Demo: Würfel auslegen",
      layout_demo_laying: "Die Demo legt ihre Würfel in sechs Reihen aus: sobald sie still liegen, tippe Von diesem Bild lernen.",
      layout_no_picture: "Noch liegen keine Würfel still unter der Kamera.",
      layout_columns: "Spalten von links nach rechts: {colours}.",
      layout_rows: "Die Kamera sieht {n} {n:Reihe|Reihen} Würfel: legt sie in sechs Reihen, die 1en oben, die 6en unten.",
      roll_layout: "Lernbild: {n} Würfel nach ihren Reihen gelernt.",
      yellow: "gelb", orange: "orange", red: "rot", purple: "lila", white: "weiß",
      turquoise: "türkis", black: "schwarz", grey: "grau", blue: "blau", green: "grün",
      total: "Summe", round: "Runde", player: "Spieler", winner: "Sieger",
      print: "Drucken", why: "Warum", game_over: "Spielende", dice_lie_in: "Diese Würfel liegen in:",
      pair_open: "Nur zuschauen: PIN eingeben zum Mitspielen",
      pair_title: "PIN eingeben zum Mitspielen",
      pair_text: "Dieses Tablet kann dem Spiel zuschauen. Um von hier aus zu werten, tippe die " +
        "PIN ein, die der Computer zeigt, auf dem dicecam läuft (im Fenster, in dem es " +
        "gestartet wurde).",
      pair_submit: "Tablet verbinden",
      pair_six_digits: "Die PIN hat 6 Ziffern.",
      pair_placeholder: "6 Ziffern eintippen",
      pair_wrong_pin: "Das ist nicht die PIN. Schau noch einmal auf den Computer, auf dem " +
        "dicecam läuft: er zeigt bei jedem Start eine neue PIN.",
      pair_too_many_tries: "Zu viele falsche PINs. Warte eine Minute und versuche es dann nochmal.",
    },
  };
  const STORAGE_KEY = "dicecam.lang";
  let current = null;
  try {
    current = localStorage.getItem(STORAGE_KEY);
  } catch (e) {
    current = null;
  }
  if (!WORDS[current]) current = WORDS[document.body.dataset.lang] ? document.body.dataset.lang : "en";

  /* A word in the form its number asks for, {n:one|other}: the first where n is 1 ("1 die",
   * "2 dice"), as dicecam/messages.py words the engines' sentences. */
  const PLURAL = /\{(\w+):([^{}|]*)\|([^{}|]*)\}/g;
  function plural(text, params) {
    if (typeof text !== "string") return text;
    return text.replace(PLURAL, (all, name, one, other) =>
      (typeof (params || {})[name] === "number" && params[name] === 1 ? one : other));
  }

  function t(key, params) {
    let text = plural((WORDS[current] && WORDS[current][key]) || WORDS.en[key] || key, params);
    for (const [name, value] of Object.entries(params || {})) {
      text = text.split("{" + name + "}").join(String(value));
    }
    return text;
  }

  function apply(root) {
    document.documentElement.lang = current;
    for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
    for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
      el.placeholder = t(el.dataset.i18nPlaceholder);
    }
    for (const el of root.querySelectorAll("[data-i18n-title]")) {
      el.title = t(el.dataset.i18nTitle);
      el.setAttribute("aria-label", el.title);
    }
    for (const el of root.querySelectorAll("[data-set-lang]")) {
      el.classList.toggle("chosen", el.dataset.setLang === current);
    }
  }

  const AND = { en: " and ", de: " und " };

  function word(value) {
    if (value && typeof value === "object" && !Array.isArray(value) && "msg" in value) {
      return message(value);
    }
    if (Array.isArray(value)) {
      const words = value.map(word);
      if (words.length <= 1) return words.join("");
      return words.slice(0, -1).join(", ") + (AND[current] || AND.en) + words[words.length - 1];
    }
    return value === null || value === undefined ? "" : String(value);
  }

  /* An engine's message in the current language; plain text (older payloads) as it is. */
  function message(m) {
    if (m === null || m === undefined) return "";
    if (typeof m === "string") return m;
    const table = (window.DICECAM_MESSAGES || {})[m.msg];
    let text = plural(table ? (table[current] || table.en) : m.msg, m.params);
    for (const [name, value] of Object.entries(m.params || {})) {
      text = text.split("{" + name + "}").join(word(value));
    }
    return text;
  }

  window.DicecamI18n = {
    t,
    message,
    apply,
    lang: () => current,
    colour: (name) => (name ? t(name) : "?"),
    add(words) {
      for (const [lang, table] of Object.entries(words)) Object.assign(WORDS[lang], table);
    },
    setLang(lang) {
      if (!WORDS[lang]) return;
      current = lang;
      try {
        localStorage.setItem(STORAGE_KEY, lang);
      } catch (e) {
        /* private mode: the choice lasts until reload */
      }
      apply(document);
    },
  };
})();
