"""Pure rules, one module per game: frozen dataclasses in, frozen dataclasses out, no I/O.

Dice values are inputs (what the camera read, or what a player typed): nothing here rolls,
reads a camera or touches a file, so the same inputs always give the same game.
"""
