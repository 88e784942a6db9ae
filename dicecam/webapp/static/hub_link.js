// The table's link to the tournament hub, for the croupier: a line at the foot of the
// page, shown only when this table sends its results to a hub (dicecam serve --hub).
(function () {
  "use strict";
  const page = window.DicecamPage;
  if (!page || !page.socket) return;
  const line = document.createElement("p");
  line.id = "hub-link";
  line.hidden = true;
  line.setAttribute("role", "status");
  line.style.cssText = "position:fixed;left:0;right:0;bottom:0;margin:0;padding:0.3rem 0.8rem;" +
    "font-size:0.9rem;z-index:50;background:#223;color:#dde";
  document.body.appendChild(line);

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  page.socket.on(window.DICECAM_EVENTS.HUB || "hub", (s) => {
    line.hidden = false;
    const a = s.assignment;
    const where = a ? "table " + a.number + (a.stage === "final" ? ", final" : "") +
      (a.group && a.group.length ? " (" + a.group.join(", ") + ")" : "") + " · " : "";
    let text;
    if (s.stopped) {  // the hub runs another evening: this table sends nothing more
      text = "not sending to the hub: " + s.stopped + " · " + plural(s.waiting, "result") +
        " kept here";
      line.style.background = "#5a1f1f";
      line.textContent = where + text;
      line.dataset.online = String(s.online);
      line.dataset.waiting = String(s.waiting);
      line.dataset.stopped = "true";
      return;
    }
    if (s.online === false) {
      text = "hub offline, " + plural(s.waiting, "result") + " waiting (kept here, sent when " +
        "the hub answers)";
      line.style.background = "#5a1f1f";
    } else if (s.waiting > 0) {
      text = "hub: sending, " + plural(s.waiting, "result") + " waiting";
      line.style.background = "#223";
    } else {
      text = "hub online · " + plural(s.delivered, "result") + " delivered";
      line.style.background = "#1f3a24";
    }
    if (s.refused && s.refused.length) text += " · refused by the hub: " + s.refused[0];
    else if (s.error && s.online !== false) text += " · " + s.error;
    line.textContent = where + text;
    line.dataset.online = String(s.online);
    line.dataset.waiting = String(s.waiting);
  });
})();
