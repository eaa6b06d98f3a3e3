"""``t2w serve``: run the REST scoring service (``api.app``) with uvicorn."""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Any

import typer

from text2world.cli.common import fail, say, warn

# Not 8000, the default port of vLLM (and of the local model aliases in models.toml): a
# scoring server there would answer `t2w eval --model llama-3.1-8b` with 404s.
SERVE_PORT = 8765


def allowed_hosts_option() -> Any:
    """``--allowed-hosts``, alike in t2w serve, t2w view and t2w mcp --http (``api.guard``)."""
    return typer.Option(None, "--allowed-hosts", envvar="T2W_API_ALLOWED_HOSTS",
                        show_default="the loopback names when bound to loopback, else any",
                        help="Host header names served (a,b; *.example.com); others get 421.")


def token_option(help_text: str) -> Any:
    """``--token`` (``T2W_API_TOKEN``) of the services."""
    return typer.Option(None, "--token", envvar="T2W_API_TOKEN", help=help_text)


def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", envvar="T2W_API_HOST",
                             help="Address to listen on (0.0.0.0 for every interface)."),
    port: int = typer.Option(SERVE_PORT, "--port", envvar="T2W_API_PORT",
                             help="TCP port (not 8000: that is vLLM's default, which the local "
                                  "model aliases call)."),
    workers: int = typer.Option(1, "--workers", envvar="T2W_API_WORKERS",
                                help="Server worker processes; 1 (the default) feeds one scoring "
                                     "process per core and sees every client."),
    max_body: int = typer.Option(None, "--max-body", envvar="T2W_API_MAX_BODY", show_default="1048576",
                                 help="Largest request body in bytes; larger ones get 413."),
    score_timeout: float = typer.Option(None, "--score-timeout", envvar="T2W_API_SCORE_TIMEOUT",
                                        show_default="10",
                                        help="Seconds a scoring job may run; past it, 422."),
    score_processes: int = typer.Option(None, "--score-processes", envvar="T2W_API_SCORE_PROCESSES",
                                        show_default="one per core",
                                        help="Scoring processes per worker."),
    executor: str = typer.Option(None, "--executor", envvar="T2W_API_EXECUTOR", show_default="process",
                                 help="process (killable on timeout) or thread."),
    warm: bool = typer.Option(None, "--warm/--no-warm", envvar="T2W_API_WARM", show_default="no-warm",
                              help="Parse every built-in gold domain once, before the scoring "
                                   "processes start (they share the parses)."),
    client_concurrency: int = typer.Option(None, "--client-concurrency",
                                           envvar="T2W_API_CLIENT_CONCURRENCY",
                                           show_default="every scoring process",
                                           help="Jobs one client address may have scoring at once."),
    client_limit: int = typer.Option(None, "--client-limit", envvar="T2W_API_CLIENT_LIMIT",
                                     show_default="4 per scoring process, at least 8",
                                     help="Requests one client address may have in the service "
                                          "(scoring or waiting); past it, 429."),
    max_queue: int = typer.Option(None, "--max-queue", envvar="T2W_API_MAX_QUEUE",
                                  show_default="16 per scoring process, at least 32",
                                  help="Requests waiting for a scoring process; past it, 503."),
    queue_timeout: float = typer.Option(None, "--queue-timeout", envvar="T2W_API_QUEUE_TIMEOUT",
                                        show_default="30",
                                        help="Seconds a request may wait for a scoring process."),
    limit_wait: float = typer.Option(None, "--limit-wait", envvar="T2W_API_LIMIT_WAIT",
                                     show_default="5",
                                     help="Seconds a request past its client's limit or the "
                                          "queue's waits for room before its 429 or 503 "
                                          "(0: at once)."),
    header_timeout: float = typer.Option(None, "--header-timeout", envvar="T2W_API_HEADER_TIMEOUT",
                                         show_default="10",
                                         help="Seconds a connection may take to send request "
                                              "headers (or stay idle); past it, 408 and closed."),
    client_rate: float = typer.Option(None, "--client-rate", envvar="T2W_API_CLIENT_RATE",
                                      show_default="50 per scoring process",
                                      help="Requests per second one client address may send; "
                                           "faster ones are held, then 429 (0: no limit)."),
    client_burst: int = typer.Option(None, "--client-burst", envvar="T2W_API_CLIENT_BURST",
                                     show_default="one second's worth",
                                     help="Requests a client may send at once above its rate."),
    demote_after: float = typer.Option(None, "--demote-after", envvar="T2W_API_DEMOTE_AFTER",
                                       show_default="0.1",
                                       help="Seconds after which a scoring job yields to "
                                            "shorter ones (lower CPU priority; 0: never)."),
    runs_dir: Path = typer.Option(None, "--runs-dir", envvar="T2W_RUNS_DIR", show_default="./runs",
                                  help="Folder of evaluation runs served by /v1/runs."),
    data_dir: Path = typer.Option(None, "--data-dir", envvar="T2W_DATA_DIR",
                                  help="Built-in store folder (default: the repository's data/)."),
    body_timeout: float = typer.Option(None, "--body-timeout", envvar="T2W_API_BODY_TIMEOUT",
                                       show_default="30",
                                       help="Seconds a request body may take to arrive; past it, 408 and closed."),
    allowed_hosts: str = allowed_hosts_option(),
    token: str = token_option("Bearer token every request must carry (Authorization: Bearer TOKEN)."),
    log_level: str = typer.Option("info", "--log-level", help="uvicorn log level."),
) -> None:
    """Serve the scoring API (POST /v1/score, /v1/validate, GET /v1/domains, ...; docs at /docs)."""
    import uvicorn

    from text2world.api.guard import exposure_warning, hosts_for_bind, parse_hosts
    from text2world.api.server import HTTP_PROTOCOL, log_config
    from text2world.api.settings import Settings, SettingsError
    from text2world.files import check_folder

    if not 0 < port < 65536:
        fail(f"--port {port}: a TCP port is between 1 and 65535")
    if workers < 1:
        fail(f"--workers {workers}: at least 1 worker is needed")
    if data_dir is not None and not (data_dir / "domains").is_dir():
        fail(f"--data-dir {data_dir}: not a store folder (no domains/ inside)")
    if runs_dir is not None and runs_dir.exists():
        check_folder(runs_dir, "--runs-dir")  # a file there: refused, not served
    given: dict[str, Any] = {"max_body": max_body, "score_timeout": score_timeout, "executor": executor,
             "score_processes": score_processes, "warm": warm, "runs_dir": runs_dir,
             "workers": workers, "client_concurrency": client_concurrency,
             "client_limit": client_limit, "max_queue": max_queue,
             "queue_timeout": queue_timeout, "limit_wait": limit_wait,
             "header_timeout": header_timeout,
             "client_rate": client_rate, "client_burst": client_burst,
             "demote_after": demote_after, "body_timeout": body_timeout,
             "allowed_hosts": hosts_for_bind(host, parse_hosts(allowed_hosts)), "token": token or None}
    try:
        settings = Settings(**{name: value for name, value in given.items() if value is not None})
    except SettingsError as err:
        fail(str(err))
    warning = exposure_warning(host, settings.token)
    if warning:
        warn(warning)
    # Worker processes import "text2world.api.app:app" on their own and read these variables.
    os.environ.update(settings.to_env())
    if data_dir is not None:
        os.environ["T2W_DATA_DIR"] = str(data_dir.resolve())
    check_port_free(host, port)
    url = server_url(host, port)
    say(f"text2world API: {url}/  (docs: {url}/docs; Ctrl+C stops)"
        + ("; every interface, no authentication: anyone who reaches this port may "
           "use it" if host in ("0.0.0.0", "::") and not settings.token else ""))
    # Client addresses are the peers' own (admission limits clients by address): no proxy
    # headers. A request head must arrive within the header deadline (api.server).
    uvicorn.run("text2world.api.app:app", host=host, port=port, workers=workers, log_level=log_level,
                proxy_headers=False, server_header=False, http=HTTP_PROTOCOL,
                log_config=log_config())


def server_url(host: str, port: int) -> str:
    """The address a browser or client opens for a server on ``host``: an IPv6 host in
    brackets; every interface (0.0.0.0, ::) as this machine's loopback."""
    shown = {"0.0.0.0": "127.0.0.1", "::": "[::1]"}.get(host) or (f"[{host}]" if ":" in host else host)
    return f"http://{shown}:{port}"


def check_port_free(host: str, port: int) -> None:
    """A clear message instead of a server that starts and dies when the port is taken."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as err:
        fail(f"--host {host}: cannot be resolved ({err.strerror})")
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as err:
            fail(f"cannot listen on {host}:{port}: {err.strerror}")
