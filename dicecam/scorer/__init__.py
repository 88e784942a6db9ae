"""The games, one package each: ``rules`` (pure state and actions: frozen dataclasses in,
frozen dataclasses out, no I/O), ``codec`` (JSON in and out), ``adapter`` (a settled roll
-> the game's action), ``cases.json`` (the rulebook's examples as data) and the ``GAME``
descriptor that names them; ``registry`` lists the games.

Dice values are inputs (what the camera read, or what a player typed): nothing here rolls,
reads a camera or touches a file, so the same inputs always give the same game.
"""
