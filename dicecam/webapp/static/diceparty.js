/* Dice Party: every party with its stock, whose turn, the six steps, pickpocket / provoke /
 * growth as buttons (both growth outcomes shown before choosing), the escalation verdict
 * with the grouping that explains it, millionaire and victory banners, and the Party
 * Animal record. Renders diceparty_json.state_to_json; only state.legal is offered. */
(function () {
  "use strict";
  const KINDS = ["party_people", "vip", "mob"];
  const COLOUR = { party_people: "yellow", vip: "orange", mob: "red" };
  window.DicecamI18n.add({
    en: {
      party_people: "Party People", vip: "VIP", mob: "Mob", dp_party: "party", dp_stock: "stock",
      dp_wallets: "wallets", dp_escalations: "escalations", dp_wins: "wins",
      dp_wallets_short: "wal.", dp_escalations_short: "esc.",
      dp_steps: ["Throw", "Escalation?", "Millionaire?", "Pickpocket", "Provoke", "Grow"],
      dp_pickpocket: "Steal wallets from level-6 Party People", dp_steal: "Steal {n}",
      dp_provoke: "Provoke VIPs at level 4+", dp_provoke_n: "Provoke {n}",
      dp_order: "Who gets the Mobs (tap in order):", dp_gets: "{n} {n:Mob|Mobs}",
      dp_send: "Provoke", dp_grow: "How the party grows",
      dp_option_vip: "a) VIPs for Party People points", dp_option_party_people: "b) Party People for VIP points",
      dp_points: "points", dp_new_guests: "new guests", dp_new_mobs: "new Mobs", dp_unfilled: "Mobs missing",
      dp_removed: "guests leave", dp_next_round: "Next round", dp_escalated: "ESCALATION! {p}'s party escalates",
      dp_calm: "No escalation", dp_millionaire: "MILLIONAIRE! {p} wins", dp_victory: "{p} wins ({how})",
      dp_round_over: "Round {r} goes to {p} ({how})", dp_champion: "PARTY ANIMAL: {p}",
      escalation: "escalation", millionaire: "millionaire", wallets: "wallets", stalled: "no one can act",
      dp_preparty_totals: "Preparty totals", dp_tied: "Tie: everyone throws again",
      dp_entry_preparty: "Every party, as thrown", dp_entry_throw: "{p}'s party, as thrown",
      dp_entry_hint: "Count the dice of each colour by their pips (tap a value once per die).",
      dp_waiting: "Now", dp_party_animal: "Party Animal mode",
      dp_on_dice: "On the dice ({p}):", dp_legend_uncovered: "✗ Mob no group covers: the party escalates",
      dp_legend_covered: "every Mob covered: no escalation", dp_legend_no_mob: "no Mob: nothing to cover",
      dp_legend_spare: "grey: guests no group needs",
      dp_legend_millionaire: "$ millionaire: {why}", dp_legend_wallet: "W wallet (Party People at 6)",
    },
    de: {
      party_people: "Partyvolk", vip: "VIP", mob: "Mob", dp_party: "Party", dp_stock: "Vorrat",
      dp_wallets: "Geldbörsen", dp_escalations: "Eskalationen", dp_wins: "Siege",
      dp_wallets_short: "Börs.", dp_escalations_short: "Esk.",
      dp_steps: ["Werfen", "Eskalation?", "Millionär?", "Taschendiebstahl", "Provozieren", "Wachsen"],
      dp_pickpocket: "Geldbörsen von Partyvolk auf 6 stehlen", dp_steal: "{n} stehlen",
      dp_provoke: "VIPs ab Stufe 4 provozieren", dp_provoke_n: "{n} provozieren",
      dp_order: "Wer bekommt die Mobs (der Reihe nach antippen):", dp_gets: "{n} {n:Mob|Mobs}",
      dp_send: "Provozieren", dp_grow: "Wie die Party wächst",
      dp_option_vip: "a) VIPs für Partyvolk-Punkte", dp_option_party_people: "b) Partyvolk für VIP-Punkte",
      dp_points: "Punkte", dp_new_guests: "neue Gäste", dp_new_mobs: "neue Mobs", dp_unfilled: "fehlende Mobs",
      dp_removed: "Gäste gehen", dp_next_round: "Nächste Runde", dp_escalated: "ESKALATION! Die Party von {p} eskaliert",
      dp_calm: "Keine Eskalation", dp_millionaire: "MILLIONÄR! {p} gewinnt", dp_victory: "{p} gewinnt ({how})",
      dp_round_over: "Runde {r} geht an {p} ({how})", dp_champion: "PARTY ANIMAL: {p}",
      escalation: "Eskalation", millionaire: "Millionär", wallets: "Geldbörsen", stalled: "niemand kann handeln",
      dp_preparty_totals: "Vorparty-Summen", dp_tied: "Gleichstand: alle werfen nochmal",
      dp_entry_preparty: "Alle Partys, wie geworfen", dp_entry_throw: "Party von {p}, wie geworfen",
      dp_entry_hint: "Zähle die Würfel jeder Farbe nach Augen (pro Würfel einmal tippen).",
      dp_waiting: "Jetzt", dp_party_animal: "Party-Animal-Modus",
      dp_on_dice: "Auf den Würfeln ({p}):", dp_legend_uncovered: "✗ Mob, den keine Gruppe deckt: die Party eskaliert",
      dp_legend_covered: "jeder Mob gedeckt: keine Eskalation", dp_legend_no_mob: "kein Mob: nichts zu decken",
      dp_legend_spare: "grau: Gäste, die keine Gruppe braucht",
      dp_legend_millionaire: "$ Millionär: {why}", dp_legend_wallet: "W Geldbörse (Partyvolk auf 6)",
    },
  });
  const STEP_OF_PHASE = { throw: 0, pickpocket: 3, provoke: 4, grow: 5 };

  function die(ctx, d) {
    return ctx.h("span", { class: "die", style: `--swatch:${window.DicecamPage.cssColour(COLOUR[d.kind])}`,
      title: ctx.t(d.kind) }, String(d.pips));
  }

  function counts(ctx, c) {
    return ctx.h("span", { class: "counts" }, KINDS.map((k) => ctx.h("span", { class: "swatch num",
      style: `--swatch:${window.DicecamPage.cssColour(COLOUR[k])}`, title: ctx.t(k) }, String(c[k]))));
  }

  function render(el, view, ctx) {
    const { h, t } = ctx;
    const s = view.state;
    const turn = s.turn || s.last_turn;
    // escalation is checked first (step 2): an escalated party brings no millionaire
    const millionaire = turn && turn.millionaire.arrived && !turn.escalation.escalated;
    const escalated = turn && turn.escalation.escalated;
    // one win, one banner: the throw that won the round or the game says why inside it
    const result = s.game_result && s.game_result.winner ? s.game_result
      : s.round_result && s.round_result.winner ? s.round_result : null;
    const why = result && millionaire && result.outcome === "millionaire"
      ? h("div", { class: "hint" }, turn.millionaire.reasons.map(ctx.msg).join("; "))
      : result && escalated && result.outcome === "escalation"
        ? h("div", { class: "hint" }, t("dp_escalated", { p: turn.player })) : null;
    if (s.game_result && s.game_result.winner) {
      el.append(h("div", { class: "banner", id: "dp-champion" }, s.party_animal
        ? t("dp_champion", { p: s.game_result.winner })
        : t("dp_victory", { p: s.game_result.winner, how: t(s.game_result.outcome) }), why));
    } else if (s.round_result && s.round_result.winner) {
      el.append(h("div", { class: "banner", id: "dp-round-over" },
        t("dp_round_over", { r: s.round, p: s.round_result.winner, how: t(s.round_result.outcome) }), why));
    }
    if (millionaire && !why) {
      el.append(h("div", { class: "banner", id: "dp-millionaire" }, t("dp_millionaire", { p: turn.player }),
        h("div", { class: "hint" }, turn.millionaire.reasons.map(ctx.msg).join("; "))));
    }
    if (escalated && !why) {
      el.append(h("div", { class: "banner bad", id: "dp-escalated" }, t("dp_escalated", { p: turn.player })));
    }

    const status = h("div", { class: "card", id: "dp-status" },
      h("h3", {}, `${t("round")} ${s.round}`, s.party_animal ? ` · ${t("dp_party_animal")}` : ""),
      h("p", {}, `${t("dp_waiting")}: ${ctx.msg(s.waiting_for)}`));
    if (s.active) {
      const current = STEP_OF_PHASE[s.phase];
      const steps = t("dp_steps");
      status.append(h("ol", { class: "actions", id: "dp-steps", style: "list-style:none;padding:0" },
        (Array.isArray(steps) ? steps : []).map((name, i) => h("li", {
          class: "pill", style: i === current ? "background:var(--accent);color:#111" : "" }, `${i + 1} ${name}`))));
    }
    if (s.preparty) {
      status.append(h("p", { id: "dp-preparty" }, `${t("dp_preparty_totals")}: `,
        Object.entries(s.preparty.totals).map(([n, v]) => `${n} ${v}`).join(", "),
        s.preparty.tied.length ? ` · ${t("dp_tied")}` : ""));
    }
    for (const m of s.events || []) status.append(h("p", { class: "hint" }, ctx.msg(m)));
    el.append(status);

    const controls = h("div", { class: "card actions", id: "dp-actions" });
    for (const item of ctx.legal(view)) addControl(controls, item, view, ctx);
    if (controls.childElementCount) el.append(controls);

    if (turn) {
      const esc = turn.escalation;
      el.append(h("div", { class: "card", id: "dp-turn" },
        h("h3", {}, turn.player),
        h("div", { class: "dice" }, turn.dice.map((d) => die(ctx, d))),
        h("p", { id: "dp-verdict" }, h("b", {}, esc.escalated ? t("dp_escalated", { p: turn.player }) : t("dp_calm")),
          " · ", ctx.msg(esc.explanation)),
        esc.groups.length ? h("ul", { id: "dp-groups" }, esc.groups.map((g) => h("li", {}, ctx.msg(g.text)))) : null,
        turn.deliveries.length ? h("ul", {}, turn.deliveries.map((d) =>
          h("li", {}, `${d.player}: +${d.new_mobs} ${t("mob")}`))) : null));
    }

    const table = h("table", { id: "dp-players" },
      h("thead", {}, h("tr", {}, h("th", {}, t("player")), h("th", {}, t("dp_party")), h("th", {}, t("dp_stock")),
        shortened(ctx, "dp_wallets"), shortened(ctx, "dp_escalations"), h("th", {}, t("dp_wins")))),
      h("tbody", {}, s.players.map((p) => h("tr", { class: p.name === s.active ? "active" : "", "data-player": p.name },
        h("td", {}, p.name, p.crowned ? " 👑" : "", p.in_round ? "" : " ✗"),
        h("td", {}, counts(ctx, p.party)), h("td", {}, counts(ctx, p.stock)),
        h("td", { class: "num" }, String(p.wallets)), h("td", { class: "num" }, String(p.escalations)),
        h("td", {}, p.wins.map((w) => t(w)).join(", "))))));
    el.append(h("div", { class: "card table-card" }, table));
  }

  /* A header with a short form that a phone shows instead (the table then fits 390 px). */
  function shortened(ctx, key) {
    return ctx.h("th", { title: ctx.t(key) }, ctx.h("span", { class: "long" }, ctx.t(key)),
      ctx.h("span", { class: "short", "aria-hidden": "true" }, ctx.t(key + "_short")));
  }

  function addControl(box, item, view, ctx) {
    const { h, t } = ctx;
    const s = view.state;
    if (item.type === "pickpocket") {
      box.append(h("p", { class: "why" }, t("dp_pickpocket")));
      for (let n = item.min; n <= item.max; n++) {
        box.append(h("button", { type: "button", "data-action": "pickpocket", "data-count": n,
          onclick: () => ctx.act({ type: "pickpocket", count: n }) }, t("dp_steal", { n })));
      }
    } else if (item.type === "provoke") {
      box.append(h("p", { class: "why" }, t("dp_provoke")));
      const chooser = h("div", { class: "row", id: "dp-order" });
      const start = (n) => {
        const needed = Math.min(n, item.options.length);
        if (n === 0) return ctx.act({ type: "provoke", count: 0, order: [] });
        if (item.options.length === 1) return ctx.act({ type: "provoke", count: n, order: item.options });
        const order = [];
        const paint = () => {
          chooser.replaceChildren(h("span", {}, t("dp_order")), ...item.options.map((name) => h("button", {
            type: "button", "data-target": name, disabled: order.includes(name) ? true : null,
            onclick: () => {
              order.push(name);
              if (order.length >= needed) ctx.act({ type: "provoke", count: n, order: order.slice() });
              else paint();
            },
          }, name, order.includes(name) ? ` (${t("dp_gets", { n: n - order.indexOf(name) })})` : "")));
        };
        paint();
        return null;
      };
      for (let n = item.min; n <= item.max; n++) {
        box.append(h("button", { type: "button", "data-action": "provoke", "data-count": n,
          onclick: () => start(n) }, t("dp_provoke_n", { n })));
      }
      box.append(chooser);
    } else if (item.type === "grow") {
      box.append(h("p", { class: "why" }, t("dp_grow")));
      const options = s.growth_options || {};
      for (const option of item.options) {
        const o = options[option + "_option"] || {};
        const newGuests = o.new_vips !== undefined ? o.new_vips : o.new_party_people;
        const removed = o.removed ? (o.removed.party_people || 0) + (o.removed.vip || 0) : 0;
        box.append(h("button", { type: "button", class: "grow-option", "data-action": "grow", "data-option": option,
          onclick: () => ctx.act({ type: "grow", option }) },
        h("b", {}, t("dp_option_" + option)), h("br"),
        `${o.points} ${t("dp_points")} → +${newGuests} ${t("dp_new_guests")}, +${o.new_mobs} ${t("dp_new_mobs")}`,
        removed ? `, −${removed} ${t("dp_removed")}` : "",
        o.unfilled_mobs ? `, ${o.unfilled_mobs} ${t("dp_unfilled")}` : ""));
      }
    } else if (item.type === "next_round") {
      box.append(h("button", { type: "button", class: "primary", "data-action": "next_round",
        onclick: () => ctx.act({ type: "next_round" }) }, t("dp_next_round")));
    }
    // "preparty" and "throw" come from the camera, or from the dice entry pad.
  }

  function entry(view, ctx) {
    const s = view.state;
    const preparty = ctx.legalOf(view, "preparty");
    const thrower = ctx.legalOf(view, "throw");
    if (!preparty && !thrower) return null;
    const names = preparty ? preparty.options : [s.active];
    const groups = [];
    for (const name of names) {
      const player = s.players.find((p) => p.name === name);
      for (const kind of KINDS) {
        if (!player.party[kind]) continue;
        groups.push({ zone: name, colour: COLOUR[kind], count: player.party[kind],
          label: `${name}: ${ctx.t(kind)}` });
      }
    }
    const spec = {
      title: preparty ? ctx.t("dp_entry_preparty") : ctx.t("dp_entry_throw", { p: s.active }),
      hint: ctx.t("dp_entry_hint"),
      groups,
    };
    if (!groups.length && thrower) {
      // an empty party still takes its turn: a throw of no dice (rulebook FAQ 5)
      spec.submit = () => window.DicecamPage.send(window.DICECAM_EVENTS.ACTION, { type: "throw", dice: [] });
    }
    return spec;
  }

  /* A throw seen outside every zone belongs to the party whose turn it is. */
  function zones(view) {
    if (!view.state.active || !view.state.legal.some((l) => l.type === "throw")) return [];
    return [{ zone: view.state.active, label: view.state.active }];
  }

  /* The verdict on the dice (the server's roll.marks): each group of Party People/VIPs
   * and the Mobs it covers share an outline colour and a number, as players lay the groups
   * out by hand (rulebook FAQ); a Mob no group covers is crossed out, red: the reason for
   * an escalation. The millionaire's VIPs are gold, level-6 Party People carry a W. */
  const GROUP_COLOURS = ["#00d1ff", "#ff4fd8", "#7cfc00", "#ffffff", "#b388ff", "#00e0a0",
    "#4da3ff", "#ffb3c7"];
  const UNCOVERED = "#ff1a1a";
  const SPARE = "#9aa59d";
  const GOLD = "#ffd700";
  const groupColour = (i) => GROUP_COLOURS[i % GROUP_COLOURS.length];

  function dieMarks(roll) {
    const marks = roll.marks;
    if (!marks) return null;
    const rich = marks.millionaire.levels.length > 0 && !marks.escalated;
    return marks.dice.map((m) => {
      if (!m) return null;
      const wallet = m.wallet ? "W" : "";
      if (rich && m.millionaire) return { stroke: GOLD, width: 4, tag: "$" };
      if (m.role === "uncovered") {
        return { stroke: UNCOVERED, width: 4, tag: "✗", ink: "#fff", cross: true,
          fill: "rgba(255,26,26,0.30)" };
      }
      if (m.group !== null) {
        return { stroke: groupColour(m.group), width: 3, tag: `${m.group + 1}${wallet}` };
      }
      return { stroke: SPARE, width: 1.5, tag: wallet };
    });
  }

  function rollLegend(roll, ctx) {
    const { h, t } = ctx;
    const marks = roll.marks;
    if (!marks) return null;
    const chip = (colour, ...text) => h("span", { class: "legend-chip", style: `--swatch:${colour}` }, ...text);
    const items = marks.groups.map((g, i) => chip(groupColour(i), h("b", {}, String(i + 1)), " ", ctx.msg(g.text)));
    if (marks.escalated) items.push(chip(UNCOVERED, t("dp_legend_uncovered")));
    else items.push(chip(SPARE, t(marks.checked ? "dp_legend_covered" : "dp_legend_no_mob")));
    if (marks.dice.some((m) => m && m.role === "spare")) items.push(chip(SPARE, t("dp_legend_spare")));
    if (marks.millionaire.levels.length && !marks.escalated) {
      items.push(chip(GOLD, t("dp_legend_millionaire", { why: marks.millionaire.reasons.map(ctx.msg).join("; ") })));
    }
    if (marks.dice.some((m) => m && m.wallet)) items.push(chip(SPARE, t("dp_legend_wallet")));
    return h("div", { id: "dp-legend", "data-escalated": marks.escalated ? "1" : "0" },
      h("span", { class: "hint" }, t("dp_on_dice", { p: marks.player })), " ", items);
  }

  /* One area per player still in the round: a party lies in front of its player. */
  function zoneNames(view) {
    return view.state.players.filter((p) => p.in_round).map((p) => p.name);
  }

  const legalOf = (s, type) => (s.legal || []).find((l) => l.type === type) || null;

  /* Zones help when the picture shows more dice than the thrower's party holds: other
   * parties (or the counter die) are in view, and without areas they all count. */
  function zoneOffer(view, roll) {
    const s = view.state;
    const preparty = legalOf(s, "preparty");
    const thrower = preparty ? preparty.options[0] : s.phase === "throw" ? s.active : null;
    if (!roll || !thrower || roll.status === "applied") return null;
    const player = s.players.find((p) => p.name === thrower);
    const holds = player ? KINDS.reduce((n, k) => n + player.party[k], 0) : 0;
    return roll.dice.length > holds ? { key: "zones_offer", params: { p: thrower } } : null;
  }

  window.DicecamGames.diceparty = {
    zoneNames,
    zoneOffer,
    render,
    entry,
    zones,
    dieMarks,
    rollLegend,
  };
})();
