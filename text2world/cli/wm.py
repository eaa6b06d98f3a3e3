"""``t2w wm``: the world-model tasks (next-state, verify, propose, plan) and ``t2w wm build``."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.table import Table

from text2world.cli.common import choices, console, err_console, fail, print_json
from text2world.cli.runs import (ProgressObserver, epochs_option, explicit_flags,
                                 infrastructure_note, model_arg_option, parse_model_args,
                                 quiet_option, reference_notice, resume_option,
                                 resumed_options, retry_delay_option, run_guarded,
                                 runs_dir_option, split_ids)
from text2world.errors import Text2WorldError
from text2world.model.environment import prepare_litellm_environment

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


def summary_table(summary: dict) -> Table:
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
        table.add_row(label, str(row["items"]), str(row["format_errors"]),
                      *(_value(row.get(key)) for key, _ in SHOWN[task]))
    return table


# Options that only some tasks use: hidden from the others' --help, refused if given to them.
TASK_ONLY = {"form": ("next-state",), "illegal_share": ("next-state",),
             "off_plan_share": ("next-state",), "k": ("propose", "plan"),
             "slack": ("propose",)}
WM_FIELDS = {"problems": "problems_per_domain", "rho": "rhos", "no_cache": "use_cache",
             "retry_delay": "retry_base_delay", "model_arg": "model_args",
             "runs_dir": "runs_root", "as_json": "json"}


def _task_command(task: str):
    def hidden(name: str) -> bool:
        return task not in TASK_ONLY.get(name, (task,))

    def command(
        ctx: typer.Context,
        model: str = typer.Option(None, "--model", "-m",
                                  help="Alias or litellm model string; reference/oracle and "
                                       "reference/noisy-oracle run offline."),
        rules: Rules = typer.Option("pddl", "--rules",
                                    help="What the model is told about the domain."),
        render: Render = typer.Option("atoms", "--render",
                                      help="States as PDDL atoms or as sentences from the "
                                           "description."),
        form: Form = typer.Option("full", "--form", hidden=hidden("form"),
                                  help="Predict the full state or the diff."),
        rho: str = typer.Option("0.25,0.5,0.75,1", "--rho",
                                help="Shares of the plan the model handles."),
        k: int = typer.Option(None, "--top-k", "-k", hidden=hidden("k"),
                              help=("Actions asked for (default 10; hit@1,3,5,10)."
                                    if task == "propose" else
                                    "Candidates per step (default 1; K > 1: the model "
                                    "checks its own candidates).")),
        slack: float = typer.Option(1.0, "--slack", hidden=hidden("slack"),
                                    help="Extra cost over the optimum a hit may take."),
        illegal_share: float = typer.Option(0.25, "--illegal-share",
                                            hidden=hidden("illegal_share"),
                                            help="Share of inapplicable actions."),
        off_plan_share: float = typer.Option(0.25, "--off-plan-share",
                                             hidden=hidden("off_plan_share"),
                                             help="Share of states reached by a seeded random "
                                                  "walk instead of the plan."),
        problems: int = typer.Option(None, "--problems", help="Problems per domain (all)."),
        dataset: str = typer.Option("text2world", "--dataset"),
        split: str = typer.Option("test", "--split", help="test, train or all."),
        limit: int = typer.Option(None, "--limit", help="Only the first N domains."),
        domains: str = typer.Option(None, "--domains", help="Comma-separated domain ids."),
        epochs: int = epochs_option(),
        api_base: str = typer.Option(None, "--api-base", help="OpenAI-compatible endpoint."),
        temperature: float = typer.Option(0.0, "--temperature"),
        max_tokens: int = typer.Option(None, "--max-tokens"),
        model_arg: list[str] = model_arg_option(),
        max_concurrency: int = typer.Option(4, "--max-concurrency", "-j",
                                            help="Items in flight at once."),
        timeout: float = typer.Option(600.0, "--timeout", help="Seconds per call."),
        max_retries: int = typer.Option(5, "--max-retries",
                                        help="Retries on rate limits, server errors and "
                                             "timeouts."),
        retry_delay: float = retry_delay_option(),
        planner_timeout: float = typer.Option(20.0, "--planner-timeout",
                                              help="Seconds per Fast Downward call."),
        no_cache: bool = typer.Option(False, "--no-cache",
                                      help="Do not answer from the response cache."),
        seed: int = typer.Option(0, "--seed", help="Seed of the items and reference models."),
        run_id: str = typer.Option(None, "--run-id", help="Name of the run directory."),
        runs_dir: Path = runs_dir_option(),
        resume: Path = resume_option(),
        quiet: bool = quiet_option(),
        as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
    ) -> None:
        args = dict(locals())
        args.pop("ctx")
        args.pop("hidden", None)
        run_task(task, ctx, args)

    command.__doc__ = {
        "next-state": "Predict the state after an action (or say it is not applicable).",
        "verify": "Say whether the rest of a plan reaches the goal, and where it fails.",
        "propose": "Propose the top-K next actions; a hit keeps the goal optimally reachable.",
        "plan": "Plan with the model alone (its own proposals and predicted states).",
    }[task]
    return command


def run_task(task: str, ctx: typer.Context, args: dict) -> None:
    from text2world.tasks.wm.task import WmOptions, options_from_run, plan, run_wm

    flags = explicit_flags(ctx, WM_FIELDS)
    for name, tasks in TASK_ONLY.items():
        if name in flags and task not in tasks:
            fail(f"{flags[name]} applies to t2w wm {' and '.join(tasks)}, not to {task}")
    given = WmOptions(
        model=args["model"] or "", task=task, rules=str(args["rules"]),
        render=str(args["render"]), form=str(args["form"]), rhos=parse_rhos(args["rho"]),
        k=args["k"], slack=args["slack"], illegal_share=args["illegal_share"],
        off_plan_share=args["off_plan_share"], problems_per_domain=args["problems"],
        dataset=args["dataset"], split=args["split"], limit=args["limit"],
        domains=split_ids(args["domains"]), epochs=args["epochs"],
        api_base=args["api_base"], temperature=args["temperature"],
        max_tokens=args["max_tokens"], model_args=parse_model_args(args["model_arg"]),
        max_concurrency=args["max_concurrency"], timeout=args["timeout"],
        max_retries=args["max_retries"], retry_base_delay=args["retry_delay"],
        planner_timeout=args["planner_timeout"], use_cache=not args["no_cache"],
        seed=args["seed"], run_id=args["run_id"], runs_root=args["runs_dir"])
    try:
        if args["resume"] is not None:
            resumed = options_from_run(args["resume"], args["runs_dir"])
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
        console.print(summary_table(summary))
        if wm_plan.built.skipped:
            console.print(f"{len(wm_plan.built.skipped)} problems skipped (see config.json "
                          "skipped_problems)", highlight=False)
        console.print(f"run: {result.run.path} ({result.new_items} new items, "
                      f"{summary['finished_items']}/"
                      f"{summary['planned_items'] * summary.get('epochs', 1)} done, "
                      f"{summary['calls']} calls, {summary['cached_calls']} from cache, "
                      f"${summary['cost_paid']:.4f} paid, {result.wall_time:.1f}s)",
                      highlight=False, soft_wrap=True)
    infrastructure_note(result, f"t2w wm {task}")
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
    from text2world.tasks.wm.task import WmError, WmOptions, build

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
                                        "rho": report.data["by_rho"][row["run"]]}}))
    console.print(f"world-model report written to {report.out_dir}/", highlight=False,
                  soft_wrap=True)
    console.print("files: " + ", ".join(sorted(p.name for p in report.files)), highlight=False)
