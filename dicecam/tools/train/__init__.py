"""``dicecam train TARGET``: the models' nets, training loops and command lines.

Torch is imported only here (the optional ``train`` extra); the exported ONNX files and
their model cards live in ``dicecam.models``.
"""
