"""``t2w view``: browse evaluation runs in a local web page (the API's viewer, read-only)."""

from __future__ import annotations

from pathlib import Path

import typer

from text2world.cli.common import console, fail
from text2world.cli.serve import SERVE_PORT, _check_port_free

# Not t2w serve's port: the scoring service and the viewer run side by side.
VIEW_PORT = SERVE_PORT + 1


def view_command(
    runs_dir: Path = typer.Argument(None, envvar="T2W_RUNS_DIR", show_default="./runs",
                                    metavar="RUNS_DIR",
                                    help="Folder of evaluation runs (t2w eval writes runs/)."),
    host: str = typer.Option("127.0.0.1", "--host",
                             help="Address to listen on (loopback: only this machine)."),
    port: int = typer.Option(VIEW_PORT, "--port", envvar="T2W_VIEW_PORT",
                             help="TCP port (t2w serve uses another, so both can run)."),
    open_browser: bool = typer.Option(False, "--open/--no-open",
                                      help="Open the page in the default browser."),
    warm: bool = typer.Option(True, "--warm/--no-warm",
                              help="Read the newest runs' logs at start (in the background), "
                                   "so that their pages open at once."),
    log_level: str = typer.Option("warning", "--log-level", help="uvicorn log level."),
) -> None:
    """Serve a results viewer: leaderboard, run pages, items with a per-action diff."""
    import uvicorn

    from text2world.api.app import create_app
    from text2world.api.settings import Settings

    runs_dir = Path(runs_dir or "runs")
    if not runs_dir.exists():
        fail(f"{runs_dir}: no such folder; t2w eval writes its runs to ./runs "
             "(or give the folder: t2w view RUNS_DIR)")
    if not runs_dir.is_dir():
        fail(f"{runs_dir}: is a file, not a folder of runs")
    if not 0 < port < 65536:
        fail(f"--port {port}: a TCP port is between 1 and 65535")
    _check_port_free(host, port)
    # The viewer scores nothing itself: one scoring thread keeps /v1/score usable and light.
    app = create_app(Settings(runs_dir=runs_dir.resolve(), executor="thread",
                              score_processes=1))
    url = f"http://{f'[{host}]' if ':' in host else host}:{port}/view/"
    console.print(f"text2world viewer: [bold]{url}[/]  (runs from {runs_dir}; Ctrl+C stops)",
                  highlight=False, soft_wrap=True)
    if warm:
        from text2world.api.viewer import warm as warm_runs

        warm_runs(runs_dir.resolve())
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    uvicorn.run(app, host=host, port=port, log_level=log_level, proxy_headers=False,
                server_header=False)
