"""The scoring process: runs one job at a time, sent over a socket by the server
(``service.executor``).

A scoring process is forked from a fork server (``multiprocessing``'s ``forkserver``) that has
imported the library and, with ``--warm``, parsed every gold domain of the built-in store once:
each scoring process starts with those parses in memory (shared copy-on-write) in a few
milliseconds, including the replacement for a process killed at a job's time limit.

This module imports only the library and the job functions, never the web framework.
Messages are ``(length: 8 bytes, big endian) + pickle``: a request is ``(job, task)``, an answer
``("ok", result)``, ``("api_error", (status, code, message, details))`` or
``("error", description)``.
"""

from __future__ import annotations

import os
import socket
from typing import Any

from text2world.bounded import (
    address_space_mb,
    limit_memory,
    memory_limit_mb,
    recv_message,
    send_message,
)
from text2world.children import start_child
from text2world.errors import ApiError
from text2world.service.jobs import warm_gold_cache, warm_up_process

WARM_VARIABLE = "T2W_API_WARM"
MAIN_VARIABLE = "T2W_FORKSERVER_MAIN"


def _answer(job, task) -> tuple[str, object]:
    try:
        return "ok", job(task)
    except ApiError as err:
        return "api_error", (err.status, err.code, err.message, err.details)
    except Exception as err:  # noqa: BLE001 - reported to the server, which logs it
        return "error", f"{type(err).__name__}: {err}"


def _release_fork_server() -> None:
    """The fork server exits once no process holds its "alive" pipe: the server and, as the
    fork server hands it to every process it forks, this one, which must let go of it so
    that it dies with the fork server (``children.start_child``)."""
    try:
        from multiprocessing import forkserver

        alive = forkserver._forkserver._forkserver_alive_fd  # type: ignore[attr-defined]  # private, unstubbed
        if alive is not None:
            os.close(alive)
            forkserver._forkserver._forkserver_alive_fd = None  # type: ignore[attr-defined]  # private, unstubbed
    except (AttributeError, OSError):  # not forked by a fork server, or a future Python
        pass


def scorer_main(sock: socket.socket, cache_bytes: int | None, parent: int | None = None) -> None:
    """Serve jobs from ``sock`` until the server closes it (or dies). ``parent``: the fork
    server's PID, as the server knows it (else this process's parent now)."""
    # The server owns shutdown: Ctrl-C or a SIGTERM to the process group must not stop a job
    # half way or print a traceback from every process; the server kills scoring processes.
    # Killed when the fork server exits, so no job outlives the server's time limit.
    _release_fork_server()
    start_child(os.getppid() if parent is None else parent)
    # a job may use T2W_WORKER_MEMORY_MB beyond what the fork server gave it (the warm golds)
    limit_memory(memory_limit_mb() + address_space_mb())
    if cache_bytes is not None:
        from text2world.scoring.caching import ALL_TEXT_CACHES

        for cache in ALL_TEXT_CACHES:
            cache.set_max_bytes(cache_bytes)
    try:
        while True:
            try:
                message: Any = recv_message(sock)  # a (job, task) pair from the server
                job, task = message
            except (EOFError, OSError):
                return
            send_message(sock, _answer(job, task))
    except (BrokenPipeError, ConnectionResetError):
        return
    finally:
        sock.close()


def prepare_fork_server() -> None:
    """Run once in the fork server (``service._forkserver_preload``): import and exercise the
    library, and with ``T2W_API_WARM`` parse the built-in store's golds, before any fork."""
    main_path = os.environ.get(MAIN_VARIABLE)
    if main_path:
        from multiprocessing import spawn

        try:
            spawn.import_main_path(main_path)
        except Exception:  # noqa: BLE001 - then each process imports it itself, as without this
            pass
    warm_up_process()
    if os.environ.get(WARM_VARIABLE, "").strip().lower() in ("1", "true", "yes", "on"):
        from text2world.store.datasets import BUILTIN, DatasetError, load_dataset

        try:
            golds = tuple(record.domain for record in load_dataset(BUILTIN))
        except DatasetError:
            return  # reported by the server's own warm check; scoring still works cold
        warm_gold_cache(golds)
