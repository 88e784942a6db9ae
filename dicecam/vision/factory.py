"""The one factory of the table reader: ``pipeline_from(config)``, which ``dicecam serve``,
``dicecam read``, the benches and teaching all use (``build_pipeline(dice_set, **settings)``
for short; a taught table's configuration is ``teach.table.table_config``), so the live
view reads a table as the benches measure it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dicecam.calibration.profile import load_profile
from dicecam.calibration.tables import load_table_picture
from dicecam.calibration.zones import load_zone_map
from dicecam.vision.colour.reader import ColourReader
from dicecam.vision.config import PipelineConfig
from dicecam.vision.detect.detector import DieDetector
from dicecam.vision.detect.empty_table import EmptyTable
from dicecam.vision.pipeline import TablePipeline
from dicecam.vision.read.die_reader import DieReader, cut_crop
from dicecam.vision.read.unsure_reread import UnsureReread


def make_detector(config: PipelineConfig) -> DieDetector:
    """The detector ``config`` names (also what a running pipeline swaps in)."""
    return DieDetector(config.detector_path, threads=config.threads,
                       auto_zoom=config.auto_zoom,
                       coarse_model_path=config.coarse_detector_path)


def make_reader(config: PipelineConfig) -> DieReader | UnsureReread:
    """The die reader ``config`` names (at a taught table, the shipped one and the table's
    where the shipped one is unsure)."""
    reader = _make_reader(DieReader, config.reader_path, config.threads)
    if config.taught_reader_path is None:
        return reader
    return UnsureReread(reader, _make_reader(DieReader, config.taught_reader_path,
                                             config.threads))


def pipeline_from(config: PipelineConfig) -> TablePipeline:
    """The table reader ``config`` describes; the pipeline keeps it (``.config``)."""
    read_colours = None
    if config.dice_set is not None:
        read_colours = ColourReader(load_profile(config.dice_set)).read_scores
    zone_of = None
    if config.zones is not None:
        zone_of = load_zone_map(config.zones).zone_of
    table = None
    if config.empty_table is not None:
        table = EmptyTable.from_frame(load_table_picture(config.empty_table))
    pipeline = TablePipeline(make_detector(config), make_reader(config).read, read_colours,
                             zone_of, crop=cut_crop, settle=config.settle, empty_table=table,
                             second_look=config.second_look, wider_look=config.wider_look,
                             rescaled_look=config.rescaled_look,
                             side_faces=config.side_faces)
    pipeline.config = config
    return pipeline


def build_pipeline(dice_set: str | None, **settings: Any) -> TablePipeline:
    """The pipeline with the product's settings for ``dice_set``, ``settings`` (the fields
    of ``PipelineConfig``) overriding them."""
    return pipeline_from(PipelineConfig(dice_set, **settings))


def _make_reader(reader_cls: Any, path: str | Path | None, threads: int | None) -> Any:
    return reader_cls(path) if threads is None else reader_cls(path, threads=threads)

