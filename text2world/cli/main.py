"""The ``t2w`` application: each command group registers itself here."""

from __future__ import annotations

import sys

import typer

from text2world.cli import (
    contamination,
    data,
    evaluate,
    inspect_log,
    judge,
    mcp,
    report,
    rewards,
    scoring,
    serve,
    view,
    wm,
    worlds,
)
from text2world.cli.common import fail
from text2world.cli.help import ConventionalGroup
from text2world.cli.paths import guard_path_parameters, invoke_guarded


class T2wGroup(ConventionalGroup):
    """The root of ``t2w``: the conventional help, and every path held to the guard
    (``cli/paths.py``)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        guard_path_parameters(self)

    def invoke(self, ctx):
        from text2world.model.credentials import redact_streams

        redact_streams()  # no secret this process knows reaches the terminal or a log file
        return invoke_guarded(super().invoke, ctx)


app = typer.Typer(
    name="t2w",
    cls=T2wGroup,
    help="text2world: benchmark LLMs on writing PDDL world models from natural language.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        from text2world.version import __version__

        typer.echo(f"text2world {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """text2world: benchmark LLMs on writing PDDL world models from natural language."""
    from text2world.files import CacheSettingError, check_cache_settings

    try:
        check_cache_settings()
    except CacheSettingError as err:
        if "--help" not in sys.argv:  # help is always given
            fail(str(err))


app.command("validate")(scoring.validate_command)
app.command("score")(scoring.score_command)
app.command("serve")(serve.serve_command)
app.command("view")(view.view_command)
app.command("mcp")(mcp.mcp_command)
app.command("contamination")(contamination.contamination_command)
app.command("judge")(judge.judge_command)
app.command("eval")(evaluate.eval_command)
app.command("report")(report.report_command)
app.command("compare")(report.compare_command)
app.command("score-run")(evaluate.score_run_command)
app.command("import-inspect")(inspect_log.import_inspect_command)
app.command("score-batch")(rewards.score_batch_command)
app.command("export-trajectories")(rewards.export_trajectories_command)
app.add_typer(evaluate.cache_app, name="cache")
app.add_typer(data.app, name="data")
app.add_typer(wm.app, name="wm")
app.add_typer(worlds.app, name="worlds")
