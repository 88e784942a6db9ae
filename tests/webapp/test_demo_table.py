"""The demo table plays the game: it throws what the game waits for, once, and waits while
the players choose."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import pytest

from dicecam.errors import InputError
from dicecam.reading import DieReading, SettledRoll
from dicecam.vision.sources.demo import DemoSource, DemoThrow
from dicecam.vision.sources.demo_boards import DemoLayout
from dicecam.webapp.journal.sqlite import GameStore
from dicecam.webapp.session.demo_table import DemoDirector
from dicecam.webapp.session.game_session import GameSession
from dicecam.webapp.session.tablet_commands import Act, EnterRoll, NewGame, parse_enter_roll
from dicecam.webapp.session.views import RollStatus


@pytest.fixture
def session(tmp_path: Path) -> GameSession:
    return GameSession(GameStore(tmp_path / "games.sqlite"), lambda event, payload: None)


def asked(throw: DemoThrow | DemoLayout | None) -> tuple[tuple, tuple] | None:
    """What a director asks the demo to throw (its colours and values), seed aside."""
    assert throw is None or isinstance(throw, DemoThrow)
    return None if throw is None else (throw.colours, throw.values)


def entered(*dice: tuple[int, str]) -> EnterRoll:
    return parse_enter_roll({"dice": [{"value": v, "colour": c} for v, c in dice]})


def test_dice_party_parties_are_thrown_by_themselves_one_after_another(
        session: GameSession) -> None:
    demo = DemoDirector(session)
    director = demo.opening("diceparty")
    assert director() is None  # no game, nothing to throw
    session.new_game(NewGame("diceparty", {"players": ["Anna", "Ben"]}))
    director = demo.opening("diceparty")
    assert demo.waiting() == "auto"
    throw = director()
    assert throw is not None and Counter(throw.colours) == {"yellow": 2, "orange": 2}
    assert director() is None and demo.waiting() is None  # thrown once, not again
    session.enter_roll(entered((6, "yellow"), (6, "yellow"), (5, "orange"), (5, "orange")))
    assert director() is not None  # Ben's preparty throw
    session.enter_roll(entered((1, "yellow"), (1, "yellow"), (1, "orange"), (1, "orange")))
    assert Counter(director().colours) == {"yellow": 2, "orange": 2}  # Anna's turn
    session.enter_roll(entered((6, "yellow"), (1, "yellow"), (1, "orange"), (1, "orange")))
    assert director() is None  # Anna chooses (pickpocket...) before anything is thrown
    session.act(Act({"type": "pickpocket", "count": 0}))
    assert director() is None  # (nobody to provoke) her growth: a VIP or nobody
    session.act(Act({"type": "grow", "option": "party_people"}))
    assert Counter(director().colours) == {"yellow": 2, "orange": 2}  # Ben's turn


def test_v6_throws_again_only_when_a_tablet_asks(session: GameSession) -> None:
    demo = DemoDirector(session)
    with pytest.raises(InputError, match="waits for no dice"):
        demo.request()
    session.new_game(NewGame("v6", {"players": ["Ann", "Bo"], "seating": "in_order"}))
    director = demo.opening("v6")
    session.act(Act({"type": "jokers", "jokers": []}))
    assert asked(director()) == ((None,), (None,))  # the croupier's free throw
    session.enter_roll(entered((4, "white")))
    assert demo.waiting() == "ask" and director() is None  # go on, stop or a joker
    assert demo.request() == {"throwing": True}
    assert demo.waiting() == "auto"
    assert asked(director()) == ((None,), (None,))
    with pytest.raises(InputError, match="has thrown"):
        demo.request()


def test_charidice_keeps_the_kept_dice_as_they_lie(session: GameSession) -> None:
    demo = DemoDirector(session)
    session.new_game(NewGame("charidice", {"players": ["Ann", "Bo"]}))
    director = demo.opening("charidice")
    assert asked(director()) == ((None,) * 6, (None,) * 6)
    colours = ["red", "blue", "green", "purple", "black", "grey"]
    session.enter_roll(entered(*zip([1, 2, 3, 4, 5, 6], colours, strict=True)))
    session.act(Act({"type": "keep", "kept": [1, 4]}))
    assert director() is None
    demo.request()
    throw = director()
    assert throw is not None
    assert throw.colours[:2] == ("blue", "black") and throw.values[:2] == (2, 5)
    assert throw.colours[2:] == (None,) * 4


def test_only_the_latest_opening_throws_and_only_for_its_own_game(
        session: GameSession) -> None:
    """The camera opens the demo anew for each game. The Dice Party game's source is read
    a few frames ahead on its pump thread until the live reader gives it up: it must not
    take the Charidice game's first throw, or that throw is drawn where nobody looks and
    the new game waits for ever (issue 29, point 2)."""
    demo = DemoDirector(session)
    session.new_game(NewGame("diceparty", {"players": ["Anna", "Ben"]}))
    party = demo.opening("diceparty")
    assert party() is not None  # Anna's preparty throw
    session.new_game(NewGame("charidice", {"players": ["Anna", "Ben"]}))
    assert party() is None  # the Dice Party source, read ahead: nothing for it
    assert demo.waiting() == "auto"  # the new game's throw is still to come
    charidice = demo.opening("charidice")
    assert party() is None  # given up: a later opening was made
    assert asked(charidice()) == ((None,) * 6, (None,) * 6)
    assert charidice() is None and demo.waiting() is None
    # a new game of the same kind goes on in the same opening, with its own first throw
    first_seed = session.throw_due()[0]
    session.new_game(NewGame("charidice", {"players": ["Cleo", "Dan"]}))
    assert asked(charidice()) == ((None,) * 6, (None,) * 6)
    assert session.throw_due()[0] != first_seed


def test_each_game_throws_its_own_dice(session: GameSession) -> None:
    """Issue 59, item 10: the demo's throws are seeded by the game and its move, so a new
    game does not replay the last one's throws."""
    demo = DemoDirector(session)
    source = DemoSource("charidice")
    firsts = []
    for players in (["Ann", "Bo"], ["Ann", "Bo"], ["Cleo", "Dan"]):
        session.new_game(NewGame("charidice", {"players": players}))
        throw = demo.opening("charidice")()
        assert isinstance(throw, DemoThrow)
        firsts.append(tuple((d.value, d.look.colour_name)
                            for d in source._plan_throw(0, throw)))
    assert len(set(firsts)) == 3
    # the same game and move: the same throw (a restart shows what the game had)
    again = DemoThrow((None,) * 6, (None,) * 6, seed=(3, 0))
    assert source._plan_throw(0, again) == source._plan_throw(0, again)


def test_a_throw_given_up_with_its_source_is_thrown_again_until_a_roll_settles(
        session: GameSession) -> None:
    """The live reader gives a source up when it stalls (a 54-die throw's first frames on
    two busy cores): the throw it drew went with it, and the game waited for ever."""
    demo = DemoDirector(session)
    session.new_game(NewGame("diceparty", {"players": ["Anna", "Ben"]}))
    lost = demo.opening("diceparty")
    throw = lost()
    assert throw is not None
    again = demo.opening("diceparty")  # the camera stalled before the dice settled
    assert again() == throw and again() is None
    dice = tuple(DieReading(20.0 + 40 * k, 20.0, 30.0, 30.0, 3, colour, 0.5, value_confidence=0.5)
                 for k, colour in enumerate(throw.colours))
    assert session.settle(SettledRoll(1, 640, 480, dice)).status is RollStatus.PENDING
    after = demo.opening("diceparty")  # a roll waiting for a tap is not thrown over
    assert after() is None and demo.waiting() is None


def test_the_directed_demo_throws_what_it_is_told_and_lies_still_between() -> None:
    asked = iter([None, DemoThrow(("red",) * 30 + ("yellow",) * 25), *[None] * 100])
    source = DemoSource("diceparty", director=lambda: next(asked))
    frames = list(itertools.islice(source.frames(), 80))
    assert (frames[0] == source._table).all()  # nothing asked: the empty table
    assert (frames[-1] == frames[-2]).all()  # the throw lies still until the next request
    dice = source._plan_throw(1, DemoThrow(("red",) * 30 + ("yellow",) * 25, (6,) * 55))
    assert len(dice) == 55
    assert Counter(d.look.colour_name for d in dice) == {"red": 30, "yellow": 25}
    assert {d.value for d in dice} == {6}


def test_the_session_says_how_many_dice_the_throw_it_waits_for_shows(
        session: GameSession) -> None:
    """What the table reader is told each time a roll settles (``find_missing``)."""
    assert session.dice_due() is None  # no game
    session.new_game(NewGame("diceparty", {"players": ["Anna", "Ben"]}))
    assert session.dice_due() == 4  # a preparty throw of four dice
    session.new_game(NewGame("v6", {"players": ["Ann", "Bo"], "seating": "in_order"}))
    assert session.dice_due() is None  # the jokers are chosen first
    session.act(Act({"type": "jokers", "jokers": []}))
    assert session.dice_due() == 1  # the croupier's free throw


def test_dice_typed_in_are_the_players_word_and_replace_no_camera_roll(
        session: GameSession) -> None:
    """Three Charidice dice typed in: the game needs six. The reason speaks of the typing,
    not of the camera, and the camera's roll waiting for a tap stays as it was."""
    session.new_game(NewGame("charidice", {"players": ["Ann", "Bo"]}))
    camera = session.settle(SettledRoll(roll_id=7, width=640, height=480, dice=tuple(
        DieReading(x=60.0 + 70 * i, y=80.0, w=50.0, h=50.0, value=v, colour="red",
                   confidence=0.99) for i, v in enumerate([1, 2, 3]))))
    assert camera.status is RollStatus.PENDING  # three of six seen: it waits
    with pytest.raises(InputError) as refused:
        session.enter_roll(entered((1, "red"), (2, "blue"), (3, "green")))
    for lang, words in (("en", "This throw takes 6 dice, and 3 were typed in"),
                        ("de", "Dieser Wurf braucht 6 Würfel, eingegeben sind 3")):
        assert refused.value.message is not None  # worded on each tablet in its language
        said = refused.value.message.text(lang)
        assert words in said and "camera" not in said.lower() and "kamera" not in said.lower()
    kept = session.roll_payload()
    assert kept is not None and kept["roll_id"] == 7 and len(kept["dice"]) == 3


def test_the_demo_starts_dice_party_at_full_parties(tmp_path: Path) -> None:
    """Issue 59, item 10: the demo can throw the crowded parties Dice Party is about: a game
    whose parties it grew to 54 dice first (the steps stored, marked the demo's)."""
    from dicecam.webapp import events
    from dicecam.webapp.api.app import create_app, services
    from dicecam.webapp.camera.source import TableCamera
    from dicecam.webapp.journal.sqlite import Source
    from tests.support.tablets import PIN, paired_client

    app = create_app({"DB_PATH": str(tmp_path / "demo.sqlite"), "PAIRING_PIN": PIN,
                      "OUTPUTS": TableCamera("demo")})
    try:
        tablet = paired_client(app)
        party = {"game": "diceparty", "players": ["Ann", "Bo"]}
        ack = tablet.emit(events.DEMO_PARTY, party, callback=True)
        assert ack["ok"], ack
        session = services(app).session
        view = session.view()
        assert view["game"] == "diceparty" and view["demo"] is True
        _key, due = session.throw_due()
        assert due is not None and len(due.colours) >= 54
        assert all(sum(p["party"].values()) >= 54 for p in view["state"]["players"])
        log = session.store.log(ack["game_id"])
        assert log and {e.source for e in log} == {Source.DEMO}
        bad = tablet.emit(events.DEMO_PARTY, {**party, "players": "Ann"}, callback=True)
        assert bad["ok"] is False and "must be a JSON list" in bad["error"]
        plain_game = tablet.emit(events.DEMO_PARTY, {**party, "game": "charidice"},
                                 callback=True)
        assert plain_game["ok"] is False and "no crowded demo game" in plain_game["error"]
    finally:
        services(app).close()
    # a real camera's table grows its parties by play
    plain = create_app({"DB_PATH": str(tmp_path / "real.sqlite"), "PAIRING_PIN": PIN})
    try:
        ack = paired_client(plain).emit(
            events.DEMO_PARTY, {"game": "diceparty", "players": ["Ann", "Bo"]}, callback=True)
        assert ack["ok"] is False and "not the demo table" in ack["error"]
        assert services(plain).session.view()["demo"] is False
    finally:
        services(plain).close()


def test_the_demo_lays_out_the_teaching_layout_and_it_lies_until_a_throw_is_asked(
        session: GameSession) -> None:
    """Issue 59, item 5: teaching can be tried on the demo: asked, it lays the game's dice
    out in six rows by value, a colour per column, and the layout lies still (the game's
    throw waits for a tablet to ask for it)."""
    demo = DemoDirector(session)
    with pytest.raises(InputError, match="start one first"):
        demo.request_layout()
    session.new_game(NewGame("charidice", {"players": ["Ann", "Bo"]}))
    director = demo.opening("charidice")
    first = director()
    assert isinstance(first, DemoThrow) and not first.rows  # the game's throw
    assert demo.request_layout() == {"laying_out": True}
    layout = director()
    assert isinstance(layout, DemoThrow) and layout.rows
    colours = tuple(session.view()["colours"])[:4]
    assert layout.colours == tuple(c for _ in range(6) for c in colours)
    assert layout.values == tuple(v for v in range(1, 7) for _ in colours)
    assert director() is None and demo.waiting() == "ask"  # it lies
    demo.request()  # a tablet asks for the throw: the game's six dice come again
    again = director()
    assert isinstance(again, DemoThrow) and not again.rows and len(again.colours) == 6
    # the layout drawn is what the teaching reads: six rows, every die by its row
    image, truth = DemoSource("charidice").still(0, layout)
    rows = sorted({round(d.cy) for d in truth.dice})
    assert len(truth.dice) == len(layout.colours) and len(rows) >= 6
    by_row = sorted(truth.dice, key=lambda d: d.cy)
    assert [d.value for d in by_row] == sorted(layout.values)
