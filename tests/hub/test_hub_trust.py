"""Who may change an evening's results, and what the hub's API answers to anything else.

The hub's app in this process (Flask's test client, one process, no Redis) on a private
PostgreSQL instance (skipped, with the reason, where Debian's postgresql is not installed):
a table's key signs its posts, a forged, old or replayed post is refused; no answer, board
or page shows a secret; a correction is checked before it counts; bad bodies get JSON 4xx;
clients are rate-limited; a table of another evening is told so.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from dicecam.cli import main
from dicecam.hub.app import NewestBoardFirst, create_hub_app, screen_board, socketio
from dicecam.hub.store import HubStore
from dicecam.scorer.v6 import tables as v6_tables
from dicecam.tools import services as private
from dicecam.tools.v6_evening import play_group
from dicecam.webapp.hub_link.signing import TableKey, sign
from tests.support.waiting import wait_until

MISSING = private.missing()
pytestmark = pytest.mark.skipif(bool(MISSING), reason=f"needs {', '.join(MISSING)}")
NAMES = [f"P{i}" for i in range(8)]


class Evening2:
    """An evening of 8 players at 2 tables, its keys, and the hub's app on it."""

    def __init__(self, db: str, **config: Any) -> None:
        self.db = db
        store = HubStore(db)
        try:
            store.migrate()
            self.evening, keys = store.create_evening("trust", NAMES, 2, "trust")
        finally:
            store.close()
        self.keys: dict[str, TableKey] = {k.table: k for k in keys}
        self.app = create_hub_app({"DB_URL": db, "REDIS_URL": None, **config})
        self.client = self.app.test_client()
        plan = self.evening.plan
        self.reports = {table: v6_tables.reports_from_state(
            table, f"g{i}", play_group(plan.groups[i], f"trust/{i}").states[-1])
            for i, table in enumerate(plan.tables)}

    def post(self, path: str, body: Any, key: TableKey | None = None, *,
             client: str = "10.0.0.1", now: float | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        signed = {} if key is None else sign(key, "POST", path, data, now=now)
        answer = self.client.post(path, data=data, content_type="application/json",
                                  headers={**signed, **(headers or {})},
                                  environ_base={"REMOTE_ADDR": client})
        assert answer.is_json, (answer.status_code, answer.data[:200])
        return answer.status_code, answer.get_json()

    def board(self) -> dict[str, Any]:
        return self.client.get("/api/standings").get_json()


@pytest.fixture(scope="module")
def db() -> Iterator[str]:
    with private.postgres_server() as url:
        yield url


@pytest.fixture
def evening(db: str) -> Evening2:
    return Evening2(db)


def result(evening: Evening2, table: str, index: int) -> dict[str, Any]:
    return v6_tables.report_to_json(evening.reports[table][index])


def test_a_forged_result_with_a_public_number_or_an_old_signed_post_is_refused(
        evening: Evening2) -> None:
    t1 = evening.keys["T1"]
    first = result(evening, "T1", 0)
    # no signature: the public table name in the report is not enough
    status, answer = evening.post("/api/results", first)
    assert status == 401 and "sign the request with the table's key" in answer["error"]
    # the public id with a made-up secret
    forged = TableKey(t1.evening, "T1", "ABCDEFGHJKLMNPQRSTUV")
    status, answer = evening.post("/api/results", first, forged)
    assert status == 401 and "does not match" in answer["error"]
    # T2's key signing T1's result
    status, answer = evening.post("/api/results", first, evening.keys["T2"])
    assert status == 400 and "signed by table T2" in answer["error"]
    # the right key, but signed 10 minutes ago (an old post) or ahead of the hub's clock
    status, answer = evening.post("/api/results", first, t1, now=time.time() - 600)
    assert status == 401 and "an old request" in answer["error"]
    status, answer = evening.post("/api/results", first, t1, now=time.time() + 600)
    assert status == 401 and "after the hub's time" in answer["error"]
    assert evening.board()["counted"] == 0
    # signed rightly: counted; the same signed request sent again (a replay): refused
    data = json.dumps(first).encode()
    headers = sign(t1, "POST", "/api/results", data)
    status, answer = evening.post("/api/results", data, headers=headers)
    assert status == 200 and answer["stored"] is True
    status, answer = evening.post("/api/results", data, headers=headers)
    assert status == 401 and "a replay is refused" in answer["error"]
    # the body changed under a valid signature
    status, answer = evening.post("/api/results", json.dumps(result(evening, "T1", 1)).encode(),
                                  headers=sign(t1, "POST", "/api/results", data))
    assert status == 401 and "does not match" in answer["error"]
    # the table's own retry is signed anew: the hub answers it has it already
    status, answer = evening.post("/api/results", first, t1)
    assert status == 200 and answer["stored"] is False
    assert evening.board()["counted"] == 1


def test_no_answer_page_or_board_shows_a_secret(evening: Evening2) -> None:
    secrets = [key.secret for key in evening.keys.values()]
    t1 = evening.keys["T1"]
    for index in range(len(evening.reports["T1"])):
        assert evening.post("/api/results", result(evening, "T1", index), t1)[0] == 200
    refused = evening.post("/api/results", {**result(evening, "T2", 0), "action_id": "x:1",
                                            "group": ["P0", "P1", "P2"]}, evening.keys["T2"])
    shown = [json.dumps(refused), evening.client.get("/").get_data(as_text=True),
             json.dumps(evening.board()),
             json.dumps(evening.post("/api/join", {}, t1)[1]),
             json.dumps(evening.client.get(f"/api/tables/{t1.table_id}",
                                           headers=sign(t1, "GET", f"/api/tables/"
                                                        f"{t1.table_id}")).get_json())]
    assert '"table": "T1"' in shown[3]  # the public name is there
    for text in shown:
        for secret in secrets:
            assert secret not in text


def test_an_invalid_correction_leaves_every_earlier_result_counted(
        evening: Evening2) -> None:
    t1 = evening.keys["T1"]
    for index in range(len(evening.reports["T1"])):
        assert evening.post("/api/results", result(evening, "T1", index), t1)[0] == 200
    before = evening.board()
    assert before["counted"] == 4 and before["problems"] == []
    # a "correction" of pass 2 (a new action id) for a group the evening does not seat here
    wrong = {**result(evening, "T1", 1), "action_id": "game9:wrong",
             "group": list(evening.evening.plan.groups[1])}
    wrong["players"] = [{**p, "player": name} for p, name in zip(wrong["players"],
                                                                 wrong["group"],
                                                                 strict=True)]
    status, answer = evening.post("/api/results", wrong, t1)
    assert status == 409 and "the evening seats" in answer["error"]
    assert answer["ok"] is False and answer["stored"] is False
    # points that break the placement rule
    broken = {**result(evening, "T1", 2), "action_id": "game9:broken"}
    broken["players"] = [{**p, "points": 6} for p in broken["players"]]
    status, answer = evening.post("/api/results", broken, t1)
    assert status == 409 and "the placement rule gives" in answer["error"]
    # a final result from a table where no final is drawn yet
    final = {**result(evening, "T1", 0), "stage": "final", "action_id": "game9:final"}
    status, answer = evening.post("/api/results", final, t1)
    assert status == 409 and "no final group plays at this table" in answer["error"]
    after = evening.board()
    assert after["counted"] == 4 and after["rows"] == before["rows"]
    assert after["version"] == before["version"] and after["problems"] == []
    # a valid correction (the same pass, other points after an undo) counts
    valid = {**result(evening, "T1", 0), "action_id": "game9:undo"}
    assert evening.post("/api/results", valid, t1)[1]["stored"] is True


def test_bad_bodies_get_json_4xx(evening: Evening2) -> None:
    t1 = evening.keys["T1"]
    deep = b"[" * 10_000 + b"]" * 10_000  # 20 KB, nested 10,000 deep
    for path in ("/api/results", "/api/join"):
        status, answer = evening.post(path, deep, t1)
        assert status == 400 and "nested" in answer["error"], answer
        status, answer = evening.post(path, {"a": [[[[[[[[[[[[[1]]]]]]]]]]]]]}, t1)
        assert status == 400 and "nested more than 12 levels" in answer["error"], answer
    status, answer = evening.post("/api/results", b"\xff\xfenot json", t1)
    assert status == 400 and "not valid JSON" in answer["error"]
    status, answer = evening.post("/api/results", [1, 2], t1)
    assert status == 400 and "must be an object" in answer["error"]
    status, answer = evening.post("/api/results", b"x" * 200_000, t1)
    assert status == 413 and answer["ok"] is False
    # signed 10 MB, chunked (no Content-Length, which the server cuts at the limit)
    big = json.dumps({**result(evening, "T1", 0), "pad": "x" * 10_000_000}).encode()
    answer = evening.client.post(
        "/api/results", input_stream=io.BytesIO(big), content_type="application/json",
        headers={**sign(t1, "POST", "/api/results", big), "Transfer-Encoding": "chunked"},
        environ_base={"REMOTE_ADDR": "10.0.0.1", "wsgi.input_terminated": True})
    assert answer.status_code == 413 and answer.get_json()["ok"] is False
    # well-formed JSON of the wrong shapes, from the holder of a valid key: 400, named
    for used in ([["x"]], [{}], [None]):
        bad = result(evening, "T1", 0)
        bad["players"][0]["used"] = used
        status, answer = evening.post("/api/results", bad, t1)
        assert status == 400 and ".used must list joker ids" in answer["error"], answer
    for field, value in (("action_id", "g1\x00pass1"), ("table", "T1\x00")):
        status, answer = evening.post("/api/results", {**result(evening, "T1", 0),
                                                       field: value}, t1)
        assert status == 400 and "control character" in answer["error"], answer
    assert evening.board()["counted"] == 0
    status, answer = evening.post("/api/results", deep)  # unsigned: never parsed
    assert status == 401
    page = evening.client.get("/nowhere")
    assert page.status_code == 404 and page.is_json and page.get_json()["ok"] is False
    wrong_method = evening.client.get("/api/results")
    assert wrong_method.status_code == 405 and wrong_method.is_json


def test_clients_that_flood_are_told_to_wait(db: str) -> None:
    evening = Evening2(db, RATE_PER_SECOND=1.0, RATE_BURST=10.0, FAILURES_PER_MINUTE=5.0)
    forged = TableKey(evening.keys["T1"].evening, "T1", "ABCDEFGHJKLMNPQRSTUV")
    answers = [evening.post("/api/join", {}, forged, client="10.0.0.7")[0] for _ in range(8)]
    assert answers == [401] * 5 + [429] * 3
    # the real table, at another address, still joins; then it floods too
    answers = [evening.post("/api/join", {}, evening.keys["T1"], client="10.0.0.8")[0]
               for _ in range(14)]
    assert answers[0] == 200 and 429 in answers and answers.count(200) <= 12
    status, answer = evening.post("/api/join", {}, evening.keys["T1"], client="10.0.0.8")
    assert status == 429 and "too many requests" in answer["error"]


def test_a_table_of_another_evening_is_told_so(db: str) -> None:
    old = Evening2(db)
    new = Evening2(db)  # a new evening: the hub runs it now
    status, answer = new.post("/api/join", {}, old.keys["T1"])
    assert status == 409 and answer["other_evening"] is True
    assert f"the hub now runs evening {new.evening.id}" in answer["error"]
    status, answer = new.post("/api/results", result(old, "T1", 0), old.keys["T1"])
    assert status == 409 and answer["other_evening"] is True
    assert new.post("/api/join", {}, new.keys["T1"])[0] == 200


def test_init_on_a_live_evening_refuses_unless_new_evening(db: str, tmp_path: Path,
                                                           monkeypatch: Any,
                                                           capsys: Any) -> None:
    monkeypatch.setenv("DICECAM_HOME", str(tmp_path))
    live = Evening2(db)
    live.post("/api/results", result(live, "T1", 0), live.keys["T1"])
    init = ["hub", "init", "--db", db, "--redis", "none", "--players", "A,B,C,D,E",
            "--seed", "again"]
    assert main(init) == 2
    err = capsys.readouterr().err
    assert f"holds evening {live.evening.id} 'trust' already (1 results" in err
    assert "--new-evening" in err
    assert live.board()["evening_id"] == live.evening.id  # nothing changed
    assert main([*init, "--new-evening"]) == 0
    out = capsys.readouterr().out
    keys = re.findall(r": +key (\S+)", out)
    assert not re.search(r"dicecam serve .*\d-T\d", out)  # no key on a command line
    assert len(keys) == 2 and all(k.startswith(f"{live.evening.id + 1}-T") for k in keys)
    board = live.board()
    assert board["evening_id"] == live.evening.id + 1 and board["counted"] == 0
    # the old evening's table is told so, and its key's secret shows nowhere
    status, answer = live.post("/api/results", result(live, "T1", 1), live.keys["T1"])
    assert status == 409 and answer["other_evening"] is True
    assert not any(key.split("-")[2] in json.dumps(board) for key in keys)


def test_a_database_away_answers_503_at_once_and_the_hub_carries_on_after(
        tmp_path: Path) -> None:
    with private.postgres_cluster() as cluster:
        evening = Evening2(cluster.url)
        t1 = evening.keys["T1"]
        assert evening.post("/api/results", result(evening, "T1", 0), t1)[0] == 200
        cluster.kill()
        started = time.monotonic()
        answer = evening.client.get("/api/standings")
        status, posted = evening.post("/api/results", result(evening, "T1", 1), t1)
        took = time.monotonic() - started
        assert answer.status_code == 503 and answer.is_json
        assert "database does not answer" in answer.get_json()["error"]
        assert status == 503 and posted["ok"] is False
        # the database waited for 1 s a request: far below the 5 s connect timeout
        assert took < 8.0, took
        page = evening.client.get("/")  # the page itself still loads, and says it
        assert page.status_code == 200
        cluster.start()
        wait_until(lambda: evening.client.get("/api/standings").status_code == 200)
        assert evening.post("/api/results", result(evening, "T1", 1), t1)[0] == 200
        assert evening.board()["counted"] == 2


def test_an_organisers_removal_reaches_every_open_board(evening: Evening2, caplog: Any,
                                                        capsys: Any, monkeypatch: Any) -> None:
    t1, organiser = evening.keys["T1"], evening.keys["ORG"]
    ids = [evening.post("/api/results", result(evening, "T1", i), t1)[1]["id"]
           for i in range(len(evening.reports["T1"]))]
    phone = socketio.test_client(evening.app)  # an open board
    phone.get_received()
    before = evening.board()
    assert before["counted"] == 4

    def change(result_id: int, body: Any, key: TableKey = organiser) -> tuple[int, Any]:
        return evening.post(f"/api/organiser/results/{result_id}", body, key)

    # only the organiser's key may
    assert change(ids[1], {"action": "remove", "reason": "x"}, t1)[0] == 401
    forged = TableKey(organiser.evening, "ORG", "ABCDEFGHJKLMNPQRSTUV")
    assert change(ids[1], {"action": "remove", "reason": "x"}, forged)[0] == 401
    assert evening.post("/api/results", result(evening, "T1", 0), organiser)[0] == 401
    assert change(ids[1], {"action": "remove", "reason": " "})[0] == 400
    assert change(ids[1], {"action": "erase", "reason": "x"})[0] == 400
    assert change(999_999, {"action": "remove", "reason": "x"})[0] == 404
    with caplog.at_level("WARNING"):
        status, answer = change(ids[1], {"action": "remove", "reason": "wrong dice read"})
    assert status == 200 and "the organiser removed result" in caplog.text
    boards = [m["args"][0] for m in phone.get_received() if m["name"] == "standings"]
    assert boards and boards[-1]["version"] > before["version"]  # newer: no page drops it
    assert boards[-1]["counted"] == 2  # pass 2 gone, the group's table waits for it
    assert "T1 prelim/pass2: removed by the organiser (wrong dice read)" in \
        boards[-1]["changes"]
    assert change(ids[1], {"action": "remove", "reason": "again"})[0] == 409
    # restored by the command, through the running hub
    server = make_server("127.0.0.1", 0, evening.app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}"
        # the key from the environment, never from the command line
        assert main(["hub", "result", "list", "--organiser-key", organiser.text(),
                     "--hub", url]) == 2
        assert "--organiser-key KEY is gone" in capsys.readouterr().err
        monkeypatch.setenv("DICECAM_ORGANISER_KEY", organiser.text())
        command = ["hub", "--hub", url]
        assert main(["hub", "result", "list", *command[1:]]) == 0
        listed = capsys.readouterr().out
        assert f"{ids[1]:>5}  T1   prelim/pass2" in listed and "removed (wrong dice read)" \
            in listed
        assert main(["hub", "result", "restore", str(ids[1]), "--reason", "read right",
                     *command[1:]]) == 0
        assert "the board counts 4 results" in capsys.readouterr().out
        assert main(["hub", "result", "remove", str(ids[1]), *command[1:]]) == 2
        assert "--reason TEXT" in capsys.readouterr().err
    finally:
        server.shutdown()
        thread.join(5)
    boards = [m["args"][0] for m in phone.get_received() if m["name"] == "standings"]
    assert boards[-1]["counted"] == 4 and boards[-1]["version"] > before["version"]
    phone.disconnect()


def test_the_organisers_page_logs_in_with_the_key_and_changes_only_from_itself(
        evening: Evening2) -> None:
    t1, organiser = evening.keys["T1"], evening.keys["ORG"]
    result_id = evening.post("/api/results", result(evening, "T1", 0), t1)[1]["id"]
    client = evening.client
    assert client.get("/api/organiser/results").status_code == 401
    assert client.post("/organiser/login", json={"key": t1.text()}).status_code == 401
    login = client.post("/organiser/login", json={"key": organiser.text()})
    assert login.status_code == 200
    cookie = login.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert organiser.secret not in cookie
    assert client.get("/api/organiser/results").get_json()["results"][0]["id"] == result_id
    body = {"action": "remove", "reason": "test"}
    # another site's form cannot add the page's header
    answer = client.post(f"/api/organiser/results/{result_id}", json=body)
    assert answer.status_code == 403 and answer.is_json
    answer = client.post(f"/api/organiser/results/{result_id}", json=body,
                         headers={"X-Requested-With": "dicecam"})
    assert answer.status_code == 200 and answer.get_json()["counted"] == 0
    kept = client.get_cookie("dicecam_organiser").value
    client.set_cookie("dicecam_organiser", f"{organiser.evening}.9999999999.{'0' * 64}")
    assert client.get("/api/organiser/results").status_code == 401
    client.set_cookie("dicecam_organiser", kept)
    assert client.get("/api/organiser/results").status_code == 200
    # a logout ends the session on the hub: the same cookie, kept or copied, no longer works
    client.post("/organiser/logout")
    assert client.get("/api/organiser/results").status_code == 401
    client.set_cookie("dicecam_organiser", kept)
    assert client.get("/api/organiser/results").status_code == 401
    # another login is another session
    assert client.post("/organiser/login", json={"key": organiser.text()}).status_code == 200
    assert client.get("/api/organiser/results").status_code == 200


def test_an_organisers_override_is_checked_before_it_counts_and_names_what_it_corrects(
        evening: Evening2, caplog: Any, capsys: Any, tmp_path: Path) -> None:
    t1, organiser = evening.keys["T1"], evening.keys["ORG"]
    ids = [evening.post("/api/results", result(evening, "T1", i), t1)[1]["id"]
           for i in range(len(evening.reports["T1"]))]
    phone = socketio.test_client(evening.app)  # an open board
    phone.get_received()
    before = evening.board()
    path = f"/api/organiser/results/{ids[1]}"
    # the same group's second pass as another throw of the dice played it
    plan = evening.evening.plan
    other = v6_tables.reports_from_state("T1", "g0", play_group(
        plan.groups[0], "trust/other").states[-1])
    corrected = v6_tables.report_to_json(other[1])
    assert corrected["pass"] == 2 and corrected != result(evening, "T1", 1)

    def override(report: Any, key: TableKey = organiser, reason: str = "scored by hand",
                 where: str = path) -> tuple[int, Any]:
        return evening.post(where, {"action": "override", "reason": reason,
                                    "report": report}, key)

    assert override(corrected, t1)[0] == 401  # a table's key changes no result
    wrong_group = json.loads(json.dumps(corrected))
    stranger = plan.groups[1][0]
    wrong_group["group"][0] = stranger
    wrong_group["players"][0]["player"] = stranger
    status, answer = override(wrong_group)
    assert status == 409 and answer["error"].startswith("refused, nothing changed")
    assert override({**corrected, "pass": 3})[0] == 400  # not the round it corrects
    assert override(corrected, reason=" ")[0] == 400
    assert evening.board() == before  # nothing refused changed anything

    with caplog.at_level("WARNING"):
        status, answer = override(corrected)
    assert status == 200, answer
    assert f"overrode result {ids[1]} of evening" in caplog.text
    new_id = answer["id"]
    boards = [m["args"][0] for m in phone.get_received() if m["name"] == "standings"]
    assert boards and boards[-1]["version"] > before["version"]
    assert "T1 prelim/pass2: overridden by the organiser (scored by hand)" in \
        boards[-1]["changes"]
    # the board counts the override in the place of the pass it corrects, as the rules
    # count those reports (the group's table, which no longer matches, is for the referee)
    reports = [r for i, r in enumerate(evening.reports["T1"]) if i != 1]
    expected = v6_tables.standings(plan, [*reports, v6_tables.report_from_json(
        {**corrected, "action_id": "x"})])
    at = boards[-1]["columns"].index("points")  # a screen's board: rows as lists
    points = {row[0]: row[at] for row in boards[-1]["rows"]}
    assert points == {row.player: row.points for row in expected.rows}
    assert points != {row["player"]: row["points"] for row in before["rows"]}
    # both kept; the new one names the one it corrects, which cannot be overridden again
    rows = {r["id"]: r for r in evening.client.get(
        "/api/organiser/results", headers=sign(organiser, "GET", "/api/organiser/results")
    ).get_json()["results"]}
    assert rows[new_id]["corrects"] == ids[1] and not rows[ids[1]]["removed"]
    assert override(corrected, reason="again")[0] == 409
    # a table sending the replaced pass again changes nothing
    assert evening.post("/api/results", result(evening, "T1", 1), t1)[1]["stored"] is False
    assert evening.board()["version"] == boards[-1]["version"]
    # the command lists and shows it, through the running hub
    server = make_server("127.0.0.1", 0, evening.app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        (tmp_path / "organiser.key").write_text(organiser.text() + "\n", encoding="utf-8")
        common = ["--organiser-key-file", str(tmp_path / "organiser.key"), "--hub",
                  f"http://127.0.0.1:{server.server_port}"]
        assert main(["hub", "result", "list", *common]) == 0
        listed = capsys.readouterr().out
        assert f"overridden by {new_id} (scored by hand)" in listed
        assert f"counts, overrides {ids[1]}" in listed
        assert main(["hub", "result", "show", str(ids[2]), *common]) == 0
        shown = json.loads(capsys.readouterr().out)
        assert shown == result(evening, "T1", 2)
        # the organiser corrects the third pass from the file `show` printed
        (tmp_path / "pass3.json").write_text(json.dumps(shown), encoding="utf-8")
        assert main(["hub", "result", "override", str(ids[2]), "--report",
                     str(tmp_path / "pass3.json"), "--reason", "same again", *common]) == 0
        assert f"result {ids[2]} overridden by result" in capsys.readouterr().out
    finally:
        server.shutdown()
        thread.join(5)
    phone.disconnect()



def organiser_rows(evening: Evening2) -> dict[int, dict[str, Any]]:
    signed = sign(evening.keys["ORG"], "GET", "/api/organiser/results")
    answer = evening.client.get("/api/organiser/results", headers=signed).get_json()
    return {r["id"]: r for r in answer["results"]}


def organiser_change(evening: Evening2, result_id: int, action: str,
                     reason: str = "checked at the table") -> tuple[int, Any]:
    return evening.post(f"/api/organiser/results/{result_id}",
                        {"action": action, "reason": reason}, evening.keys["ORG"])


def test_a_correction_after_the_final_is_drawn_waits_for_the_organiser(
        evening: Evening2, capsys: Any) -> None:
    """An undo and redo at a group's table after the final started: the correction is
    stored and answered 200 (no valid result is dropped), but it would un-draw the final,
    so it waits for the organiser; the final stays drawn and its pass keeps counting."""
    for table in ("T1", "T2"):
        for index in range(len(evening.reports[table])):
            assert evening.post("/api/results", result(evening, table, index),
                                evening.keys[table])[0] == 200
    drawn = evening.board()
    assert drawn["final"] and drawn["final_tables"] == ["T1"]
    final_group = drawn["final"][0]
    final = v6_tables.reports_from_state("T1", "final", play_group(
        final_group, "trust/final", final=True,
        spent={n: j for n, j in drawn["spent"].items() if n in final_group}).states[-1])
    status, answer = evening.post("/api/results", v6_tables.report_to_json(final[0]),
                                  evening.keys["T1"])
    assert status == 200 and answer["held"] is None
    counted = evening.board()["counted"]
    # T2 corrects its first pass as another throw played it: the group's table no longer
    # matches its passes, so counting it would un-draw the final
    late = v6_tables.reports_from_state("T2", "g1", play_group(
        evening.evening.plan.groups[1], "trust/late/0").states[-1])[0]
    phone = socketio.test_client(evening.app)
    phone.get_received()
    status, answer = evening.post("/api/results", v6_tables.report_to_json(late),
                                  evening.keys["T2"])
    assert status == 200 and answer["stored"] is True
    assert "the final is drawn" in answer["held"]
    board = evening.board()
    assert board["final"] == drawn["final"] and board["counted"] == counted
    assert board["held"] == [f"T2 prelim/pass1: waits for the organiser ({answer['held']})"]
    boards = [m["args"][0] for m in phone.get_received() if m["name"] == "standings"]
    assert boards and boards[-1]["held"] == board["held"]  # the screens say so too
    phone.disconnect()
    # both tables still play what they played
    path = f"/api/tables/{evening.evening.id}-T2"
    table = evening.client.get(path, headers=sign(evening.keys["T2"], "GET", path)).get_json()
    assert table["stage"] == v6_tables.PRELIM and table["group"] == list(
        evening.evening.plan.groups[1])
    path = f"/api/tables/{evening.evening.id}-T1"
    table = evening.client.get(path, headers=sign(evening.keys["T1"], "GET", path)).get_json()
    assert table["stage"] == v6_tables.FINAL and table["group"] == final_group
    # the same pass sent again with another action id (it leaves the final as it is) counts
    again = {**result(evening, "T2", 1), "action_id": "g1-redo:pass2"}
    status, answer = evening.post("/api/results", again, evening.keys["T2"])
    assert status == 200 and answer["held"] is None
    assert evening.board()["counted"] == counted  # one pass replaced by the same one
    # the organiser sees it held; a table's key cannot release it; the organiser can
    held_id = next(i for i, r in organiser_rows(evening).items() if r["held"])
    assert evening.post(f"/api/organiser/results/{held_id}",
                        {"action": "release", "reason": "x"}, evening.keys["T2"])[0] == 401
    status, answer = organiser_change(evening, held_id, "release", "the table was right")
    assert status == 200
    board = evening.board()
    assert board["held"] == [] and board["final"] != drawn["final"]  # the organiser's call
    assert "T2 prelim/pass1: released by the organiser (the table was right)" in \
        board["changes"]
    assert organiser_change(evening, held_id, "release")[0] == 409  # not held any more


def test_an_organisers_override_holds_until_the_organiser_removes_it(
        evening: Evening2) -> None:
    t1 = evening.keys["T1"]
    ids = [evening.post("/api/results", result(evening, "T1", i), t1)[1]["id"]
           for i in range(len(evening.reports["T1"]))]
    plan = evening.evening.plan
    other = v6_tables.reports_from_state("T1", "g0", play_group(
        plan.groups[0], "trust/other").states[-1])
    corrected = v6_tables.report_to_json(other[1])
    status, answer = evening.post(f"/api/organiser/results/{ids[1]}",
                                  {"action": "override", "reason": "scored by hand",
                                   "report": corrected}, evening.keys["ORG"])
    assert status == 200
    override_id = answer["id"]
    overridden = evening.board()
    # the table sends its own second pass again, as a new correction: it waits
    redo = {**result(evening, "T1", 1), "action_id": "g0-redo:pass2"}
    status, answer = evening.post("/api/results", redo, t1)
    assert status == 200 and f"override {override_id} holds" in answer["held"]
    board = evening.board()
    assert board["rows"] == overridden["rows"] and board["counted"] == overridden["counted"]
    assert "T1 prelim/pass2: overridden by the organiser (scored by hand)" in board["changes"]
    # lifted: the table's pass before it counts again; the held one once released
    assert organiser_change(evening, override_id, "remove", "lifted")[0] == 200
    held_id = next(i for i, r in organiser_rows(evening).items() if r["held"])
    assert organiser_change(evening, held_id, "release")[0] == 200
    assert evening.post("/api/results", {**result(evening, "T1", 1), "action_id": "g0-3:p2"},
                        t1)[1]["held"] is None  # no override any more: counts at once


def test_a_flood_of_board_requests_costs_one_board_and_is_told_to_wait(
        db: str, monkeypatch: Any) -> None:
    evening = Evening2(db, PHONE_BURST=30.0, PHONE_RATE_PER_SECOND=1.0)
    services = evening.app.extensions["dicecam_hub"]
    computed = []
    board = services.board
    monkeypatch.setattr(services, "board", lambda e: computed.append(1) or board(e))
    answers = [evening.client.get("/api/standings", environ_base={"REMOTE_ADDR": "10.9.0.1"})
               for _ in range(40)]
    assert [a.status_code for a in answers].count(200) == 30  # the burst, then 429
    assert answers[-1].status_code == 429 and "slow down" in answers[-1].get_json()["error"]
    assert len(computed) == 1  # computed once, served from then on
    # Socket.IO connects from one address: the burst, then refused; each costs no board
    phones = [socketio.test_client(evening.app) for _ in range(40)]
    connected = [p for p in phones if p.is_connected()]
    assert len(connected) == 30 and len(computed) == 1
    assert connected[0].get_received()[0]["name"] == "standings"
    # a change: the next request computes the board once again
    assert evening.post("/api/results", result(evening, "T1", 0), evening.keys["T1"],
                        client="10.9.0.2")[0] == 200
    before = len(computed)
    assert evening.client.get("/api/standings", environ_base={"REMOTE_ADDR": "10.9.0.3"}
                              ).get_json()["counted"] == 1
    assert evening.client.get("/api/standings", environ_base={"REMOTE_ADDR": "10.9.0.4"}
                              ).get_json()["counted"] == 1
    assert len(computed) == before + 1
    for phone in connected:
        phone.disconnect()


def test_a_screen_board_holds_every_row_the_board_shows(evening: Evening2) -> None:
    t1 = evening.keys["T1"]
    for i in range(len(evening.reports["T1"])):
        evening.post("/api/results", result(evening, "T1", i), t1)
    board = evening.board()
    screen = screen_board(board)
    rows = [dict(zip(screen["columns"], row, strict=True)) for row in screen["rows"]]
    assert rows == [{c: row[c] for c in screen["columns"]} for row in board["rows"]]
    assert "spent" not in screen and screen["version"] == board["version"]
    assert len(json.dumps(screen)) < len(json.dumps(board))


def test_each_process_sends_its_screens_only_the_newest_board(monkeypatch: Any) -> None:
    from socketio import manager

    sent: list[tuple[int, int]] = []
    sending, release = threading.Event(), threading.Event()

    def emit(self: Any, event: str, data: Any, **_: Any) -> None:  # to the local screens
        sent.append((data["evening_id"], data["version"]))
        sending.set()
        release.wait(10)

    monkeypatch.setattr(manager.Manager, "emit", emit)
    queue = NewestBoardFirst("redis://127.0.0.1:1/0", channel="test")  # never connects

    def board(version: int, evening_id: int = 1) -> None:
        queue._handle_emit({"method": "emit", "event": "standings", "namespace": "/",
                            "data": [{"version": version, "evening_id": evening_id}],
                            "room": None, "callback": None})

    board(1)
    assert sending.wait(10)  # board 1 on its way to the screens; meanwhile 3 more come
    for version in (3, 2, 4):
        board(version)
    release.set()
    wait_until(lambda: sent == [(1, 1), (1, 4)], message=lambda: f"sent {sent}")
    board(4)  # a table joined: the same version, one more table joined
    wait_until(lambda: len(sent) == 3, message=lambda: f"sent {sent}")
    board(2)  # late from a slower process: every screen has better
    board(1, evening_id=2)  # a new evening starts over
    wait_until(lambda: sent == [(1, 1), (1, 4), (1, 4), (2, 1)],
               message=lambda: f"sent {sent}")


def test_a_hub_on_127_0_0_1_prints_only_addresses_that_answer(
        db: str, tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    from dicecam.hub import config as hub_config
    from dicecam.tools.services import free_port

    monkeypatch.setenv("DICECAM_HOME", str(tmp_path))
    monkeypatch.setattr(hub_config, "lan_address", lambda: "192.0.2.77")  # a LAN here
    port = free_port()
    assert main(["hub", "init", "--new-evening", "--db", db, "--redis", "none",
                 "--host", "127.0.0.1", "--port", str(port), "--players",
                 "A,B,C,D,E,F,G,H"]) == 0
    printed = capsys.readouterr().out
    assert set(re.findall(r"http://[^\s/]+", printed)) == {f"http://127.0.0.1:{port}"}
    assert "listens on 127.0.0.1 only" in printed and "DICECAM_HOME=" in printed
    # the hub itself (the real command, gunicorn's server) with the saved settings
    hub = subprocess.Popen([sys.executable, "-m", "dicecam", "hub", "--processes", "1"],
                           env={**os.environ, "DICECAM_HOME": str(tmp_path)},
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(hub.stdout or []), daemon=True).start()
    try:
        wait_until(lambda: any("hub worker 1: pid" in line for line in lines),
                   message=lambda: "".join(lines))
        addresses = set(re.findall(r"http://[^\s/]+", "".join(lines)))
        assert addresses == {f"http://127.0.0.1:{port}"}
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as answer:
            assert json.loads(answer.read())["ok"] is True
    finally:
        hub.terminate()
        hub.wait(20)
    assert "development server" not in "".join(lines)
