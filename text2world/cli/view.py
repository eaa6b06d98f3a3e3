"""``t2w view``: browse evaluation runs in a local web page (the API's viewer, read-only)."""

from __future__ import annotations

from pathlib import Path

import typer

from text2world.cli.common import console, fail, say, warn
from text2world.cli.serve import SERVE_PORT, allowed_hosts_option, check_port_free, server_url, token_option
from text2world.reports.rendering import count_of

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
    allowed_hosts: str = allowed_hosts_option(),
    token: str = token_option("Token the viewer asks for (open /view/?token=TOKEN once)."),
    log_level: str = typer.Option("warning", "--log-level", help="uvicorn log level."),
    runs_dir_flag: Path = typer.Option(None, "--runs-dir",
                                       help="Folder of runs (the same as RUNS_DIR)."),
    bundle: Path = typer.Option(None, "--bundle", metavar="DIR",
                                help="Write a static site of the runs to DIR instead of "
                                     "serving (open DIR/index.html; no server needed)."),
    run_ids: str = typer.Option(None, "--runs", metavar="ID,ID",
                                help="--bundle: only these runs (default: every run)."),
) -> None:
    """Serve a results viewer: leaderboard, run pages, items with a per-action diff."""
    runs_dir = Path(runs_dir_flag or runs_dir or "runs")
    if not runs_dir.exists():
        fail(f"{runs_dir}: no such folder; t2w eval writes its runs to ./runs "
             "(or give the folder: t2w view RUNS_DIR)")
    if not runs_dir.is_dir():
        fail(f"{runs_dir}: is a file, not a folder of runs")
    if bundle is not None:
        _bundle(runs_dir, bundle, run_ids)
        return
    if run_ids is not None:
        fail("--runs chooses the runs of a --bundle")
    import uvicorn

    from text2world.api.app import create_app
    from text2world.api.guard import exposure_warning, hosts_for_bind, parse_hosts
    from text2world.api.server import log_config
    from text2world.api.settings import Settings

    if not 0 < port < 65536:
        fail(f"--port {port}: a TCP port is between 1 and 65535")
    check_port_free(host, port)
    # The viewer scores nothing itself: one scoring thread keeps /v1/score usable and light.
    app = create_app(Settings(runs_dir=runs_dir.resolve(), executor="thread", score_processes=1,
                              allowed_hosts=hosts_for_bind(host, parse_hosts(allowed_hosts)),
                              token=token or None))
    warning = exposure_warning(host, token, "the viewer")
    if warning:
        warn(warning)
    url = f"{server_url(host, port)}/view/"
    say(f"text2world viewer: {url}  (runs from {runs_dir}; Ctrl+C stops)")
    if warm:
        from text2world.api.viewer import warm as warm_runs

        warm_runs(runs_dir.resolve())
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    uvicorn.run(app, host=host, port=port, log_level=log_level, proxy_headers=False,
                server_header=False, log_config=log_config())


def _bundle(runs_dir: Path, out: Path, run_ids: str | None) -> None:
    from text2world.api.bundle import BundleError, write_bundle

    chosen = [r.strip() for r in run_ids.split(",") if r.strip()] if run_ids else None
    try:
        result = write_bundle(runs_dir, out, chosen,
                              progress=lambda run: console.print(f"bundling {run}",
                                                                 highlight=False))
    except BundleError as err:
        fail(str(err))
    except OSError as err:
        fail(f"{out}: cannot write the bundle ({err.strerror or err})")
    say(f"static viewer of {count_of(len(result['runs']), 'run')} "
        f"({count_of(result['answers'], 'answer')}) written to {out}/\nopen {out}/index.html")
