"""annotation/plumbing/gc_pause.py: the cyclic collector paused for bulk jobs, resumed after the last, as it was
before."""

import gc
import threading

from annotation.plumbing.gc_pause import collector_paused


def test_paused_inside_and_resumed_after():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_resumes_after_the_last_of_overlapping_jobs():
    first_in, second_done = threading.Event(), threading.Event()
    seen = {}

    def first():
        with collector_paused():
            first_in.set()
            second_done.wait(10)
            seen["first, after the second ended"] = gc.isenabled()

    thread = threading.Thread(target=first)
    thread.start()
    assert first_in.wait(10)
    with collector_paused():
        assert not gc.isenabled()
    second_done.set()
    thread.join(10)
    assert seen == {"first, after the second ended": False}
    assert gc.isenabled()


def test_a_collector_off_before_stays_off():
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_an_error_inside_still_resumes():
    try:
        with collector_paused():
            raise RuntimeError("the job failed")
    except RuntimeError:
        pass
    assert gc.isenabled()
