"""One table reader (issue 61, item 1): ``dicecam serve``, ``dicecam read``, the benches and
teaching build the pipeline from one configuration whose defaults are the product's, so the
live view reads a table as the benches measure it."""

from __future__ import annotations

import argparse

from dicecam.commands.read import read_config
from dicecam.teach.store import TableStore
from dicecam.teach.table import table_config, table_pipeline
from dicecam.vision.config import PipelineConfig
from dicecam.vision.detect.detector import MODEL_PATH as SHIPPED_DETECTOR
from dicecam.vision.detect.side_faces import SideFaceZone
from dicecam.vision.factory import build_pipeline, pipeline_from
from dicecam.vision.read.die_reader import TRAINED_MODEL
from dicecam.vision.read.unsure_reread import UnsureReread
from dicecam.webapp.camera.source import TableCamera


def read_args(**given: object) -> argparse.Namespace:
    return argparse.Namespace(**{"table": None, "dice_set": "diceparty", "zones": None,
                                 "threads": None, "empty_table": None, **given})


def test_serve_read_and_the_benches_read_a_table_alike() -> None:
    served = TableCamera("demo").pipeline_config("diceparty")
    assert served == read_config(read_args()) == PipelineConfig("diceparty")
    # the product's settings: small dice zoomed, every look on
    assert served.auto_zoom and served.second_look and served.wider_look
    assert served.rescaled_look
    built = build_pipeline("diceparty")  # what the benches call
    assert built.config == served
    assert built.detect.auto_zoom and built.second_look and built.wider_look
    assert built.rescaled_look and built.read_colours is not None


def test_a_taught_table_is_read_alike_by_serve_read_and_teaching() -> None:
    store = TableStore("kitchen")
    store.save_reader(TRAINED_MODEL.read_bytes(), {}, use=True)
    store.save_side_faces(SideFaceZone(1.57, 0.6, 0.5, 0.9), {})
    taught = table_config("kitchen", dice_set="charidice")
    # the shipped reader first, the table's where it is unsure
    assert taught.reader_path is None
    assert taught.taught_reader_path == store.reader_in_use()
    assert taught.side_faces == store.side_faces()
    assert taught.coarse_detector_path == SHIPPED_DETECTOR
    served = TableCamera("camera:0", table="kitchen").pipeline_config("charidice")
    assert served == taught == read_config(read_args(table="kitchen", dice_set="charidice"))
    assert table_pipeline("kitchen", dice_set="charidice").config == taught


def test_models_taken_while_running_keep_the_products_settings() -> None:
    camera = TableCamera("demo", pipeline=pipeline_from)
    outputs = camera.open(None)
    next(outputs)
    try:
        assert camera.use_models(TRAINED_MODEL, None)
        running = camera._running[0]
        assert running.config.taught_reader_path == TRAINED_MODEL
        assert running.detect.auto_zoom  # the swap used to drop the zoom
        assert running.read_values.__self__.model_path == TRAINED_MODEL
        assert isinstance(running.read_values.__self__, UnsureReread)
    finally:
        outputs.close()
