/* V6: the croupier's screen. Jokers chosen, each throw, the running total, only the legal
 * announcements as buttons, the group table and the evening's standings. Renders
 * v6_json.state_to_json; every button is one entry of state.legal. */
(function () {
  "use strict";
  window.DicecamI18n.add({
    en: {
      title_v6: "V6 dice tournament", v6_group: "Group {g}, pass {p} of {n}", v6_player: "{p}'s round", v6_total: "{n} {n:pip|pips}",
      v6_choose_jokers: "{p} names up to {n} jokers", v6_free_choice: "Free-choice round (final)",
      v6_start_round: "Start the round", v6_threw: "Threw {v}", v6_throw: "The die shows:",
      v6_stop: "Stop and keep the pips", v6_end_fumo: "End Fumo", v6_steal: "Steal from {p}",
      v6_outcome_stopped: "stopped", v6_outcome_secured: "secured by the Ventil",
      v6_outcome_zombie: "zombie", v6_outcome_skipped: "skipped (a zombie)", v6_outcome_playing: "playing",
      v6_pass_steal: "Rob nobody", v6_let_six_stand: "Let the six stand (keep Runkelrüb)",
      v6_log: "Throws", v6_table: "Group table", v6_standings: "Evening standings",
      v6_points: "{n} {n:point|points}", v6_zombie: "zombie: lost to the six, 0 points",
      v6_zombie_why: "A zombie lost this round to the six (or was robbed down to 0): 0 pips, 0 placement points.", v6_results: "Rounds played", v6_throw_off: "Throw-off for {pts} points: {tied}",
      v6_thrower: "{p} throws", v6_qualified: "Through to the next stage: {p}",
      v6_groups: "Form the groups (2 to 4 players each, in the order entered)",
      v6_final: "Final (four passes)", v6_joker: "Joker", v6_opponent: "against {p}",
      keep: "keep", reroll: "throw again", fight: "fight", dodge: "dodge", again: "again",
      retreat: "retreat", challenge: "challenge", pass: "pass",
    },
    de: {
      title_v6: "V6-Würfelturnier", v6_group: "Gruppe {g}, Durchgang {p} von {n}", v6_player: "Runde von {p}", v6_total: "{n} {n:Auge|Augen}",
      v6_choose_jokers: "{p} wählt bis zu {n} Joker", v6_free_choice: "Freie-Wahl-Runde (Finale)",
      v6_start_round: "Runde beginnen", v6_threw: "{v} geworfen", v6_throw: "Der Würfel zeigt:",
      v6_stop: "Aufhören und Augen behalten", v6_end_fumo: "Fumo beenden", v6_steal: "Von {p} stehlen",
      v6_outcome_stopped: "aufgehört", v6_outcome_secured: "vom Ventil gesichert",
      v6_outcome_zombie: "Zombie", v6_outcome_skipped: "ausgelassen (Zombie)", v6_outcome_playing: "spielt",
      v6_pass_steal: "Niemanden bestehlen", v6_let_six_stand: "Sechs gelten lassen (Runkelrüb behalten)",
      v6_log: "Würfe", v6_table: "Gruppentabelle", v6_standings: "Stand des Abends",
      v6_points: "{n} {n:Punkt|Punkte}", v6_zombie: "Zombie: an der Sechs gescheitert, 0 Punkte",
      v6_zombie_why: "Ein Zombie hat diese Runde an der Sechs verloren (oder wurde auf 0 bestohlen): 0 Augen, 0 Platzierungspunkte.", v6_results: "Gespielte Runden", v6_throw_off: "Stechen um {pts} Punkte: {tied}",
      v6_thrower: "{p} würfelt", v6_qualified: "Weiter: {p}",
      v6_groups: "Gruppen bilden (je 2 bis 4 Spieler, in der eingegebenen Reihenfolge)",
      v6_final: "Finale (vier Durchgänge)", v6_joker: "Joker", v6_opponent: "gegen {p}",
      keep: "behalten", reroll: "nochmal werfen", fight: "kämpfen", dodge: "ausweichen", again: "nochmal",
      retreat: "zurückziehen", challenge: "herausfordern", pass: "passen",
    },
  });

  function render(el, view, ctx) {
    const { h, t } = ctx;
    const s = view.state;
    const round = s.round;
    const head = h("div", { class: "card", id: "v6-head" });
    if (s.group) head.append(h("h3", {}, t("v6_group", { g: s.group, p: s.pass, n: s.passes })));
    if (s.note) head.append(h("p", { class: "hint" }, ctx.msg(s.note)));
    el.append(head);

    const controls = h("div", { class: "card actions", id: "v6-actions" });
    const jokerNames = {};
    for (const j of s.choosable_jokers || []) jokerNames[j.joker] = j.name;
    if (round) for (const j of round.jokers) jokerNames[j.id] = j.name;

    for (const item of ctx.legal(view)) {
      if (item.type === "groups") {
        controls.append(h("p", { class: "why" }, t("v6_groups")),
          h("button", { type: "button", class: "primary", "data-action": "groups",
            onclick: () => ctx.act({ type: "groups", groups: item.groups }) },
          item.groups.map((g) => g.join(", ")).join(" | ")));
      } else if (item.type === "jokers") {
        controls.append(jokerChooser(ctx, s, item));
      } else if (item.type === "throw") {
        controls.append(h("p", { class: "why" }, ctx.msg(item.why)),
          h("span", {}, t("v6_throw")),
          ...[1, 2, 3, 4, 5, 6].map((v) => h("button", { type: "button", class: "die-face",
            "data-action": "throw", "data-value": v,
            onclick: () => ctx.act({ type: "throw", value: v }) }, String(v))));
      } else {
        const action = Object.assign({}, item);
        delete action.why;
        let label = item.type;
        if (item.type === "stop") label = t("v6_stop");
        else if (item.type === "end_fumo") label = t("v6_end_fumo");
        else if (item.type === "joker") {
          label = `${t("v6_joker")}: ${jokerNames[item.joker] || item.joker}` +
            (item.opponent ? ` ${t("v6_opponent", { p: item.opponent })}` : "");
        } else if (item.type === "choose") label = t(item.option);
        else if (item.type === "steal") label = t("v6_steal", { p: item.victim });
        else if (item.type === "pass_steal") label = t("v6_pass_steal");
        else if (item.type === "let_six_stand") label = t("v6_let_six_stand");
        controls.append(h("p", { class: "why" }, ctx.msg(item.why)),
          h("button", { type: "button", "data-action": item.type,
            "data-joker": item.joker || null, "data-option": item.option || null,
            "data-victim": item.victim || null, onclick: () => ctx.act(action) }, label));
      }
    }

    if (round) {
      el.append(h("div", { class: "card", id: "v6-round" },
        h("h3", {}, t("v6_player", { p: round.player })),
        h("div", { class: "banner", id: "v6-total" }, t("v6_total", { n: round.total })),
        round.in_play ? h("p", {}, h("b", {}, jokerNames[round.in_play.joker] || round.in_play.joker), ": ",
          ctx.msg(round.in_play.prompt)) : null,
        h("ul", { id: "v6-jokers" }, round.jokers.map((j) => h("li", {
          style: round.used.includes(j.id) ? "opacity:0.55" : "" }, h("b", {}, j.name), " – ",
        jokerRule(ctx, j.id) || j.rule))),
        round.note ? h("p", { class: "hint" }, ctx.msg(round.note)) : null));
    }
    if (controls.childElementCount) el.append(controls);
    if (round && round.log.length) {
      el.append(h("div", { class: "card", id: "v6-log" }, h("h3", {}, t("v6_log")),
        h("ol", {}, round.log.map((e) => h("li", {}, ctx.msg(e.label),
          e.value ? ` (${e.value})` : "", ` → ${e.total}`, e.note ? ` · ${ctx.msg(e.note)}` : "")))));
    }
    if (s.throw_off) {
      el.append(h("div", { class: "card", id: "v6-throw-off" },
        t("v6_throw_off", { pts: s.throw_off.points, tied: s.throw_off.tied.join(", ") }),
        " · ", t("v6_thrower", { p: s.throw_off.thrower })));
    }
    if (s.qualified.length) {
      el.append(h("div", { class: "banner", id: "v6-qualified" }, t("v6_qualified", { p: s.qualified.join(", ") })));
    }
    el.append(tables(ctx, s));
  }

  function jokerChooser(ctx, s, item) {
    const { h, t } = ctx;
    const chosen = [];
    const box = h("div", { class: "joker-chooser", "data-free-choice": item.free_choice ? "1" : "0" });
    const why = {};
    for (const j of s.choosable_jokers) why[j.joker] = j.why_not ? ctx.msg(j.why_not) : "";
    const names = {};
    for (const j of s.choosable_jokers) names[j.joker] = j.name;
    const paint = () => {
      box.replaceChildren(
        h("p", { class: "why" }, item.free_choice ? t("v6_free_choice") : t("v6_choose_jokers", { p: s.player, n: item.max })),
        // every joker with its rule, read before choosing (not only once it is chosen)
        h("div", { class: "joker-list" }, (item.free_choice ? Object.keys(names) : item.choices).map((id) => h("div", {
          class: "joker-choice" },
        h("button", {
          type: "button", class: chosen.includes(id) ? "chosen" : "", "data-joker": id,
          title: why[id] || "",
          disabled: !chosen.includes(id) && chosen.length >= item.max ? true : null,
          onclick: () => {
            const at = chosen.indexOf(id);
            if (at >= 0) chosen.splice(at, 1); else chosen.push(id);
            paint();
          },
        }, names[id] || id),
        h("small", { class: "joker-rule", "data-joker-rule": id }, jokerRule(ctx, id))))),
        h("button", { type: "button", class: "primary", "data-action": "jokers",
          onclick: () => ctx.act(Object.assign({ type: "jokers", jokers: chosen.slice() },
            item.free_choice ? { free_choice: true } : {})) },
        `${t("v6_start_round")} (${chosen.length}/${item.max})`));
    };
    paint();
    return box;
  }

  /* A joker's rule in the page's language (the engine's joker table, both languages). */
  function jokerRule(ctx, id) {
    const joker = (ctx.catalogue("v6").jokers || {})[id];
    return joker ? joker.rules[ctx.lang()] || joker.rules.en : "";
  }

  function tables(ctx, s) {
    const { h, t } = ctx;
    const card = h("div", { class: "card grid2" });
    if (s.standing.length) {
      card.append(h("div", {}, h("h3", {}, t("v6_table")), h("table", { id: "v6-table" },
        h("tbody", {}, s.standing.map((o) => h("tr", { class: o.name === s.player ? "active" : "" },
          h("td", {}, o.name, o.zombie ? h("span", { class: "hint", title: t("v6_zombie_why") },
            ` (${t("v6_zombie")})`) : ""),
          h("td", { class: "num" }, t("v6_total", { n: o.total })),
          h("td", { class: "num" }, t("v6_points", { n: s.points[o.name] || 0 }))))))));
    }
    if (s.results.length) {
      card.append(h("div", {}, h("h3", {}, t("v6_results")), h("table", { id: "v6-results" },
        h("tbody", {}, s.results.slice(-12).reverse().map((r) => h("tr", {},
          h("td", {}, `${r.group}/${r.pass}`), h("td", {}, r.player),
          h("td", { class: "num" }, t("v6_total", { n: r.total })), h("td", {}, t("v6_outcome_" + r.outcome))))))));
    }
    const ranking = Object.entries(s.points).sort((a, b) => b[1] - a[1]);
    card.append(h("div", {}, h("h3", {}, t("v6_standings")), h("table", { id: "v6-standings" },
      h("tbody", {}, ranking.map(([name, pts], i) => h("tr", {},
        h("td", {}, `${i + 1}. ${name}`), h("td", { class: "num" }, t("v6_points", { n: pts }))))))));
    return card;
  }

  function entry(view, ctx) {
    if (!ctx.legalOf(view, "throw")) return null;
    return { title: ctx.t("v6_throw"), hint: "", groups: [{ colour: "white", zone: null, label: "d6", count: 1 }] };
  }

  window.DicecamGames.v6 = {
    render,
    entry,
    config(config) {
      // seated as entered; the engine deals them round the groups of four
      return Object.assign({}, config, { seating: "in_order" });
    },
  };
})();
