"""The standings page and the croupier's hub line in a real browser (Debian's chromium,
headless, selenium), during a running evening: the board follows the results as tables
send them, to the final's winner. Skipped, with the reason, without chromium or without
PostgreSQL and Redis."""

from __future__ import annotations

import json
import logging
import re
import threading
from pathlib import Path
from typing import Any

import psycopg
import pytest
from werkzeug.serving import make_server

from dicecam.hub.app import create_hub_app
from dicecam.hub.store import HubStore
from dicecam.scorer.v6 import tables as v6_tables
from dicecam.tools import services as private
from dicecam.tools.hub_harness import private_hub
from dicecam.tools.v6_evening import play_group
from dicecam.webapp.api.app import create_app, services
from dicecam.webapp.hub_link.signing import sign
from tests.support.browsers import BROWSER_MARKS, wait

MISSING = private.missing()

pytestmark = BROWSER_MARKS

webdriver = pytest.importorskip("selenium.webdriver", reason="needs selenium (the test extra)")
from selenium.webdriver.common.by import By  # noqa: E402

NAMES = [f"P{i}" for i in range(8)]


def points_shown(browser: Any) -> dict[str, int]:
    """The board's points per player, read in one script (the board is redrawn whole on
    each update, so elements found one call earlier may be gone)."""
    return browser.execute_script(
        "const out = {};"
        "for (const tr of document.querySelectorAll('#board tbody tr'))"
        "  out[tr.dataset.player] = Number(tr.querySelector('td.points').textContent);"
        "return out;")


@pytest.mark.skipif(bool(MISSING), reason=f"needs {', '.join(MISSING)}")
def test_the_board_follows_a_running_evening_to_its_winner(browser: Any) -> None:
    with private_hub(NAMES, 2, processes=2, seed="screen") as hub:
        plan = v6_tables.plan_evening(NAMES, hub.tables, "screen")
        played = [play_group(g, f"screen/{i}") for i, g in enumerate(plan.groups)]
        reports = [v6_tables.reports_from_state(plan.tables[i], f"g{i}", p.states[-1])
                   for i, p in enumerate(played)]
        browser.get(hub.url + "/")
        wait(browser, lambda b: b.find_element(By.ID, "status").text == "live")
        assert set(points_shown(browser).values()) == {0}
        first = reports[0][0]
        assert hub.post("/api/results", v6_tables.report_to_json(first), first.table)[0] == 200
        expected = {p.player: p.points for p in first.players}
        wait(browser, lambda b: all(points_shown(b)[n] == v for n, v in expected.items()))
        for report in reports[0][1:] + reports[1]:
            hub.post("/api/results", v6_tables.report_to_json(report), report.table)
        wait(browser, lambda b: not b.find_element(By.ID, "final-section")
             .get_attribute("hidden"))
        through = browser.execute_script(
            "return [...document.querySelectorAll('#board td.through')]"
            ".filter((td) => td.textContent).length")
        assert through == 4
        board = hub.get("/api/standings")
        final_table = board["final_tables"][0]
        seat = hub.get(f"/api/tables/{hub.key(final_table).table_id}", final_table)
        assert seat["stage"] == "final" and seat["spent"] == {
            n: board["spent"][n] for n in board["final"][0] if n in board["spent"]}
        finals = [play_group(g, f"screen/final/{i}", final=True,
                             spent={n: board["spent"][n] for n in g if n in board["spent"]})
                  for i, g in enumerate(board["final"])]
        for i, evening in enumerate(finals):
            for report in v6_tables.reports_from_state(board["final_tables"][i], f"f{i}",
                                                       evening.states[-1]):
                hub.post("/api/results", v6_tables.report_to_json(report), report.table)
        winner = wait(browser, lambda b: b.find_element(By.ID, "winner").text)
        assert winner == f"{hub.get('/api/standings')['winner']} wins the evening"
        assert "results counted" in browser.find_element(By.ID, "tables").text
        with psycopg.connect(hub.db) as conn:  # the groups the hub seated, both stages
            stored = dict(conn.execute("SELECT stage, count(*) FROM groups GROUP BY stage")
                          .fetchall())
        assert stored == {"prelim": 2, "final": 1}


def test_the_croupier_sees_hub_offline_and_the_results_waiting(browser: Any,
                                                              tmp_path: Path) -> None:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    app = create_app({"DB_PATH": str(tmp_path / "games.sqlite"),
                      "HUB_URL": f"http://127.0.0.1:{private.free_port()}",
                      "TABLE_KEY": "1-T1-ABCDEFGHJKLMNPQRSTUV"})
    services(app).hub_link.outbox.add("x", "prelim/pass1", {"kind": "pass"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    services(app).start_reader()
    try:
        browser.get(f"http://127.0.0.1:{server.server_port}/")
        line = wait(browser, lambda b: b.find_element(By.ID, "hub-link").text or None)
        assert line.startswith("hub offline, 1 result waiting"), line
        assert browser.find_element(By.ID, "hub-link").get_attribute("data-online") == "false"
    finally:
        server.shutdown()
        thread.join(5)
        services(app).close()


@pytest.mark.skipif(bool(MISSING), reason=f"needs {', '.join(MISSING)}")
def test_the_board_says_when_its_standings_are_from_while_the_database_is_away(
        browser: Any) -> None:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    with private.postgres_cluster() as cluster:
        store = HubStore(cluster.url)
        try:
            store.migrate()
            store.create_evening("away", NAMES, 2, "away")
        finally:
            store.close()
        app = create_hub_app({"DB_URL": cluster.url, "REDIS_URL": None, "POLL_SECONDS": 0.3})
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            browser.get(f"http://127.0.0.1:{server.server_port}/")
            wait(browser, lambda b: b.find_element(By.ID, "status").text == "live")
            cluster.kill()
            text = wait(browser, lambda b: b.find_element(By.ID, "status").text
                        if "reconnecting" in b.find_element(By.ID, "status").text else None)
            assert re.fullmatch(r"standings as of \d\d:\d\d, hub reconnecting", text), text
            cluster.start()
            wait(browser, lambda b: b.find_element(By.ID, "status").text == "live")
        finally:
            server.shutdown()
            thread.join(5)


@pytest.mark.skipif(bool(MISSING), reason=f"needs {', '.join(MISSING)}")
def test_the_organisers_page_removes_a_result_and_every_open_board_shows_it(
        browser: Any) -> None:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    with private.postgres_server() as db:
        store = HubStore(db)
        try:
            store.migrate()
            evening, keys = store.create_evening("org", NAMES, 2, "org")
        finally:
            store.close()
        t1 = keys[0]
        organiser = next(k for k in keys if k.table == "ORG")
        app = create_hub_app({"DB_URL": db, "REDIS_URL": None})
        client = app.test_client()
        played = play_group(evening.plan.groups[0], "org")
        for report in v6_tables.reports_from_state("T1", "g", played.states[-1]):
            data = json.dumps(v6_tables.report_to_json(report)).encode()
            answer = client.post("/api/results", data=data, content_type="application/json",
                                 headers=sign(t1, "POST", "/api/results", data))
            assert answer.status_code == 200, answer.get_json()
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            url = f"http://127.0.0.1:{server.server_port}"
            browser.get(url + "/")
            wait(browser, lambda b: "4 results counted" in b.find_element(By.ID, "tables").text)
            board = browser.current_window_handle
            browser.switch_to.new_window("tab")
            browser.get(url + "/organiser")
            key = wait(browser, lambda b: b.find_element(By.ID, "key")
                       if b.find_element(By.ID, "key").is_displayed() else None)
            key.send_keys(t1.text())  # a table's key is not the organiser's
            browser.find_element(By.CSS_SELECTOR, "#login button").click()
            wait(browser, lambda b: "not the organiser's key" in
                 b.find_element(By.ID, "status").text)
            key.clear()
            key.send_keys(organiser.text())
            browser.find_element(By.CSS_SELECTOR, "#login button").click()
            rows = wait(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#results tbody tr"))
            assert len(rows) == 4
            second = rows[1]
            assert second.find_elements(By.TAG_NAME, "td")[2].text == "prelim/pass2"
            second.find_element(By.CSS_SELECTOR, "input.reason").send_keys("dice misread")
            second.find_element(By.CSS_SELECTOR, "button.change").click()
            wait(browser, lambda b: "removed; the board counts 2 results" in
                 b.find_element(By.ID, "status").text)
            wait(browser, lambda b: b.find_element(
                By.CSS_SELECTOR, "#results tbody tr:nth-child(2) td.state").text == "removed")
            assert "removed (dice misread)" in browser.find_element(By.ID, "changes").text
            browser.switch_to.window(board)  # the board open all along shows it
            wait(browser, lambda b: "2 results counted" in b.find_element(By.ID, "tables").text)
            assert "T1 prelim/pass2: removed by the organiser (dice misread)" in \
                browser.find_element(By.ID, "note-list").text
            # an override of the third pass: a report of another group is refused, the
            # stored one saved again as the organiser's counts and every board says so
            browser.switch_to.window(browser.window_handles[-1])
            third = browser.find_element(By.CSS_SELECTOR, "#results tbody tr:nth-child(3)")
            third.find_element(By.CSS_SELECTOR, "input.reason").send_keys("recounted")
            third.find_element(By.CSS_SELECTOR, "button.override").click()
            report = third.find_element(By.CSS_SELECTOR, "textarea.report")
            stored = report.get_attribute("value")
            stranger = evening.plan.groups[1][0]
            report.clear()
            report.send_keys(stored.replace(json.dumps(evening.plan.groups[0][0]),
                                            json.dumps(stranger)))
            third.find_element(By.CSS_SELECTOR, "button.save-override").click()
            wait(browser, lambda b: "refused, nothing changed" in
                 b.find_element(By.ID, "status").text)
            report.clear()
            report.send_keys(stored)
            third.find_element(By.CSS_SELECTOR, "button.save-override").click()
            wait(browser, lambda b: "overridden by result" in
                 b.find_element(By.ID, "status").text)
            wait(browser, lambda b: b.find_element(
                By.CSS_SELECTOR, "#results tbody tr:nth-child(3) td.state").text.startswith(
                "overridden by"))
            browser.switch_to.window(board)
            wait(browser, lambda b: "T1 prelim/pass3: overridden by the organiser (recounted)"
                 in b.find_element(By.ID, "note-list").text)
        finally:
            server.shutdown()
            thread.join(5)
