"""The engine: one run loop for every task (generation, world models, contamination).

* ``task`` - the task protocol (samples, solver, scorer, summary);
* ``runner`` - ``prepare`` and ``execute``: selection, concurrency, the CPU pool, resume,
  the paid ledger, signals, epochs; the summary common to every task;
* ``run_records`` - the run folder's records (config, item log, paid ledger, summary), each with
  ``kind`` and ``version``, the files' names, their checks and migrations where read;
* ``kinds`` - the registry of run kinds the tasks register into (``add_kind``, ``kind_spec``,
  ``KindSpec``), the one rule mapping a config to its kind (``kind_of``/``run_kind``) and a
  run's identity;
* ``run_store`` - ``Run``: writing, locking, reading one run folder;
* ``summary`` - the counts every task's summary shares, computed once; epochs and spread;
* ``run_reader`` - reading runs of any kind and version: ``open_run``, ``list_runs``,
  ``find_run``, ``RunInfo`` (re-exported here);
* ``options`` - run options from flags and from a run's config, the ``--resume`` overrides;
* ``pool`` - the validation/scoring process pool and the gold prefetch;
* ``process`` - descriptors closed in children, workers that die with the parent, SIGTERM.
"""

from text2world.engine.kinds import KindSpec, add_kind, kind_names, kind_spec
from text2world.engine.run_reader import RunInfo, find_run, list_runs, open_run
from text2world.engine.run_store import FORMAT_VERSION, Run, RunError

__all__ = ["FORMAT_VERSION", "KindSpec", "Run", "RunError", "RunInfo", "add_kind", "find_run",
           "kind_names", "kind_spec", "list_runs", "open_run"]
