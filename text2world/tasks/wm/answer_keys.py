"""Answer keys of the propose (and plan) items, shipped with the store (``data/keys/``), so that
checking a proposal is a lookup, not a planner call.

A proposal hits when it applies and the goal stays reachable from its successor within the
optimal remaining cost (plus the slack); that needs the optimal cost-to-go of the successor,
which depends only on the item, never on the model. For each problem's states that the default
items start from (``items.RHOS`` along its optimal plan), the key holds the cost-to-go of every
applicable action's successor (``None``: the goal is unreachable from it, proved).

One file per domain, like the shipped plans (``data/keys/<domain>.json``; the generated
problems in ``data/keys/generated/``): ``{"format", "problems": {name: {"key": sha256 of the
domain and problem texts (``plans.plan_key``), "bound_s", "states": {state hash: {action:
cost-to-go}}}}}``. An entry whose key does not match the current texts is stale and ignored;
an action a key does not know falls back to the planner (``World.optimal_cost_from``).

How a key is built (exact, one search per state instead of one per successor): from the item's
state ``s`` with optimal remaining cost ``H``, A* with h_max expands every state ``t`` with
``d(s, t) + h_max(t) <= B`` (``B = H + 2 * the largest step cost from s``); a backward Dijkstra
from the goal states over the expanded graph then gives each successor ``s'`` of action ``a``
its distance ``v``. When ``c(a) + v <= B``, ``v`` is the optimal cost-to-go: every state of an
optimal path from ``s'`` has ``d(s, t) + h_max(t) <= c(a) + h*(s') <= B`` and was expanded
(h_max is admissible). The other successors are asked of the planner (``optimal_plan``) as
scoring would. ``python -m text2world.tasks.wm.answer_keys`` (re)builds the files, resumable
with ``--missing``.
"""

from __future__ import annotations

import argparse
import heapq
import json
import sys
import time
from pathlib import Path

from text2world.simulation import SimulationError
from text2world.simulation.problem import WorkLimitExceeded
from text2world.simulation.relaxed import INFINITY, RelaxedTask
from text2world.store.datasets import Record, atomic_write_text
from text2world.store.plans import plan_key, problem_entries
from text2world.tasks.wm.shipped_keys import FORMAT, keys_path, state_hash

EXPLORE_LIMIT = 20_000  # states evaluated by one key search before the planner takes over
_EPSILON = 1e-9


# --------------------------------------------------------------------------------------------
# Building keys


def _explore(world, state: frozenset, bound: float, limit: int) -> dict | None:
    """Exact cost-to-go (forward-summed along the path found) of the states of the graph
    A* expands from ``state`` up to f = ``bound``, for those whose distance ``v`` has
    ``d(state, t) + v <= bound``... reported for the caller to filter; None past ``limit``."""
    sim = world.simulator
    try:
        relaxed = RelaxedTask(sim, state, unit_costs=world.unit_costs)
        h_start = relaxed.evaluate(state, "max")[0]
        if h_start == INFINITY:
            return {}
        g = {state: 0.0}
        edges: dict[frozenset, list] = {}
        goals = []
        heap = [(h_start, 0, state)]
        counter = 0
        closed: set = set()
        h_known = {state: h_start}
        while heap:
            f, _, node = heapq.heappop(heap)
            if node in closed or f > g[node] + h_known[node] + _EPSILON:
                continue
            closed.add(node)
            if sim.goal_reached(node):
                goals.append(node)
                continue
            if len(h_known) > limit:
                return None
            out = edges[node] = []
            for action in sim.applicable(node):
                after, cost = world.step_cost(node, action)
                h = h_known.get(after)
                if h is None:
                    h = h_known[after] = relaxed.evaluate(after, "max")[0]
                if h == INFINITY:
                    continue
                out.append((action, after, cost))
                new_g = g[node] + cost
                if new_g + h > bound + _EPSILON or (after in g and g[after] <= new_g):
                    continue
                g[after] = new_g
                counter += 1
                heapq.heappush(heap, (new_g + h, counter, after))
    except (SimulationError, WorkLimitExceeded):
        return None
    # backward Dijkstra from the goals over the expanded edges
    incoming: dict[frozenset, list] = {}
    for node, out in edges.items():
        for action, after, cost in out:
            incoming.setdefault(after, []).append((node, action, cost))
    distance = {goal: 0.0 for goal in goals}
    following: dict[frozenset, tuple] = {}
    heap2 = [(0.0, index, goal) for index, goal in enumerate(goals)]
    heapq.heapify(heap2)
    counter = len(goals)
    done: set = set()
    while heap2:
        value, _, node = heapq.heappop(heap2)
        if node in done:
            continue
        done.add(node)
        for before, action, cost in incoming.get(node, ()):
            if before not in distance or value + cost < distance[before] - _EPSILON:
                distance[before] = value + cost
                following[before] = (action, node)
                counter += 1
                heapq.heappush(heap2, (value + cost, counter, before))
    return {"distance": distance, "following": following, "h": h_known}


def _path_cost(world, node: frozenset, following: dict) -> float:
    """The cost of the path the backward search found, summed forward as a replay sums it."""
    total = 0.0
    while not world.simulator.goal_reached(node):
        action, _ = following[node]
        node, cost = world.step_cost(node, action)
        total += cost
    return total


def state_key(world, index: int, limit: int = EXPLORE_LIMIT) -> tuple[dict, int, list[str]]:
    """The cost-to-go of every applicable action's successor from ``world.states[index]``:
    (action -> cost or None, how many the planner had to answer, the actions it left
    unanswered in its time)."""
    state = world.states[index]
    remaining = world.remaining_cost(index)
    steps = [(action, *world.step_cost(state, action)) for action in world.simulator.applicable(state)]
    bound = remaining + 2 * max((cost for _, _, cost in steps), default=1.0)
    explored = _explore(world, state, bound, limit)
    answers: dict[str, float | None] = {}
    unanswered: list[str] = []
    planned = 0
    for action, successor, cost in steps:
        known, value = world.known_cost(successor)
        if not known and explored is not None:
            if explored["h"].get(successor) == INFINITY:
                known, value = True, None  # the relaxation proves a dead end
            elif successor in explored["distance"] and \
                    cost + explored["distance"][successor] <= bound + _EPSILON:
                known, value = True, _path_cost(world, successor, explored["following"])
        if not known:
            planned += 1
            value = world.optimal_cost_from(successor)
            if value is None and not world.known_cost(successor)[0]:
                # no answer in time: shipped apart, so a check given no more time than
                # this asks no planner (``shipped_keys.shipped_key``)
                unanswered.append(str(action))
                continue
        answers[str(action)] = value
    return answers, planned, unanswered


def key_indices(world) -> list[int]:
    """The plan positions the default propose and plan items start from."""
    from text2world.tasks.wm.items import RHOS, prefix_length

    steps = len(world.plan)
    return sorted({k for k in (prefix_length(rho, steps) for rho in RHOS) if k < steps})


def key_record(record: Record, planner_timeout: float = 20.0) -> tuple[dict, int]:
    """The keys of every problem of ``record`` with an optimal plan; and the planner calls."""
    from text2world.tasks.wm.world import WorldError, world_for

    problems: dict[str, dict] = {}
    planned = 0
    for problem in record.problems:
        key = plan_key(record.domain, problem.pddl)
        try:
            world = world_for(record, problem.name, planner_timeout)
        except WorldError as error:  # no items start here: recorded so --missing skips it
            problems[problem.name] = {"key": key, "bound_s": planner_timeout, "states": {},
                                      "skipped": f"no world: {error}"}
            continue
        if not world.optimal:
            problems[problem.name] = {"key": key, "bound_s": planner_timeout, "states": {},
                                      "skipped": "no optimal plan within the bound"}
            continue
        states, unanswered = {}, {}
        for index in key_indices(world):
            answers, calls, left = state_key(world, index)
            states[state_hash(world.states[index])] = answers
            if left:
                unanswered[state_hash(world.states[index])] = left
            planned += calls
        problems[problem.name] = {"key": key, "bound_s": planner_timeout, "states": states,
                                  **({"unanswered": unanswered} if unanswered else {})}
    return {"format": FORMAT, "problems": problems}, planned


def unanswered_from_key(record: Record, entries: dict, planner_timeout: float = 20.0) -> dict:
    """``entries`` (a key file's ``problems``) with each current keyed problem's unanswered
    actions recorded (``unanswered``), read off the key without a planner: ``state_key``
    keys every applicable action of a keyed state but those the planner left unanswered, so
    an applicable action a keyed state lacks is one (keys built before they were recorded)."""
    from text2world.tasks.wm.world import WorldError, world_for

    updated = dict(entries)
    for problem in record.problems:
        entry = entries.get(problem.name)
        if not isinstance(entry, dict) or "skipped" in entry or \
                entry.get("key") != plan_key(record.domain, problem.pddl):
            continue
        try:
            world = world_for(record, problem.name, planner_timeout)
        except WorldError:
            continue
        unanswered = {}
        for index in key_indices(world):
            name = state_hash(world.states[index])
            keyed = entry["states"].get(name)
            if not isinstance(keyed, dict):
                continue
            left = [str(action) for action in world.simulator.applicable(world.states[index])
                    if str(action) not in keyed]
            if left:
                unanswered[name] = left
        updated[problem.name] = {k: v for k, v in entry.items() if k != "unanswered"} | \
            ({"unanswered": unanswered} if unanswered else {})
    return updated


def key_is_current(record: Record, generated: bool, root: Path | None = None) -> bool:
    """Whether the record's key file has a current entry (keyed or skipped) for every problem."""
    entries = problem_entries(keys_path(record.id, root, generated))
    return all(isinstance(entries.get(p.name), dict)
               and entries[p.name].get("key") == plan_key(record.domain, p.pddl)
               for p in record.problems)


def _build_one(job: tuple[Record, bool, Path | None, float]) -> str:
    """Build and write one domain's key file; the line ``write_keys`` prints for it."""
    record, generated, root, planner_timeout = job
    started = time.process_time()
    data, planned = key_record(record, planner_timeout)
    atomic_write_text(keys_path(record.id, root, generated), json.dumps(data, indent=0) + "\n")
    actions = sum(len(a) for p in data["problems"].values() for a in p["states"].values())
    keyed = sum(1 for p in data["problems"].values() if "skipped" not in p)
    return (f"{record.id}{' (generated)' if generated else ''}: {keyed} of "
            f"{len(data['problems'])} problems keyed, "
            f"{actions} actions keyed, {planned} by the planner, "
            f"{time.process_time() - started:.1f} CPU-s")


def write_keys(records: list[tuple[Record, bool]], *, only_missing: bool = False,
               root: Path | None = None, planner_timeout: float = 20.0,
               jobs: int = 1) -> list[str]:
    """Build the key file of each (record, generated) pair (only those missing or stale with
    ``only_missing``), in ``jobs`` processes at once; each file is written whole when its domain
    is done, so an interrupted build keeps every finished domain and ``--missing`` resumes it."""
    todo = [(record, generated, root, planner_timeout) for record, generated in records
            if not (only_missing and key_is_current(record, generated, root))]
    lines: list[str] = []
    if jobs <= 1 or len(todo) <= 1:
        for job in todo:
            lines.append(_build_one(job))
            print(lines[-1], flush=True)
        return lines
    import multiprocessing

    # forked workers inherit the imported modules; a fresh process per domain keeps one
    # domain's caches from growing into the next
    with multiprocessing.get_context("fork").Pool(min(jobs, len(todo)),
                                                  maxtasksperchild=1) as pool:
        for line in pool.imap_unordered(_build_one, todo):
            lines.append(line)
            print(line, flush=True)
    return lines


def main(argv: list[str] | None = None) -> None:
    from text2world.store.datasets import load_dataset
    from text2world.tasks.wm.generators import sized_records

    parser = argparse.ArgumentParser(description="Write the answer keys of the propose items")
    parser.add_argument("--domains", default=None, help="comma-separated ids (all)")
    parser.add_argument("--size", choices=("hard", "easy", "both"), default="hard",
                        help="hard: the generated problems (default); easy: the store's own")
    parser.add_argument("--missing", action="store_true",
                        help="only domains with a missing or stale key (resume)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="domains built at once, one process each (default 1)")
    parser.add_argument("--record-unanswered", action="store_true",
                        help="only record, in the current keys, the actions the planner left "
                             "unanswered (read off each key, no planner)")
    args = parser.parse_args(argv)
    records = load_dataset().select("all", args.domains.split(",") if args.domains else None)
    records = [r for r in records if r.problems]
    chosen: list[tuple[Record, bool]] = []
    if args.size in ("hard", "both"):  # a domain the generator cannot scale keeps its own
        chosen += [(r, True) for r in sized_records(records, "hard")
                   if "generator_error" not in r.meta]
    if args.size in ("easy", "both"):
        chosen += [(r, False) for r in records]
    if args.record_unanswered:
        for record, generated in chosen:
            path = keys_path(record.id, None, generated)
            entries = problem_entries(path)
            if not entries:
                continue
            updated = unanswered_from_key(record, entries)
            left = sum(len(actions) for entry in updated.values() if isinstance(entry, dict)
                       for actions in (entry.get("unanswered") or {}).values())
            atomic_write_text(path, json.dumps({"format": FORMAT, "problems": updated},
                                               indent=0) + "\n")
            print(f"{record.id}{' (generated)' if generated else ''}: {left} unanswered "
                  "actions recorded", flush=True)
        return
    write_keys(chosen, only_missing=args.missing, jobs=args.jobs)


if __name__ == "__main__":
    main(sys.argv[1:])
