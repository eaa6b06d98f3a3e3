"""The engine: one run loop for every task (generation, world models, contamination).

* ``task`` - the task protocol (samples, solver, scorer, summary);
* ``runner`` - ``prepare`` and ``execute``: selection, concurrency, the CPU pool, resume,
  the paid ledger, signals, epochs; the summary common to every task;
* ``run_store`` - the run folder's records (config, item log, paid ledger, summary), each with
  ``kind`` and ``version``, and the files' names; ``RunKind`` and the one rule mapping a config
  to its kind (``kind_of``/``run_kind``); writing, locking;
* ``summary`` - the counts every task's summary shares, computed once; epochs and spread;
* ``run_reader`` - reading runs of any kind and version: ``open_run``, ``list_runs``,
  ``find_run``, ``RunInfo`` (re-exported here);
* ``options`` - run options from flags and from a run's config, the ``--resume`` overrides;
* ``pool`` - the validation/scoring process pool and the gold prefetch;
* ``process`` - descriptors closed in children, workers that die with the parent, SIGTERM.
"""

from text2world.engine.run_reader import RunInfo, find_run, list_runs, open_run
from text2world.engine.run_store import FORMAT_VERSION, KINDS, Run, RunError, RunKind

__all__ = ["FORMAT_VERSION", "KINDS", "Run", "RunError", "RunInfo", "RunKind", "find_run",
           "list_runs", "open_run"]
