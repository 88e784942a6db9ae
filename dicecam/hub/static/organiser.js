// The organiser's page: log in with the organiser's key (the hub sets a cookie), list the
// evening's results, remove or restore one with a reason, or override it with a corrected
// report (the hub checks it as it checks a table's). Every open board then shows the new
// standings (the hub emits them).
(function () {
  "use strict";
  const status = document.getElementById("status");
  const login = document.getElementById("login");
  const section = document.getElementById("results-section");

  function say(text, bad) {
    status.textContent = text;
    status.className = "status" + (bad ? " offline" : "");
  }

  function call(method, path, body) {
    return fetch(path, {
      method, credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-Requested-With": "dicecam" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then((r) => r.json().then((data) => ({ status: r.status, data })));
  }

  function cell(tr, text) {
    const td = document.createElement("td");
    td.textContent = text;
    tr.appendChild(td);
    return td;
  }

  const DONE = { remove: "removed", restore: "restored", override: "overridden",
    release: "released" };

  function change(row, action, reason, report) {
    const body = { action, reason };
    if (report !== undefined) body.report = report;
    call("POST", "api/organiser/results/" + row.id, body).then(({ data: answer }) => {
      if (!answer.ok) { say(answer.error, true); return; }
      say("result " + row.id + " " + DONE[action] +
        (answer.id ? " by result " + answer.id : "") +
        "; the board counts " + answer.counted + " results");
      load();
    });
  }

  function draw(data) {
    const tbody = document.querySelector("#results tbody");
    tbody.replaceChildren();
    const replacedBy = {};
    for (const row of data.results) if (row.corrects) replacedBy[row.corrects] = row.id;
    for (const row of data.results) {
      const tr = document.createElement("tr");
      tr.dataset.result = String(row.id);
      cell(tr, String(row.id));
      cell(tr, row.table);
      cell(tr, row.round);
      cell(tr, row.received.slice(11, 19));
      let state = row.removed ? "removed" : row.held ? "held: " + row.held : "counts";
      if (replacedBy[row.id]) state = "overridden by " + replacedBy[row.id];
      else if (row.corrects) state += ", overrides " + row.corrects;
      cell(tr, state).className = "state";
      const reason = document.createElement("input");
      reason.className = "reason";
      reason.placeholder = "why";
      cell(tr, "").appendChild(reason);
      const actions = cell(tr, "");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = row.removed ? "Restore" : "Remove";
      button.className = "change";
      button.addEventListener("click", () => {
        change(row, row.removed ? "restore" : "remove", reason.value);
      });
      actions.appendChild(button);
      if (row.held && !row.removed) {
        // a late correction or a pass after an override: it counts once released
        const release = document.createElement("button");
        release.type = "button";
        release.textContent = "Release";
        release.className = "release";
        release.addEventListener("click", () => change(row, "release", reason.value));
        actions.appendChild(release);
      }
      if (!replacedBy[row.id]) {
        // the corrected report, edited from the one stored; the hub checks it
        const edit = document.createElement("button");
        edit.type = "button";
        edit.textContent = "Override…";
        edit.className = "override";
        const report = document.createElement("textarea");
        report.className = "report";
        report.rows = 8;
        report.cols = 50;
        report.hidden = true;
        report.value = JSON.stringify(row.report, null, 1);
        const save = document.createElement("button");
        save.type = "button";
        save.textContent = "Save override";
        save.className = "save-override";
        save.hidden = true;
        edit.addEventListener("click", () => { report.hidden = save.hidden = false; });
        save.addEventListener("click", () => {
          let parsed;
          try { parsed = JSON.parse(report.value); } catch (e) {
            say("the report is not JSON: " + e.message, true); return;
          }
          change(row, "override", reason.value, parsed);
        });
        actions.append(edit, report, save);
      }
      tbody.appendChild(tr);
    }
    document.getElementById("changes").replaceChildren(...data.changes.map((c) => {
      const li = document.createElement("li");
      li.textContent = c.at.slice(11, 19) + " " + c.table + " " + c.round + ": " +
        DONE[c.action] + (c.replacement ? " by result " + c.replacement : "") +
        " (" + c.reason + ")";
      return li;
    }));
  }

  function load() {
    return call("GET", "api/organiser/results").then(({ status: code, data }) => {
      login.hidden = code !== 401;
      section.hidden = code !== 200;
      if (code === 200) draw(data);
      else if (code !== 401) say(data.error, true);
    });
  }

  login.addEventListener("submit", (event) => {
    event.preventDefault();
    call("POST", "organiser/login", { key: document.getElementById("key").value.trim() })
      .then(({ data }) => {
        if (!data.ok) { say(data.error, true); return; }
        say("logged in: " + data.evening);
        load();
      });
  });
  document.getElementById("logout").addEventListener("click", () => {
    call("POST", "organiser/logout").then(() => { say("logged out"); load(); });
  });
  load();
})();
