"""The results viewer (``t2w view``) and the offline API docs, added to the service by ``install``.

* ``GET /view/``: the viewer, a static page (``static/viewer/``) that reads the JSON below.
* ``GET /v1/runs/{run_id}/overview``, ``/items/{item_id}``, ``/items/{item_id}/diff``: what the
  run and item pages show, computed by ``text2world.reports.runview`` (read-only; a run page
  by its kind's task, ``tasks/<kind>/page.py``).
* ``/docs`` and ``/redoc`` load Swagger UI and ReDoc from ``static/docs/`` instead of a CDN.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path
from typing import Annotated, Any, Callable

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles

from text2world.engine.run_reader import RUN_NAME, find_run, list_runs
from text2world.engine.run_store import ERRORS_FILE, LOG_FILE, SCORES_FILE, ItemRecord, Run, RunError
from text2world.errors import ApiError

STATIC = Path(__file__).resolve().parent / "static"
_MAX_LOG = 512 * 1024 * 1024  # bytes of log.jsonl the viewer reads into memory
_CACHED_RUNS = 8

router = APIRouter(tags=["runs"])


# --------------------------------------------------------------------------------------------
# Runs and their items, cached while their files are unchanged


class _ItemCache:
    """Parsed logs of the last few runs viewed, keyed by the size and mtime of their files:
    moving between items of a 2.7 MB log must not parse it again each time."""

    def __init__(self, size: int) -> None:
        self.size = size
        # run path -> (file stamps, items, what was computed from them)
        self.entries: OrderedDict[str, tuple[tuple, list[ItemRecord], dict]] = OrderedDict()
        self.lock = threading.Lock()
        self.loading: dict[str, threading.Lock] = {}

    def get(self, run: Run) -> list[ItemRecord]:
        return self._entry(run)[1]

    def overview(self, run: Run) -> dict:
        from text2world.reports import runview

        entry = self._entry(run)
        if "overview" not in entry[2]:
            try:
                entry[2]["overview"] = runview.overview(run, entry[1])
            except runview.ViewError as err:
                raise ApiError(422, "run_unreadable", str(err)) from None
            except (KeyError, TypeError, ValueError, AttributeError) as err:
                # A log whose records are not what its kind writes: say so, do not crash.
                raise ApiError(422, "run_unreadable",
                               f"run {run.run_id!r}: its log does not hold the records of a "
                               f"{run.kind} run "
                               f"({type(err).__name__}: {err})") from None
        return entry[2]["overview"]

    def computed(self, run: Run, key: str, compute: Callable[..., Any]) -> Any:
        """``compute(items)`` of the run, kept with its items while its files are unchanged."""
        entry = self._entry(run)
        if key not in entry[2]:
            entry[2][key] = compute(entry[1])
        return entry[2][key]

    def _entry(self, run: Run) -> tuple[tuple, list[ItemRecord], dict]:
        key = str(run.path.resolve())
        with self.lock:
            loading = self.loading.setdefault(key, threading.Lock())
        # One reader per run: a page opened while the run is being warmed waits for that read.
        with loading:
            stamp = tuple(_stamp(run.path / name)
                          for name in (LOG_FILE, SCORES_FILE, ERRORS_FILE))
            with self.lock:
                cached = self.entries.get(key)
                if cached is not None and cached[0] == stamp:
                    self.entries.move_to_end(key)
                    return cached
            if stamp[0] is not None and stamp[0][1] > _MAX_LOG:
                raise ApiError(422, "run_too_large",
                               f"run {run.run_id!r}: {LOG_FILE} is {stamp[0][1]:,} bytes; the "
                               f"viewer reads at most {_MAX_LOG:,}")
            try:
                items = run.scored_items()
            except (RunError, OSError, ValueError) as err:
                raise ApiError(422, "run_unreadable",
                               f"run {run.run_id!r} cannot be read: {err}") from None
            entry: tuple[tuple, list[ItemRecord], dict] = (stamp, items, {})
            with self.lock:
                self.entries[key] = entry
                self.entries.move_to_end(key)
                while len(self.entries) > self.size:
                    self.entries.popitem(last=False)
            return entry


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size


_items = _ItemCache(_CACHED_RUNS)


def warm(runs_dir: Path) -> threading.Thread:
    """Read the newest runs' logs in a background thread, so that their pages open at once."""

    def read() -> None:
        try:
            runs = [info.run for info in list_runs(runs_dir, confined=True)
                    if info.run is not None and info.error is None
                    and (info.path / LOG_FILE).is_file()]
            runs.sort(key=lambda run: run.log_path.stat().st_mtime, reverse=True)
        except (OSError, RunError):
            return
        for run in runs[:_CACHED_RUNS]:
            try:
                _items.overview(run)
            except (ApiError, RunError, OSError, ValueError, KeyError, TypeError):
                continue  # the page says what is wrong with it when it is opened

    thread = threading.Thread(target=read, name="t2w-view-warm", daemon=True)
    thread.start()
    return thread


def _open_run(request: Request, run_id: str) -> Run:
    runs_dir: Path = request.app.state.settings.runs_dir
    info = find_run(runs_dir, run_id)
    if info is None:
        raise ApiError(404, "unknown_run",
                       f"no run {run_id!r} in {runs_dir} (GET /v1/runs lists the runs)")
    if info.run is None or info.error is not None:
        raise ApiError(422, "run_damaged", f"run {run_id!r} cannot be read: {info.error}")
    return info.run


def open_run(request: Request, run_id: str) -> Run:
    """The run ``run_id`` of the served runs directory (404 unknown, 422 damaged)."""
    return _open_run(request, run_id)


def computed(run: Run, key: str, compute: Callable[..., Any]) -> Any:
    """``compute(items)`` of ``run``'s finished items, cached with them (``api.routes.curves``)."""
    return _items.computed(run, key, compute)


def _view(name: str, *args):
    from text2world.reports import runview  # the library behind the pages, imported on first use

    try:
        return getattr(runview, name)(*args)
    except runview.ViewError as err:
        raise ApiError(404, "unknown_item", str(err)) from None


# --------------------------------------------------------------------------------------------
# JSON endpoints (plain JSONResponse: a logged item is large and already JSON-safe)


@router.get("/v1/runs/{run_id}/overview", summary="A run's scores per round and items")
def run_overview(request: Request, run_id: str) -> JSONResponse:
    """A run's scores per round (every scoring mode in its log), syntax-error categories per
    round and the per-item table, computed from its log."""
    run = _open_run(request, run_id)
    return JSONResponse(_items.overview(run))


@router.get("/v1/runs/{run_id}/compare/{other_id}", summary="Two runs compared item by item")
def run_compare(request: Request, run_id: str, other_id: str,
                mode: Annotated[str, Query(pattern="^[a-z]{1,20}$")] = "paper") -> JSONResponse:
    """Run ``other_id`` (B) against ``run_id`` (A) item by item: per metric the mean
    difference B - A with a 95% paired bootstrap interval, a permutation p-value and wins /
    ties / losses; per domain the tally and the domains that differ most (``t2w compare``)."""
    from text2world.reports.compare import CompareError, compare_runs

    run_a, run_b = _open_run(request, run_id), _open_run(request, other_id)
    try:
        return JSONResponse(compare_runs(run_a.path, run_b.path, mode))
    except CompareError as err:
        raise ApiError(422, "not_comparable", str(err)) from None


@router.get("/v1/runs/{run_id}/against/{table}", summary="A run beside a published table")
def run_against(request: Request, run_id: str, table: str) -> JSONResponse:
    """A generation run's paper-mode figures beside a published table's row of the same model
    (``t2w report RUN --against TABLE``): published value, our mean and 95% interval, and
    whether the published value lies outside it."""
    from text2world.reports.published import PublishedError, against

    run = _open_run(request, run_id)
    if not RUN_NAME.match(table):
        raise ApiError(404, "unknown_table", f"no published table {table!r}")
    try:
        return JSONResponse(against(run.path, table))
    except PublishedError as err:
        raise ApiError(422, "not_comparable", str(err)) from None


# Item ids of world-model runs hold slashes: the diff route is matched first.
@router.get("/v1/runs/{run_id}/items/{item_id:path}/diff",
            summary="Gold vs generated domain of one round")
def run_item_diff(request: Request, run_id: str, item_id: str,
                  round: Annotated[int | None, Query(ge=0, le=1000)] = None) -> JSONResponse:
    """Gold vs generated domain of one round (default: the last), action by action:
    parameters, preconditions and effects matched, missing or extra (canonical mode)."""
    run = _open_run(request, run_id)
    return JSONResponse(_view("round_diff", run, _items.get(run), item_id, round))


@router.get("/v1/runs/{run_id}/items/{item_id:path}", summary="One item of a run, every round")
def run_item(request: Request, run_id: str, item_id: str) -> JSONResponse:
    """One finished item as logged (every round's prompt, answer, extracted domain,
    validation and scores), its gold domain, the lines its errors point at, and its
    neighbours in the run."""
    run = _open_run(request, run_id)
    return JSONResponse(_view("item_detail", run, _items.get(run), item_id))


# --------------------------------------------------------------------------------------------
# The page and the offline docs


def _install_docs(app: FastAPI) -> None:
    """Swagger UI and ReDoc from the package's own copies (FastAPI loads them from a CDN)."""
    replaced = {app.docs_url, app.redoc_url}
    app.router.routes[:] = [route for route in app.router.routes
                            if getattr(route, "path", None) not in replaced]
    assets = "/static/docs"

    @app.get(app.docs_url or "/docs", include_in_schema=False)
    def swagger_ui(request: Request):
        root = request.scope.get("root_path", "").rstrip("/")
        return get_swagger_ui_html(
            openapi_url=root + app.openapi_url, title=f"{app.title} - Swagger UI",
            swagger_js_url=f"{root}{assets}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{assets}/swagger-ui.css",
            swagger_favicon_url=f"{root}{assets}/favicon.png",
            oauth2_redirect_url=root + (app.swagger_ui_oauth2_redirect_url or ""),
            # Swagger UI's default validator badge is an image from validator.swagger.io.
            swagger_ui_parameters={"validatorUrl": None})

    @app.get(app.redoc_url or "/redoc", include_in_schema=False)
    def redoc(request: Request):
        root = request.scope.get("root_path", "").rstrip("/")
        return get_redoc_html(openapi_url=root + app.openapi_url, title=f"{app.title} - ReDoc",
                              redoc_js_url=f"{root}{assets}/redoc.standalone.js",
                              redoc_favicon_url=f"{root}{assets}/favicon.png",
                              with_google_fonts=False)

    app.mount(assets, StaticFiles(directory=STATIC / "docs"), name="docs-assets")


def install(app: FastAPI) -> None:
    """Add the viewer's endpoints and page, and serve the API docs offline."""
    app.include_router(router)

    @app.get("/view", include_in_schema=False)
    def view_redirect() -> RedirectResponse:
        return RedirectResponse("/view/")

    @app.get("/", include_in_schema=False)
    def root_redirect() -> RedirectResponse:
        """http://HOST:PORT/ leads to the viewer (the API lives under /v1, its docs at /docs)."""
        return RedirectResponse("/view/")

    @app.get("/view/", include_in_schema=False)
    def view_page() -> FileResponse:
        return FileResponse(STATIC / "viewer" / "index.html", media_type="text/html")

    app.mount("/view/assets", StaticFiles(directory=STATIC / "viewer"), name="viewer-assets")
    _install_docs(app)
