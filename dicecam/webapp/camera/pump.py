"""Iterate a frame source on its own thread, so that a source that stops answering is noticed.

A stalled camera or stream does not fail: its read blocks, for ten seconds or for ever. The
live reader therefore never calls the source itself; an ``OutputPump`` does, on a thread of
its own, and hands each item over through a short queue. The reader waits with a deadline
(``next_item``) and, when none comes, gives the pump up (``abandon``) and opens the source
again. An abandoned pump closes its iterator (which releases the camera) as soon as the
blocked read returns; until then it only holds its thread.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterable, Iterator
from typing import Any

#: the pump is at most this many items ahead of the reader (every item is handed over:
#: a settled roll must never be dropped)
QUEUE_ITEMS = 2
_POLL_SECONDS = 0.1


class Stalled(Exception):
    """No item came within the deadline."""


class _End:
    """The iterator finished normally."""


class _Failed:
    def __init__(self, error: BaseException) -> None:
        self.error = error


class OutputPump:
    def __init__(self, items: Iterable[Any], *, name: str = "frame source") -> None:
        self._items = items
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=QUEUE_ITEMS)
        self._abandoned = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def next_item(self, timeout: float) -> Any:
        """The next item; StopIteration at the end, the source's own error if it failed,
        ``Stalled`` when nothing came within ``timeout`` seconds."""
        try:
            item = self._queue.get(timeout=timeout)
        except queue.Empty:
            raise Stalled(f"no picture for {timeout:.1f} s") from None
        if isinstance(item, _End):
            raise StopIteration
        if isinstance(item, _Failed):
            raise item.error
        return item

    def abandon(self) -> None:
        """Stop reading; the iterator is closed on the pump's thread when it next returns."""
        self._abandoned.set()

    def join(self, timeout: float | None = None) -> bool:
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _run(self) -> None:
        iterator: Iterator[Any] | None = None
        try:
            iterator = iter(self._items)
            for item in iterator:
                if not self._hand_over(item):
                    return
            self._hand_over(_End())
        except Exception as exc:  # handed to the reader, which reports the camera lost
            self._hand_over(_Failed(exc))
        finally:
            close = getattr(iterator, "close", None)
            if close is not None:
                try:
                    close()  # a generator's finally releases the camera
                except Exception:  # a broken source failing to close: nothing left to save
                    pass

    def _hand_over(self, item: Any) -> bool:
        while not self._abandoned.is_set():
            try:
                self._queue.put(item, timeout=_POLL_SECONDS)
                return True
            except queue.Full:
                continue
        return False
