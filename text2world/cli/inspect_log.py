"""``t2w import-inspect LOG``: an Inspect log of text2world's tasks as a run folder
(``text2world.integrations.inspect_import``)."""

from __future__ import annotations

from pathlib import Path

import typer

from text2world.cli.common import err_console, fail, say
from text2world.reports.rendering import count_of


def import_inspect_command(
    log: Path = typer.Argument(..., help="An Inspect log (.eval or .json) of a text2world task."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Run folder to write (default: "
                                    "runs/inspect__TASK__MODEL__DATASET__ID)."),
) -> None:
    """Convert an Inspect log of text2world's tasks into a run folder for t2w report / view."""
    from text2world.engine.run_store import RunError
    from text2world.files import check_output_folder
    from text2world.integrations.inspect_import import ImportError_, import_inspect_log

    if out is not None:
        check_output_folder(out, "--out")  # before the log is read
    try:
        imported = import_inspect_log(log, out)
    except (ImportError_, RunError) as err:
        fail(str(err))
    say(f"{count_of(imported.items, 'item')} ({count_of(imported.errors, 'failed sample')}) written to "
        f"{imported.path}",
        to=err_console)
    for item, message in imported.failures:  # what failed, as Inspect logged it (first line)
        lines = message.strip().splitlines() or ["(no message)"]
        more = f" (+{len(lines) - 1} lines in errors.jsonl)" if len(lines) > 1 else ""
        err_console.print(f"failed sample {item}: {lines[0][:300]}{more}", markup=False,
                          highlight=False)
    say(f"report: t2w report {imported.path}")
