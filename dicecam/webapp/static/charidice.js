/* Charidice: throw 1-3, the options best first with their gift, one tap to choose, both
 * sheets filled, the big gift button, seven rounds, the end with the charity bonus, and a
 * printable score sheet. Renders charidice_json.state_to_json. */
(function () {
  "use strict";
  window.DicecamI18n.add({
    en: {
      cd_round: "Round {r} of {n}", cd_turn: "{p} plays, {q} receives the gift",
      cd_throw: "Throws so far: {n} of {m}", cd_options: "Options (best for points first)",
      cd_options_hint: "Points + bonus of each option; the dice outlined green are the ones it scores; the gift goes to {q}.",
      cd_choose: "Score this", cd_points: "points", cd_bonus: "bonus", cd_gift: "gift",
      cd_big_gift: "{p} asks for the BIG GIFT", cd_big_gift_on: "Big gift: this gift counts double",
      cd_keep_hint: "Tap dice to keep them for the next throw.",
      cd_sheet: "Score sheets", cd_rolled: "scored", cd_received: "received", cd_given: "given",
      cd_charity: "charity bonus", cd_winners: "Winner: {w}", cd_most_given: "gives most",
      cd_entry: "The six dice thrown", cd_entry_hint: "Six dice; kept dice are thrown in too, as they lie.",
      same_colour: "one colour", one_per_colour: "one of each colour",
      none: "", four_of_colour: "four of a colour", straight_4: "straight of 4",
      straight_5: "straight of 5", straight_6: "straight of 6", equal_4: "four equal",
      equal_5: "five equal", equal_6: "six equal",
    },
    de: {
      cd_round: "Runde {r} von {n}", cd_turn: "{p} ist dran, {q} bekommt das Geschenk",
      cd_throw: "Würfe bisher: {n} von {m}", cd_options: "Möglichkeiten (beste Punkte zuerst)",
      cd_options_hint: "Punkte + Bonus jeder Möglichkeit; grün umrandet sind die Würfel, die sie wertet; das Geschenk geht an {q}.",
      cd_choose: "Werten", cd_points: "Punkte", cd_bonus: "Bonus", cd_gift: "Geschenk",
      cd_big_gift: "{p} bittet um ein GROSSES GESCHENK", cd_big_gift_on: "Großes Geschenk: dieses Geschenk zählt doppelt",
      cd_keep_hint: "Tippe Würfel an, um sie für den nächsten Wurf zu behalten.",
      cd_sheet: "Wertungsblätter", cd_rolled: "gewertet", cd_received: "erhalten", cd_given: "verschenkt",
      cd_charity: "Charity-Bonus", cd_winners: "Sieger: {w}", cd_most_given: "verschenkt am meisten",
      cd_entry: "Die sechs geworfenen Würfel", cd_entry_hint: "Sechs Würfel; behaltene Würfel zählen mit, wie sie liegen.",
      same_colour: "eine Farbe", one_per_colour: "je Farbe einer",
      none: "", four_of_colour: "vier einer Farbe", straight_4: "Straße aus 4",
      straight_5: "Straße aus 5", straight_6: "Straße aus 6", equal_4: "vier gleiche",
      equal_5: "fünf gleiche", equal_6: "sechs gleiche",
    },
  });

  function dieEl(ctx, die, cls, attrs) {
    const css = window.DicecamPage.cssColour(die.colour);
    const dark = ["black", "purple", "blue", "red", "green", "grey"].includes(die.colour);
    return ctx.h(attrs ? "button" : "span", Object.assign({
      class: "die " + (cls || ""),
      style: `--swatch:#f6f1e4;color:${css};${dark ? "" : "text-shadow:0 0 2px #000;"}`,
      title: window.DicecamI18n.colour(die.colour),
    }, attrs || {}), String(die.value));
  }

  function render(el, view, ctx) {
    const { h, t } = ctx;
    const s = view.state;
    const turn = s.turn;
    if (s.phase === "over") {
      el.append(h("div", { class: "banner", id: "cd-winners" }, t("cd_winners", { w: s.winners.join(", ") })));
    }
    const bigGift = ctx.legalOf(view, "big_gift");
    if (turn) {
      const card = h("div", { class: "card", id: "cd-turn" },
        h("h3", {}, t("cd_round", { r: s.round, n: s.rounds })),
        h("p", {}, t("cd_turn", { p: s.active, q: s.recipient })),
        h("p", {}, t("cd_throw", { n: turn.throws, m: turn.throws + turn.throws_left })));
      if (turn.big_gift) card.append(h("div", { class: "banner" }, t("cd_big_gift_on")));
      if (turn.dice.length) {
        const keepable = Boolean(ctx.legalOf(view, "keep"));
        const kept = new Set(turn.kept);
        card.append(h("div", { class: "dice", id: "cd-dice" }, turn.dice.map((d, i) => dieEl(ctx, d,
          kept.has(i) ? "kept" : "", keepable ? {
            type: "button", "data-index": i, onclick: () => {
              const next = new Set(kept);
              if (next.has(i)) next.delete(i); else next.add(i);
              ctx.act({ type: "keep", kept: Array.from(next).sort((a, b) => a - b) });
            },
          } : null))));
        if (keepable) card.append(h("p", { class: "hint" }, t("cd_keep_hint")));
      }
      if (bigGift) {
        card.append(h("button", { type: "button", class: "primary", id: "cd-big-gift",
          onclick: () => ctx.act({ type: "big_gift", player: s.recipient }) },
        t("cd_big_gift", { p: s.recipient })));
      }
      el.append(card);
    }
    if (ctx.legalOf(view, "choose") && s.options.length) {
      const card = h("div", { class: "card", id: "cd-options" }, h("h3", {}, t("cd_options")),
        h("p", { class: "hint", id: "cd-options-hint" }, t("cd_options_hint", { q: s.recipient })));
      s.options.forEach((o, i) => {
        const scored = new Set(o.scored);
        card.append(h("div", { class: "row option-row", "data-option": i },
          h("button", { type: "button", class: i === 0 ? "primary" : "",
            onclick: () => ctx.act({ type: "choose", kind: o.kind, scored: o.scored }) },
          `${t("cd_choose")}: ${o.points} + ${o.bonus}`),
          h("span", { class: "dice" }, turn.dice.map((d, k) => dieEl(ctx, d, scored.has(k) ? "scored" : ""))),
          h("span", {}, `${t(o.kind)}${o.combination !== "none" ? ", " + t(o.combination) : ""} · `,
            h("b", {}, `${t("cd_gift")} ${o.gift}`),
            i === s.most_given ? ` (${t("cd_most_given")})` : "")));
      });
      el.append(card);
    }
    if (s.explanation && s.explanation.length) {
      el.append(h("p", { class: "hint", id: "cd-explanation" }, s.explanation.map(ctx.msg).join(" ")));
    }
    el.append(sheets(ctx, s, view));
  }

  function sheets(ctx, s, view) {
    const { h, t } = ctx;
    // on paper the sheets say which game they are: its name and number, the day, the winner
    const printed = new Date().toLocaleDateString(ctx.lang() === "de" ? "de-DE" : "en-GB",
      { dateStyle: "long" });
    const card = h("div", { class: "card", id: "cd-sheets" },
      h("div", { class: "print-only", id: "cd-print-head" },
        h("h2", {}, `${s.title || "Charidice"} #${view.game_id}`),
        h("p", {}, printed, s.phase === "over" && s.winners.length
          ? ` · ${t("cd_winners", { w: s.winners.join(", ") })}` : "")),
      h("div", { class: "row" }, h("h3", { style: "flex:1" }, t("cd_sheet")),
        h("button", { type: "button", class: "no-print", onclick: () => window.print() }, t("print"))));
    const grid = h("div", { class: "sheets" });
    for (const p of s.players) {
      const rows = [];
      for (let r = 0; r < s.rounds; r++) {
        const row = p.rows[r] || [null, null, null, null];
        // a gift received as a big gift carries the sheet's 2x mark
        const doubled = (p.big_gift_rounds || []).includes(r + 1);
        rows.push(h("tr", { class: r === s.round - 1 && s.phase !== "over" ? "active" : "" },
          h("td", {}, String(r + 1)), ...row.map((v, k) => h("td", { class: "num" },
            v === null ? "" : String(v),
            k === 2 && doubled ? h("span", { class: "big-gift-mark", title: t("cd_big_gift_on") }, " 2×") : null))));
      }
      grid.append(h("table", { class: "sheet", "data-player": p.name },
        h("caption", {}, h("b", {}, p.name), p.name === s.active ? " ●" : ""),
        h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("cd_rolled")), h("th", {}, t("cd_bonus")),
          h("th", {}, t("cd_received")), h("th", {}, t("cd_given")))),
        h("tbody", {}, rows,
          h("tr", {}, h("td", {}, "Σ"), h("td", {}, String(p.rolled)), h("td", {}, String(p.bonus)),
            h("td", {}, String(p.received)), h("td", {}, String(p.given))),
          h("tr", {}, h("td", { colspan: 4 }, t("cd_charity")), h("td", {}, String(p.charity_bonus))),
          h("tr", {}, h("td", { colspan: 4 }, h("b", {}, t("total"))),
            h("td", { class: "total" }, h("b", {}, String(p.total)))))));
    }
    card.append(grid);
    return card;
  }

  function entry(view, ctx) {
    if (!ctx.legalOf(view, "throw")) return null;
    const colours = ctx.colours().length ? ctx.colours() : ["black", "grey", "red", "blue", "green", "purple"];
    return {
      title: ctx.t("cd_entry"),
      hint: ctx.t("cd_entry_hint"),
      groups: colours.map((c) => ({ colour: c, zone: null, label: window.DicecamI18n.colour(c) })),
    };
  }

  window.DicecamGames.charidice = {
    render,
    entry,
  };
})();
