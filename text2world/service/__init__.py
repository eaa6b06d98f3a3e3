"""What the REST API, the MCP server and the agent protocol's tools share, without a web
framework (scoring processes import it): below the tasks, so that a task may use it.

* ``error_codes`` - the one table from the library's errors to an ``ApiError`` (a status and a
  code), per surface (``API``, ``MCP``);
* ``jobs`` - validation, scoring and batch-item jobs: plain functions on plain data;
* ``simulation_jobs`` - the planning check, plan replay, plan validation and simulation jobs;
* ``executor`` - ``ScoringExecutor``: runs a job in a scoring process (``scorer``, forked from a
  warm fork server) under a time limit that kills the process, or in a thread;
* ``admission`` - the bounded, fair queue in front of the scoring processes;
* ``limits`` - the default size and time limits of one request or tool call;
* ``tools`` - ``Tools``: validate, score, plan, simulate, look domains up, with their checks
  and limits; ``t2w mcp`` serves them, the agent protocol and the plans feedback call them.
"""

__all__ = ["admission", "error_codes", "executor", "jobs", "limits",
           "scorer", "simulation_jobs", "tools"]
