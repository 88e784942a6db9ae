// The organiser's page: log in with the organiser's key (the hub sets a cookie), list the
// evening's results, remove or restore one with a reason. Every open board then shows
// the new standings (the hub emits them).
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

  function draw(data) {
    const tbody = document.querySelector("#results tbody");
    tbody.replaceChildren();
    for (const row of data.results) {
      const tr = document.createElement("tr");
      tr.dataset.result = String(row.id);
      cell(tr, String(row.id));
      cell(tr, row.table);
      cell(tr, row.round);
      cell(tr, row.received.slice(11, 19));
      cell(tr, row.removed ? "removed" : "counts").className = "state";
      const reason = document.createElement("input");
      reason.className = "reason";
      reason.placeholder = "why";
      cell(tr, "").appendChild(reason);
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = row.removed ? "Restore" : "Remove";
      button.className = "change";
      button.addEventListener("click", () => {
        const action = row.removed ? "restore" : "remove";
        call("POST", "api/organiser/results/" + row.id, { action, reason: reason.value })
          .then(({ data: answer }) => {
            if (!answer.ok) { say(answer.error, true); return; }
            say("result " + row.id + (action === "remove" ? " removed" : " restored") +
              "; the board counts " + answer.counted + " results");
            load();
          });
      });
      cell(tr, "").appendChild(button);
      tbody.appendChild(tr);
    }
    document.getElementById("changes").replaceChildren(...data.changes.map((c) => {
      const li = document.createElement("li");
      li.textContent = c.at.slice(11, 19) + " " + c.table + " " + c.round + ": " +
        (c.action === "remove" ? "removed" : "restored") + " (" + c.reason + ")";
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
