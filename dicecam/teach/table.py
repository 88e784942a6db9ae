"""The table reader a taught table reads with: its learnt models and its empty table.

``dicecam read --table``, ``dicecam serve --table`` and the teaching itself build their
pipeline here, so all three read a table the same way: the reader and detector versions
the table uses (``store.TableStore.in_use``; the shipped ones before it learnt or after
``--forget``; its reader reads only the dice the shipped one is unsure of,
``vision.unsure_reread``) and, where one was taken, the picture of its empty table.
"""

from __future__ import annotations

from pathlib import Path

from dicecam.calibration.tables import saved_table_names
from dicecam.teach.store import TableStore
from dicecam.vision.config import PipelineConfig
from dicecam.vision.detect.detector import MODEL_PATH as SHIPPED_DETECTOR
from dicecam.vision.factory import pipeline_from
from dicecam.vision.pipeline import TablePipeline


def table_config(name: str, *, dice_set: str | None = None, zones: str | Path | None = None,
                 threads: int | None = None, empty_table: str | None = None) -> PipelineConfig:
    """How table ``name`` is read: the product's settings with the models it uses now,
    where its camera shows side faces, and its empty table (``empty_table`` overrides its
    own picture). A table's detector runs its coarse pass with the shipped one it learnt
    from."""
    store = TableStore(name)
    if empty_table is None and name in saved_table_names():
        empty_table = name
    return PipelineConfig(dice_set, zones=zones, threads=threads,
                          taught_reader_path=store.in_use("reader"),
                          detector_path=store.in_use("detector"), empty_table=empty_table,
                          coarse_detector_path=SHIPPED_DETECTOR,
                          side_faces=store.side_faces())


def table_pipeline(name: str, *, dice_set: str | None = None, zones: str | Path | None = None,
                   threads: int | None = None, empty_table: str | None = None) -> TablePipeline:
    """The pipeline of table ``name`` (``table_config``)."""
    return pipeline_from(table_config(name, dice_set=dice_set, zones=zones, threads=threads,
                                      empty_table=empty_table))
