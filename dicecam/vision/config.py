"""How a table reader is built, as plain data: ``PipelineConfig``, whose defaults are the
product's (small dice zoomed, every look on). ``factory.pipeline_from(config)`` builds it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dicecam.vision.detect.side_faces import SideFaceZone
from dicecam.vision.settle import SettleConfig


@dataclass(frozen=True)
class PipelineConfig:
    """How a table reader is built. The defaults are the product's: ``dicecam serve``,
    ``dicecam read``, the benches and teaching all build from one of these
    (``pipeline_from``), so the live view reads a table as the benches measure it.

    ``dice_set``: its colour profile (None: no colours); ``zones``: a built-in zone map or a
    JSON file (None: one zone); ``empty_table``: a picture of the table without dice
    (``calibrate table``); ``detector_path``/``reader_path``: other models (None: the
    shipped ones); ``taught_reader_path``: a taught table's own reader, which reads again
    the crops the reader is unsure of (``unsure_reread``); ``coarse_detector_path``: the
    detector of the coarse pass (None: the detector's own); ``side_faces``: where a taught
    table's camera shows side faces."""

    dice_set: str | None = None
    zones: str | Path | None = None
    detector_path: str | Path | None = None
    reader_path: str | Path | None = None
    taught_reader_path: str | Path | None = None
    coarse_detector_path: str | Path | None = None
    threads: int | None = None
    settle: SettleConfig | None = None
    #: small dice (a phone photo of a whole table) read again at a larger scale
    auto_zoom: bool = True
    empty_table: str | Path | None = None
    side_faces: SideFaceZone | None = None
    second_look: bool = True
    wider_look: bool = True
    rescaled_look: bool = True
