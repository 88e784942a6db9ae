"""The table reader a taught table reads with: its learnt models and its empty table.

``dicecam read --table``, ``dicecam serve --table`` and the teaching itself build their
pipeline here, so all three read a table the same way: the reader and detector versions
the table uses (``store.TableStore.in_use``; the shipped ones before it learnt or after
``--forget``) and, where one was taken, the picture of its empty table.
"""

from __future__ import annotations

from pathlib import Path

from dicecam.calibration.tables import saved_table_names
from dicecam.teach.store import TableStore
from dicecam.vision.detect import MODEL_PATH as SHIPPED_DETECTOR
from dicecam.vision.pipeline import TablePipeline, build_pipeline


def table_pipeline(name: str, *, dice_set: str | None = None, zones: str | Path | None = None,
                   threads: int | None = None, empty_table: str | None = None,
                   auto_zoom: bool = True) -> TablePipeline:
    """The pipeline of table ``name`` (``empty_table`` overrides its own picture)."""
    store = TableStore(name)
    if empty_table is None and name in saved_table_names():
        empty_table = name
    return build_pipeline(dice_set, zones=zones, threads=threads, auto_zoom=auto_zoom,
                          reader_path=store.in_use("reader"),
                          detector_path=store.in_use("detector"), empty_table=empty_table,
                          coarse_detector_path=SHIPPED_DETECTOR,
                          side_faces=store.side_faces())
