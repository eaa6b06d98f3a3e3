"""The task protocol: what a task gives the engine (``engine.runner``) to run it.

Shaped like inspect-ai's tasks: a task has **samples** (``load``), a **solver** (``solve``:
what is asked of the model, round by round, through ``SampleContext.complete``), a
**scorer** (inside ``solve``: the sample's log record holds its scores) and a **summary**
(``summarize``, with ``headline`` values that the engine reports per epoch with their
spread). One engine runs any task: selection, concurrency, the CPU pool, the run store,
resume, the paid ledger, signals, progress.
"""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Protocol, Sequence

if TYPE_CHECKING:
    from text2world.engine.options import RunOptions
    from text2world.engine.run_store import ErrorRecord, ItemRecord, Run, RunConfig, RunSummary
    from text2world.model.client import Completion, ModelSpec


@dataclass(frozen=True)
class Sample:
    """One item of a task: ``id`` names it in the run log; ``data`` is the task's own."""

    id: str
    data: Any


class SampleContext(Protocol):
    """What a solver may use while it runs one sample (in one epoch)."""

    item: str
    epoch: int
    run: "Run"
    spec: "ModelSpec"

    async def complete(self, messages: list[dict], round_index: int = 0,
                       reference_context: dict | None = None,
                       tools: list[dict] | None = None) -> "Completion":
        """Ask the model (or the response cache); paid calls go to the ledger at once.
        ``tools``: functions the model may call (its answer's ``tool_calls``)."""

    async def cpu(self, urgent: bool, function: Callable, *args: Any,
                  affinity: str | None = None) -> Any:
        """Run CPU-bound work in the run's process pool (in this thread when there is none);
        ``urgent`` work (what decides the next call) goes ahead of the rest; jobs of one
        ``affinity`` key go to one worker where it can (their per-process caches)."""


class Task(Protocol):
    """A task the engine can run. ``options`` are its ``RunOptions`` subclass."""

    kind: str  # the run store's ``kind``
    uses_cpu_pool: bool  # validation/scoring in a process pool (forked before the lock)

    # Read-only in the protocol, so that a task may narrow ``options`` to its own subclass and
    # compute ``command`` as a property.
    @property
    def command(self) -> str:
        """The command that runs it, for messages: "t2w eval"."""

    @property
    def options(self) -> "RunOptions":
        """The task's options (its ``RunOptions`` subclass)."""

    def check(self) -> None:
        """Reject bad options with a clear error, before anything is loaded."""

    def load(self) -> list[Sample]:
        """The selected samples, in order (deterministic for the options)."""

    def selection_ids(self, samples: list[Sample]) -> list[str]:
        """What the run selected, as ``--domains`` would name it again on resume (the run
        config's ``selected``): the sample ids, or the domains they were built from."""

    def configure(self, spec: "ModelSpec", generation: dict) -> "RunConfig":
        """The task's part of the run config (what it measures and how)."""

    def run_id(self, config: "RunConfig") -> str:
        """The run folder name for a new run of ``config``."""

    def before_run(self, pending: list[Sample], executor: Executor | None) -> None:
        """Called once the run is locked, with the samples still to run."""

    def after_run(self) -> None:
        """Called when the run stops, whatever stopped it."""

    async def solve(self, sample: Sample,
                    context: SampleContext) -> "ItemRecord | Awaitable[ItemRecord]":
        """Make the sample's calls; return its log record (the task's own record type), or an
        awaitable that yields it (scoring that finishes while the engine starts the next
        sample's calls)."""

    # The engine hands a task the records of its own run: typed as any run's here, each task
    # reads them as its own (``tasks/<kind>/records.py``).

    def summarize(self, config: "RunConfig", items: "Sequence[ItemRecord]",
                  open_errors: "Sequence[ErrorRecord]") -> "RunSummary":
        """The task's summary of ``items`` (finished samples)."""

    def headline(self, summary: "RunSummary") -> dict[str, float | None]:
        """The summary's main values, reported per epoch with their spread."""

    def finish(self, run: "Run", summary: "RunSummary") -> "RunSummary":
        """The final summary of a run that stopped (plots, derived values); at least
        ``summary``."""
