// The standings board: one Socket.IO connection, the board redrawn from each "standings"
// payload. A payload older than the one shown (a lower version, from a slower hub
// process) is dropped, so the board never steps back.
(function () {
  "use strict";
  const EVENT = window.DICECAM_HUB.event;
  // WebSocket only: a WebSocket stays on the hub process that accepted it, so N processes
  // behind one port need no sticky sessions (long-polling would; see docs/hub.md)
  const socket = io({ transports: ["websocket"] });
  let shown = -1;
  let evening = null;  // the evening shown: a new one (dicecam hub init --new-evening) starts over
  window.dicecamHub = { updates: 0, version: -1 };

  function cell(row, text, cls) {
    const td = document.createElement("td");
    td.textContent = text;
    if (cls) td.className = cls;
    row.appendChild(td);
  }

  function fill(tbody, rows, columns) {
    tbody.replaceChildren();
    rows.forEach((r, i) => {
      const tr = document.createElement("tr");
      tr.dataset.player = r.player;
      cell(tr, String(i + 1));
      columns.forEach(([text, cls]) => cell(tr, text(r), cls && cls(r)));
      tbody.appendChild(tr);
    });
  }

  function draw(board) {
    document.getElementById("evening").textContent = board.evening;
    const finalists = board.rows.filter((r) => r.final_points !== null);
    document.getElementById("final-section").hidden = finalists.length === 0;
    fill(document.querySelector("#final tbody"), finalists, [
      [(r) => r.player], [(r) => "table " + r.final_table], [(r) => String(r.final_points)],
      [(r) => String(r.points)]]);
    fill(document.querySelector("#board tbody"), board.rows, [
      [(r) => r.player], [(r) => "table " + r.table], [(r) => String(r.points), () => "points"],
      [(r) => String(r.passes)], [(r) => String(r.zombies)],
      [(r) => (r.qualified ? "through to the final" : ""), (r) => (r.qualified ? "through" : "")]]);
    const winner = document.getElementById("winner");
    winner.hidden = !board.winner;
    winner.textContent = board.winner ? board.winner + " wins the evening" : "";
    const notes = board.joker_conflicts.concat(board.problems, board.changes || [],
      board.held || []);
    document.getElementById("notes").hidden = notes.length === 0;
    const list = document.getElementById("note-list");
    list.replaceChildren(...notes.map((n) => {
      const li = document.createElement("li");
      li.textContent = n;
      return li;
    }));
    const joined = board.tables.filter((t) => t.joined).length;
    document.getElementById("tables").textContent =
      joined + " of " + board.tables.length + " tables joined · " + board.counted +
      " results counted";
  }

  function show(board) {
    if (board.columns) {  // as the hub sends it to every screen: rows as lists
      board.rows = board.rows.map((r) => Object.fromEntries(board.columns.map((c, i) => [c, r[i]])));
    }
    if (board.evening_id !== evening) {
      evening = board.evening_id;
      shown = -1;
    }
    if (board.version < shown) return;
    shown = board.version;
    window.dicecamHub.updates += 1;
    window.dicecamHub.version = board.version;
    draw(board);
  }
  socket.on(EVENT, show);
  // "live" only while the hub answers: a socket that is down, or a hub whose database is
  // away (its answer 503), shows when the standings on the screen were last confirmed
  const status = document.getElementById("status");
  let asOf = null;  // when the hub last sent or confirmed the board shown
  let answering = true;
  function hhmm(date) {
    return String(date.getHours()).padStart(2, "0") + ":" +
      String(date.getMinutes()).padStart(2, "0");
  }
  function showStatus() {
    if (socket.connected && answering) {
      status.textContent = "live";
      status.className = "status live";
    } else {
      status.textContent = asOf ? "standings as of " + hhmm(asOf) + ", hub reconnecting"
        : "hub reconnecting…";
      status.className = "status offline";
    }
  }
  socket.on(EVENT, () => { asOf = new Date(); answering = true; showStatus(); });
  // An emit lost on its way (Redis restarting, a worker killed mid-send) is made good by
  // the next result; between results, the board asks for itself now and then, which also
  // finds a hub that is up but cannot read its database.
  setInterval(() => {
    fetch("api/standings").then((r) => (r.ok ? r.json() : null))
      .then((board) => {
        answering = Boolean(board);
        if (board) {
          asOf = new Date();
          show(board);
        }
        showStatus();
      })
      .catch(() => { answering = false; showStatus(); });
  }, window.DICECAM_HUB.poll_ms || 15000);
  // a socket that (re)connects is not yet "live": the hub sends the board on connect
  // only when it can read it, and that board makes it live
  socket.on("connect", () => { answering = false; showStatus(); });
  socket.on("disconnect", showStatus);
})();
