"""The in-process planner against Fast Downward, problem by problem.

Jobs: every store problem, and every released gold on a synthetic problem (the released set
ships no problems; ``crosscheck.synthetic_problem`` makes one per gold, as ``sim_bench.py``
does: small, a random atom as the goal, so some are unsolvable). For each job:

- satisficing: ``planner_front``'s search (lazy greedy best-first, h_FF, its bounds) against
  Fast Downward ``lama-first`` (the fallback): solved / unsolvable / bound, plan lengths, CPU
  (the search in this process, with its grounding, on a simulator built beforehand as semantic
  scoring has one; Fast Downward's driver, translator and search as child-process CPU);
- every plan found in-process is validated in the simulator and, unless ``--no-up-check``, in
  unified-planning's validator (its own parse of the texts);
- ``--optimal``: the world-model planner's A* (h_max, its bounds) against Fast Downward's A*
  (LM-cut, blind where LM-cut lacks support): plan costs must be equal where both solve.

Prints one line per job and a summary: problems solved by each, the share the search hands to
Fast Downward (bound reached), plan lengths, CPU totals and the per-problem CPU ratio.

    python bench/planner_bench.py [--store-only | --released-only] [--limit N] [--optimal]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["T2W_HOME"] = tempfile.mkdtemp(prefix="t2w-planner-bench-")  # no cached answers

from text2world.pddl.model import parse_domain  # noqa: E402
from text2world.planning.fast_downward import fast_downward_plan  # noqa: E402
from text2world.planning.front import FRONT_LIMITS  # noqa: E402
from text2world.simulation import simulator_from_text  # noqa: E402
from text2world.simulation.crosscheck import synthetic_problem, up_plan_valid  # noqa: E402
from text2world.simulation.search import greedy_search, optimal_search  # noqa: E402
from text2world.store.datasets import load_dataset  # noqa: E402
from text2world.tasks.wm import planner as wm_planner  # noqa: E402

OFFICIAL = ROOT.parent / "shared" / "text2world-official" / "test.json"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def jobs(args) -> list[tuple[str, str, str]]:
    found = []
    if not args.released_only:
        for record in sorted(load_dataset().records, key=lambda r: r.id):
            found += [(f"store {record.id}/{p.name}", record.domain, p.pddl)
                      for p in record.problems]
    if not args.store_only and OFFICIAL.exists():
        for record in json.loads(OFFICIAL.read_text()):
            try:
                problem = synthetic_problem(parse_domain(record["pddl_domain"]), seed=0)
            except Exception as err:  # noqa: BLE001 - the released set has a broken gold
                print(f"SKIP released {record['id']}: {type(err).__name__}")
                continue
            found.append((f"released {record['id']}", record["pddl_domain"], problem))
    return found[:args.limit] if args.limit else found


def fd_status(result) -> str:
    if result.solved:
        return "solved"
    return {"UNSOLVABLE_PROVEN": "unsolvable", "UNSOLVABLE_INCOMPLETELY": "unsolvable",
            "Timeout": "timeout"}.get(result.status, "error")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store-only", action="store_true")
    parser.add_argument("--released-only", action="store_true")
    parser.add_argument("--limit", type=int, default=0, help="only the first N jobs")
    parser.add_argument("--optimal", action="store_true",
                        help="also compare optimal search with Fast Downward's A*")
    parser.add_argument("--fd-timeout", type=float, default=20.0)
    parser.add_argument("--no-up-check", action="store_true")
    args = parser.parse_args()

    rows = []
    started = time.time()
    for key, domain_text, problem_text in jobs(args):
        try:
            sim = simulator_from_text(domain_text, problem_text)
        except Exception as err:  # noqa: BLE001 - the simulator cannot run it: FD's alone
            sim, why = None, f"{type(err).__name__}: {err}"
        before = time.process_time()
        ours = greedy_search(sim, limits=FRONT_LIMITS) if sim is not None else None
        ours_cpu = time.process_time() - before
        before = children_cpu()
        theirs = fast_downward_plan(domain_text, problem_text, timeout=args.fd_timeout)
        fd_cpu = children_cpu() - before
        row = {"key": key, "ours": ours.status if ours else "unsupported",
               "ours_len": len(ours.plan) if ours and ours.solved else None,
               "fd": fd_status(theirs), "fd_len": theirs.plan_length, "ours_cpu": ours_cpu,
               "fd_cpu": fd_cpu, "valid": None, "up_valid": None,
               "bound": ours.bound if ours else why[:60]}
        if ours and ours.solved:
            row["valid"] = sim.validate_plan(ours.plan).valid
            if not args.no_up_check:
                try:
                    row["up_valid"] = up_plan_valid(domain_text, problem_text, ours.steps())
                except Exception:  # noqa: BLE001 - UP cannot parse some texts: not checked
                    row["up_valid"] = "n/a"
        if args.optimal and sim is not None:
            before = time.process_time()
            best = optimal_search(sim, limits=wm_planner.SEARCH_LIMITS)
            row["opt_cpu"] = time.process_time() - before
            before = children_cpu()
            reference = wm_planner._fast_downward(domain_text, problem_text, args.fd_timeout,
                                                  optimal=True)
            row["fd_opt_cpu"] = children_cpu() - before
            row["opt"], row["opt_cost"] = best.status, best.cost
            row["fd_opt"], row["fd_opt_cost"] = reference.status, reference.cost
        rows.append(row)
        extra = (f"  optimal {row['opt']} {row['opt_cost']} vs {row['fd_opt']} "
                 f"{row['fd_opt_cost']}" if "opt" in row else "")
        print(f"{key[:44]:44s} ours {row['ours']:10s} {row['ours_len'] or '-':>4} "
              f"{ours_cpu:6.3f}s  FD {row['fd']:10s} {row['fd_len'] or '-':>4} {fd_cpu:6.3f}s"
              f"  {row['bound']}{extra}", flush=True)
    summarize(rows, args, time.time() - started)


def summarize(rows: list[dict], args, wall: float) -> None:
    print()
    for group in ("store", "released"):
        part = [r for r in rows if r["key"].startswith(group)]
        if not part:
            continue
        n = len(part)
        ours_solved = sum(r["ours"] == "solved" for r in part)
        ours_unsolvable = sum(r["ours"] == "unsolvable" for r in part)
        fd_solved = sum(r["fd"] == "solved" for r in part)
        fd_unsolvable = sum(r["fd"] == "unsolvable" for r in part)
        handed = [r for r in part if r["ours"] in ("bound", "unsupported")]
        both = [r for r in part if r["ours"] == "solved" and r["fd"] == "solved"]
        contradictions = [r["key"] for r in part
                          if {r["ours"], r["fd"]} == {"solved", "unsolvable"}]
        invalid = [r["key"] for r in part if r["valid"] is False or r["up_valid"] is False]
        up_checked = sum(r["up_valid"] is True for r in part)
        ratio = [r["ours_len"] / r["fd_len"] for r in both if r["fd_len"]]
        settled = [r for r in part if r["ours"] in ("solved", "unsolvable")]
        cpu_ratio = [r["fd_cpu"] / max(r["ours_cpu"], 1e-4) for r in settled]
        print(f"{group}: {n} problems; in-process solved {ours_solved}, proved unsolvable "
              f"{ours_unsolvable}, handed to Fast Downward {len(handed)} "
              f"({100 * len(handed) / n:.1f}%: " + ", ".join(sorted(
                  {str(r['bound']) for r in handed})) + f"); Fast Downward lama-first solved "
              f"{fd_solved}, unsolvable {fd_unsolvable}")
        print(f"  plans: {len(both)} solved by both, length ours / FD median "
              f"{statistics.median(ratio) if ratio else float('nan'):.2f}, total "
              f"{sum(r['ours_len'] for r in both)} / {sum(r['fd_len'] for r in both)}; "
              f"invalid in-process plans {len(invalid)} {invalid[:5]}; unified-planning "
              f"validated {up_checked}; solved-vs-unsolvable contradictions "
              f"{len(contradictions)} {contradictions[:5]}")
        ours_total = sum(r["ours_cpu"] for r in part)
        fd_total = sum(r["fd_cpu"] for r in part)
        print(f"  CPU: in-process {ours_total:.1f}s (settled problems "
              f"{sum(r['ours_cpu'] for r in settled):.1f}s, median "
              f"{statistics.median(r['ours_cpu'] for r in settled) if settled else 0:.4f}s), "
              f"Fast Downward {fd_total:.1f}s (median "
              f"{statistics.median(r['fd_cpu'] for r in part):.3f}s); FD / in-process per "
              f"settled problem: median {statistics.median(cpu_ratio) if cpu_ratio else 0:.0f}x")
        if args.optimal:
            opt = [r for r in part if "opt" in r]
            both_opt = [r for r in opt if r["opt"] == "solved" and r["fd_opt"] == "solved"]
            unequal = [r["key"] for r in both_opt if r["opt_cost"] != r["fd_opt_cost"]]
            print(f"  optimal: in-process A* solved {sum(r['opt'] == 'solved' for r in opt)}, "
                  f"proved unsolvable {sum(r['opt'] == 'unsolvable' for r in opt)}, bound "
                  f"{sum(r['opt'] == 'bound' for r in opt)}; Fast Downward A* solved "
                  f"{sum(r['fd_opt'] == 'solved' for r in opt)}; both {len(both_opt)}, equal "
                  f"costs {len(both_opt) - len(unequal)}, unequal {unequal[:5]}; CPU "
                  f"{sum(r['opt_cpu'] for r in opt):.1f}s vs "
                  f"{sum(r['fd_opt_cpu'] for r in opt):.1f}s")
    load = os.getloadavg()
    print(f"wall {wall:.0f}s, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


if __name__ == "__main__":
    main()
