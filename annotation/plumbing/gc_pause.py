"""Python's cyclic garbage collector paused around a bulk job (an export's build, a release read back).

Such a job builds hundreds of thousands of small containers and keeps them to the end. Each of those allocations
counts towards the next collection, and each full collection walks everything still held, again and again, to find
no garbage: on a CoSQL-sized export that was seconds of the run (bench/export.py). The jobs make no reference cycles
worth collecting before they end; the collector resumes when the last paused job in the process ends, and frees
whatever they left then.
"""

import contextlib
import gc
import threading

_lock = threading.Lock()
_paused = 0  # jobs of this process inside `collector_paused`
_was_enabled = True


@contextlib.contextmanager
def collector_paused():
    """Pause the cyclic collector for the block; several threads may be inside at once (it resumes after the last,
    and only if it was running before the first)."""
    global _paused, _was_enabled
    with _lock:
        if _paused == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _lock:
            _paused -= 1
            if _paused == 0 and _was_enabled:
                gc.enable()
