"""Synthetic images for training and testing: one die (``die``), light and camera
degradations (``light``), the look of each built-in dice set (``dicesets``), labelled crops
for the die reader (``crops``). Everything is deterministic from a ``numpy`` Generator.
"""
