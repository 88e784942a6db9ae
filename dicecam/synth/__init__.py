"""Synthetic images: one die (``die``), light and camera degradations (``light``), the look
of each built-in dice set (``dicesets``) and whole tables (``scene``). The demo source draws
its table with these; training and benchmarks draw their data. Everything is deterministic
from a ``numpy`` Generator, and nothing here reads or detects (no ``dicecam.vision``).
"""
