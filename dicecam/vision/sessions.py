"""The options every onnxruntime session of the table reader is made with."""

from __future__ import annotations

import onnxruntime as ort


def session_options(threads: int | None) -> ort.SessionOptions:
    """onnxruntime's options for the table reader's sessions: ``threads`` (None: one a
    core), and worker threads that sleep between runs instead of spinning. Spinning kept a
    core busy after every read: the live view's detector (a thread a core) took 6-8% of a
    core on a still table, 4-5% without (``bench idle`` as the live view builds it), and
    a run was no slower. The other options (graph optimisation: ``ORT_ENABLE_ALL`` is the
    default; memory arena and pattern, execution mode) made no measurable difference on
    one thread (docs/speed.md)."""
    options = ort.SessionOptions()
    if threads is not None:
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return options
