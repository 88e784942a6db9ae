"""Every Socket.IO event name, in one place (the page's app.js mirrors this list).

Tablet -> server events are answered through the Socket.IO acknowledgement with
``{"ok": true, ...}`` or ``{"ok": false, "error": "a sentence"}``; server -> tablet events
are broadcast to every connected tablet. Every event that changes a game needs a paired
tablet (``api/pairing.py``); watching needs none.
"""

from __future__ import annotations

# server -> tablets
STATE = "state"  # the active game: its state_to_json, undo possible, the current roll
ROLL = "roll"  # the current roll: dice, which need a check, pending / applied / shown
FRAME = "frame"  # a live camera frame (JPEG bytes) with the reading drawn over it
GAMES = "games"  # games this server offers and the stored games to resume
CAMERA = "camera"  # the reader's status: running, ended, lost (with a sentence)
PAIRING = "pairing"  # to one tablet: {"paired": bool}, whether it may change the game
HUB = "hub"  # the link to the tournament hub: online, results waiting (hub_link/)
TEACH = "teach"  # what the table learnt of its dice: taught, asked share, learning, version

# tablets -> server
NEW_GAME = "new_game"  # {"game": name, "config": {...}}
OPEN_GAME = "open_game"  # {"game_id": n}
CLOSE_GAME = "close_game"  # {"game_id": n}: end it (kept, with its score, in the list)
DELETE_GAME = "delete_game"  # {"game_id": n}: remove it and its log
LIST_GAMES = "list_games"  # {}: the games payload, in the acknowledgement (the games list)
ACTION = "action"  # one of state["legal"], as JSON
UNDO = "undo"  # {}
CORRECT_DIE = "correct_die"  # {"roll_id", "index", "value": 1-6 | null, "colour"}
CONFIRM_ROLL = "confirm_roll"  # {"roll_id"}
ADD_DIE = "add_die"  # {"roll_id", "x", "y", "value", "colour"}: a die the camera missed
TEACH_LAYOUT = "teach_layout"  # {"roll_id"}: the roll is the teaching layout (rows by value)
ASSIGN_ZONE = "assign_zone"  # {"roll_id", "zone"}: dice read outside any zone lie in this one
ENTER_ROLL = "enter_roll"  # {"dice": [{"value", "colour", "zone"}]}: dice typed in
SYNC = "sync"  # {}: ask for state, roll and games again (after a reconnect)
PAIR = "pair"  # {"pin": "123456"}: pair this tablet; the reply carries a token to keep
DEMO_ROLL = "demo_roll"  # {}: the demo table throws the dice the players chose to throw
DEMO_PARTY = "demo_party"  # {"players": [...]}: the demo's Dice Party game at full parties
SET_ZONES = "set_zones"  # {"width", "height", "zones": [{"name", "rect"}]}: areas drawn

#: the events that change a game: each needs a paired tablet
CHANGES_THE_GAME = (NEW_GAME, OPEN_GAME, CLOSE_GAME, DELETE_GAME, ACTION, UNDO, CORRECT_DIE,
                    CONFIRM_ROLL, ADD_DIE, TEACH_LAYOUT, ASSIGN_ZONE, ENTER_ROLL, DEMO_ROLL,
                    SET_ZONES, DEMO_PARTY)
