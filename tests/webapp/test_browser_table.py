"""The tablet at a real table (issue 59), in a real browser at tablet (1280x800) and phone
(390x844) size, in English and German: Dice Party asks only where the rulebook gives a
choice, and says the steps it took by itself; wrong PINs hold up the tablet that typed them,
not a second tablet behind the same router.

Screenshots of what was checked go to ``$DICECAM_SHOTS`` when it is set (to look at them).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dicecam.webapp.api.pairing import MAX_WRONG_PER_CLIENT
from tests.support.browsers import BROWSER_MARKS, shot, wait
from tests.webapp.test_browser import (
    Server,
    enter_dice,
    new_game,
    open_page,
    phone,
    start_server,
    tap,
    text_of,
    type_pin,
    wait_text,
)

pytestmark = BROWSER_MARKS

pytest.importorskip("selenium.webdriver", reason="needs selenium (the test extra)")
from selenium.webdriver.common.by import By  # noqa: E402

SIZES = ("tablet", "phone")


def at_size(browser: Any, size: str) -> None:
    if size == "phone":
        phone(browser)
    else:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A private server of the demo table with its own games file."""
    running = start_server({"DB_PATH": str(tmp_path / "games.sqlite")})
    try:
        yield running
    finally:
        running.stop()


def open_in(browser: Any, server: Server, lang: str) -> None:
    """A paired tablet showing the page in ``lang``, with no game yet."""
    open_page(browser, server)
    browser.execute_script(f"localStorage.setItem('dicecam.lang', '{lang}')")
    browser.get(server.url)
    wait(browser, lambda b: "paired" in b.find_element(By.TAG_NAME, "body").get_attribute(
        "class") and b.execute_script(
        "return document.getElementById('new-game-name').options.length") >= 4)


def buttons(browser: Any, action: str) -> list[Any]:
    return browser.find_elements(By.CSS_SELECTOR, f'#dp-actions [data-action="{action}"]')


# --- item 1: Dice Party never waits for a choice with one possible outcome -----------------

TAKEN = {
    "en": ("Ann has no Party People at level 6: no wallet to steal.",
           "Ann has no VIP at level 4 or higher: nobody to provoke.",
           "Bo's party does not grow: neither option brings a guest (2 Party People points, "
           "2 VIP points).",
           "how the party grows", "Bo throws the party", "Ann throws the party"),
    "de": ("Ann hat kein Partyvolk auf Stufe 6: keine Geldbörse zu stehlen.",
           "Ann hat keinen VIP ab Stufe 4: niemand zu provozieren.",
           "Die Party von Bo wächst nicht: keine Option bringt einen Gast (2 Partyvolk-Punkte, "
           "2 VIP-Punkte).",
           "wie die Party wächst", "Bo wirft die Party", "Ann wirft die Party"),
}


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES)
def test_dice_party_asks_only_where_the_player_chooses(browser: Any, server: Server,
                                                       size: str, lang: str) -> None:
    no_wallet, no_provoke, no_growth, grows, bo_throws, ann_throws = TAKEN[lang]
    at_size(browser, size)
    open_in(browser, server, lang)
    new_game(browser, "diceparty", ["Ann", "Bo"])
    enter_dice(browser, {("Ann", "yellow"): [6, 6], ("Ann", "orange"): [5, 4],
                         ("Bo", "yellow"): [1, 1], ("Bo", "orange"): [1, 2]})
    wait_text(browser, "#dp-status", ann_throws)
    # no Party People at 6, no VIP at 4+: nothing to steal or provoke; 6 Party People
    # points bring a VIP, 4 VIP points nobody: the growth is the one choice
    enter_dice(browser, {("Ann", "yellow"): [5, 1], ("Ann", "orange"): [2, 2]})
    wait_text(browser, "#dp-status", grows)
    status = text_of(browser, "#dp-status")
    assert no_wallet in status and no_provoke in status
    assert not buttons(browser, "pickpocket") and not buttons(browser, "provoke")
    assert len(buttons(browser, "grow")) == 2
    shot(browser, f"dp-grow-{size}-{lang}")
    tap(browser, '.grow-option[data-option="vip"]')
    wait_text(browser, "#dp-status", bo_throws)
    # Bo: no choice anywhere, so the turn passes with the throw, each step said
    enter_dice(browser, {("Bo", "yellow"): [1, 1], ("Bo", "orange"): [1, 1]})
    wait_text(browser, "#dp-status", ann_throws)
    assert no_growth in text_of(browser, "#dp-status")
    assert not browser.find_elements(By.CSS_SELECTOR, "#dp-actions button")
    shot(browser, f"dp-passed-{size}-{lang}")
    # one undo takes Bo's whole throw back, the steps taken with it included
    tap(browser, "#undo")
    wait_text(browser, "#dp-status", bo_throws)


# --- item 8: wrong PINs lock the guessing tablet, not the table ----------------------------

HELD_UP = {"en": "Too many wrong PINs", "de": "Zu viele falsche PINs"}


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES)
def test_wrong_pins_on_one_phone_do_not_lock_out_another_tablet(
        browser: Any, server: Server, size: str, lang: str) -> None:
    pin = server.app.config["PAIRING_PIN"]
    wrong = "000000" if pin != "000000" else "111111"
    at_size(browser, size)
    open_page(browser, server, paired=False)
    browser.execute_script(f"localStorage.setItem('dicecam.lang', '{lang}')")
    browser.get(server.url)
    # a phone (this browser) types five wrong PINs, then even the right one waits
    tap(browser, "#pair-open")
    for _ in range(MAX_WRONG_PER_CLIENT):
        browser.execute_script("document.getElementById('pair-error').textContent = ''")
        type_pin(browser, wrong)
        wait(browser, lambda b: b.find_element(By.ID, "pair-error").text.strip())
    type_pin(browser, pin)
    wait_text(browser, "#pair-error", HELD_UP[lang])
    shot(browser, f"pin-held-up-{size}-{lang}")
    phone_id = browser.execute_script("return localStorage.getItem('dicecam.client')")
    assert phone_id
    # a second tablet from the same address (127.0.0.1): a browser with its own storage
    browser.execute_script("localStorage.clear()")
    browser.execute_script(f"localStorage.setItem('dicecam.lang', '{lang}')")
    browser.get(server.url)
    tap(browser, "#pair-open")
    type_pin(browser, pin)
    wait(browser, lambda b: "paired" in b.find_element(By.TAG_NAME, "body").get_attribute(
        "class"))
    assert browser.execute_script("return localStorage.getItem('dicecam.client')") != phone_id
    # the phone itself is still held up for the minute
    browser.execute_script("localStorage.clear()")
    browser.execute_script(f"localStorage.setItem('dicecam.client', '{phone_id}');"
                           f"localStorage.setItem('dicecam.lang', '{lang}')")
    browser.get(server.url)
    tap(browser, "#pair-open")
    type_pin(browser, pin)
    wait_text(browser, "#pair-error", HELD_UP[lang])


# --- item 4: a page that is not there, in the player's language, with the way back --------

@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES)
def test_a_page_that_is_not_there_leads_back_to_the_table(browser: Any, server: Server,
                                                          size: str, lang: str) -> None:
    at_size(browser, size)
    browser.get(f"{server.url}no-such-page?lang={lang}")
    heading = {"en": "There is no such page", "de": "Diese Seite gibt es nicht"}[lang]
    wait_text(browser, "h1", heading)
    assert browser.execute_script("return document.documentElement.scrollWidth") <= (
        390 if size == "phone" else 1280)
    shot(browser, f"not-found-{size}-{lang}")
    tap(browser, "#back-to-table")
    wait(browser, lambda b: b.execute_script(
        "return document.getElementById('new-game-name') !== null"))


# --- item 9: the Charidice printout says which game it is -----------------------------------

def play_charidice_to_the_end(server: Server) -> None:
    """Ann and Bo's seven rounds typed in, Bo asking for the big gift in the first."""
    from dicecam.webapp.api.app import services
    from dicecam.webapp.session.tablet_commands import Act, NewGame, parse_enter_roll

    session = services(server.app).session
    session.new_game(NewGame("charidice", {"players": ["Ann", "Bo"]}))
    session.act(Act({"type": "big_gift", "player": "Bo"}))
    six = [{"value": v, "colour": c} for v, c in zip(
        [1, 2, 3, 4, 5, 6], ["red", "blue", "green", "purple", "black", "grey"], strict=True)]
    while session.view()["state"]["phase"] != "over":
        session.enter_roll(parse_enter_roll({"dice": six}))
        best = session.view()["state"]["options"][0]
        session.act(Act({"type": "choose", "kind": best["kind"], "scored": best["scored"]}))


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES)
def test_the_charidice_printout_names_the_game_the_day_the_winner_and_the_big_gift(
        browser: Any, server: Server, size: str, lang: str) -> None:
    at_size(browser, size)
    open_in(browser, server, lang)
    play_charidice_to_the_end(server)
    wait(browser, lambda b: b.find_element(By.ID, "game-view").get_attribute("data-game")
         == "charidice" and b.find_elements(By.ID, "cd-winners"))
    assert not browser.find_element(By.ID, "cd-print-head").is_displayed()  # paper only
    winner = {"en": "Winner:", "de": "Sieger:"}[lang]
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        head = wait(browser, lambda b: (e := b.find_element(By.ID, "cd-print-head"))
                    .is_displayed() and e)
        assert head.text.startswith("Charidice #1"), head.text
        assert winner in head.text and str(time.localtime().tm_year) in head.text, head.text
        # Bo received the first round's gift doubled: the 2x mark on his sheet
        marks = browser.find_elements(
            By.CSS_SELECTOR, '.sheet[data-player="Bo"] tbody tr:first-child .big-gift-mark')
        assert len(marks) == 1 and marks[0].is_displayed()
        assert not browser.find_elements(By.CSS_SELECTOR,
                                         '.sheet[data-player="Ann"] .big-gift-mark')
        shot(browser, f"cd-print-{size}-{lang}")
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


# --- item 10: the demo throws the crowded parties Dice Party is about ---------------------

@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES)
def test_the_demo_starts_dice_party_at_full_parties(browser: Any, tmp_path: Path, size: str,
                                                    lang: str) -> None:
    from dicecam.webapp.api.app import services
    from dicecam.webapp.camera.source import TableCamera

    running = start_server({"DB_PATH": str(tmp_path / "g.sqlite"),
                            "OUTPUTS": TableCamera("demo")})
    try:
        at_size(browser, size)
        open_in(browser, running, lang)
        label = {"en": "Demo: start at full parties", "de": "Demo: mit vollen Partys"}[lang]

        def full_parties(b: Any) -> None:
            wait_text(b, "#new-game-options", label)
            tap(b, "#new-game-full-party")

        new_game(browser, "diceparty", ["Ann", "Bo"], extra=full_parties)
        wait_text(browser, "#dp-status", {"en": "Ann throws the party",
                                          "de": "Ann wirft die Party"}[lang])
        _key, due = services(running.app).session.throw_due()
        assert due is not None and len(due.colours) >= 54
        shot(browser, f"dp-full-party-{size}-{lang}")
        # another game of Dice Party starts as ever, at the rulebook's small parties
        new_game(browser, "diceparty", ["Ann", "Bo"])
        _key, due = services(running.app).session.throw_due()
        assert due is not None and len(due.colours) == 4
    finally:
        running.stop()


# --- item 9: one win, one banner -------------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES)
def test_a_millionaires_win_is_one_banner_that_says_why(browser: Any, server: Server,
                                                        size: str, lang: str) -> None:
    from dicecam.scorer.diceparty.grown import grown_parties
    from dicecam.webapp.api.app import services
    from dicecam.webapp.session.tablet_commands import NewGame, parse_enter_roll

    at_size(browser, size)
    open_in(browser, server, lang)
    session = services(server.app).session
    config, actions = grown_parties(["Ann", "Bo"], 12)
    session.new_game_played(NewGame("diceparty", config), actions)
    # Ann's throw as the demo stages a millionaire: her six VIPs at 6, her Mobs below
    _key, due = session.throw_due()
    assert due is not None
    pips = {"yellow": 5, "orange": 6, "red": 1}
    session.enter_roll(parse_enter_roll({"dice": [
        {"value": v or pips[c], "colour": c} for c, v in zip(due.colours, due.values,
                                                           strict=True)]}))
    wins = {"en": "Ann wins", "de": "Ann gewinnt"}[lang]
    wait(browser, lambda b: wins in b.find_element(By.ID, "game-view").text)
    banners = browser.find_elements(By.CSS_SELECTOR, "#game-view .banner")
    assert len(banners) == 1, [b.text for b in banners]
    assert banners[0].find_elements(By.CSS_SELECTOR, ".hint")  # why: the millionaire's VIPs
    shot(browser, f"dp-one-banner-{size}-{lang}")


# --- item 9: a name is never cut without a word ---------------------------------------------

@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES)
def test_a_name_typed_to_its_end_is_said_to_end_there(browser: Any, server: Server,
                                                      size: str, lang: str) -> None:
    at_size(browser, size)
    open_in(browser, server, lang)
    tap(browser, "#open-new-game")
    field = browser.find_elements(By.CSS_SELECTOR, "#new-game-players input")[0]
    assert not browser.find_elements(By.ID, "new-game-name-long")
    field.send_keys("Annabella Maximiliane von und zu Hohenstein-Ernstthal")  # 53 characters
    assert len(field.get_attribute("value")) == 40
    said = {"en": "A name has at most 40 characters", "de": "Ein Name hat höchstens 40"}[lang]
    wait_text(browser, "#new-game-name-long", said)
    shot(browser, f"name-at-most-{size}-{lang}")


# --- item 5: teaching tried on the demo, end to end -----------------------------------------

@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES)
def test_teaching_is_tried_on_the_demo_end_to_end(browser: Any, tmp_path: Path, size: str,
                                                  lang: str) -> None:
    from dicecam.webapp.camera.source import TableCamera
    from tests.support.waiting import WAIT_SECONDS

    running = start_server({"DB_PATH": str(tmp_path / "g.sqlite"), "TEACH_EVERY": 100000,
                            "OUTPUTS": TableCamera("demo", table="demo")})
    try:
        at_size(browser, size)
        open_in(browser, running, lang)
        new_game(browser, "charidice", ["Ann", "Bo"])
        tap(browser, "#teach-layout-open")
        tap(browser, "#layout-demo")
        wait_text(browser, "#layout-demo-status", {"en": "six rows", "de": "sechs Reihen"}[lang])

        seen: list[Any] = []

        def laid(b: Any) -> bool:
            roll = b.execute_script("return DicecamPage.app.roll") or {}
            moved = b.execute_script("return DicecamPage.app.movedSinceRoll")
            state = (len(roll.get("dice") or []), bool(roll.get("layout")), moved)
            if not seen or seen[-1] != state:
                seen.append(state)
            # (24 laid; a die the detector misses on some CPU is not this test's subject:
            # teaching takes the rows it sees, and at least 20 dice are asserted taught)
            return state[0] >= 20 and not moved

        try:
            wait(browser, laid, 4 * WAIT_SECONDS)
        except Exception as error:  # say what the tablet showed meanwhile
            raise AssertionError(f"(dice, layout, moved) seen: {seen}") from error
        shot(browser, f"demo-layout-{size}-{lang}")
        tap(browser, "#layout-teach")
        wait(browser, lambda b: not b.find_element(By.ID, "layout-dialog").get_attribute("open"))
        roll = browser.execute_script("return DicecamPage.app.roll")
        assert roll["layout"] and sum(d["corrected"] for d in roll["dice"]) >= 20
        taught = {"en": "taught", "de": "gelernt"}[lang]
        wait(browser, lambda b: (t := b.execute_script("return DicecamPage.app.teach"))
             and t["taught"] >= 20)
        assert taught in text_of(browser, "#teach-status")
        assert text_of(browser, "#teach-status").startswith(
            {"en": "Table “demo”:", "de": "Tisch „demo“:"}[lang])
    finally:
        running.stop()


# --- issue 58: a learning the table did not use says on which figure it was worse -------

@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES)
def test_a_learning_not_used_says_what_it_read_worse(browser: Any, tmp_path: Path, size: str,
                                                      lang: str) -> None:
    from dicecam.webapp.api.app import services
    from dicecam.webapp.camera.source import TableCamera

    running = start_server({"DB_PATH": str(tmp_path / "g.sqlite"), "TEACH_EVERY": 100000,
                            "OUTPUTS": TableCamera("demo", table="demo")})
    try:
        at_size(browser, size)
        open_in(browser, running, lang)
        wait(browser, lambda b: b.execute_script("return DicecamPage.app.teach"))
        # a run whose reader read more right but asked more, and whose detector missed dice
        services(running.app).teacher._learnt({  # noqa: SLF001
            "version": "reader-v1", "used": False, "worse_on": ["asked"],
            "detector": {"used": False, "worse_on": ["recall"]}})
        said = {"en": ("asked about more of them", "missed more dice", "reads as before"),
                "de": ("hat öfter nachgefragt", "hat mehr Würfel übersehen", "wie zuvor")}[lang]
        wait(browser, lambda b: all(s in text_of(b, "#teach-status") for s in said))
        shot(browser, f"teach-kept-{size}-{lang}")
        # a run whose reader is used but whose detector is not: only the detector is said
        services(running.app).teacher._learnt({  # noqa: SLF001
            "version": None, "used": True, "worse_on": [],
            "detector": {"used": False, "worse_on": ["precision"]}})
        took = {"en": "took more things for dice", "de": "für Würfel gehalten"}[lang]
        wait(browser, lambda b: took in text_of(b, "#teach-status"))
        assert said[0] not in text_of(browser, "#teach-status")
    finally:
        running.stop()


# --- item 9: on a phone every die keeps its value; typed dice are not written over ------

@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES)
def test_every_die_of_a_party_keeps_its_value_label(browser: Any, tmp_path: Path, size: str,
                                                    lang: str) -> None:
    import threading

    import numpy as np

    from tests.webapp.test_browser import party_dice, rolls_on_demand

    frame = np.full((400, 640, 3), 60, np.uint8)
    # each throw alone on the table: Ann's preparty, Bo's, then Ann's party (marked)
    rolls = [party_dice(40.0, {"yellow": [6, 5], "orange": [4, 3]}),
             party_dice(400.0, {"yellow": [1, 1], "orange": [2, 1]}),
             party_dice(40.0, {"yellow": [2, 2], "orange": [6, 1]}, y0=220.0)]
    settle = threading.Event()
    outputs = rolls_on_demand(frame, rolls, settle, "diceparty")
    running = start_server({"DB_PATH": str(tmp_path / "g.sqlite"), "OUTPUTS": outputs})
    try:
        at_size(browser, size)
        open_in(browser, running, lang)
        new_game(browser, "diceparty", ["Ann", "Bo"])
        for k in range(3):
            settle.set()
            wait(browser, lambda b, n=k + 1: (r := b.execute_script(
                "return DicecamPage.app.roll")) and r["roll_id"] == n and r["status"] in (
                "applied", "shown"))
        wait(browser, lambda b: (r := b.execute_script("return DicecamPage.app.roll"))
             and r.get("marks"))
        if size == "phone":  # the dice are drawn 22 px wide: small, and marked
            assert browser.execute_script(
                "return document.getElementById('overlay').clientWidth") < 400
        wait(browser, lambda b: sorted((lb["index"], lb["text"]) for lb in b.execute_script(
            "return DicecamPage.app.labels")) == [(0, "2"), (1, "2"), (2, "6"), (3, "1")])
        shot(browser, f"dp-party-labels-{size}-{lang}")
    finally:
        running.stop()


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", SIZES)
def test_typed_dice_without_a_picture_are_not_written_over(browser: Any, tmp_path: Path,
                                                           size: str, lang: str) -> None:
    def no_picture(game: str | None) -> Iterator[Any]:
        while True:  # a camera that never sends a picture
            time.sleep(0.05)
            if False:  # (a generator)
                yield None

    running = start_server({"DB_PATH": str(tmp_path / "g.sqlite"), "OUTPUTS": no_picture})
    try:
        at_size(browser, size)
        open_in(browser, running, lang)
        assert browser.find_element(By.ID, "no-frame").is_displayed()
        new_game(browser, "charidice", ["Ann", "Bo"])
        enter_dice(browser, {("", "red"): [1], ("", "blue"): [2], ("", "green"): [3],
                             ("", "purple"): [4], ("", "black"): [5], ("", "grey"): [6]})
        wait(browser, lambda b: (r := b.execute_script("return DicecamPage.app.roll"))
             and r.get("typed"))
        wait(browser, lambda b: not b.find_element(By.ID, "no-frame").is_displayed())
        shot(browser, f"typed-no-picture-{size}-{lang}")
    finally:
        running.stop()
