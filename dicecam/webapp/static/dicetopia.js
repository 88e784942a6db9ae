/* Dicetopia endgame scoring: the dice read in each zone (or entered per zone), agent counts
 * and mission cards entered by tapping, the breakdown per player, the winner and the
 * tie-breaks. Renders dicetopia_json.state_to_json; the pickers offer state.legal only.
 * The camera reads the endgame table once the boards are marked on its picture: one
 * rectangle around the city map (the server places its six districts) and one around each
 * player's faction board (zoneNames); each mission card shows its rule under its name. */
(function () {
  "use strict";
  const COLOURS = ["purple", "white", "turquoise"];
  window.DicecamI18n.add({
    en: {
      dt_winner: "Winner: {w}", dt_missing: "Still missing", dt_districts: "Districts",
      dt_dice: "dice", dt_agents: "agents", dt_control: "control", dt_stars: "★ each",
      dt_breakdown: "Breakdown", dt_loot: "loot", dt_missions: "missions", dt_rank: "rank",
      dt_boards: "Faction boards", dt_enter_zone: "Dice in {z}", dt_enter_board: "Dice on {p}'s board", dt_set_dice: "Enter dice",
      dt_missions_of: "{p}'s missions", dt_save: "Save missions", dt_risk: "Risk (RISIKO): the card drawn",
      dt_copy: "Free Rider (TRITTBRETTGÄNGER) copies", dt_faction: "Faction", dt_none: "none",
      dt_zone_hint: "Count the dice of each colour by their pips; an empty pad clears the zone.",
      dt_provisional: "Provisional (the table is not complete)", dt_abilities: "Faction abilities",
      dt_tied: "tied", dt_decided_by: "decided for {p}",
      dt_leading: "Leading so far: {w}", dt_nothing_yet: "No points yet",
      dt_if_ended_now: "If the game ended now: ",
      dt_agents_hint: "+ and − count each player's agents in a district as they stand at the end of the game: they score at the end only (control, some missions).",
      dt_city: "City map", dt_board_of: "{p}'s board",
      dt_draw_zones: "Mark the boards", dt_zones_save: "Save the boards", dt_zones_clear: "Unmark the boards",
      dt_zones_offer: "The camera places each die by the board it lies on: mark the city map and each faction board on the picture, once.",
      dt_zones_help: "Drag a rectangle around the city map and one around each faction board: the camera then counts each die where it lies.",
      dt_zones_active: "Boards marked: the camera places each die on its district or faction board. Agents and missions are entered below.",
      dt_zones_draw_text: "Drag a rectangle around this board on the picture: {p}.",
      dt_zones_draw_done: "Every board is marked. Save them, or drag again to redraw the one chosen.",
    },
    de: {
      dt_winner: "Sieger: {w}", dt_missing: "Es fehlt noch", dt_districts: "Bezirke",
      dt_dice: "Würfel", dt_agents: "Agenten", dt_control: "Kontrolle", dt_stars: "★ je",
      dt_breakdown: "Wertung", dt_loot: "Beute", dt_missions: "Missionen", dt_rank: "Platz",
      dt_boards: "Fraktionstafeln", dt_enter_zone: "Würfel in {z}", dt_enter_board: "Würfel auf der Tafel von {p}", dt_set_dice: "Würfel eingeben",
      dt_missions_of: "Missionen von {p}", dt_save: "Missionen speichern", dt_risk: "RISIKO: gezogene Karte",
      dt_copy: "TRITTBRETTGÄNGER kopiert", dt_faction: "Fraktion", dt_none: "keine",
      dt_zone_hint: "Zähle die Würfel jeder Farbe nach Augen; ein leeres Feld leert die Zone.",
      dt_provisional: "Vorläufig (der Tisch ist noch nicht vollständig)", dt_abilities: "Fraktionsfähigkeiten",
      dt_tied: "Gleichstand", dt_decided_by: "entschieden für {p}",
      dt_leading: "Vorne liegt bisher: {w}", dt_nothing_yet: "Noch keine Punkte",
      dt_if_ended_now: "Wenn das Spiel jetzt endete: ",
      dt_agents_hint: "+ und − zählen die Agenten jedes Spielers in einem Bezirk, wie sie am Spielende stehen: sie zählen nur für die Schlusswertung (Kontrolle, manche Missionen).",
      dt_city: "Stadtplan", dt_board_of: "Tafel von {p}",
      dt_draw_zones: "Tafeln markieren", dt_zones_save: "Tafeln speichern", dt_zones_clear: "Markierung entfernen",
      dt_zones_offer: "Die Kamera ordnet jeden Würfel der Tafel zu, auf der er liegt: markiere den Stadtplan und jede Fraktionstafel einmal auf dem Bild.",
      dt_zones_help: "Ziehe ein Rechteck um den Stadtplan und je eines um jede Fraktionstafel: dann zählt die Kamera jeden Würfel dort, wo er liegt.",
      dt_zones_active: "Tafeln markiert: die Kamera ordnet jeden Würfel seinem Bezirk oder seiner Fraktionstafel zu. Agenten und Missionen werden unten eingegeben.",
      dt_zones_draw_text: "Ziehe auf dem Bild ein Rechteck um diese Tafel: {p}.",
      dt_zones_draw_done: "Jede Tafel ist markiert. Speichere sie, oder ziehe nochmal, um die gewählte neu zu zeichnen.",
    },
  });

  function dice(ctx, list) {
    return ctx.h("span", { class: "dice" }, list.map((d) => ctx.h("span", {
      class: "die", style: `--swatch:${window.DicecamPage.cssColour(d.colour)}` }, String(d.value))));
  }

  function zoneTitle(ctx, zone) {
    const cat = ctx.catalogue("dicetopia");
    if (zone.startsWith("board:")) return zone.slice(6);
    return (cat.districts && cat.districts[zone]) || zone;
  }

  function openZone(ctx, zone) {
    ctx.openEntry({
      title: zone.startsWith("board:") ? ctx.t("dt_enter_board", { p: zone.slice(6) })
        : ctx.t("dt_enter_zone", { z: zoneTitle(ctx, zone) }),
      hint: ctx.t("dt_zone_hint"),
      groups: COLOURS.map((c) => ({ zone, colour: c, label: window.DicecamI18n.colour(c) })),
      submit: (list) => window.DicecamPage.send(window.DICECAM_EVENTS.ACTION, {
        type: "set_dice",
        zones: { [zone]: list.map((d) => ({ colour: d.colour, value: d.value })) },
      }),
    });
  }

  function render(el, view, ctx) {
    const { h, t } = ctx;
    const s = view.state;
    const missionName = (id) => missionText(ctx, id, "names");
    // Only a complete table has a winner; before that the leader is provisional, and a table
    // with nothing scored yet has no leader at all (not a red "Winner" over empty boards).
    const scored = s.players.some((p) => p.total > 0);
    el.append(s.complete
      ? h("div", { class: "banner", id: "dt-winner" }, t("dt_winner", { w: s.winner }))
      : h("div", { class: "banner provisional", id: "dt-winner" },
        scored ? t("dt_leading", { w: s.winner }) : t("dt_nothing_yet"),
        h("div", { class: "hint" }, t("dt_provisional"))));
    // the engine explains the result as if the game ended now: said so until it is complete
    if (s.complete || scored) {
      el.append(h("p", { id: "dt-explanation" }, s.complete ? "" : t("dt_if_ended_now"),
        ctx.msg(s.explanation)));
    }
    if (s.waiting_for.length) {
      el.append(h("div", { class: "card", id: "dt-missing" }, h("h3", {}, t("dt_missing")),
        h("ul", {}, s.waiting_for.map((w) => h("li", {}, ctx.msg(w))))));
    }

    // the breakdown per player
    el.append(h("div", { class: "card table-card" }, h("h3", {}, t("dt_breakdown")), h("table", { id: "dt-breakdown" },
      h("thead", {}, h("tr", {}, h("th", {}, t("player")), h("th", {}, t("dt_loot")), h("th", {}, t("dt_control")),
        h("th", {}, t("dt_missions")), h("th", {}, t("total")),
        h("th", { title: t("dt_rank") }, h("span", { class: "long" }, t("dt_rank")),
          h("span", { class: "short", "aria-hidden": "true" }, "#")))),
      h("tbody", {}, s.players.map((p) => h("tr", { "data-player": p.name },
        h("td", {}, h("b", {}, p.name), p.details.faction_name ? h("div", { class: "hint" }, p.details.faction_name) : null),
        h("td", { class: "num" }, String(p.loot)), h("td", { class: "num" }, String(p.control)),
        h("td", { class: "num" }, String(p.missions), h("div", { class: "hint" },
          p.details.missions.map((m) => `${missionName(m.id)} ${m.stars}★${m.note ? " (" + ctx.msg(m.note) + ")" : ""}`).join("; "))),
        h("td", { class: "num total" }, h("b", {}, String(p.total))), h("td", { class: "num" }, String(p.rank))))))));
    if (s.abilities.length) {
      el.append(h("div", { class: "card" }, h("h3", {}, t("dt_abilities")),
        h("ul", {}, s.abilities.map((a) => h("li", {}, ctx.msg(a.text))))));
    }

    // districts: dice, agents (tap + / -), who controls
    const agentsLegal = ctx.legalOf(view, "set_agents");
    const diceLegal = ctx.legalOf(view, "set_dice");
    const rows = s.districts.map((d) => {
      const agents = s.table.agents[d.name] || {};
      return h("tr", { "data-district": d.name },
        h("td", {}, h("b", {}, d.title), h("div", {}, dice(ctx, s.table.zones[d.name] || [])),
          diceLegal && diceLegal.zones.includes(d.name)
            ? h("button", { type: "button", "data-zone": d.name, onclick: () => openZone(ctx, d.name) }, t("dt_set_dice")) : null),
        h("td", {}, agentsLegal ? agentsLegal.players.map((name) => {
          const n = agents[name] || 0;
          const set = (value) => {
            const next = Object.assign({}, agents, { [name]: value });
            if (!value) delete next[name];
            ctx.act({ type: "set_agents", district: d.name, agents: next });
          };
          return h("div", { class: "row agent-row", "data-player": name },
            h("span", { class: "agent-name", title: name }, name),
            h("button", { type: "button", "data-agents": "minus", disabled: n === 0 ? true : null, onclick: () => set(n - 1) }, "−"),
            h("b", { class: "num" }, String(n)),
            h("button", { type: "button", "data-agents": "plus", onclick: () => set(n + 1) }, "+"));
        }) : null),
        h("td", {}, d.controllers.join(", ") || "–",
          d.controllers.length ? ` · ${d.stars_each} ${t("dt_stars")}` : "",
          d.tied.length ? h("div", { class: "hint" }, `${t("dt_tied")}: ${d.tied.join(", ")}`) : null,
          d.decided_by ? h("div", { class: "hint" }, t("dt_decided_by", { p: d.decided_by })) : null));
    });
    el.append(h("div", { class: "card" }, h("h3", {}, t("dt_districts")),
      agentsLegal ? h("p", { class: "hint", id: "dt-agents-hint" }, t("dt_agents_hint")) : null,
      h("table", { id: "dt-districts" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("dt_agents")), h("th", {}, t("dt_control")))),
      h("tbody", {}, rows))));

    // faction boards
    el.append(h("div", { class: "card", id: "dt-boards" }, h("h3", {}, t("dt_boards")),
      s.table.players.map((p) => {
        const zone = "board:" + p.name;
        return h("div", { class: "row", "data-zone": zone }, h("b", { style: "min-width:6em" }, p.name),
          dice(ctx, s.table.zones[zone] || []),
          diceLegal && diceLegal.zones.includes(zone)
            ? h("button", { type: "button", "data-zone": zone, onclick: () => openZone(ctx, zone) }, t("dt_set_dice")) : null);
      })));

    // missions, RISIKO's card, TRITTBRETTGÄNGER's copy
    const missions = h("div", { class: "card grid2", id: "dt-missions" });
    for (const item of ctx.legal(view)) {
      if (item.type === "set_missions") missions.append(missionPicker(ctx, s, item, missionName));
      if (item.type === "set_risk_draw") {
        const player = s.table.players.find((p) => p.name === item.player);
        missions.append(select(ctx, t("dt_risk") + ` (${item.player})`, item.options.map((m) => ({ value: m, label: missionName(m) })),
          player.risk_draw, (value) => ctx.act({ type: "set_risk_draw", player: item.player, mission: value || null }), "risk:" + item.player));
      }
      if (item.type === "set_copy") {
        const player = s.table.players.find((p) => p.name === item.player);
        const current = player.copy ? `${player.copy.player}|${player.copy.mission}` : "";
        missions.append(select(ctx, t("dt_copy") + ` (${item.player})`,
          item.options.map((o) => ({ value: `${o.player}|${o.mission}`, label: `${o.player}: ${missionName(o.mission)}` })),
          current, (value) => {
            const [who, mission] = value ? value.split("|") : [null, null];
            ctx.act({ type: "set_copy", player: item.player, target: who ? { player: who, mission } : null });
          }, "copy:" + item.player));
      }
    }
    el.append(missions);
  }

  /* A mission card's name or rule text in the page's language (the cards are German; the
   * English text says how dicecam scores the card). */
  function missionText(ctx, id, what) {
    const card = (ctx.catalogue("dicetopia").missions || {})[id];
    if (!card) return id;
    return card[what][ctx.lang()] || card[what].en;
  }

  function select(ctx, label, options, current, onchange, name) {
    const { h, t } = ctx;
    const el = h("select", { name }, h("option", { value: "" }, t("dt_none")),
      options.map((o) => h("option", { value: o.value, selected: o.value === current ? true : null }, o.label)));
    el.addEventListener("change", () => onchange(el.value));
    return h("label", { class: "option" }, label, h("br"), el);
  }

  function missionPicker(ctx, s, item, missionName) {
    const { h, t } = ctx;
    const player = s.table.players.find((p) => p.name === item.player);
    const chosen = new Set(player.missions);
    const box = h("div", { class: "mission-picker", "data-player": item.player });
    const paint = () => {
      box.replaceChildren(h("h3", {}, t("dt_missions_of", { p: item.player })),
        h("p", { class: "hint" }, Array.from(chosen).map(missionName).join(", ") || t("dt_none")),
        // each card's rule written under its name: a tablet has no hover
        h("div", { class: "mission-options" }, item.options.map((m) => h("button", {
          type: "button", class: "mission-option" + (chosen.has(m) ? " chosen" : ""), "data-mission": m,
          "aria-pressed": chosen.has(m) ? "true" : "false",
          disabled: !chosen.has(m) && chosen.size >= 3 ? true : null,
          onclick: () => { if (chosen.has(m)) chosen.delete(m); else chosen.add(m); paint(); },
        }, h("b", { class: "mission-name" }, missionName(m)),
          h("span", { class: "mission-rule" }, missionText(ctx, m, "rules"))))),
        h("button", { type: "button", class: "primary", "data-action": "set_missions",
          onclick: () => ctx.act({ type: "set_missions", player: item.player, missions: Array.from(chosen) }) },
        t("dt_save")));
    };
    paint();
    return box;
  }

  /* The areas marked on the camera's picture: the city map (the server places its
   * districts from the printed map) and each player's faction board. */
  const CITY = "city";
  function zoneNames(view) {
    return [CITY].concat(view.state.table.players.map((p) => "board:" + p.name));
  }

  function zoneLabel(name, ctx) {
    if (name === CITY) return ctx.t("dt_city");
    if (name.startsWith("board:")) return ctx.t("dt_board_of", { p: name.slice(6) });
    return zoneTitle(ctx, name);
  }

  /* Marking the boards helps as soon as the camera has seen dice on none of them. */
  function zoneOffer(view, roll) {
    return roll && roll.dice.length && roll.dice.every((d) => d.zone === null)
      ? { key: "dt_zones_offer", params: {} } : null;
  }

  const ZONE_WORDS = {
    draw_zones: "dt_draw_zones", zones_help: "dt_zones_help", zones_active: "dt_zones_active",
    zones_draw_text: "dt_zones_draw_text", zones_draw_done: "dt_zones_draw_done",
    zones_save: "dt_zones_save", zones_clear: "dt_zones_clear",
  };

  window.DicecamGames.dicetopia = {
    render,
    // the dice of one roll lie on many boards: no one-tap "these dice lie in" (the boards
    // are marked instead, zoneNames)
    zones: () => [],
    zoneNames,
    zoneLabel,
    zoneOffer,
    zoneWords: ZONE_WORDS,
    entry: () => null, // dice are entered per zone (the buttons in the districts and boards)
    perPlayer: (ctx) => ({
      key: "faction", label: "dt_faction",
      options: Object.entries(ctx.catalogue("dicetopia").factions || {}).map(([value, label]) => ({ value, label })),
    }),
  };
})();
