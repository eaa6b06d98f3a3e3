"""The cyclic garbage collector paused around simulation work (``simulation.collector``)."""

from __future__ import annotations

import gc
import threading

from text2world.simulation.collector import collector_paused


def test_pauses_nest_and_resume_the_collector_once_the_last_one_ends() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer pause is still running
    assert gc.isenabled()


def test_a_collector_disabled_before_stays_disabled() -> None:
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_an_exception_inside_still_resumes_the_collector() -> None:
    try:
        with collector_paused():
            raise ValueError("boom")
    except ValueError:
        pass
    assert gc.isenabled()


def test_concurrent_pauses_in_threads_share_one_count() -> None:
    inside, release = threading.Barrier(3), threading.Event()
    states = []

    def worker() -> None:
        with collector_paused():
            inside.wait(10)
            release.wait(10)
        states.append(gc.isenabled())

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    inside.wait(10)  # both threads are inside their pause
    assert not gc.isenabled()
    release.set()
    for thread in threads:
        thread.join(10)
    assert gc.isenabled()  # resumed when the last pause ended
    assert len(states) == 2


def test_a_child_forked_inside_a_pause_resumes_when_its_own_pause_ends() -> None:
    import os

    reader, writer = os.pipe()
    with collector_paused():
        pid = os.fork()
        if pid == 0:  # the child: its copy of this pause ends below, then the collector runs
            os.close(reader)
            os.write(writer, b"paused" if not gc.isenabled() else b"running")
    if pid == 0:
        os.write(writer, b" running" if gc.isenabled() else b" paused")
        os._exit(0)
    os.close(writer)
    _, status = os.waitpid(pid, 0)
    answer = os.read(reader, 100).decode()
    os.close(reader)
    assert status == 0
    assert answer == "paused running"
    assert gc.isenabled()
