"""What the REST API, the MCP server and the agent protocol's tools share, without a web
framework (scoring processes import it): below the tasks, so that a task may use it.

* ``error_codes`` - the one table from the library's errors to an ``ApiError`` (a status and a
  code), per surface (``API``, ``MCP``);
* ``jobs`` - validation, scoring and batch-item jobs: plain functions on plain data;
* ``simulation_jobs`` - the planning check, plan replay, plan validation and simulation jobs.
"""
