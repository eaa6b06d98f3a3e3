"""``t2w mcp``: serve the validator, scorer, planner and simulator to agents over MCP
(``text2world.integrations.mcp_server``)."""

from __future__ import annotations

from pathlib import Path

import typer

from text2world.cli.common import err_console, fail, warn
from text2world.cli.serve import allowed_hosts_option, token_option


def mcp_command(
    http: bool = typer.Option(False, "--http", help="Serve streamable HTTP (at /mcp) instead of "
                              "stdio."),
    host: str = typer.Option("127.0.0.1", "--host", help="With --http: the address (loopback "
                             "by default; the tools run planners and scorers for whoever calls)."),
    port: int = typer.Option(8766, "--port", help="With --http: the TCP port."),
    max_body: int = typer.Option(None, "--max-body", show_default="1048576",
                                 help="Bytes of text the arguments of one call may hold (as the "
                                      "REST API's body limit)."),
    score_timeout: float = typer.Option(None, "--score-timeout", show_default="10",
                                        help="Seconds a validation, scoring or simulation job may "
                                             "run; past it, the job is stopped."),
    plan_timeout: float = typer.Option(None, "--plan-timeout", show_default="20",
                                       help="Seconds Fast Downward may search (the most a plan "
                                            "call may ask for)."),
    score_processes: int = typer.Option(None, "--score-processes", show_default="1",
                                        help="Scoring processes."),
    data_dir: Path = typer.Option(None, "--data-dir", envvar="T2W_DATA_DIR",
                                  help="Built-in store folder (default: the repository's data/)."),
    allowed_hosts: str = allowed_hosts_option(),
    token: str = token_option("With --http: bearer token every request must carry."),
    call: str = typer.Option(None, "--call", metavar="TOOL", help="Instead of serving: start "
                             "the server, call TOOL through the MCP client over stdio, print "
                             "its JSON answer (a check of the whole path, as an agent uses it)."),
    arguments: str = typer.Option("{}", "--args", metavar="JSON",
                                  help="With --call: the tool's arguments as a JSON object."),
) -> None:
    """Serve text2world's tools to agents over MCP (stdio; --http: streamable HTTP)."""
    import os

    try:
        import mcp  # noqa: F401
    except ImportError:
        fail("t2w mcp needs the MCP Python SDK: pip install 'text2world[mcp]'")
    from text2world.cli.serve import check_port_free
    from text2world.integrations.mcp_server import McpSettings, serve

    given: dict[str, float | int | None] = {"max_body": max_body, "score_timeout": score_timeout,
             "plan_timeout": plan_timeout, "processes": score_processes}
    try:
        settings = McpSettings(**{k: v for k, v in given.items() if v is not None})  # type: ignore[arg-type]
    except ValueError as err:
        fail(str(err))
    if data_dir is not None:
        if not (data_dir / "domains").is_dir():
            fail(f"--data-dir {data_dir}: not a store folder (no domains/ inside)")
        os.environ["T2W_DATA_DIR"] = str(data_dir.resolve())
    if call is not None:
        import json

        try:
            parsed = json.loads(arguments)
        except ValueError as err:
            fail(f"--args is not JSON: {err}")
        if not isinstance(parsed, dict):
            fail("--args must be a JSON object of the tool's arguments")
        from text2world.cli.common import print_json
        from text2world.integrations.mcp_server import call_over_stdio

        server_args = [f"--{name.replace('_', '-')}={value}" for name, value in given.items()
                       if value is not None and name != "processes"]
        if score_processes is not None:
            server_args.append(f"--score-processes={score_processes}")
        is_error, answer = call_over_stdio(call, parsed, server_args)
        if is_error:
            fail(str(answer))
        print_json(answer)
        return
    if http:
        if not 0 < port < 65536:
            fail(f"--port {port}: a TCP port is between 1 and 65535")
        check_port_free(host, port)
        from text2world.api.guard import exposure_warning, parse_hosts

        warning = exposure_warning(host, token, "the MCP server")
        if warning:
            warn(warning)
        err_console.print(f"text2world MCP server: http://{host}:{port}/mcp", highlight=False)
        from text2world.api.settings import SettingsError

        try:
            serve(settings, "http", host, port, parse_hosts(allowed_hosts), token or None)
        except SettingsError as err:  # a T2W_API_* variable (the body and header deadlines)
            fail(str(err))
    else:
        serve(settings, "stdio")
