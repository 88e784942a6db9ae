"""Tools around the product: benchmarks, training, test clients and real-photo data.

The runtime packages (scorer, vision, calibration, webapp, demo, synth) never import
from here; only the ``dicecam bench`` and ``dicecam train`` commands and the tests do.
"""
