"""``t2w wm``: the world-model tasks (next-state, verify, verify-rollout, propose, plan),
``t2w wm build`` and ``t2w wm both-ways``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.table import Table

from text2world.cli.common import choices, console, err_console, fail, print_json, say
from text2world.cli.run_options import RUN_FLAGS, SHARED_FLAGS, RunFlags, with_run_options
from text2world.cli.runs import (
    ProgressObserver,
    explicit_flags,
    infrastructure_note,
    quiet_option,
    reference_notice,
    resumed_options,
    run_guarded,
    split_ids,
    spread_table,
)
from text2world.errors import Text2WorldError
from text2world.model.environment import prepare_litellm_environment
from text2world.reports.rendering import count_of, print_table

if TYPE_CHECKING:
    from text2world.tasks.wm.records import WmSummary

prepare_litellm_environment()  # before any command imports litellm

app = typer.Typer(help="LLMs as world models in action: next-state prediction, plan "
                       "verification, action proposal, planning with the model alone.",
                  no_args_is_help=True)

Rules = choices("Rules", ("pddl", "concrete", "abstract", "none"))
Render = choices("Render", ("atoms", "text"))
Form = choices("Form", ("full", "diff"))
TASK_NAMES = ("next-state", "verify", "verify-rollout", "propose", "plan")
Task = choices("Task", TASK_NAMES)
Size = choices("Size", ("hard", "easy"))

# The metrics shown per task in the terminal (the summary and report hold them all).
SHOWN = {
    "next-state": [("accuracy", "acc"), ("illegal_accuracy", "illegal"),
                   ("static_transition_accuracy", "static"),
                   ("dynamic_transition_accuracy", "dynamic"),
                   ("state_f1", "F1 state")],
    "verify": [("accuracy", "acc"), ("false_positive_rate", "FP rate"),
               ("false_negative_rate", "FN rate"), ("step_accuracy", "step acc")],
    "verify-rollout": [("accuracy", "acc"), ("false_positive_rate", "FP rate"),
                       ("false_negative_rate", "FN rate"), ("step_accuracy", "step acc"),
                       ("rollout_state_accuracy", "state acc")],
    "propose": [(f"hit@{k}", f"hit@{k}") for k in (1, 2, 3, 5, 10)]
    + [("strict_hit@1", "strict@1"), ("applicable@1", "appl@1")],
    "plan": [("success", "success"), ("declared_done", "done"),
             ("state_accuracy", "state acc"), ("cost_ratio", "cost/opt")],
}


LIMIT_DOMAINS_HELP = ("Only the first N domains (each gives several items: its problems, "
                      "rho levels and steps).")


def domain_limit(limit_domains: int | None, limit: int | None) -> int | None:
    """``--limit-domains``; ``--limit`` counts items in every other command, so here it is
    refused with the flag to use instead of silently meaning domains."""
    if limit is not None:
        fail(f"--limit {limit}: t2w wm selects whole domains, each giving several items; use "
             f"--limit-domains {limit}")
    return limit_domains


def parse_rhos(text: str) -> tuple[float, ...]:
    try:
        values = tuple(float(v) for v in text.split(",") if v.strip())
    except ValueError:
        fail(f"--rho {text!r}: expected comma-separated numbers such as 0.25,0.5,0.75,1")
    if not values or any(not 0.0 < v <= 1.0 for v in values):
        fail(f"--rho {text!r}: every rho must be in (0, 1]")
    return values


def summary_table(summary: WmSummary, intervals: dict | None = None) -> Table:
    """The model's rows (all, then by rho), then each baseline's row on the same items.
    Columns the run cannot fill (hit@K above the K asked) are left out. With ``intervals``
    ({"all": {metric: interval}, "rho": {rho: {...}}}, as ``t2w report`` computes them) each
    mean carries its 95% interval."""
    from text2world.stats import format_interval
    from text2world.tasks.wm.metrics import shown

    task = summary["task"]
    metrics = summary["metrics"]
    overall = metrics["all"]["all"]
    columns = [(key, header) for key, header in SHOWN[str(task)]
               if not key.startswith(("hit@", "strict_hit@")) or overall.get(key) is not None]
    table = Table(title=f"wm {task}: {summary['model']}, rules {summary['rules']}, "
                        + (summary.get("protocol") or "")
                        + (", mystery" if summary.get("mystery") else "")
                        + (f", {summary['size']}" if summary.get("size") else "")
                        + (" (% unless noted; cost/opt a ratio)" if ("cost_ratio", "cost/opt") in columns
                           else " (%)"))
    table.caption = "baseline: a trivial strategy scored on the same items"
    table.add_column("rho", min_width=12)
    table.add_column("items", justify="right", no_wrap=True)
    table.add_column("fmt err", justify="right", no_wrap=True)
    for _, header in columns:
        table.add_column(header, justify="right", no_wrap=True)
    rows = [("all", overall)] + list(metrics["rho"].items())
    rows += [(f"baseline {name}", row)
             for name, row in (overall.get("baselines") or {}).items()]
    for label, row in rows:
        errors = row["format_errors"]
        cis = ((intervals or {}).get("all") if label == "all"
               else ((intervals or {}).get("rho") or {}).get(label)) or {}
        table.add_row(label, str(row["items"]),
                      f"{errors} ({row['format_error_rate']:.0%})" if errors else "0",
                      *(format_interval(cis[key]) if key in cis and key != "cost_ratio"
                        else shown(key, row.get(key)) for key, _ in columns))
    return table


# Options that only some tasks use: hidden from the others' --help, refused if given to them.
TASK_ONLY = {"form": ("next-state",), "illegal_share": ("next-state",),
             "off_plan_share": ("next-state",), "static_share": ("next-state",),
             "examples": ("next-state",), "k": ("propose", "plan"),
             "slack": ("propose",), "per_k": ("propose",)}


def _task_command(task: str):
    def hidden(name: str) -> bool:
        return task not in TASK_ONLY.get(name, (task,))

    @with_run_options(seed_help="Seed of the items and reference models.")
    def command(
        ctx: typer.Context,
        model: str = typer.Option(None, "--model", "-m",
                                  help="Alias or litellm model string; reference/oracle and "
                                       "reference/noisy-oracle run offline."),
        size: Size = typer.Option("hard", "--size",  # type: ignore[valid-type]  # typer choices: an enum made at runtime
                                  help="hard: generated problems with many applicable actions "
                                       "per state; easy: the store's small problems."),
        mystery: bool = typer.Option(False, "--mystery",
                                     help="Obfuscated worlds: every name replaced by a seeded "
                                          "nonsense word, descriptions rewritten to match."),
        rules: Rules = typer.Option("pddl", "--rules",  # type: ignore[valid-type]  # typer choices: an enum made at runtime
                                    help="What the model is told about the domain."),
        render: Render = typer.Option("atoms", "--render",  # type: ignore[valid-type]  # typer choices: an enum made at runtime
                                      help="States as PDDL atoms or as sentences from the "
                                           "description."),
        form: Form = typer.Option("full", "--form", hidden=hidden("form"),  # type: ignore[valid-type]  # typer choices: an enum made at runtime
                                  help="Predict the full state or the diff."),
        rhos: str = typer.Option("0.25,0.5,0.75,1", "--rho",
                                 help="Shares of the plan the model handles."),
        k: int = typer.Option(None, "--top-k", "-k", hidden=hidden("k"),
                              help=("Actions asked for (default 10; hit@1,2,3,5,10)."
                                    if task == "propose" else
                                    "Candidates per step (default 1; K > 1: the model "
                                    "checks its own candidates).")),
        per_k: bool = typer.Option(False, "--per-k", hidden=hidden("per_k"),
                                   help="A separate query per K in 1,2,3,5,10 (up to -k); "
                                        "hit@K from the K-query's answer."),
        slack: float = typer.Option(0.0, "--slack", hidden=hidden("slack"),
                                    help="Extra cost over the optimum a hit may take (0: only "
                                         "actions on some optimal plan)."),
        illegal_share: float = typer.Option(0.25, "--illegal-share",
                                            hidden=hidden("illegal_share"),
                                            help="Share of inapplicable actions."),
        off_plan_share: float = typer.Option(0.25, "--off-plan-share",
                                             hidden=hidden("off_plan_share"),
                                             help="Share of states reached by a seeded random "
                                                  "walk instead of the plan."),
        static_share: float = typer.Option(0.15, "--static-share",
                                           hidden=hidden("static_share"),
                                           help="Share of actions that change nothing (where "
                                                "the state has one)."),
        examples: int = typer.Option(0, "--examples", hidden=hidden("examples"),
                                     help="Worked examples from the train split (other "
                                          "domains) in every prompt (0-8)."),
        problems_per_domain: int = typer.Option(None, "--problems",
                                                help="Problems per domain (all)."),
        dataset: str = typer.Option("text2world", "--dataset"),
        split: str = typer.Option("test", "--split", help="test, train or all."),
        limit: int = typer.Option(None, "--limit-domains", help=LIMIT_DOMAINS_HELP),
        items_limit: int = typer.Option(None, "--limit", hidden=True),  # refused: counts items
        domains: str = typer.Option(None, "--domains", help="Comma-separated domain ids."),
        run_flags: RunFlags = SHARED_FLAGS,
        planner_timeout: float = typer.Option(20.0, "--planner-timeout",
                                              help="Seconds per Fast Downward call."),
        quiet: bool = quiet_option(),
        as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
    ) -> None:
        args = dict(locals())
        args.pop("ctx")
        args.pop("hidden", None)
        args.update(args.pop("run_flags"))
        run_task(task, ctx, args)

    command.__doc__ = {
        "next-state": "Predict the state after an action (or say it is not applicable).",
        "verify": "Say whether the rest of a plan reaches the goal, and where it fails.",
        "verify-rollout": "Roll a plan out step by step as the world model (each step's "
                          "state), then say whether the goal holds.",
        "propose": "Propose the top-K next actions; a hit keeps the goal optimally reachable.",
        "plan": "Plan with the model alone (its own proposals and predicted states).",
    }[task]
    return command


def run_task(task: str, ctx: typer.Context, args: dict) -> None:
    from text2world.engine.summary import done_phrase
    from text2world.tasks.wm.task import WmOptions, options_from_run, plan, run_wm

    flags = explicit_flags(ctx)
    for name, tasks in TASK_ONLY.items():
        if name in flags and task not in tasks:
            fail(f"{flags[name]} applies to t2w wm {' and '.join(tasks)}, not to {task}")
    given = WmOptions(
        model=args["model"] or "", task=task, size=str(args["size"]),
        mystery=args["mystery"], rules=str(args["rules"]),
        render=str(args["render"]), form=str(args["form"]), rhos=parse_rhos(args["rhos"]),
        k=args["k"], slack=args["slack"], per_k=args["per_k"],
        illegal_share=args["illegal_share"], off_plan_share=args["off_plan_share"],
        static_share=args["static_share"], examples=args["examples"],
        problems_per_domain=args["problems_per_domain"],
        dataset=args["dataset"], split=args["split"],
        limit=domain_limit(args["limit"], args["items_limit"]),
        domains=split_ids(args["domains"]), planner_timeout=args["planner_timeout"],
        **{name: args[name] for name in RUN_FLAGS})
    try:
        if args["resume"] is not None:
            resumed = options_from_run(args["resume"], args["runs_root"])
            if resumed.task != task:
                fail(f"{args['resume']} is a {resumed.task} run: resume it with "
                     f"t2w wm {resumed.task} --resume")
            if resumed.k is not None and "k" not in flags:
                given.k = resumed.k
            options = resumed_options(resumed, given, flags)
        else:
            if not args["model"]:
                fail("no model given: pass --model (e.g. reference/oracle), or --resume RUN")
            options = given
        status = console.status("building items (optimal plans are cached after the first "
                                "run)") if not args["as_json"] and console.is_terminal else None
        if status is not None:
            status.start()
        try:
            wm_plan = plan(options)
        finally:
            if status is not None:
                status.stop()
    except Text2WorldError as err:
        fail(str(err))
    reference_notice(wm_plan.spec, err_console if args["as_json"] else None)
    observer = ProgressObserver(f"wm {task}", quiet=args["quiet"] or args["as_json"])
    result = run_guarded(f"t2w wm {task}", wm_plan.run_path, observer,
                         lambda: run_wm(wm_plan.options, observer, wm_plan))
    summary = result.summary
    if args["as_json"]:
        print_json(summary)
    else:
        print_table(console, summary_table(summary))
        spread = spread_table(str(summary.get("model") or "run"), dict(summary))
        if spread is not None:  # --epochs: the headline values of each epoch and their spread
            print_table(console, spread)
        if wm_plan.built.skipped:
            say(f"{count_of(len(wm_plan.built.skipped), 'problem')} skipped (see config.json "
                "skipped_problems)")
        say(f"run: {result.run.path} ({done_phrase(summary, result.new_items)}, "
            f"{summary['calls']} calls, {summary['cached_calls']} from cache, "
            f"${summary['cost_paid']:.4f} paid, {result.wall_time:.1f}s)")
    infrastructure_note(result, f"t2w wm {task}")
    if not args["as_json"]:
        say(f"report: t2w report {result.run.path}")


for _name in TASK_NAMES:
    app.command(_name)(_task_command(_name))


def first_prompt(item: dict, record) -> str:
    """The item's (first) prompt with the default settings: PDDL rules, states as atoms, the
    full next state, 10 proposals, so the exported items run anywhere as they are."""
    from text2world.tasks.wm import prompts

    if item["task"] == "next-state":
        return prompts.next_state_prompt(item, record, "pddl", "atoms", "full")
    if item["task"] == "verify":
        return prompts.verify_prompt(item, record, "pddl", "atoms")
    if item["task"] == "verify-rollout":  # its first call: the state after the first step
        return prompts.next_state_prompt({**item, "action": (item["plan"] or ["(none)"])[0]},
                                         record, "pddl", "atoms", "full")
    if item["task"] == "propose":
        return prompts.propose_prompt(item, record, "pddl", "atoms", 10)
    return prompts.plan_step_prompt(item, record, "pddl", "atoms", item["state"], [])


@app.command("build")
def build_command(
    out: Path = typer.Option(None, "--out", "-o",
                             help="JSONL file to write (default: standard output)."),
    task: list[Task] = typer.Option(None, "--task", "-t", help="Tasks (repeatable; all)."),  # type: ignore[valid-type]  # typer choices: an enum made at runtime
    rho: str = typer.Option("0.25,0.5,0.75,1", "--rho"),
    size: Size = typer.Option("hard", "--size", help="hard (generated) or easy (the store's)."),  # type: ignore[valid-type]  # typer choices: an enum made at runtime
    mystery: bool = typer.Option(False, "--mystery", help="Obfuscated worlds."),
    illegal_share: float = typer.Option(0.25, "--illegal-share"),
    off_plan_share: float = typer.Option(0.25, "--off-plan-share"),
    problems: int = typer.Option(None, "--problems", help="Problems per domain (all)."),
    dataset: str = typer.Option("text2world", "--dataset"),
    split: str = typer.Option("test", "--split"),
    limit_domains: int = typer.Option(None, "--limit-domains", help=LIMIT_DOMAINS_HELP),
    limit: int = typer.Option(None, "--limit", hidden=True),
    domains: str = typer.Option(None, "--domains"),
    seed: int = typer.Option(0, "--seed"),
) -> None:
    """Write the task items (one JSON object per line), deterministic for the seed."""
    from text2world.files import atomic_write_text, check_output_file
    from text2world.tasks.wm.task import WmError, WmOptions, build

    # with the items on standard output, the progress and counts go to standard error
    messages = console if out is not None else err_console
    if out is not None:
        check_output_file(out, "--out")  # before the items are built
    tasks = [str(t) for t in task] if task else list(SHOWN)
    lines, skipped = [], set()
    domain_ids = [d.strip() for d in domains.split(",") if d.strip()] if domains else None
    with messages.status("building items"):
        for name in tasks:
            options = WmOptions(task=name, size=str(size), mystery=mystery,
                                rhos=parse_rhos(rho), illegal_share=illegal_share,
                                off_plan_share=off_plan_share,
                                problems_per_domain=problems, dataset=dataset, split=split,
                                limit=domain_limit(limit_domains, limit), domains=domain_ids,
                                seed=seed)
            try:
                _, records, built = build(options)
            except WmError as err:
                fail(str(err))
            by_id = {r.id: r for r in records}
            lines += [json.dumps({**item, "prompt": first_prompt(item, by_id[item["domain"]])},
                                 ensure_ascii=False) for item in built.items]
            skipped.update(built.skipped)
            say(f"{name}: {count_of(len(built.items), 'item')}", to=messages)
    if out is None:
        sys.stdout.write("\n".join(lines) + "\n" if lines else "")
        sys.stdout.flush()
    else:
        try:
            atomic_write_text(out, "\n".join(lines) + "\n", what="--out")
        except OSError as err:
            fail(str(err))
    for reason in sorted(skipped):
        say(f"skipped: {reason}", to=messages)
    say(f"{count_of(len(lines), 'item')} written to {'standard output' if out is None else out}",
        to=messages)


def report_wm(runs: list[Path], out: Path | None, as_json: bool, markdown: bool) -> None:
    """``t2w report`` for world-model runs."""
    from text2world.reports.wm import WmReportError, build_wm_report

    try:
        report = build_wm_report(runs, out)
    except WmReportError as err:
        fail(str(err))
    if as_json:
        print_json(report.data)
        return
    if markdown:
        typer.echo(report.markdown)
    else:
        for row in report.data["runs"]:
            print_table(console, summary_table({
                "task": row["task"], "model": row["model"], "rules": row["rules"],
                "protocol": row.get("protocol"), "size": row.get("size"),
                "mystery": row.get("mystery"), "metrics": {"all": {"all": row["all"]},
                                        "rho": report.data["by_rho"][row["run"]]}},
                report.data["intervals"][row["run"]]))
            spread = spread_table(row["label"], (report.data.get("epochs") or {}).get(row["run"], {}))
            if spread is not None:
                print_table(console, spread)
    say(f"world-model report written to {report.out_dir}/")
    say("files: " + ", ".join(sorted(p.name for p in report.files)))


@app.command("both-ways")
def both_ways_command(
    eval_run: Path = typer.Argument(..., help="The model's t2w eval run."),
    wm_run: Path = typer.Argument(..., help="The same model's t2w wm next-state run."),
    as_json: bool = typer.Option(False, "--json", help="Print the comparison as JSON."),
) -> None:
    """The same world both ways: the model's own generated domain (simulated by us) against
    its direct next-state answers, each against the truth."""
    from text2world.reports.both_ways import BothWaysError, build_both_ways

    try:
        result = build_both_ways(eval_run, wm_run)
    except BothWaysError as err:
        fail(str(err))
    if as_json:
        print_json({k: v for k, v in result.data.items() if k != "rows"})
    else:
        typer.echo(result.markdown)


@app.command("mystery")
def mystery_command(
    out: Path = typer.Option(..., "--out", "-o", help="New folder to write the store into."),
    split: str = typer.Option("all", "--split", help="test, train or all."),
    domains: str = typer.Option(None, "--domains", help="Comma-separated domain ids."),
    seed: int = typer.Option(0, "--seed", help="Seed of the nonsense names."),
) -> None:
    """Write mystery copies of the store (every name replaced by a seeded nonsense word,
    descriptions and problems to match) as a store folder: t2w eval --dataset OUT runs the
    generation task on them, t2w wm --mystery runs the world-model tasks."""
    from text2world.store.datasets import DatasetError, load_dataset
    from text2world.tasks.wm.mystery import write_mystery_store

    try:
        records = load_dataset().select(split, split_ids(domains))
        folder = write_mystery_store(records, out, seed)
    except (DatasetError, ValueError) as err:
        fail(str(err))
    say(f"{count_of(len(records), 'mystery domain')} written to {folder}\n"
        f"evaluate a model on them: t2w eval --dataset {folder}")
