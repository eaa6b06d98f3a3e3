"""LLMs as world models in action: next-state prediction, plan verification, action
proposal and planning with the model alone, on the store's problems.

Ground truth is the simulation core (``text2world.simulation``) and Fast Downward
(``wm.planner``), so any good action counts and negative plans are checked to fail.

Modules: ``world`` (a problem, its optimal plan and costs from any state), ``items`` (task
items, deterministic for a seed), ``prompts`` (rules settings, states as atoms or sentences),
``parse`` (answers), ``metrics``, ``reference`` (oracle and noisy reference answers),
``task`` (the tasks on the engine), ``page`` (the viewer's run page); the report's tables and
figures are ``reports.wm``.
"""

from text2world.tasks.wm.items import MUTATIONS, RHOS, TASKS, build_items
from text2world.tasks.wm.task import WmError, WmOptions, WmResult, build, plan, run_wm

__all__ = ["MUTATIONS", "RHOS", "TASKS", "WmError", "WmOptions", "WmResult", "build",
           "build_items", "plan", "run_wm"]
