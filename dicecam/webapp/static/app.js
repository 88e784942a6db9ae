/* dicecam tablet page: the live frame with its dice, the current roll, and the game view.
 *
 * The server is the only source of truth: every tap becomes a Socket.IO event, and the
 * page redraws from the "state" and "roll" events it receives back. Each game's view
 * (diceparty.js, charidice.js, dicetopia.js, v6.js) registers itself in DicecamGames and
 * renders the game's state_to_json, offering only the actions in state.legal.
 *
 * Watching needs nothing; changing the game needs this tablet to be paired: the PIN that
 * `dicecam serve` prints is typed in once, and the token the server answers with is kept
 * in localStorage and presented on every (re)connect.
 */
(function () {
  "use strict";
  const E = window.DICECAM_EVENTS;
  const CHANGES_THE_GAME = new Set(window.DICECAM_CHANGES_THE_GAME || []);
  const TOKEN_KEY = "dicecam.token";
  const CLIENT_KEY = "dicecam.client";
  // the rules engines' longest player name (rules.MAX_NAME_LENGTH in every game)
  const NAME_MAX = 40;
  const I18N = window.DicecamI18n;
  const t = I18N.t;
  const GAMES = (window.DicecamGames = window.DicecamGames || {});
  const $ = (id) => document.getElementById(id);

  // Settled-roll -> page-updated latencies (ms), read by `dicecam bench web`: the roll
  // drawn (every settle), and the game's verdict drawn (settles the game scored).
  window.dicecamLatency = [];
  window.dicecamVerdictLatency = [];
  let verdictMeasured = null;

  const app = {
    view: null, // the last "state" payload
    roll: null, // the current roll
    reading: null, // the live frame's reading
    games: { available: [], stored: [] },
    frameShown: false,
    selectedDie: null,
    paired: false,
    movedSinceRoll: false, // the table moved after the roll settled: gone dice lose their boxes
    drawnDice: null, // the roll's dice whose boxes are drawn (the ones a tap may pick)
    rollPicture: null, // {roll, canvas}: the picture the roll settled in
    labels: [], // where the dice's value labels were drawn (canvas pixels)
    camera: null, // the camera's last status payload
    teach: null, // what the camera's table learnt of its dice (null: it learns none)
    adding: null, // "a die here": the frame point tapped where the camera saw no die
  };

  function storedToken() {
    try {
      return localStorage.getItem(TOKEN_KEY) || "";
    } catch (e) {
      return ""; // private mode: pair again after a reload
    }
  }

  function storeToken(token) {
    try {
      if (token) localStorage.setItem(TOKEN_KEY, token);
      else localStorage.removeItem(TOKEN_KEY);
    } catch (e) {
      /* private mode: the pairing lasts until reload */
    }
  }

  // This browser's own random id, sent with a typed PIN: the server holds up the browser
  // that typed wrong PINs, not every tablet behind the same router.
  const clientId = (() => {
    const made = Array.from(crypto.getRandomValues(new Uint8Array(12)),
      (b) => b.toString(16).padStart(2, "0")).join("");
    try {
      const kept = localStorage.getItem(CLIENT_KEY);
      if (kept && /^[0-9a-f]{24}$/.test(kept)) return kept;
      localStorage.setItem(CLIENT_KEY, made);
    } catch (e) {
      /* private mode: an id for as long as the page is open */
    }
    return made;
  })();

  // A real WebSocket first; long-polling only where a proxy refuses WebSockets. The token
  // is read on every (re)connect, so a pairing made meanwhile is presented.
  const socket = io({ transports: ["websocket", "polling"], tryAllTransports: true,
    auth: (cb) => cb({ token: storedToken() }) });

  // --- small DOM helper shared with the game views --------------------------------------
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") el.className = value;
      else if (key === "onclick") el.addEventListener("click", value);
      else if (key === "text") el.textContent = value;
      else el.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      el.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return el;
  }

  function toast(message) {
    const el = $("toast");
    el.textContent = message;
    el.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => (el.hidden = true), 6000);
  }

  /* Send one event; resolves with the acknowledgement, shows the error sentence if any.
   * An event that changes the game first asks for the PIN when this tablet is not paired,
   * and is sent once it is. */
  function send(event, payload) {
    const ready = CHANGES_THE_GAME.has(event) ? whenPaired() : Promise.resolve();
    return ready.then(() => new Promise((resolve, reject) => {
      socket.timeout(10000).emit(event, payload || {}, (err, ack) => {
        if (err) {
          toast(t("no_answer"));
          reject(err);
        } else if (!ack || !ack.ok) {
          if (ack && ack.code === "not_paired") {
            setPaired(false); // the server restarted: its new PIN is needed
            openPairDialog();
          } else {
            toast(ack && ack.message ? I18N.message(ack.message) : (ack && ack.error) || t("no_answer"));
          }
          reject(new Error((ack && ack.error) || "refused"));
        } else {
          resolve(ack);
        }
      });
    }));
  }

  // --- pairing: the PIN printed by `dicecam serve` --------------------------------------
  let pairWaiters = [];

  function setPaired(paired) {
    app.paired = paired;
    document.body.classList.toggle("paired", paired);
    $("pair-open").hidden = paired;
  }

  /* Resolves once this tablet is paired: at once, or after the PIN was typed in. */
  function whenPaired() {
    if (app.paired) return Promise.resolve();
    return new Promise((resolve, reject) => {
      pairWaiters.push({ resolve, reject });
      openPairDialog();
    });
  }

  function openPairDialog() {
    const dialog = $("pair-dialog");
    if (dialog.open) return;
    $("pair-error").textContent = "";
    $("pair-pin").value = "";
    dialog.showModal();
    $("pair-pin").focus();
  }

  function submitPin() {
    const pin = $("pair-pin").value.replace(/[\s-]/g, "");
    if (!/^[0-9]{6}$/.test(pin)) {
      $("pair-error").textContent = t("pair_six_digits");
      return;
    }
    socket.timeout(10000).emit(E.PAIR, { pin, client: clientId }, (err, ack) => {
      if (err || !ack) {
        $("pair-error").textContent = t("no_answer");
      } else if (!ack.ok) {
        const key = "pair_" + ack.code;
        $("pair-error").textContent = t(key) === key ? ack.error : t(key);
      } else {
        storeToken(ack.token);
        setPaired(true);
        $("pair-dialog").close();
      }
    });
  }

  $("pair-open").addEventListener("click", openPairDialog);
  $("pair-submit").addEventListener("click", submitPin);
  $("pair-pin").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") {
      ev.preventDefault();
      submitPin();
    }
  });
  $("pair-dialog").addEventListener("close", () => {
    const waiters = pairWaiters;
    pairWaiters = [];
    for (const w of waiters) {
      if (app.paired) w.resolve();
      else w.reject(new Error("not paired"));
    }
  });

  /* A game's name in the page's language where it has one (V6's), else the engine's title. */
  function gameTitle(game, title) {
    const key = "title_" + game;
    return t(key) === key ? title : t(key);
  }

  function legal(view) {
    const list = (view && view.state && view.state.legal) || [];
    return list;
  }

  function legalOf(view, type) {
    return legal(view).find((item) => item.type === type) || null;
  }

  const ctx = {
    h,
    t,
    legal,
    legalOf,
    // the version this tablet shows goes with the tap: a tap that lost a race with
    // another tablet is told so, not refused for a state it never showed
    act: (action) => send(E.ACTION, { ...action,
      seen_version: app.view ? app.view.version : undefined }).catch(() => null),
    openEntry: (spec) => openEntry(spec),
    catalogue: (game) => (window.DICECAM_CATALOGUE || {})[game] || {},
    colours: () => (app.view && app.view.colours) || [],
    lang: () => I18N.lang(),
    msg: (m) => I18N.message(m),
  };
  window.DicecamPage = { ctx, app, send, socket };

  // --- incoming events -------------------------------------------------------------------
  socket.on(E.PAIRING, (payload) => {
    if (!payload.paired && storedToken()) storeToken(""); // from before a server restart
    setPaired(Boolean(payload.paired));
  });

  socket.on(E.GAMES, (payload) => {
    app.games = payload;
    renderGamesList();
    renderNewGameChoices();
  });

  socket.on(E.STATE, (payload) => {
    if (app.view && payload.version < app.view.version && payload.game_id === app.view.game_id) {
      return; // an older update that overtook a newer one
    }
    app.view = payload;
    if (payload.roll !== undefined) app.roll = payload.roll;
    renderAll();
    const roll = payload.roll;
    if (roll && roll.status === "applied" && roll.roll_id !== verdictMeasured) {
      verdictMeasured = roll.roll_id;
      requestAnimationFrame(() => window.dicecamVerdictLatency.push(
        { roll_id: roll.roll_id, ms: Date.now() - roll.settled_at * 1000 }));
    }
  });

  /* The picture shown when a roll settles is the roll's picture: kept (a copy) for the
   * asked dice's close-ups, since the dice may be taken away before they are answered. */
  function keepRollPicture(roll) {
    const img = $("frame");
    app.rollPicture = null;
    if (!app.frameShown || !img.naturalWidth || roll.typed
      || (app.reading && app.reading.moving)) return;
    const copy = document.createElement("canvas");
    copy.width = img.naturalWidth;
    copy.height = img.naturalHeight;
    copy.getContext("2d").drawImage(img, 0, 0);
    app.rollPicture = { roll: roll, canvas: copy };
  }

  // one roll, corrected or not: a camera opened again (another game, the demo laying a
  // table out) counts its rolls from 1 again, so the id alone does not tell two apart
  function sameRoll(a, b) {
    return Boolean(a && b && a.roll_id === b.roll_id && a.settled_at === b.settled_at);
  }

  socket.on(E.ROLL, (roll) => {
    const received = Date.now();
    // a roll corrected is the same roll: whether the table moved since it settled stays
    if (!sameRoll(app.roll, roll)) {
      app.movedSinceRoll = false;
      keepRollPicture(roll);
    }
    app.roll = roll;
    renderRoll();
    drawOverlay();
    // Measured once the browser has painted the new roll (the bench reads these).
    requestAnimationFrame(() => {
      const ms = Date.now() - roll.settled_at * 1000;
      const arrived = received - roll.settled_at * 1000; // the server's and the wire's part
      window.dicecamLatency.push({ roll_id: roll.roll_id, status: roll.status, ms, arrived });
    });
  });

  socket.on(E.CAMERA, (payload) => {
    app.camera = payload;
    renderCamera();
  });

  socket.on(E.TEACH, (payload) => {
    const first = !app.teach;
    app.teach = payload;
    renderTeach();
    if (first) renderRoll(); // "Dice are right" teaches a shown roll only where a table learns
  });

  const percent = (share) => Math.round(share * 100);

  /* What the camera's table learnt of its dice: how many the players taught, the share of
   * dice it asks about now (and asked with the shipped reader), a learning run going, the
   * version it reads with. */
  function renderTeach() {
    const teach = app.teach;
    $("teach-panel").hidden = !teach;
    if (!teach) return;
    let text;
    // what it asks, in dice a family counts: over every die read in a settled roll (the
    // share of the dice the players looked at overstated it: "20%" where they saw 2 in 70)
    const nowRead = teach.read_now || null;
    const shippedRead = teach.read_shipped || null;
    if (!teach.taught) {
      text = t("teach_none");
    } else if (nowRead || shippedRead) {
      text = t("teach_status_taught", { n: teach.taught });
      const [read, asked] = nowRead || shippedRead;
      text += " · " + t("teach_asked_of", { asked, read });
      if (nowRead && shippedRead) {
        text += " " + t("teach_asked_was", { asked: shippedRead[1], read: shippedRead[0] });
      }
    } else {
      const now = teach.asked_now !== null && teach.asked_now !== undefined ? teach.asked_now : null;
      const was = teach.asked_shipped;
      text = now !== null && was !== null && was !== undefined
        ? t("teach_status_was", { n: teach.taught, now: percent(now), was: percent(was) })
        : was !== null && was !== undefined
          ? t("teach_status", { n: teach.taught, now: percent(was) })
          : t("teach_status_taught", { n: teach.taught });
    }
    if (teach.table) text = t("teach_table", { name: teach.table }) + " " + text;
    const more = [];
    if (teach.learning) more.push(t("teach_learning"));
    else if (teach.failed) more.push(t("teach_failed"));
    else if (teach.last_run) more.push(...lastRunKept(teach.last_run));
    if (teach.reading_with) more.push(t("teach_version", { v: teach.reading_with.replace(/^reader-v/, "") }));
    if (teach.detecting_with) more.push(t("teach_detector", { v: teach.detecting_with.replace(/^detector-v/, "") }));
    if (teach.side_faces) more.push(t("teach_side_faces"));
    $("teach-status").textContent = [text, ...more].join(" · ");
    $("teach-status").title = teach.failed || "";
    $("teach-panel").dataset.learning = teach.learning ? "1" : "0";
    // the one-minute layout: offered at a new table, and beside the figures later on
    $("teach-layout-open").classList.toggle("primary", !teach.taught);
  }

  /* What the table kept of its last learning run, where it kept less than the run made:
     a model worse on any figure on the held-back dice is not used, and the page says on
     which (a reader that reads more right but asks more is still not used). */
  function lastRunKept(run) {
    const why = (names) => names.map((name) => t("worse_" + name)).join(t("list_and"));
    const said = [];
    const readerUsed = run.reader_used === undefined ? run.used : run.reader_used;
    const readerWorse = run.reader_worse_on || [];
    const detectorWorse = run.detector_worse_on || [];
    if (!readerUsed && readerWorse.length) said.push(t("teach_kept_reader", { why: why(readerWorse) }));
    else if (!run.used) said.push(t("teach_not_used"));
    if (!run.detector_used && detectorWorse.length) {
      said.push(t("teach_kept_detector", { why: why(detectorWorse) }));
    }
    return said;
  }

  // --- the one-minute teaching layout: dice in rows by value, colours in columns --------
  const PIPS = { 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
    4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
    6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]] };

  /* The layout drawn small (inline SVG): a row per value, a column per colour. */
  function layoutDiagram() {
    const colours = ctx.colours().slice(0, 4);
    const columns = colours.length ? colours : ["#e9e6dc", "#e0301e", "#2b6cdf"];
    const cell = 30;
    const left = 22;
    const width = left + columns.length * cell + 4;
    const parts = [];
    for (let value = 1; value <= 6; value++) {
      const top = (value - 1) * cell + 4;
      parts.push(`<text x="4" y="${top + 19}" fill="#a9b8ad" font-size="14" font-weight="700">${value}</text>`);
      columns.forEach((colour, c) => {
        const fill = colours.length ? cssColour(colour) : colour;
        const x = left + c * cell;
        parts.push(`<rect x="${x}" y="${top}" width="24" height="24" rx="5" fill="${fill}" stroke="#0008"/>`);
        const ink = ["white", "yellow", "#e9e6dc", "grey", "gray", "orange", "turquoise"].includes(colour) ? "#111" : "#fff";
        for (const [px, py] of PIPS[value]) {
          parts.push(`<circle cx="${x + 5 + px * 7}" cy="${top + 5 + py * 7}" r="2.3" fill="${ink}"/>`);
        }
      });
    }
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${6 * cell + 4}" ` +
      `viewBox="0 0 ${width} ${6 * cell + 4}" role="img">${parts.join("")}</svg>`;
  }

  $("teach-layout-open").addEventListener("click", () => {
    $("layout-diagram").innerHTML = layoutDiagram(); // drawn here, from fixed shapes only
    // the diagram's columns named: which colour goes where (the table's own dice set)
    const colours = ctx.colours().slice(0, 4);
    $("layout-columns").textContent = colours.length
      ? t("layout_columns", { colours: colours.map((c) => t(c)).join(", ") }) : "";
    $("layout-error").textContent = "";
    $("layout-demo-status").textContent = "";
    // the demo table lays its dice out itself: teaching can be tried without dice
    $("layout-demo").hidden = !(app.view && app.view.demo && app.view.game);
    $("layout-dialog").showModal();
  });
  $("layout-demo").addEventListener("click", () => {
    $("layout-error").textContent = "";
    send(E.DEMO_ROLL, { layout: true }).then(() => {
      $("layout-demo-status").textContent = t("layout_demo_laying");
    }).catch(() => null);
  });
  $("layout-teach").addEventListener("click", () => {
    const roll = app.roll;
    if (!roll || roll.typed) {
      $("layout-error").textContent = t("layout_no_picture");
      return;
    }
    send(E.TEACH_LAYOUT, { roll_id: roll.roll_id }).then((ack) => {
      if (ack.rows !== 6) {
        $("layout-error").textContent = t("layout_rows", { n: ack.rows });
        return;
      }
      $("layout-dialog").close(); // the roll panel says what was taught and what is asked
    }).catch(() => null);
  });

  /* The camera's status in the current language (again after a language switch). */
  function renderCamera() {
    const payload = app.camera;
    if (!payload) return;
    const el = $("camera-status");
    el.dataset.status = payload.status;
    // what the camera costs this computer (the reader's share of one CPU core)
    const cpu = typeof payload.cpu === "number" && payload.status === "running"
      ? " · " + t("camera_cpu", { n: Math.round(payload.cpu * 100) }) : "";
    // the table's colours were fitted from a roll the players confirmed
    const colours = payload.colours_fitted ? " · " + t("camera_colours_fitted") : "";
    el.textContent = t("camera_" + payload.status) + cpu + colours;
    el.title = payload.message || "";
  }

  let decoding = false;
  socket.on(E.FRAME, (payload) => {
    app.reading = payload.reading;
    if (app.roll && payload.reading && payload.reading.moving) app.movedSinceRoll = true;
    if (decoding) return; // drop frames while one is still decoding: stay live, not late
    decoding = true;
    const img = $("frame");
    const url = URL.createObjectURL(new Blob([payload.jpeg], { type: "image/jpeg" }));
    img.onload = () => {
      URL.revokeObjectURL(url);
      decoding = false;
      if (!app.frameShown) {
        app.frameShown = true;
        document.body.classList.add("has-frame");
      }
      drawOverlay();
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      decoding = false;
    };
    img.src = url;
  });

  socket.on("connect", () => document.body.classList.remove("offline"));
  socket.on("disconnect", () => {
    document.body.classList.add("offline");
    app.camera = { status: "offline" };
    renderCamera();
  });

  // --- rendering -------------------------------------------------------------------------
  function renderAll() {
    const view = app.view;
    const active = view && view.game;
    $("no-game").hidden = Boolean(active);
    $("undo").disabled = !(view && view.can_undo);
    $("game-title").textContent = active ? gameTitle(view.game, view.title) : "";
    const container = $("game-view");
    container.replaceChildren();
    if (active) {
      const module = GAMES[view.game];
      container.dataset.game = view.game;
      if (module) module.render(container, view, ctx);
      else container.append(h("pre", {}, JSON.stringify(view.state, null, 2)));
    } else {
      delete container.dataset.game;
    }
    renderRoll();
    drawOverlay();
  }

  function renderRoll() {
    const panel = $("roll-panel");
    const roll = app.roll;
    const view = app.view;
    const entry = view && view.game && GAMES[view.game] && GAMES[view.game].entry
      ? GAMES[view.game].entry(view, ctx) : null;
    $("enter-dice").hidden = !entry;
    // the demo table throws what the game waits for; a throw the players choose is asked
    const demo = view ? view.demo_throw : null;
    $("demo-roll").hidden = demo !== "ask";
    $("demo-status").textContent = demo === "auto" ? t("demo_throwing") : "";
    panel.dataset.status = roll ? roll.status : "none";
    const module = view && view.game ? GAMES[view.game] : null;
    const waiting = view && view.state ? view.state.waiting_for : null;
    $("roll-legend").replaceChildren();
    // nothing to say and nothing to tap (no game, or a game that takes no dice now): no
    // empty bar under the camera
    panel.hidden = !roll && !entry && !demo && !app.drawing;
    renderZoneTools(view, roll, module);
    // "Dice are right" scores a roll as read: pointless where every die is sure and the
    // rules refused it (the reason is shown; the dice or the zones must change). Where the
    // table learns its dice, a roll the game takes no dice from is confirmed too: it teaches
    const teachesShown = Boolean(roll && app.teach && roll.status === "shown" && !roll.typed
      && roll.dice.some((d) => !d.corrected));
    $("confirm-roll").hidden = !((roll && roll.status === "pending"
      && (!roll.error || roll.dice.some((d) => d.needs_check))) || teachesShown);
    $("confirm-roll").textContent = t(teachesShown ? "confirm_teach" : "confirm_roll");
    // the asked dice are the next tap: one button opens the first, each answer the next
    const asked = roll && roll.status !== "applied" ? roll.dice.filter((d) => d.needs_check).length : 0;
    $("check-asked").hidden = !asked;
    $("check-asked").textContent = t("check_asked", { n: asked });
    if (!roll) {
      $("roll-zones").replaceChildren();
      $("roll-aside").replaceChildren();
      $("roll-text").textContent = !entry ? ""
        : waiting ? t("roll_waiting_for", { now: I18N.message(waiting) }) : t("roll_waiting");
      $("roll-error").textContent = "";
      return;
    }
    renderZoneChoice(roll, view);
    // a die the game says is no part of the throw (Dice Party's counter die): one tap
    // leaves it out of the roll
    $("roll-aside").replaceChildren(...(roll.status === "applied" ? [] : roll.aside || []).map((a) =>
      h("button", { type: "button", "data-aside": a.index, onclick: () => send(E.CORRECT_DIE,
        { roll_id: roll.roll_id, index: a.index, value: null, colour: null }).catch(() => null),
      }, I18N.message(a.text))));
    const unsure = roll.dice.filter((d) => d.needs_check).length;
    // one sentence: what the game waits for now (whose throw) and what the dice just seen
    // count as, both from the server, so the panel cannot contradict the step shown
    let text = roll.layout ? t("roll_layout", { n: roll.dice.filter((d) => d.corrected).length })
      : roll.summary && waiting && !Array.isArray(waiting)
        ? t("roll_sentence", { now: I18N.message(waiting), roll: I18N.message(roll.summary) })
        // (a game scored from the whole table lists what it misses in its own view)
        : roll.summary ? I18N.message(roll.summary) + "."
          : t("roll_" + roll.status, { n: roll.dice.length });
    if ((roll.status === "pending" || roll.layout) && unsure) text += " " + t("roll_check", { n: unsure });
    if (roll.note && roll.status === "pending") text += " " + I18N.message(roll.note) + ".";
    $("roll-text").textContent = text;
    $("roll-error").textContent = roll.error_message ? I18N.message(roll.error_message) : roll.error || "";
    const legend = module && module.rollLegend ? module.rollLegend(roll, ctx) : null;
    if (legend) $("roll-legend").replaceChildren(legend);
  }

  /* Dice read outside every zone (a table without a zone map): one tap says where they lie,
   * from the zones the game takes dice in now (a game view's zones(view)). */
  function renderZoneChoice(roll, view) {
    const box = $("roll-zones");
    box.replaceChildren();
    const module = view && view.game && GAMES[view.game];
    if (!module || !module.zones || roll.status === "applied") return;
    if (!roll.dice.some((d) => d.zone === null)) return;
    const zones = module.zones(view, ctx);
    if (!zones.length) return;
    box.append(h("span", {}, t("dice_lie_in")), ...zones.map((z) => h("button", {
      type: "button", "data-assign-zone": z.zone,
      onclick: () => send(E.ASSIGN_ZONE, { roll_id: roll.roll_id, zone: z.zone }).catch(() => null),
    }, z.label)));
  }

  // --- zones drawn on the picture: one area per player -----------------------------------
  /* Offered where the game's view names the areas it can use (zoneNames), once there is a
   * camera picture to draw on; the view says when they would help (zoneOffer: several
   * parties in view). Drawing: drag a rectangle per name on the picture; saved on the
   * server as the table's zone map, which every later roll is read with. */
  function renderZoneTools(view, roll, module) {
    const names = module && module.zoneNames ? module.zoneNames(view) : [];
    const usable = names.length > 0 && app.frameShown;
    if (!usable) app.drawing = null;
    const drawing = app.drawing;
    $("zone-draw").hidden = !drawing;
    $("zone-offer").hidden = !usable || Boolean(drawing);
    $("overlay").style.touchAction = drawing ? "none" : "manipulation";
    // a game may word the areas its own way (Dicetopia marks boards, not players' areas)
    const zt = zoneWords(module);
    if (usable && !drawing) {
      const offer = module.zoneOffer ? module.zoneOffer(view, roll) : null;
      // the reason is said where zones would help now; otherwise the button says it on hover
      $("zone-offer-text").textContent = view.zones ? t(zt("zones_active"))
        : offer ? t(offer.key, offer.params) : "";
      $("draw-zones").dataset.i18n = zt("draw_zones");
      $("draw-zones").textContent = t(zt("draw_zones"));
      $("draw-zones").title = t(zt("zones_help"));
      $("zone-offer").dataset.offer = offer && !view.zones ? "1" : "0";
    }
    if (!drawing) return;
    const current = drawing.names[drawing.current];
    const allDrawn = drawing.names.every((n) => drawing.rects[n]);
    $("zone-draw-text").textContent = allDrawn ? t(zt("zones_draw_done"))
      : t(zt("zones_draw_text"), { p: zoneLabel(current) });
    $("zone-draw-names").replaceChildren(...drawing.names.map((name, i) => h("button", {
      type: "button", class: i === drawing.current ? "chosen" : "", "data-zone-name": name,
      style: `--swatch:${zoneColour(i)}`,
      onclick: () => { drawing.current = i; renderRoll(); },
    }, drawing.rects[name] ? "✓ " : "", zoneLabel(name))));
    $("zones-save").disabled = !Object.keys(drawing.rects).length;
    for (const id of ["zones-save", "zones-clear"]) {
      const key = zt(id.replace("-", "_"));
      $(id).dataset.i18n = key;
      $(id).textContent = t(key);
    }
    $("zones-clear").hidden = !(view && view.zones);
  }

  const playedModule = () => (app.view && app.view.game ? GAMES[app.view.game] : null);
  /* An area's name as the page shows it (the game view's zoneLabel: "board:Ann" is
   * "Ann's board"), and the words a game gives the zone tools (zoneWords: key -> its key). */
  function zoneLabel(name) {
    const module = playedModule();
    return module && module.zoneLabel ? module.zoneLabel(name, ctx) : name;
  }
  const zoneWords = (module) => (key) => (module && module.zoneWords && module.zoneWords[key]) || key;

  const ZONE_COLOURS = ["#00d1ff", "#ff4fd8", "#7cfc00", "#ffd700", "#b388ff", "#00e0a0", "#4da3ff", "#ffb3c7"];
  const zoneColour = (i) => ZONE_COLOURS[i % ZONE_COLOURS.length];

  /* The frame pixels under a pointer on the overlay (the picture's own coordinates). */
  function framePoint(ev) {
    const base = app.frameShown ? app.reading : app.roll;
    const rect = $("overlay").getBoundingClientRect();
    const scale = rect.width / base.width;
    return [(ev.clientX - rect.left) / scale, (ev.clientY - rect.top) / scale];
  }

  $("draw-zones").addEventListener("click", () => {
    const view = app.view;
    const module = view && view.game ? GAMES[view.game] : null;
    if (!module || !module.zoneNames || !app.reading) return;
    const names = module.zoneNames(view);
    const rects = {};
    // the areas drawn before are the starting point: redraw only the ones that moved
    for (const z of (view.zones && view.zones.zones) || []) {
      const xs = z.polygon.map((p) => p[0]);
      const ys = z.polygon.map((p) => p[1]);
      if (names.includes(z.name)) rects[z.name] = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    }
    app.drawing = { names, current: 0, rects, drag: null };
    renderRoll();
    drawOverlay();
  });
  $("zones-cancel").addEventListener("click", () => {
    app.drawing = null;
    renderRoll();
    drawOverlay();
  });
  const sendZones = (zones) => {
    const base = app.reading;
    send(E.SET_ZONES, { width: base.width, height: base.height, zones }).then(() => {
      app.drawing = null;
      renderRoll();
      drawOverlay();
    }).catch(() => null);
  };
  $("zones-save").addEventListener("click", () => {
    const drawing = app.drawing;
    if (!drawing) return;
    sendZones(drawing.names.filter((n) => drawing.rects[n])
      .map((name) => ({ name, rect: drawing.rects[name].map((v) => Math.round(v)) })));
  });
  $("zones-clear").addEventListener("click", () => sendZones([]));
  $("overlay").addEventListener("pointerdown", (ev) => {
    if (!app.drawing || !app.reading) return;
    ev.preventDefault();
    $("overlay").setPointerCapture(ev.pointerId);
    const [x, y] = framePoint(ev);
    app.drawing.drag = [x, y, x, y];
  });
  $("overlay").addEventListener("pointermove", (ev) => {
    const drawing = app.drawing;
    if (!drawing || !drawing.drag) return;
    [drawing.drag[2], drawing.drag[3]] = framePoint(ev);
    drawOverlay();
  });
  $("overlay").addEventListener("pointerup", (ev) => {
    const drawing = app.drawing;
    if (!drawing || !drawing.drag) return;
    [drawing.drag[2], drawing.drag[3]] = framePoint(ev);
    const [x0, y0, x1, y1] = drawing.drag;
    drawing.drag = null;
    // a tap is no area: a rectangle is at least a die's width across
    if (Math.abs(x1 - x0) > 12 && Math.abs(y1 - y0) > 12) {
      drawing.rects[drawing.names[drawing.current]] = [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)];
      const next = drawing.names.findIndex((n) => !drawing.rects[n]);
      if (next >= 0) drawing.current = next;
    }
    renderRoll();
    drawOverlay();
  });

  /* The areas on the overlay: the ones being drawn (solid), else the saved ones (dashed). */
  function drawZones(g, scale) {
    const drawing = app.drawing;
    const view = app.view;
    const areas = [];
    if (drawing) {
      drawing.names.forEach((name, i) => {
        const r = drawing.rects[name];
        if (r) areas.push({ name, i, r, solid: true });
      });
      if (drawing.drag) areas.push({ name: drawing.names[drawing.current], i: drawing.current, r: drawing.drag, solid: true });
    } else if (view && view.zones && (app.frameShown ? app.reading : app.roll)) {
      view.zones.zones.forEach((z, i) => {
        const xs = z.polygon.map((p) => p[0]);
        const ys = z.polygon.map((p) => p[1]);
        areas.push({ name: z.name, i, r: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)], solid: false });
        // a printed board's own zones (Dicetopia's districts), thin inside its rectangle
        for (const part of z.parts || []) {
          g.beginPath();
          part.polygon.forEach(([x, y], k) => (k ? g.lineTo(x * scale, y * scale) : g.moveTo(x * scale, y * scale)));
          g.closePath();
          g.setLineDash([4, 4]);
          g.lineWidth = 1;
          g.strokeStyle = zoneColour(i);
          g.stroke();
          g.setLineDash([]);
        }
      });
    }
    for (const a of areas) {
      const [x0, y0, x1, y1] = a.r;
      const left = Math.min(x0, x1) * scale;
      const top = Math.min(y0, y1) * scale;
      g.setLineDash(a.solid ? [] : [10, 6]);
      g.lineWidth = a.solid ? 3 : 2;
      g.strokeStyle = zoneColour(a.i);
      g.strokeRect(left, top, Math.abs(x1 - x0) * scale, Math.abs(y1 - y0) * scale);
      g.setLineDash([]);
      // the label's size follows the picture's (a phone's is small), and it stays inside it
      const shown = g.canvas.width / (window.devicePixelRatio || 1);
      const size = Math.round(Math.max(11, Math.min(15, shown / 45)));
      g.font = `bold ${size}px system-ui, sans-serif`;
      const label = zoneLabel(a.name);
      const labelWidth = g.measureText(label).width + 10;
      const labelLeft = Math.max(0, Math.min(left, shown - labelWidth));
      g.fillStyle = zoneColour(a.i);
      g.fillRect(labelLeft, top, labelWidth, size + 5);
      g.fillStyle = "#111";
      g.fillText(label, labelLeft + 5, top + size);
    }
  }

  const CSS_COLOURS = {
    yellow: "#f5c400", orange: "#ff8c1a", red: "#e0301e", purple: "#8e44ad",
    white: "#f4f4f4", turquoise: "#1abc9c", black: "#111", grey: "#8a8a8a", gray: "#8a8a8a",
    blue: "#2b6cdf", green: "#27a444",
  };
  const cssColour = (name) => CSS_COLOURS[name] || "#bbb";
  window.DicecamPage.cssColour = cssColour;

  const overlap = (a, b) => Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x))
    * Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));

  /* Where each value label goes ({w, h} -> rect {x, y, w, h}, canvas pixels): above its
   * die, else above its right edge, below, left, right, or in its own box's corner,
   * whichever covers no label placed before and no other die or tag (a label over a label
   * counts most); where every place covers something, the one that covers least. Asked dice
   * are placed first. Touching dice on a phone keep every value readable. */
  function placeLabels(labels, boxes, tags, width, height) {
    labels.sort((a, b) => Number(b.asked) - Number(a.asked));
    const placed = [];
    for (const label of labels) {
      const box = boxes.get(label.index);
      const { w, h: lh } = label;
      const places = [[box.x, box.y - lh - 2], [box.x + box.w - w, box.y - lh - 2],
        [box.x, box.y + box.h + 2], [box.x - w - 2, box.y], [box.x + box.w + 2, box.y],
        [box.x + box.w - w, box.y + box.h + 2], [box.x, box.y]];
      let best = null;
      let bestCost = Infinity;
      for (const [px, py] of places) {
        const rect = { x: Math.min(Math.max(px, 0), Math.max(0, width - w)),
          y: Math.min(Math.max(py, 0), Math.max(0, height - lh)), w, h: lh };
        let cost = 0;
        for (const other of placed) cost += 4 * overlap(rect, other);
        for (const [index, other] of boxes) if (index !== label.index) cost += overlap(rect, other);
        for (const tag of tags) cost += overlap(rect, tag);
        if (cost < bestCost) {
          best = rect;
          bestCost = cost;
        }
        if (!cost) break;
      }
      label.rect = best;
      placed.push(best);
    }
  }

  /* The frame and the overlay share one coordinate system: the reading's frame pixels. */
  function drawOverlay() {
    const canvas = $("overlay");
    const img = $("frame");
    const wrap = $("frame-wrap");
    const roll = app.roll;
    const reading = app.reading;
    // typed dice without a picture are the view: "no camera picture yet" would lie over
    // their bottom row
    $("no-frame").hidden = Boolean(roll && roll.typed && !app.frameShown);
    const base = app.frameShown ? reading : roll;
    if (!base) {
      canvas.width = canvas.width; // clears
      return;
    }
    const width = app.frameShown ? img.clientWidth : wrap.clientWidth;
    const scale = width / base.width;
    const height = app.frameShown ? img.clientHeight : base.height * scale;
    const ratio = window.devicePixelRatio || 1;
    canvas.style.width = width + "px";
    canvas.style.height = height + "px";
    // a canvas keeps its pixels while its size stays (each frame redraws it): cleared, not
    // made anew
    const pixelWidth = Math.round(width * ratio);
    const pixelHeight = Math.round(height * ratio);
    if (canvas.width !== pixelWidth || canvas.height !== pixelHeight) {
      canvas.width = pixelWidth;
      canvas.height = pixelHeight;
    }
    const g = canvas.getContext("2d");
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, pixelWidth, pixelHeight);
    g.setLineDash([]);
    g.scale(ratio, ratio);
    if (!app.frameShown) {
      g.fillStyle = "#1d2a22";
      g.fillRect(0, 0, width, height);
    }
    g.lineWidth = 1.5;
    if (reading && app.frameShown) {
      for (const d of reading.dice) {
        g.strokeStyle = "rgba(255,255,255,0.55)";
        g.strokeRect((d.x - d.w / 2) * scale, (d.y - d.h / 2) * scale, d.w * scale, d.h * scale);
      }
    }
    drawZones(g, scale);
    // dice typed in lie in the pad's rows: over the camera picture they would stand on
    // dice they are not (the game view shows them); without a picture they are the view
    if (!roll || (roll.typed && app.frameShown)) return;
    // The roll's boxes stand on its dice only while they lie there: while the table moves
    // (the next throw, a hand over it) none is drawn, and once it is still again only the
    // dice the camera still sees in their places (dice taken away leave no box behind).
    // Only the dice drawn can be tapped; the asked ones stay a tap away in the panel.
    const rollScale = width / roll.width;
    const live = app.frameShown && reading && app.movedSinceRoll;
    const stillThere = (d) => {
      if (!live) return true;
      const sx = reading.width / roll.width;
      const sy = reading.height / roll.height;
      const near = 0.5 * Math.max(d.w * sx, d.h * sy);
      return reading.dice.some((r) => Math.hypot(r.x - d.x * sx, r.y - d.y * sy) < near);
    };
    const drawn = live && reading.moving ? []
      : roll.dice.map((d, index) => index).filter((index) => stillThere(roll.dice[index]));
    app.drawnDice = new Set(drawn);
    const boxOf = (d) => ({ x: (d.x - d.w / 2) * rollScale, y: (d.y - d.h / 2) * rollScale,
      w: d.w * rollScale, h: d.h * rollScale });
    // the game's verdict drawn on its dice (Dice Party: each covering group in its own
    // colour and number, uncovered Mobs crossed out), from the game view's dieMarks
    const module = app.view && app.view.game ? GAMES[app.view.game] : null;
    const marks = module && module.dieMarks ? module.dieMarks(roll, ctx) : null;
    const tags = [];
    const labels = [];
    for (const index of drawn) {
      const d = roll.dice[index];
      const { x, y, w, h: hh } = boxOf(d);
      const mark = marks ? marks[index] : null;
      const asked = d.needs_check && roll.status !== "applied";
      // an asked die is shown in its true colour: nothing is laid over it (a red fill made
      // a yellow die look orange, and the players "corrected" it so)
      if (mark && mark.fill && !asked) {
        g.fillStyle = mark.fill;
        g.fillRect(x, y, w, hh);
      }
      if (asked) {
        // the next tap: ringed in white outside its dashed red box, which stands out on
        // red dice and dark cloths alike; its value label is red (no badge or number:
        // among touching dice it would lie on a neighbour, or read as a value)
        g.strokeStyle = "#fff";
        g.lineWidth = 2;
        g.strokeRect(x - 6, y - 6, w + 12, hh + 12);
      }
      g.setLineDash(d.needs_check ? [6, 4] : []);
      g.lineWidth = d.needs_check ? 4 : mark ? mark.width || 3 : 2.5;
      g.strokeStyle = d.needs_check ? "#ff2d55" : mark ? mark.stroke
        : d.corrected ? "#2ecc71" : cssColour(d.colour);
      g.strokeRect(x, y, w, hh);
      g.setLineDash([]);
      if (mark && mark.cross) {
        g.beginPath();
        g.moveTo(x, y);
        g.lineTo(x + w, y + hh);
        g.moveTo(x + w, y);
        g.lineTo(x, y + hh);
        g.strokeStyle = mark.stroke;
        g.lineWidth = 3;
        g.stroke();
      }
      if (mark && mark.tag) {
        // whole pixels: every new font size costs the browser a new set of glyphs (a
        // fractional size per die made the first drawing of a 54-die throw take ~40 ms)
        const tagSize = Math.round(Math.max(9, Math.min(18, w * 0.4)));
        g.font = `bold ${tagSize}px system-ui, sans-serif`;
        const tagWidth = g.measureText(mark.tag).width + 6;
        // under the die, or inside its box where the picture ends below it
        const tagTop = y + hh + tagSize + 4 > height ? y + hh - tagSize - 4 : y + hh;
        g.fillStyle = mark.stroke;
        g.fillRect(x + w - tagWidth, tagTop, tagWidth, tagSize + 4);
        g.fillStyle = mark.ink || "#111";
        g.fillText(mark.tag, x + w - tagWidth + 3, tagTop + tagSize);
        tags.push({ x: x + w - tagWidth, y: tagTop, w: tagWidth, h: tagSize + 4 });
      }
      // every die keeps its value label, a small one too (a phone showing a party: the
      // players check the values, not only the verdict's tags); small dice get a smaller
      // label, placed where it covers least (in its own box's corner at worst)
      const text = d.value === null ? "?" : String(d.value);
      const size = Math.round(Math.max(w < 24 ? 10 : 12, Math.min(28, w * 0.55)));
      g.font = `bold ${size}px system-ui, sans-serif`;
      labels.push({ index, text, size, asked: Boolean(d.needs_check),
        w: Math.ceil(g.measureText(text).width) + (w < 24 ? 4 : 8), h: size + 4 });
      if (index === app.selectedDie) {
        g.strokeStyle = "#00d1ff";
        g.lineWidth = 3;
        g.strokeRect(x - 4, y - 4, w + 8, hh + 8);
      }
    }
    // the value labels last, each where it covers no other label and no other die
    const boxes = new Map(drawn.map((index) => [index, boxOf(roll.dice[index])]));
    placeLabels(labels, boxes, tags, width, height);
    for (const label of labels) {
      const r = label.rect;
      g.font = `bold ${label.size}px system-ui, sans-serif`;
      g.fillStyle = "rgba(0,0,0,0.7)";
      g.fillRect(r.x, r.y, r.w, r.h);
      g.fillStyle = label.asked ? "#ff2d55" : "#fff";
      g.fillText(label.text, r.x + (r.w - g.measureText(label.text).width) / 2,
        r.y + label.size - 1);
    }
    app.labels = labels.map((l) => ({ index: l.index, text: l.text, ...l.rect }));
    if (app.adding) {
      // "a die here": where the tap said the camera missed one
      const [ax, ay] = app.adding;
      g.strokeStyle = "#00d1ff";
      g.lineWidth = 3;
      g.setLineDash([4, 3]);
      g.beginPath();
      g.arc(ax * rollScale, ay * rollScale, 18, 0, 2 * Math.PI);
      g.stroke();
      g.setLineDash([]);
    }
  }
  window.addEventListener("resize", drawOverlay);

  // --- tap to correct -------------------------------------------------------------------
  $("overlay").addEventListener("click", (ev) => {
    if (app.drawing) return; // a drag draws a zone; it is no tap on a die
    const roll = app.roll;
    if (!roll || (roll.typed && app.frameShown)) return;
    const rect = ev.currentTarget.getBoundingClientRect();
    const scale = rect.width / roll.width;
    const x = (ev.clientX - rect.left) / scale;
    const y = (ev.clientY - rect.top) / scale;
    let best = null;
    let bestDistance = Infinity;
    roll.dice.forEach((d, index) => {
      if (app.drawnDice && !app.drawnDice.has(index)) return; // no box there: no die to tap
      const distance = Math.hypot(d.x - x, d.y - y);
      // a generous target: fingers are wider than small dice on a phone screen
      if (distance < Math.max(d.w, d.h, 44 / scale) && distance < bestDistance) {
        best = index;
        bestDistance = distance;
      }
    });
    if (best !== null) {
      openDieDialog(best);
    } else if (!roll.typed && app.frameShown && !app.movedSinceRoll && roll.status !== "applied") {
      // "a die here": the camera missed a die where the picture was tapped
      openDieDialog(null, [x, y]);
    }
  });

  /* The next asked die of the roll on the table (its index), or null. */
  const nextAsked = () => {
    const roll = app.roll;
    if (!roll || roll.status === "applied") return null;
    const index = roll.dice.findIndex((d) => d.needs_check);
    return index >= 0 ? index : null;
  };
  $("check-asked").addEventListener("click", () => {
    const index = nextAsked();
    if (index !== null) openDieDialog(index);
  });

  /* The picture around a die (or a point) in the dialog, which covers it on the picture. */
  function drawDieZoom(roll, centre, die) {
    const canvas = $("die-zoom");
    // the picture the roll settled in, where it was kept: its dice may be gone from the
    // live one (taken away, or the next throw rolling in)
    const kept = app.rollPicture && sameRoll(app.rollPicture.roll, roll)
      ? app.rollPicture.canvas : null;
    const img = kept || $("frame");
    const natural = kept ? kept.width : img.naturalWidth;
    canvas.hidden = !app.frameShown || !natural || roll.typed;
    if (canvas.hidden) return;
    const sides = roll.dice.map((d) => Math.max(d.w, d.h)).sort((a, b) => a - b);
    const side = die ? Math.max(die.w, die.h)
      : sides.length ? sides[sides.length >> 1] : Math.min(roll.width, roll.height) / 12;
    const ratio = natural / roll.width;
    const span = 2.2 * side * ratio;
    const g = canvas.getContext("2d");
    g.fillStyle = "#000";
    g.fillRect(0, 0, canvas.width, canvas.height);
    g.drawImage(img, centre[0] * ratio - span / 2, centre[1] * ratio - span / 2, span, span,
      0, 0, canvas.width, canvas.height);
  }

  /* What a die shows (index), or, with ``point``, a die the camera missed there. One tap
   * on a value answers where the die's colour is known (a colour tap first changes it);
   * an asked die answered, the next asked one is shown. */
  function openDieDialog(index, point) {
    const roll = app.roll;
    const adding = index === null;
    const die = adding ? { value: null, colour: null, needs_check: true } : roll.dice[index];
    app.selectedDie = index;
    app.adding = adding ? point : null;
    drawOverlay();
    const choice = { value: die.value, colour: die.colour };
    const values = $("die-values");
    const colours = $("die-colours");
    const palette = Array.from(new Set([...ctx.colours(), ...(die.colour ? [die.colour] : [])]));
    const askedLeft = roll.dice.filter((d) => d.needs_check).length;
    $("die-title").textContent = t(adding ? "add_die_title" : "correct_die");
    $("die-progress").textContent = !adding && die.needs_check && askedLeft > 1
      ? t("asked_left", { n: askedLeft }) : adding ? t("add_die_hint") : "";
    $("die-not-a-die").hidden = adding;
    drawDieZoom(roll, adding ? point : [die.x, die.y], adding ? null : die);
    const submit = () => {
      if (choice.value === null) return;
      if (palette.length && !choice.colour) return;
      $("die-dialog").close();
      const sent = adding
        ? send(E.ADD_DIE, { roll_id: roll.roll_id, x: Math.round(point[0]), y: Math.round(point[1]),
          value: choice.value, colour: choice.colour })
        : send(E.CORRECT_DIE, { roll_id: roll.roll_id, index, value: choice.value,
          colour: choice.colour });
      sent.then(() => {
        // the next asked die of the same roll, at once: one tap each
        const next = nextAsked();
        if (!adding && die.needs_check && next !== null && app.roll.roll_id === roll.roll_id
          && !$("die-dialog").open) openDieDialog(next);
      }).catch(() => null);
    };
    const paint = () => {
      values.replaceChildren(...[1, 2, 3, 4, 5, 6].map((v) => h("button", {
        type: "button", class: "die-face" + (choice.value === v ? " chosen" : ""),
        "data-value": v, onclick: () => {
          choice.value = v;
          paint();
          if (palette.length <= 1 || choice.colour) submit();
        },
      }, String(v))));
      colours.replaceChildren(...palette.map((c) => h("button", {
        type: "button", class: "colour" + (choice.colour === c ? " chosen" : ""),
        "data-colour": c, style: `--swatch:${cssColour(c)}`,
        onclick: () => { choice.colour = c; paint(); },
      }, I18N.colour(c))));
      colours.hidden = palette.length <= 1;
      if (palette.length === 1) choice.colour = palette[0];
    };
    paint();
    $("die-save").onclick = submit;
    $("die-not-a-die").onclick = () => {
      $("die-dialog").close();
      send(E.CORRECT_DIE, { roll_id: roll.roll_id, index, value: null, colour: null })
        .catch(() => null);
    };
    $("die-dialog").addEventListener("close", () => {
      app.selectedDie = null;
      app.adding = null;
      drawOverlay();
    }, { once: true });
    $("die-dialog").showModal();
  }

  $("confirm-roll").addEventListener("click", () => {
    if (app.roll) send(E.CONFIRM_ROLL, { roll_id: app.roll.roll_id }).catch(() => null);
  });

  // --- entering dice by hand (no camera, or the camera saw the wrong dice) ----------------
  /* A game's entry(view) gives {title, hint, groups: [{zone, colour, label, count}]}: the
   * pad counts dice per value in each group (tap a value to add one). */
  function openEntry(explicit) {
    const view = app.view;
    const module = view && GAMES[view.game];
    const spec = explicit || (module && module.entry ? module.entry(view, ctx) : null);
    if (!spec) return;
    $("entry-title").textContent = spec.title || t("enter_dice");
    $("entry-hint").textContent = spec.hint || "";
    // Every tap is one entry, kept under its tap id: the same tap delivered twice (a touch
    // screen's ghost click, a click landing on the button redrawn under the finger) adds
    // nothing, while two quick taps are two entries. Counts are derived from the entries.
    const entries = new Map(); // tap id -> {gi, value, add}
    let tapSerial = 0;
    const countsOf = (gi) => {
      const counts = [0, 0, 0, 0, 0, 0];
      for (const e of entries.values()) {
        if (e.gi === gi) counts[e.value - 1] = Math.max(0, counts[e.value - 1] + e.add);
      }
      return counts;
    };
    const body = $("entry-dice");
    body.style.touchAction = "manipulation"; // no double-tap zoom between quick taps
    let pressed = null; // the id of the last press: every click it causes is that one tap
    body.onpointerdown = (ev) => {
      pressed = "p" + ev.pointerId + "@" + ev.timeStamp.toFixed(1);
    };
    // ev.detail is 0 for a keyboard press: each is a tap of its own
    const tapId = (ev) => (ev.detail !== 0 && pressed ? pressed : "k" + (tapSerial += 1));
    const record = (ev, gi, value, add) => {
      const id = tapId(ev);
      if (!entries.has(id)) entries.set(id, { gi, value, add });
      paint();
    };
    const paint = () => {
      body.replaceChildren(...spec.groups.map((group, gi) => {
        const counts = countsOf(gi);
        const total = counts.reduce((a, b) => a + b, 0);
        const full = group.count !== undefined && group.count !== null && total >= group.count;
        return h("div", { class: "entry-group", "data-zone": group.zone || "",
          "data-colour": group.colour || "" },
        h("span", { class: "entry-label", style: `--swatch:${cssColour(group.colour)}` },
          group.label, " ", h("small", {}, group.count !== undefined && group.count !== null
            ? `${total}/${group.count}` : String(total))),
        ...[1, 2, 3, 4, 5, 6].map((v) => h("button", {
          type: "button", class: "entry-cell" + (counts[v - 1] ? " some" : ""),
          "data-value": v, disabled: full && !counts[v - 1] ? true : null,
          // a full group: a tap on a value it holds takes one die away
          onclick: (ev) => record(ev, gi, v, full ? -1 : 1),
        }, h("b", {}, String(v)), h("small", {}, counts[v - 1] ? "×" + counts[v - 1] : ""))),
        h("button", { type: "button", class: "entry-clear", onclick: () => {
          for (const [id, e] of entries) if (e.gi === gi) entries.delete(id);
          paint();
        } }, "⟲"));
      }));
    };
    paint();
    // one id per opened pad: a second tap on the button sends the same entry, scored once
    const entryId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
    $("entry-submit").disabled = false;
    $("entry-submit").onclick = () => {
      const dice = [];
      spec.groups.forEach((group, gi) => countsOf(gi).forEach((n, vi) => {
        for (let k = 0; k < n; k++) {
          dice.push({ value: vi + 1, colour: group.colour || null, zone: group.zone || null });
        }
      }));
      if (!dice.length && !spec.submit) { toast(t("no_dice_entered")); return; }
      const sent = spec.submit ? spec.submit(dice) : send(E.ENTER_ROLL, { dice, entry_id: entryId });
      $("entry-submit").disabled = true; // until the server answered
      sent.then(() => $("entry-dialog").close()).catch(() => null)
        .finally(() => { $("entry-submit").disabled = false; });
    };
    $("entry-dialog").showModal();
  }
  $("enter-dice").addEventListener("click", () => openEntry(null));
  $("demo-roll").addEventListener("click", () => whenPaired().then(() =>
    socket.timeout(10000).emit(E.DEMO_ROLL, {}, (err, ack) => {
      if (err || !ack || !ack.ok) toast((ack && ack.error) || t("no_answer"));
    })).catch(() => null));

  // --- undo, games, new game, language --------------------------------------------------
  $("undo").addEventListener("click", () => send(E.UNDO, {}).catch(() => null));

  /* The stored games: who played with their scores, the winners, when, ended or not; each
   * can be opened, ended (kept with its score) or deleted (a second tap confirms). */
  function renderGamesList() {
    const list = $("games-list");
    const when = (seconds) => new Date(seconds * 1000).toLocaleString(I18N.lang(),
      { dateStyle: "medium", timeStyle: "short" });
    list.replaceChildren(...app.games.stored.map((g) => {
      const standing = g.standing || { scores: [], winners: [] };
      // the game's own measure named: "rounds won: Anna 0 · Ben 1", not bare numbers
      const measureKey = `measure_${g.game}`; // a game without one: its bare numbers
      const measure = t(measureKey) !== measureKey ? `${t(measureKey)}: ` : "";
      const scores = standing.scores.length
        ? measure + standing.scores.map((s) => `${s.player} ${s.score}`).join(" · ")
        : g.players.join(", ");
      const finished = Boolean(standing.over); // played to its end by the rules
      const playing = app.view && app.view.game_id === g.id;
      const remove = h("button", { type: "button", class: "danger", "data-delete-game": g.id,
        onclick: () => {
          if (!remove.dataset.armed) { // the first tap asks, the second deletes
            remove.dataset.armed = "1";
            remove.textContent = t("delete_confirm");
            return;
          }
          send(E.DELETE_GAME, { game_id: g.id }).then(refreshGames).catch(() => null);
        } }, t("delete"));
      return h("li", { class: "stored-game", "data-game-id": g.id },
        h("div", { class: "stored-head" },
          h("b", {}, `#${g.id} ${gameTitle(g.game, g.title)}`),
          g.closed ? h("span", { class: "pill" }, t("ended")) : null,
          finished && !g.closed ? h("span", { class: "pill", "data-status": "finished" },
            t("finished")) : null,
          playing ? h("span", { class: "pill", "data-status": "running" }, t("playing")) : null),
        h("div", { class: "stored-scores" }, scores,
          standing.winners.length ? ` · ${t("winner")}: ${standing.winners.join(", ")}` : ""),
        h("div", { class: "hint" }, `${t("started")} ${when(g.created || g.updated)} · `,
          `${t("last_move")} ${when(g.updated)}`),
        h("div", { class: "row" },
          h("button", { type: "button", "data-open-game": g.id, onclick: () => {
            send(E.OPEN_GAME, { game_id: g.id }).then(() => $("games-dialog").close())
              .catch(() => null);
          } }, t("open")),
          g.closed || finished ? null : h("button", { type: "button", "data-close-game": g.id,
            onclick: () => send(E.CLOSE_GAME, { game_id: g.id }).then(refreshGames)
              .catch(() => null) }, t("end_game")),
          remove));
    }));
    if (!app.games.stored.length) list.append(h("li", { class: "hint" }, t("no_stored_games")));
  }

  /* The list with the scores as they are now (they change with every move). */
  function refreshGames() {
    socket.timeout(10000).emit(E.LIST_GAMES, {}, (err, ack) => {
      if (err || !ack || !ack.ok) return;
      app.games = ack.games;
      renderGamesList();
    });
  }
  $("open-games").addEventListener("click", () => {
    renderGamesList();
    refreshGames();
    $("games-dialog").showModal();
  });

  function renderNewGameChoices() {
    const select = $("new-game-name");
    const current = select.value;
    select.replaceChildren(...app.games.available.map((g) =>
      h("option", { value: g.game }, gameTitle(g.game, g.title))));
    if (current) select.value = current;
    renderNewGameOptions();
  }

  /* Player fields and each game's variants: the limits and variants come from the game's
     engine (the games payload); a game module may add a per-player choice (perPlayer). */
  function setupOf(game) {
    const offered = app.games.available.find((g) => g.game === game);
    const module = GAMES[game];
    return Object.assign({ min: 1, max: 1, options: [] }, offered && offered.setup,
      module && module.perPlayer ? { perPlayer: module.perPlayer } : {});
  }

  function renderNewGameOptions() {
    const game = $("new-game-name").value;
    const setup = setupOf(game);
    const fieldset = $("new-game-players");
    const old = Array.from(fieldset.querySelectorAll("input")).map((i) => i.value);
    fieldset.replaceChildren(h("legend", {}, t("players")));
    const extra = setup.perPlayer ? setup.perPlayer(ctx) : null;
    const row = (i) => h("div", { class: "player-row" },
      h("input", { type: "text", name: "player", maxlength: NAME_MAX,
        placeholder: i < setup.min ? t("player_n", { n: i + 1 }) : t("player_optional"),
        value: old[i] || "" }),
      extra ? h("select", { name: extra.key, "aria-label": t(extra.label) },
        h("option", { value: "" }, t(extra.label)),
        extra.options.map((o) => h("option", { value: o.value }, o.label))) : null);
    // the players the game needs, one free row more while the game allows more players
    // (a V6 evening allows dozens: a row appears as the last one is filled in)
    let filled = 0;
    old.forEach((v, i) => { if (v) filled = i + 1; });
    const shown = Math.min(setup.max, Math.max(setup.min, filled) + 1);
    for (let i = 0; i < shown; i++) fieldset.append(row(i));
    fieldset.oninput = () => {
      const rows = fieldset.querySelectorAll(".player-row");
      const last = rows[rows.length - 1];
      if (rows.length < setup.max && last.querySelector("input").value.trim()) {
        fieldset.append(row(rows.length));
      }
      renderPlayersHint(game, setup);
    };
    renderPlayersHint(game, setup);
    const options = $("new-game-options");
    options.replaceChildren(...(setup.options || []).map((opt) => h("label", { class: "option" },
      opt.type === "number"
        ? h("input", { type: "number", name: opt.key, value: opt.value, min: opt.min, max: opt.max })
        : h("input", { type: "checkbox", name: opt.key, checked: opt.value ? true : null }),
      " ", t(opt.label))));
    // the demo table can start a game where it is crowded (Dice Party: parties of 54 dice)
    if (setup.demo_crowded && app.view && app.view.demo) {
      options.append(h("label", { class: "option" },
        h("input", { type: "checkbox", id: "new-game-full-party" }), " ", t("demo_full_party")));
    }
  }

  /* The names of the last game's players (the one played now, else the last stored). */
  function lastPlayers() {
    const byUpdate = [...app.games.stored].sort((a, b) => (b.updated || 0) - (a.updated || 0));
    const config = app.view && app.view.game ? app.view.config : null;
    const names = config && Array.isArray(config.players) ? config.players
      : byUpdate.length ? byUpdate[0].players : [];
    return names.map((p) => (p && typeof p === "object" ? p.name : p)).filter(Boolean);
  }

  /* Under the names: how many players the game takes (and that every field is in use
   * once it has its most), and one tap to bring the last game's players back. */
  function renderPlayersHint(game, setup) {
    const inputs = Array.from($("new-game-players").querySelectorAll("input"));
    const typed = inputs.filter((i) => i.value.trim()).length;
    const title = gameTitle(game, (app.games.available.find((g) => g.game === game) || {}).title || game);
    const full = inputs.length >= setup.max && typed >= setup.max;
    const parts = [h("span", { id: "new-game-limits", "data-full": full ? "1" : "0" },
      full ? t("players_full", { game: title, max: setup.max })
        : t("players_range", { game: title, min: setup.min, max: setup.max }))];
    // a name typed (or pasted) to the field's end is said to end there, not cut unseen
    if (inputs.some((i) => i.value.length >= NAME_MAX)) {
      parts.push(h("span", { id: "new-game-name-long" }, t("name_at_most", { max: NAME_MAX })));
    }
    const last = lastPlayers();
    if (!typed && last.length >= setup.min && last.length <= setup.max) {
      parts.push(h("button", { type: "button", id: "new-game-same", onclick: () => {
        const fieldset = $("new-game-players");
        last.forEach((name, i) => {
          const rows = fieldset.querySelectorAll(".player-row input");
          if (rows[i]) {
            rows[i].value = name;
            fieldset.oninput();
          }
        });
      } }, t("same_players", { names: last.join(", ") })));
    }
    $("new-game-hint").replaceChildren(...parts);
  }

  $("new-game-name").addEventListener("change", renderNewGameOptions);
  $("open-new-game").addEventListener("click", () => {
    $("new-game-error").textContent = "";
    // a fresh form each time: the last game's names would start the next game unnoticed
    // (they come back with one tap on "Same players")
    for (const input of $("new-game-players").querySelectorAll("input")) input.value = "";
    renderNewGameOptions();
    $("new-game-dialog").showModal();
  });
  $("new-game-start").addEventListener("click", () => {
    const game = $("new-game-name").value;
    const module = GAMES[game];
    const setup = setupOf(game);
    const extra = setup.perPlayer ? setup.perPlayer(ctx) : null;
    const players = [];
    for (const row of $("new-game-players").querySelectorAll(".player-row")) {
      const name = row.querySelector("input").value.trim();
      if (!name) continue;
      if (!extra) { players.push(name); continue; }
      const choice = row.querySelector("select").value;
      players.push(Object.assign({ name }, choice ? { [extra.key]: choice } : {}));
    }
    const config = { players };
    for (const opt of setup.options || []) {
      const input = $("new-game-options").querySelector(`[name="${opt.key}"]`);
      config[opt.key] = opt.type === "number" ? Number(input.value) : input.checked;
    }
    const finish = module && module.config ? module.config(config) : config;
    const full = $("new-game-full-party");
    const [event, payload] = full && full.checked
      ? [E.DEMO_PARTY, { game, players: players.map((p) => (typeof p === "string" ? p : p.name)) }]
      : [E.NEW_GAME, { game, config: finish }];
    whenPaired().then(() => socket.timeout(10000).emit(event, payload,
      (err, ack) => {
        if (err || !ack || !ack.ok) {
          // the engines' refusals come as messages, said in the page's language
          $("new-game-error").textContent = ack && ack.message ? I18N.message(ack.message)
            : (ack && ack.error) || t("no_answer");
        } else {
          $("new-game-dialog").close();
        }
      })).catch(() => null);
  });

  // --- help: what each step means, per game, and the rules page ------------------------
  let helpGame = null; // the game the help shows (the one played, or the one picked)

  function renderHelp() {
    const help = window.DICECAM_HELP || {};
    const games = app.games.available.filter((g) => help[g.game]);
    if (!helpGame || !help[helpGame]) helpGame = (app.view && app.view.game) || (games[0] && games[0].game);
    $("help-games").replaceChildren(...games.map((g) => h("button", {
      type: "button", class: g.game === helpGame ? "chosen" : "", "data-help-game": g.game,
      onclick: () => { helpGame = g.game; renderHelp(); } }, gameTitle(g.game, g.title))));
    const entry = help[helpGame];
    if (!entry) return;
    const lang = I18N.lang();
    const sections = entry.sections[lang] || entry.sections.en;
    $("help-sections").replaceChildren(...sections.map((sec) => h("section", {},
      h("h4", {}, sec.title), h("p", {}, sec.text))));
    const title = gameTitle(helpGame, (games.find((g) => g.game === helpGame) || {}).title || helpGame);
    const link = $("help-rules");
    // linked only where that page holds more than this help (the game's tables, the
    // owner's rulebook)
    link.parentElement.hidden = !entry.rules_page;
    link.href = `rules/${encodeURIComponent(helpGame)}?lang=${lang}`;
    link.textContent = t("full_rules", { game: title });
  }
  $("open-help").addEventListener("click", () => {
    helpGame = (app.view && app.view.game) || helpGame;
    renderHelp();
    $("help-dialog").showModal();
  });

  for (const button of document.querySelectorAll("[data-set-lang]")) {
    button.addEventListener("click", () => {
      I18N.setLang(button.dataset.setLang);
      renderAll();
      renderCamera();
      renderTeach();
      if ($("help-dialog").open) renderHelp();
      renderGamesList();
      renderNewGameChoices();
    });
  }
  I18N.apply(document);
})();
