"""Untrusted work in worker processes whose CPU and memory the operating system bounds.

A model's answer can make scoring ground, relax, simulate and plan over more combinations than
any clock inside the process checks in time (a ``forall`` of 20 variables), or take all the
memory there is. ``Workers`` runs such work (a module-level function, named by its module and
name) in warm worker processes, one job at a time each, kept between jobs (their caches with
them), and so:

* memory: each worker runs under ``RLIMIT_AS`` (``T2W_WORKER_MEMORY_MB``, default
  ``DEFAULT_MEMORY_MB``), which the planner processes it starts inherit; a job that needs more
  gets ``MemoryError`` (answered ``"memory"``) or dies (then recycled);
* CPU: a job's budget (``cpu_limit`` seconds) counts the worker's CPU and that of every process
  under it (Fast Downward's translator and search), from the moment the job's trusted
  preparation (a gold's) is done; the caller watches it (``/proc``) and kills the worker past
  ``cpu_limit + CPU_MARGIN``, and the worker's own ``RLIMIT_CPU`` (SIGXCPU) backs that up;
* a killed or dead worker is replaced (started at once, in the background) and the job
  answered ``"timeout"`` or ``"memory"``; no other job is touched.

A worker is a fresh ``python -m text2world.bounded`` (never a fork of the caller, which may be
a trainer with threads and accelerators), started once and reused; it ignores the signals sent
to the process group and dies with its parent (``children.start_child``). Messages are
``(length: 8 bytes, big endian) + pickle`` over a socket pair (``send_message``,
``recv_message``, which the service's scoring processes use too).
"""

from __future__ import annotations

import importlib
import math
import os
import pickle
import resource
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
from typing import Any, Sequence

from text2world.children import start_child

__all__ = [
    "CPU_MARGIN", "send_message", "recv_message", "HEADER_SIZE", "encode_header",
    "decode_header", "memory_limit_mb", "address_space_mb", "limit_memory", "tree_cpu", "Workers",
]

DEFAULT_MEMORY_MB = 2048  # address space of a worker (a real answer's scoring needs < 500)
MEMORY_VARIABLE = "T2W_WORKER_MEMORY_MB"
CPU_MARGIN = 1.0  # CPU seconds past a job's budget before its worker is killed
PREPARE_CPU_LIMIT = 600.0  # CPU seconds of a job's trusted preparation (a gold's), a safety net
POLL_SECONDS = 0.1  # how often the caller reads the CPU of a busy worker's processes

_HEADER = struct.Struct("!Q")


# --------------------------------------------------------------------------------------------
# Messages


def send_message(sock: socket.socket, message: object) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    sock.sendall(_HEADER.pack(len(data)) + data)


def _recv_exactly(sock: socket.socket, size: int) -> bytes:
    buffer = bytearray(size)
    view = memoryview(buffer)
    received = 0
    while received < size:
        count = sock.recv_into(view[received:])
        if count == 0:
            raise EOFError("the other side closed the connection")
        received += count
    return bytes(buffer)


def recv_message(sock: socket.socket) -> object:
    (size,) = _HEADER.unpack(_recv_exactly(sock, _HEADER.size))
    return pickle.loads(_recv_exactly(sock, size))


HEADER_SIZE = _HEADER.size


def encode_header(size: int) -> bytes:
    return _HEADER.pack(size)


def decode_header(header: bytes) -> int:
    return _HEADER.unpack(header)[0]


# --------------------------------------------------------------------------------------------
# Limits


def memory_limit_mb() -> int:
    """The memory of one worker in MiB: ``T2W_WORKER_MEMORY_MB`` or ``DEFAULT_MEMORY_MB``."""
    value = os.environ.get(MEMORY_VARIABLE, "").strip()
    try:
        return max(256, int(value)) if value else DEFAULT_MEMORY_MB
    except ValueError:
        return DEFAULT_MEMORY_MB


def address_space_mb() -> int:
    """This process's address space now, in MiB (0 where ``/proc`` cannot tell)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            pages = int(statm.read().split()[0])
        return pages * os.sysconf("SC_PAGE_SIZE") // (1024 * 1024)
    except (OSError, ValueError, IndexError):
        return 0


def limit_memory(megabytes: int) -> None:
    """Bound this process's address space (and its children's) to ``megabytes`` MiB."""
    wanted = megabytes * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))


def limit_own_cpu(seconds: float) -> None:
    """SIGXCPU (which ends the process) once this process has used ``seconds`` more CPU."""
    used = sum(os.times()[:2])
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = math.ceil(used + seconds)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            text = handle.read().decode("ascii", "replace")
    except OSError:
        return None
    return text[text.rfind(")") + 2:].split()  # the fields after the command's name


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for thread in threads:
        try:
            with open(f"/proc/{pid}/task/{thread}/children", "rb") as handle:
                found += [int(child) for child in handle.read().split()]
        except (OSError, ValueError):
            continue
    return found


def _descendants(pid: int) -> list[int]:
    found: list[int] = []
    pending = _children(pid)
    while pending:
        child = pending.pop()
        if child not in found and child != pid:
            found.append(child)
            pending += _children(child)
    return found


def tree_cpu(pid: int) -> float | None:
    """CPU seconds of process ``pid`` and every process under it, those it has reaped
    included (Linux ``/proc``); None where that cannot be read."""
    fields = _stat(pid)
    if fields is None:
        return None
    total = 0
    for one in [fields, *(_stat(child) for child in _descendants(pid))]:
        if one is not None:  # utime, stime, cutime, cstime (fields 14 to 17; state is 3)
            total += sum(int(value) for value in one[11:15])
    return total / _TICKS


# --------------------------------------------------------------------------------------------
# The worker's side


def _call(target: tuple[str, str, tuple]) -> Any:
    module, name, args = target
    return getattr(importlib.import_module(module), name)(*args)


def _serve(sock: socket.socket) -> None:
    while True:
        try:
            message: Any = recv_message(sock)
        except (EOFError, OSError):
            return
        prepare, job, cpu_limit = message
        try:
            limit_own_cpu(PREPARE_CPU_LIMIT)
            if prepare is not None:
                _call(prepare)
            send_message(sock, ("started", None))
            limit_own_cpu(cpu_limit + CPU_MARGIN)
            answer: tuple[str, Any] = ("ok", _call(job))
        except MemoryError:
            answer = ("memory", "MemoryError")
        except Exception as err:  # noqa: BLE001 - reported to the caller
            answer = ("error", f"{type(err).__name__}: {err}"[:1000])
        send_message(sock, answer)
        if answer[0] == "memory":  # its heap is in pieces: a fresh worker serves the next job
            return


def worker_main(argv: Sequence[str]) -> None:
    """``python -m text2world.bounded FD PARENT MEGABYTES``: serve jobs on the socket ``FD``."""
    fd, parent, megabytes = (int(value) for value in argv[:3])
    start_child(parent)
    signal.signal(signal.SIGXCPU, signal.SIG_DFL)
    limit_memory(megabytes)
    sock = socket.socket(fileno=fd)
    try:
        _serve(sock)
    except (BrokenPipeError, ConnectionResetError):
        pass
    finally:
        sock.close()


# --------------------------------------------------------------------------------------------
# The caller's side


class _Worker:
    def __init__(self, megabytes: int) -> None:
        ours, theirs = socket.socketpair()
        environment = dict(os.environ)
        # fewer malloc arenas: each reserves 64 MiB of address space, which RLIMIT_AS counts
        environment.setdefault("MALLOC_ARENA_MAX", "2")
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "text2world.bounded", str(theirs.fileno()),
                 str(os.getpid()), str(megabytes)],
                pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, env=environment)
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        self.sock = ours

    def kill(self) -> None:
        """Kill the worker and every process under it (Fast Downward's die with their parent
        anyway; any other would not)."""
        for pid in [self.process.pid, *_descendants(self.process.pid)]:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        self.sock.close()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            pass

    def call(self, prepare: tuple | None, job: tuple, cpu_limit: float) -> tuple[str, Any]:
        """Run ``job`` after ``prepare``; ``("ok", value)``, ``("error", text)``,
        ``("memory", text)`` or ``("timeout", text)``; the worker is dead after the last two
        (and after ``("died", text)``)."""
        try:
            send_message(self.sock, (prepare, job, cpu_limit))
        except OSError:
            return self._death()
        budget, started = PREPARE_CPU_LIMIT, None
        while True:
            ready, _, _ = select.select([self.sock], [], [], POLL_SECONDS)
            if ready:
                try:
                    answer: Any = recv_message(self.sock)
                except (EOFError, OSError, pickle.UnpicklingError):
                    return self._death()
                kind, value = answer
                if kind != "started":
                    return kind, value
                budget, started = cpu_limit, tree_cpu(self.process.pid)
                continue
            if self.process.poll() is not None:
                return self._death()
            used = tree_cpu(self.process.pid)
            if used is None:
                continue  # not Linux: the worker's own RLIMIT_CPU bounds it
            if started is None:
                started = used
            if used - started > budget + CPU_MARGIN:
                self.kill()
                return "timeout", f"ran past {budget + CPU_MARGIN:g} CPU seconds"

    def _death(self) -> tuple[str, str]:
        self.kill()
        code = self.process.returncode
        if code == -signal.SIGXCPU:
            return "timeout", "ran past its CPU limit (SIGXCPU)"
        return "died", f"its worker process ended (exit status {code})"


class Workers:
    """Warm worker processes, one per job running at once (threads may call ``run`` together),
    each under ``memory_mb`` MiB (default: ``memory_limit_mb()``)."""

    def __init__(self, memory_mb: int | None = None) -> None:
        self.memory_mb = memory_mb
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._lock = threading.Lock()
        self._pid = os.getpid()

    def _take(self) -> _Worker:
        with self._lock:
            if self._pid != os.getpid():  # forked: the parent's workers are not ours
                self._idle, self._all, self._pid = [], set(), os.getpid()
            if self._idle:
                return self._idle.pop()
        worker = _Worker(self.memory_mb or memory_limit_mb())
        with self._lock:
            self._all.add(worker)
        return worker

    def run(self, job: tuple[str, str, tuple], cpu_limit: float,
            prepare: tuple[str, str, tuple] | None = None) -> tuple[str, Any]:
        """``module.name(*args)`` for ``job`` (and first, outside the budget, ``prepare``) in a
        worker: ``(outcome, value)``, outcome ``"ok"`` (value: the function's result),
        ``"error"`` (it raised: the exception as text), ``"timeout"`` (past ``cpu_limit`` CPU
        seconds, planner processes included: killed), ``"memory"`` or ``"died"``."""
        worker = self._take()
        outcome, value = worker.call(prepare, job, cpu_limit)
        with self._lock:
            if outcome in ("ok", "error") and self._pid == os.getpid():
                self._idle.append(worker)
                return outcome, value
            self._all.discard(worker)
        worker.kill()
        try:  # its replacement starts now, warming up while the caller goes on
            replacement = _Worker(self.memory_mb or memory_limit_mb())
        except OSError:
            return outcome, value
        with self._lock:
            self._all.add(replacement)
            self._idle.append(replacement)
        return outcome, value

    def prestart(self) -> None:
        """Start a worker now, if none is there, so that it imports the library while the
        caller goes on (the first job then waits less)."""
        with self._lock:
            if self._all and self._pid == os.getpid():
                return
        self._idle.append(self._take())

    def run_on_idle(self, job: tuple[str, str, tuple]) -> None:
        """``job`` on every idle worker, without a budget (the caller's own, such as emptying
        caches for a benchmark)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for worker in idle:
            outcome, value = worker.call(None, job, PREPARE_CPU_LIMIT)
            with self._lock:
                if outcome in ("ok", "error"):
                    self._idle.append(worker)
                else:
                    self._all.discard(worker)
            if outcome not in ("ok", "error"):
                worker.kill()

    def pids(self) -> list[int]:
        with self._lock:
            return sorted(worker.process.pid for worker in self._all)

    def cpu(self) -> float:
        """CPU seconds the live workers (and their processes) have used so far."""
        return sum(tree_cpu(pid) or 0.0 for pid in self.pids())

    def close(self) -> None:
        with self._lock:
            workers, self._all, self._idle = list(self._all), set(), []
        for worker in workers:
            worker.kill()


if __name__ == "__main__":
    worker_main(sys.argv[1:])
