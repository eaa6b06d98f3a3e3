"""``t2w wm``: the world-model tasks (next-state, verify, propose, plan) and ``t2w wm build``."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from text2world.model.client import prepare_litellm_environment
from text2world.cli.common import choices, console, err_console, fail, print_json

prepare_litellm_environment()  # before any command imports litellm

app = typer.Typer(help="LLMs as world models in action: next-state prediction, plan "
                       "verification, action proposal, planning with the model alone.",
                  no_args_is_help=True)

Rules = choices("Rules", ("pddl", "concrete", "abstract", "none"))
Render = choices("Render", ("atoms", "text"))
Form = choices("Form", ("full", "diff"))
Task = choices("Task", ("next-state", "verify", "propose", "plan"))

# The metrics shown per task in the terminal (the summary and report hold them all).
SHOWN = {
    "next-state": [("accuracy", "acc"), ("exact_legal", "exact"), ("illegal_accuracy", "illegal"),
                   ("state_f1", "F1 state"), ("dynamic_f1", "F1 dyn"), ("static_f1", "F1 stat")],
    "verify": [("accuracy", "acc"), ("false_positive_rate", "FP rate"),
               ("false_negative_rate", "FN rate"), ("step_accuracy", "step acc")],
    "propose": [("hit@1", "hit@1"), ("hit@3", "hit@3"), ("hit@5", "hit@5"),
                ("hit@10", "hit@10"), ("applicable@1", "appl@1")],
    "plan": [("success", "success"), ("declared_done", "done"),
             ("state_accuracy", "state acc"), ("cost_ratio", "cost/opt")],
}


def parse_rhos(text: str) -> tuple[float, ...]:
    try:
        values = tuple(float(v) for v in text.split(",") if v.strip())
    except ValueError:
        fail(f"--rho {text!r}: expected comma-separated numbers such as 0.25,0.5,0.75,1")
    if not values or any(not 0.0 < v <= 1.0 for v in values):
        fail(f"--rho {text!r}: every rho must be in (0, 1]")
    return values


def _value(value) -> str:
    if value is None:
        return "-"
    return f"{100 * value:.1f}" if isinstance(value, float) and value <= 1.0 else f"{value:.2f}"


def summary_table(summary: dict, intervals: dict | None = None) -> Table:
    """The run's metrics overall and by rho; with ``intervals`` ({"all": {metric: interval},
    "rho": {rho: {...}}}, as ``t2w report`` computes them) each mean with its 95% interval."""
    from text2world.reports.statistics import format_interval

    task = summary["task"]
    table = Table(title=f"wm {task}: {summary['model']}, rules {summary['rules']}"
                        + (f", {summary['form']} state" if task == "next-state" else "")
                        + " (% unless noted)")
    table.add_column("rho")
    table.add_column("items", justify="right")
    table.add_column("format err", justify="right")
    for _, header in SHOWN[task]:
        table.add_column(header, justify="right")
    metrics = summary["metrics"]
    rows = [("all", metrics["all"]["all"])] + list(metrics["rho"].items())
    for label, row in rows:
        cis = ((intervals or {}).get("all") if label == "all"
               else ((intervals or {}).get("rho") or {}).get(label)) or {}
        table.add_row(label, str(row["items"]), str(row["format_errors"]),
                      *(format_interval(cis[key]) if key in cis and key != "cost_ratio"
                        else _value(row.get(key)) for key, _ in SHOWN[task]))
    return table


def _task_command(task: str):
    def command(
        model: str = typer.Option(None, "--model", "-m",
                                  help="Alias or litellm model string; reference/oracle and "
                                       "reference/noisy-oracle run offline."),
        rules: Rules = typer.Option("pddl", "--rules",
                                    help="What the model is told about the domain."),
        render: Render = typer.Option("atoms", "--render",
                                      help="States as PDDL atoms or as sentences from the "
                                           "description."),
        form: Form = typer.Option("full", "--form",
                                  help="next-state: predict the full state or the diff."),
        rho: str = typer.Option("0.25,0.5,0.75,1", "--rho",
                                help="Shares of the plan the model handles."),
        k: int = typer.Option(None, "-k",
                              help="propose: actions asked for (default 10; hit@1,3,5,10); "
                                   "plan: candidates per step (default 1; K > 1: the model "
                                   "checks its own candidates)."),
        slack: float = typer.Option(1.0, "--slack",
                                    help="propose: extra cost over the optimum a hit may take."),
        illegal_share: float = typer.Option(0.25, "--illegal-share",
                                            help="next-state: share of inapplicable actions."),
        off_plan_share: float = typer.Option(0.25, "--off-plan-share",
                                             help="next-state: share of states reached by a "
                                                  "seeded random walk instead of the plan."),
        problems: int = typer.Option(None, "--problems", help="Problems per domain (all)."),
        dataset: str = typer.Option("text2world", "--dataset"),
        split: str = typer.Option("test", "--split", help="test, train or all."),
        limit: int = typer.Option(None, "--limit", help="Only the first N domains."),
        domains: str = typer.Option(None, "--domains", help="Comma-separated domain ids."),
        api_base: str = typer.Option(None, "--api-base", help="OpenAI-compatible endpoint."),
        temperature: float = typer.Option(0.0, "--temperature"),
        max_tokens: int = typer.Option(None, "--max-tokens"),
        max_concurrency: int = typer.Option(4, "--max-concurrency", "-j"),
        timeout: float = typer.Option(600.0, "--timeout", help="Seconds per call."),
        max_retries: int = typer.Option(5, "--max-retries"),
        planner_timeout: float = typer.Option(20.0, "--planner-timeout",
                                              help="Seconds per Fast Downward call."),
        no_cache: bool = typer.Option(False, "--no-cache"),
        seed: int = typer.Option(0, "--seed", help="Seed of the items and reference models."),
        run_id: str = typer.Option(None, "--run-id"),
        resume: Path = typer.Option(None, "--resume", help="Resume this run directory."),
        as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
    ) -> None:
        run_task(task, locals())

    command.__doc__ = {
        "next-state": "Predict the state after an action (or say it is not applicable).",
        "verify": "Say whether the rest of a plan reaches the goal, and where it fails.",
        "propose": "Propose the top-K next actions; a hit keeps the goal optimally reachable.",
        "plan": "Plan with the model alone (its own proposals and predicted states).",
    }[task]
    return command


def run_task(task: str, args: dict) -> None:
    from text2world.model.client import FatalModelError
    from text2world.engine.run_store import RunError
    from text2world.tasks.wm.runner import WmError, WmOptions, options_from_run, plan, run_wm

    try:
        if args["resume"] is not None:
            options = options_from_run(args["resume"], max_concurrency=args["max_concurrency"],
                                       timeout=args["timeout"])
            if options.task != task:
                fail(f"{args['resume']} is a {options.task} run: resume it with "
                     f"t2w wm {options.task} --resume")
        else:
            if not args["model"]:
                fail("no model given: pass --model (e.g. reference/oracle), or --resume RUN")
            domain_ids = ([d.strip() for d in args["domains"].split(",") if d.strip()]
                          if args["domains"] else None)
            options = WmOptions(
                model=args["model"], task=task, rules=str(args["rules"]),
                render=str(args["render"]), form=str(args["form"]),
                rhos=parse_rhos(args["rho"]), k=args["k"], slack=args["slack"],
                illegal_share=args["illegal_share"], off_plan_share=args["off_plan_share"],
                problems_per_domain=args["problems"],
                dataset=args["dataset"], split=args["split"], limit=args["limit"],
                domains=domain_ids, api_base=args["api_base"],
                temperature=args["temperature"], max_tokens=args["max_tokens"],
                max_concurrency=args["max_concurrency"], timeout=args["timeout"],
                max_retries=args["max_retries"], planner_timeout=args["planner_timeout"],
                use_cache=not args["no_cache"], seed=args["seed"], run_id=args["run_id"])
        with console.status("building items (optimal plans are cached after the first run)"):
            wm_plan = plan(options)
    except (WmError, RunError) as err:
        fail(str(err))
    if wm_plan.spec.is_reference:
        where = err_console if args["as_json"] else console  # --json keeps stdout JSON
        where.print(f"[yellow]{wm_plan.spec.name} is a REFERENCE MODEL[/] (offline, backed by "
                    "the simulator and planner): it checks the pipeline, it is not an LLM "
                    "result.")
    progress = None
    if console.is_terminal and not args["as_json"]:
        progress = Progress(TextColumn(f"[bold]wm {task}[/]"), BarColumn(),
                            MofNCompleteColumn(), TimeElapsedColumn(), console=console)
        progress.start()
        bar = progress.add_task(task, total=len(wm_plan.built.items))

    def observe(record) -> None:
        if progress is not None:
            progress.update(bar, advance=1)

    try:
        result = run_wm(wm_plan.options, observe, wm_plan)
    except (WmError, RunError) as err:
        fail(str(err))
    except FatalModelError as err:
        fail(f"the model cannot be called: {err}. Finished items are kept; resume with: "
             f"t2w wm {task} --resume {wm_plan.run_path}")
    except KeyboardInterrupt:
        err_console.print(f"interrupted; finished items are kept. Resume with: t2w wm {task} "
                          f"--resume {wm_plan.run_path}")
        raise typer.Exit(130)
    finally:
        if progress is not None:
            progress.stop()
    summary = result.summary
    if args["as_json"]:
        print_json(summary)
    else:
        console.print(summary_table(summary))
        if wm_plan.built.skipped:
            console.print(f"{len(wm_plan.built.skipped)} problems skipped (see config.json "
                          "skipped_problems)", highlight=False)
        console.print(f"run: {result.run.path} ({result.new_items} new items, "
                      f"{summary['finished_items']}/{summary['planned_items']} done, "
                      f"{summary['calls']} calls, {result.wall_time:.1f}s)", highlight=False,
                      soft_wrap=True)
    if summary["infrastructure_errors"]:
        err_console.print(f"[yellow]{summary['infrastructure_errors']} items failed with "
                          "infrastructure errors; they are not scored. Retry them with: "
                          f"t2w wm {task} --resume {result.run.path}")
        raise typer.Exit(2)
    if not args["as_json"]:
        console.print(f"report: t2w report {result.run.path}", highlight=False, soft_wrap=True)


for _name in ("next-state", "verify", "propose", "plan"):
    app.command(_name)(_task_command(_name))


def first_prompt(item: dict, record) -> str:
    """The item's (first) prompt with the default settings: PDDL rules, states as atoms, the
    full next state, 10 proposals, so the exported items run anywhere as they are."""
    from text2world.tasks.wm import prompts

    if item["task"] == "next-state":
        return prompts.next_state_prompt(item, record, "pddl", "atoms", "full")
    if item["task"] == "verify":
        return prompts.verify_prompt(item, record, "pddl", "atoms")
    if item["task"] == "propose":
        return prompts.propose_prompt(item, record, "pddl", "atoms", 10)
    return prompts.plan_step_prompt(item, record, "pddl", "atoms", item["state"], [])


@app.command("build")
def build_command(
    out: Path = typer.Option(..., "--out", "-o", help="JSONL file to write."),
    task: list[Task] = typer.Option(None, "--task", "-t", help="Tasks (repeatable; all)."),
    rho: str = typer.Option("0.25,0.5,0.75,1", "--rho"),
    illegal_share: float = typer.Option(0.25, "--illegal-share"),
    off_plan_share: float = typer.Option(0.25, "--off-plan-share"),
    problems: int = typer.Option(None, "--problems", help="Problems per domain (all)."),
    dataset: str = typer.Option("text2world", "--dataset"),
    split: str = typer.Option("test", "--split"),
    limit: int = typer.Option(None, "--limit"),
    domains: str = typer.Option(None, "--domains"),
    seed: int = typer.Option(0, "--seed"),
) -> None:
    """Write the task items (one JSON object per line), deterministic for the seed."""
    from text2world.store.datasets import atomic_write_text
    from text2world.tasks.wm.runner import WmError, WmOptions, build

    tasks = [str(t) for t in task] if task else list(SHOWN)
    lines, skipped = [], set()
    domain_ids = [d.strip() for d in domains.split(",") if d.strip()] if domains else None
    with console.status("building items"):
        for name in tasks:
            options = WmOptions(task=name, rhos=parse_rhos(rho), illegal_share=illegal_share,
                                off_plan_share=off_plan_share,
                                problems_per_domain=problems, dataset=dataset, split=split,
                                limit=limit, domains=domain_ids, seed=seed)
            try:
                _, records, built = build(options)
            except WmError as err:
                fail(str(err))
            by_id = {r.id: r for r in records}
            lines += [json.dumps({**item, "prompt": first_prompt(item, by_id[item["domain"]])},
                                 ensure_ascii=False) for item in built.items]
            skipped.update(built.skipped)
            console.print(f"{name}: {len(built.items)} items", highlight=False)
    if out.is_dir():
        fail(f"--out {out}: is a folder; give a file name such as items.jsonl")
    try:
        atomic_write_text(out, "\n".join(lines) + "\n")
    except OSError as err:
        fail(f"--out {out}: cannot be written ({err.strerror})")
    for reason in sorted(skipped):
        console.print(f"skipped: {reason}", highlight=False)
    console.print(f"{len(lines)} items written to {out}", highlight=False)


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
            console.print(summary_table({
                "task": row["task"], "model": row["model"], "rules": row["rules"],
                "form": "", "metrics": {"all": {"all": row["all"]},
                                        "rho": report.data["by_rho"][row["run"]]}},
                report.data["intervals"][row["run"]]))
    console.print(f"world-model report written to {report.out_dir}/", highlight=False,
                  soft_wrap=True)
    console.print("files: " + ", ".join(sorted(p.name for p in report.files)), highlight=False)
