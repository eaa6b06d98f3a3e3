"""The text2world REST service: score and validate generated PDDL domains over HTTP.

A thin layer over the library (``text2world.score``, ``validate``, ``extract_domain``, the store).
Scoring is CPU-bound, so it runs in scoring processes (``api.scoring``, ``api.scorer``), never on
the event loop; a job past the time limit is stopped by killing its one process and answered
with 422. Admission (``api.admission``) bounds each client and the queue (429/503 with
Retry-After). Gold domains are parsed once per scoring process (``text2world.metrics`` caches
gold parses, bounded in bytes), or once for all of them with ``warm``.

    t2w serve                    # or: uvicorn api.app:app --http api.server:HeaderTimeoutH11Protocol
"""

from __future__ import annotations

import json
import logging
import re
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

import anyio
from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from starlette.exceptions import HTTPException as StarletteHTTPException

import text2world
from text2world.store import BUILTIN, Dataset, DatasetError, list_datasets, load_dataset

from . import viewer
from .admission import Admission
from .errors import HTTP_CODES as _HTTP_CODES
from .errors import error_response as _error_response
from .jobs import ApiError, score_job, validate_job
from .limits import BodyLimitMiddleware, ClientRateLimiter, ClientRateMiddleware
from .scoring import ScoringExecutor, ScoringTimeout, ScoringUnavailable
from .settings import MAX_RATE_DELAY, Settings

log = logging.getLogger("text2world.api")

# Ids that may name a domain, dataset or run: a plain file name, never a path.
_PLAIN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")
_MAX_RUN_FILE = 16 * 1024 * 1024  # bytes of config.json / summary.json we are willing to read
_RECORD_TTL = 1.0  # seconds a store record found by the score endpoint is reused
_SECRET_KEY = re.compile(r"(api[_-]?key|secret|password|authorization|bearer)", re.IGNORECASE)


# --------------------------------------------------------------------------------------------
# Errors


def _validation_details(errors: list) -> list[dict]:
    """Pydantic errors without the echoed input (it may be a megabyte) or non-JSON context."""
    details = []
    for error in errors[:20]:
        location = [str(part) for part in error.get("loc", ())]
        details.append({"location": location, "message": str(error.get("msg", "")),
                        "type": str(error.get("type", ""))})
    return details


def _validation_message(details: list[dict]) -> str:
    if not details:
        return "the request is malformed"
    parts = []
    for detail in details[:3]:
        where = ".".join(detail["location"][1:] if detail["location"][:1] == ["body"]
                         else detail["location"]) or "body"
        parts.append(f"{where}: {detail['message']}")
    more = f" (and {len(details) - 3} more)" if len(details) > 3 else ""
    return "malformed request: " + "; ".join(parts) + more


# --------------------------------------------------------------------------------------------
# Request and response models


# The OpenAPI form of the "exactly one of" checks of the request models.
_ONE_GOLD = {"oneOf": [{"required": ["gold_id"], "properties": {"gold_id": {"type": "string"}}},
                       {"required": ["gold_pddl"], "properties": {"gold_pddl": {"type": "string"}}}]}
_ONE_DOMAIN = {"oneOf": [{"required": ["pddl"], "properties": {"pddl": {"type": "string"}}},
                         {"required": ["response"], "properties": {"response": {"type": "string"}}}]}


def _utf8_text(value: str) -> str:
    # JSON may carry lone surrogates (\ud800) that are not text and cannot be encoded again.
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as err:
        raise ValueError(f"contains an unpaired UTF-16 surrogate at character {err.start}; "
                         "send UTF-8 text") from None
    return value


Text = Annotated[str, AfterValidator(_utf8_text)]
Mode = Literal["paper", "canonical"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ProblemText(_Strict):
    name: Text = Field(..., max_length=200)
    pddl: Text


class ScoreRequest(_Strict):
    """A generated domain (``pddl``, or a raw model answer in ``response``) and its gold domain
    (``gold_id`` of a store record, or ``gold_pddl`` text): exactly one of each pair."""

    model_config = ConfigDict(json_schema_extra={"allOf": [_ONE_GOLD, _ONE_DOMAIN]})

    gold_id: Text | None = Field(None, description="Id of the gold domain in `dataset`.",
                                 examples=["blocksworld"])
    gold_pddl: Text | None = Field(None, description="The gold domain as PDDL text.")
    pddl: Text | None = Field(None, description="The generated domain as PDDL text.")
    response: Text | None = Field(None, description="A raw LLM answer; the domain is extracted.")
    mode: Mode = Field("paper", description="paper: the released evaluator exactly; "
                       "canonical: rename-invariant, per action.")
    dataset: Text = Field(BUILTIN, description="Dataset that `gold_id` refers to.")
    semantic: bool = Field(False, description="Also score behaviour on the gold's problems "
                           "(plan validity, gold plan acceptance, applicability F1, transition "
                           "accuracy, per-action diagnoses).")
    problems: list[ProblemText] | None = Field(
        None, max_length=20, description="Problems for `semantic` with `gold_pddl` (a store "
        "gold uses its own unless these are given).")

    @model_validator(mode="after")
    def _one_of_each(self) -> "ScoreRequest":
        if (self.gold_id is None) == (self.gold_pddl is None):
            raise ValueError("give exactly one of 'gold_id' (a store id) and 'gold_pddl' (PDDL text)")
        if (self.pddl is None) == (self.response is None):
            raise ValueError("give exactly one of 'pddl' (a domain) and 'response' (a raw LLM answer)")
        if self.semantic and self.gold_pddl is not None and not self.problems:
            raise ValueError("'semantic' with 'gold_pddl' needs 'problems' (name and pddl of each)")
        return self


class ValidateRequest(_Strict):
    """A domain (``pddl``) or a raw model answer (``response``): exactly one of them."""

    model_config = ConfigDict(json_schema_extra=_ONE_DOMAIN)

    pddl: Text | None = Field(None, description="A PDDL domain.")
    response: Text | None = Field(None, description="A raw LLM answer; the domain is extracted.")
    exact_case: bool = Field(False, description="Parse exactly as written, as the paper's "
                             "evaluator did (default: case-insensitive, as PDDL is).")

    @model_validator(mode="after")
    def _one_input(self) -> "ValidateRequest":
        if (self.pddl is None) == (self.response is None):
            raise ValueError("give exactly one of 'pddl' (a domain) and 'response' (a raw LLM answer)")
        return self


class IssueModel(BaseModel):
    category: str
    message: str
    line: int | None = None
    column: int | None = None
    kind: str | None = None


class ValidateResponse(BaseModel):
    ok: bool
    errors: list[IssueModel]
    warnings: list[IssueModel]
    extracted: bool = Field(description="True when the domain was extracted from `response`.")


class GoldRef(BaseModel):
    dataset: str
    id: str


class ActionScore(BaseModel):
    status: Literal["matched", "missing", "extra"]
    predicted: str | None = Field(None, description="canonical mode: the predicted action "
                                  "matched with this gold action (through the alignment)")
    parameters: float
    preconditions: float
    effects: float


class ScoreResponse(BaseModel):
    """The keys of ``t2w score --json`` plus the validation of the generated domain."""

    mode: Mode
    executable: bool
    similarity: float
    f1_predicates: float
    f1_parameters: float
    f1_preconditions: float
    f1_effects: float
    f1_types: float | None = Field(None, description="canonical mode only")
    errors: list[IssueModel]
    gold_executable: bool = Field(True, description="False when the gold domain does not parse "
                                  "(every F1 is then 0 whatever the prediction).")
    gold_errors: list[IssueModel] = Field([], description="Why the gold cannot be scored.")
    per_action: dict[str, ActionScore] = Field({}, description="Each action's status and F1s.")
    alignment: dict[str, Any] | None = Field(
        None, description="canonical mode: the prediction's types, predicates, actions and "
        "constants mapped onto the gold's, with a confidence per pair and what stayed unmapped "
        "(text2world.alignment.Alignment.to_dict()).")
    validation: ValidateResponse
    gold: GoldRef | None = Field(None, description="The store record scored against, if any.")
    semantic: dict | None = Field(None, description="With `semantic: true`: the semantic "
                                  "scores (see text2world.semantic.SemanticScore); `verdict` "
                                  "is equivalent, different, incomplete (`unmatched` lists "
                                  "the gold's parts without counterpart) or not_simulated "
                                  "(`reason` says why).")


class ErrorBody(BaseModel):
    code: str
    message: str


class ErrorResponse(BaseModel):
    error: ErrorBody


class DomainSummary(BaseModel):
    id: str
    name: str
    split: str
    has_abstract: bool
    has_concrete: bool
    problems: int


class DomainPage(BaseModel):
    dataset: str
    split: str
    total: int
    offset: int
    limit: int
    next_offset: int | None
    items: list[DomainSummary]


class ProblemModel(BaseModel):
    name: str
    pddl: str


class DomainDetail(BaseModel):
    dataset: str
    id: str
    name: str
    split: str
    domain: str
    abstract: str | None
    concrete: str | None
    problems: list[ProblemModel]


class DatasetInfo(BaseModel):
    name: str
    kind: str
    domains: int | None = None
    content_hash: str | None = None
    problem: str | None = Field(None, description="Why the dataset cannot be read, if it cannot.")


class DatasetList(BaseModel):
    datasets: list[DatasetInfo]


class RunSummary(BaseModel):
    id: str
    finished: bool = Field(description="summary.json exists and is readable")
    model: str | None = None
    dataset: str | None = None
    summary: Any = None
    problems: list[str] = Field(default_factory=list,
                                description="Missing or unreadable run files.")


class RunPage(BaseModel):
    runs_dir: str
    total: int
    offset: int
    limit: int
    next_offset: int | None
    items: list[RunSummary]


class RunDetail(RunSummary):
    config: Any = None
    logged_items: int | None = Field(None, description="Lines in log.jsonl, if present.")


class Health(BaseModel):
    status: Literal["ok"]
    version: str
    executor: str
    domains: int | None


class Readiness(BaseModel):
    status: Literal["ready"]
    executor: str
    scoring_processes: int
    alive: int = Field(description="Scoring processes (or threads) up now.")
    free: int = Field(description="Scoring slots not in use.")
    waiting: int = Field(description="Requests waiting for a slot.")
    background: int = Field(0, description="Long jobs that gave their slot back (demoted, "
                                           "running at a lower CPU priority).")


_ERRORS = {status: {"model": ErrorResponse} for status in (404, 413, 422, 429)}
_SCORING_ERRORS = {status: {"model": ErrorResponse} for status in (404, 413, 422, 429, 503)}


# --------------------------------------------------------------------------------------------
# Store and runs access (synchronous; FastAPI runs these endpoints in its thread pool)


def _check_plain(value: str, what: str) -> None:
    if not _PLAIN_NAME.match(value) or ".." in value:
        raise ApiError(404, f"unknown_{what}",
                       f"{what} {value!r} does not exist: {what} ids are plain names of letters, "
                       "digits, '.', '_' and '-'")


def _dataset(name: str) -> Dataset:
    """A dataset by name only: the built-in store or an imported dataset, never a path."""
    _check_plain(name, "dataset")
    known = [entry["name"] for entry in list_datasets()]
    if name not in known:
        raise ApiError(404, "unknown_dataset",
                       f"dataset {name!r} does not exist; known datasets: {', '.join(known)} "
                       "(GET /v1/datasets)")
    try:
        return load_dataset(name)
    except DatasetError as err:
        raise ApiError(503, "dataset_unavailable", f"dataset {name!r} cannot be read: {err}") from None


def _record(dataset_name: str, record_id: str):
    _check_plain(record_id, "domain")
    dataset = _dataset(dataset_name)
    try:
        return dataset.get(record_id)
    except KeyError:
        raise ApiError(404, "unknown_domain",
                       f"dataset {dataset_name!r} has no domain with id {record_id!r} "
                       "(GET /v1/domains lists the ids)") from None


def _finite(text: str) -> float | None:
    value = float(text)
    return value if value not in (float("inf"), float("-inf")) else None


def _read_json_file(path: Path, root: Path, problems: list[str]) -> Any:
    name = path.name
    try:
        if not path.exists():
            problems.append(f"{name} is missing")
            return None
        if not path.resolve().is_relative_to(root):
            problems.append(f"{name} points outside the runs directory")
            return None
        if not path.is_file():
            problems.append(f"{name} is not a file")
            return None
        if path.stat().st_size > _MAX_RUN_FILE:
            problems.append(f"{name} is larger than {_MAX_RUN_FILE:,} bytes")
            return None
        text = path.read_text(encoding="utf-8")
    except (OSError, RuntimeError, UnicodeDecodeError) as err:  # RuntimeError: symlink loop
        problems.append(f"{name} cannot be read ({err})")
        return None
    try:
        # Python writes NaN and Infinity into JSON (a mean over no items); JSON has no such
        # numbers and they cannot be sent back, so they become null.
        return json.loads(text, parse_constant=lambda constant: None, parse_float=_finite)
    except (ValueError, RecursionError) as err:
        # A summary being rewritten is replaced atomically, so this is a damaged file.
        problems.append(f"{name} is not valid JSON ({err})")
        return None


def _redact(value: Any, depth: int = 0) -> Any:
    """Drop anything named like a credential; configs should hold none, but never echo one."""
    if depth > 50:
        return None
    if isinstance(value, dict):
        return {key: ("<redacted>" if isinstance(key, str) and _SECRET_KEY.search(key)
                      and isinstance(item, str) else _redact(item, depth + 1))
                for key, item in value.items()}
    if isinstance(value, list):
        return [_redact(item, depth + 1) for item in value]
    return value


def _field(config: Any, *names: str) -> str | None:
    if not isinstance(config, dict):
        return None
    for name in names:
        value = config.get(name)
        if isinstance(value, str):
            return value
        if isinstance(value, dict) and isinstance(value.get("name"), str):
            return value["name"]
    return None


def _is_run_dir(entry: Path, root: Path) -> bool:
    try:
        return (bool(_PLAIN_NAME.match(entry.name)) and ".." not in entry.name
                and entry.is_dir() and entry.resolve().is_relative_to(root)
                and ((entry / "config.json").exists() or (entry / "summary.json").exists()))
    except (OSError, RuntimeError):  # unreadable entry or symlink loop: not a run
        return False


def _run_dirs(runs_dir: Path) -> list[Path]:
    try:
        if not runs_dir.is_dir():
            return []
        root = runs_dir.resolve()
        entries = sorted(runs_dir.iterdir(), key=lambda p: p.name)
    except (OSError, RuntimeError) as err:
        raise ApiError(503, "runs_unavailable",
                       f"the runs directory {runs_dir} cannot be read ({err})") from None
    return [entry for entry in entries if _is_run_dir(entry, root)]


def _run_summary(folder: Path, root: Path, detail: bool = False) -> dict:
    problems: list[str] = []
    config = _read_json_file(folder / "config.json", root, problems)
    summary = _read_json_file(folder / "summary.json", root, problems)
    result = {"id": folder.name, "finished": summary is not None,
              "model": _field(config, "model", "model_name"),
              "dataset": _field(config, "dataset", "dataset_name"),
              "summary": _redact(summary), "problems": problems}
    if detail:
        result["config"] = _redact(config)
        log_path = folder / "log.jsonl"
        try:
            if log_path.is_file() and log_path.resolve().is_relative_to(root):
                with log_path.open("rb") as stream:
                    result["logged_items"] = sum(1 for line in stream if line.strip())
        except (OSError, RuntimeError) as err:
            problems.append(f"log.jsonl cannot be read ({err})")
    return result


# --------------------------------------------------------------------------------------------
# The application


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the service. ``settings`` default to the ``T2W_*`` environment variables."""
    settings = settings or Settings.from_env()
    state: dict[str, Any] = {}

    def builtin_golds() -> tuple[str, ...]:
        if not settings.warm:
            return ()
        try:
            return tuple(record.domain for record in load_dataset(BUILTIN))
        except DatasetError as err:
            log.warning("cannot warm the gold cache: %s", err)
            return ()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        executor = ScoringExecutor(settings.executor, settings.processes, settings.score_timeout,
                                   Admission.for_settings(settings), warm=settings.warm,
                                   warm_golds=builtin_golds,
                                   cache_bytes=settings.gold_cache_bytes,
                                   demote_after=settings.demote_after)
        # In the background: /healthz answers at once, /readyz once scoring works; scoring
        # requests that arrive before wait for the first free process.
        await executor.start(wait=False)
        state["executor"] = app.state.executor = executor
        try:
            yield
        finally:
            state.pop("executor", None)
            executor.close()

    app = FastAPI(
        title="text2world scoring service",
        version=text2world.__version__,
        description="Score and validate LLM-generated PDDL domains against the text2world "
                    "gold domains. Errors are JSON: `{\"error\": {\"code\", \"message\"}}`.",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.add_middleware(BodyLimitMiddleware, max_body=settings.max_body)
    if settings.per_client_rate > 0:  # added last: runs first, before the body is read
        app.add_middleware(ClientRateMiddleware, limiter=ClientRateLimiter(
            settings.per_client_rate, settings.per_client_burst, MAX_RATE_DELAY,
            settings.per_client_limit))

    # ---- error handlers: every error is {"error": {...}}; nothing becomes a bare 500

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return _error_response(exc.status, exc.code, exc.message, headers=exc.headers,
                               **exc.details)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        details = _validation_details(exc.errors())
        return _error_response(422, "invalid_request", _validation_message(details), details=details)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:
            # FastAPI's answer to a body that is not parseable JSON (e.g. nested too deeply).
            return _error_response(422, "invalid_request",
                                   f"malformed request body: {exc.detail}; send a JSON object")
        if exc.status_code == 404:
            message = f"no such endpoint: {request.method} {request.url.path} (see /docs)"
        elif exc.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path} (see /docs)"
        else:
            message = str(exc.detail)
        # exc.headers carries Allow on 405.
        return _error_response(exc.status_code, _HTTP_CODES.get(exc.status_code, "http_error"),
                               message, headers=getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return _error_response(500, "internal_error",
                               f"unexpected {type(exc).__name__}; this is a bug in the service")

    async def run_job(job, task: dict, request: Request) -> dict:
        executor: ScoringExecutor | None = state.get("executor")
        if executor is None:  # lifespan not run (an ASGI server without lifespan support)
            raise ApiError(503, "not_ready", "the scoring service has not started; retry shortly",
                           headers={"Retry-After": "1"}, retry_after=1)
        client = request.client.host if request.client else "unknown"
        try:
            return await executor.run(job, task, client)
        except ScoringTimeout:
            raise ApiError(422, "scoring_timeout",
                           f"scoring took longer than the {settings.score_timeout:g} s limit and "
                           "was stopped; send a smaller or simpler domain",
                           timeout_seconds=settings.score_timeout) from None
        except ScoringUnavailable as err:
            raise ApiError(503, "scoring_unavailable", f"{err}; retry the request",
                           headers={"Retry-After": "1"}, retry_after=1) from None

    # ---- endpoints

    @app.get("/healthz", response_model=Health, tags=["service"])
    def healthz() -> dict:
        """Liveness: the process answers (whether scoring works: /readyz)."""
        try:
            domains = len(load_dataset(BUILTIN))
        except DatasetError:
            domains = None
        return {"status": "ok", "version": text2world.__version__,
                "executor": settings.executor, "domains": domains}

    @app.get("/readyz", response_model=Readiness, responses={503: {"model": ErrorResponse}},
             tags=["service"])
    def readyz() -> dict:
        """Readiness: scoring works (its processes are up); 503 while starting or broken."""
        executor: ScoringExecutor | None = state.get("executor")
        status = executor.status() if executor is not None else None
        if status is None or not status["ready"]:
            why = ("the scoring processes are starting" if status is None or not status["started"]
                   else f"no scoring process is up ({status['error'] or 'restarts fail'})")
            raise ApiError(503, "not_ready", f"not ready: {why}", headers={"Retry-After": "1"},
                           retry_after=1)
        return {"status": "ready", **{key: status[key] for key in
                                      ("executor", "scoring_processes", "alive", "free", "waiting")}}

    # Store records found in the last second: a lookup reads folder listings and times, so it
    # runs in a thread; most requests name a gold looked up a moment ago and skip that hop.
    recent_records: dict[tuple[str, str], tuple[float, Any]] = {}

    async def find_record(dataset: str, record_id: str):
        key = (dataset, record_id)
        found = recent_records.get(key)
        now = time.monotonic()
        if found is not None and now - found[0] < _RECORD_TTL:
            return found[1]
        record = await anyio.to_thread.run_sync(_record, dataset, record_id)
        if len(recent_records) >= 4096:
            recent_records.clear()
        recent_records[key] = (now, record)
        return record

    @app.post("/v1/score", response_model=ScoreResponse, responses=_SCORING_ERRORS,
              tags=["scoring"])
    async def score_endpoint(request: ScoreRequest, http: Request) -> dict:
        """Score a generated domain against a gold domain (store id or PDDL text)."""
        gold_ref = None
        problems = [(p.name, p.pddl) for p in request.problems or ()]
        if request.gold_id is not None:
            record = await find_record(request.dataset, request.gold_id)
            gold, gold_ref = record.domain, {"dataset": request.dataset, "id": record.id}
            problems = problems or [(p.name, p.pddl) for p in record.problems]
        else:
            gold = request.gold_pddl
        task = {"gold": gold, "pddl": request.pddl, "response": request.response,
                "mode": request.mode, "semantic": request.semantic, "problems": problems}
        result = await run_job(score_job, task, http)
        return {**result, "gold": gold_ref}

    @app.post("/v1/validate", response_model=ValidateResponse, responses=_SCORING_ERRORS,
              tags=["scoring"])
    async def validate_endpoint(request: ValidateRequest, http: Request) -> dict:
        """Check that a domain parses; list errors (with categories and lines) and warnings."""
        return await run_job(validate_job, request.model_dump(), http)

    @app.get("/v1/datasets", response_model=DatasetList, tags=["store"])
    def datasets_endpoint() -> dict:
        """The built-in store and the imported datasets."""
        found = []
        for entry in list_datasets():
            info = {"name": entry["name"], "kind": entry["kind"]}
            try:
                dataset = load_dataset(entry["name"])
                info.update(domains=len(dataset), content_hash=dataset.content_hash)
            except DatasetError as err:
                info["problem"] = str(err)
            found.append(info)
        return {"datasets": found}

    @app.get("/v1/domains", response_model=DomainPage, responses=_ERRORS, tags=["store"])
    def domains_endpoint(
        split: Literal["all", "train", "test"] = "all",
        dataset: str = BUILTIN,
        offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
        limit: Annotated[int, Query(ge=1, le=500)] = 50,
    ) -> dict:
        """The domains of a dataset, a page at a time, optionally of one split."""
        records = _dataset(dataset).split(split)
        page = records[offset: offset + limit]
        return {"dataset": dataset, "split": split, "total": len(records), "offset": offset,
                "limit": limit,
                "next_offset": offset + limit if offset + limit < len(records) else None,
                "items": [{"id": r.id, "name": r.name, "split": r.split,
                           "has_abstract": r.abstract is not None,
                           "has_concrete": r.concrete is not None,
                           "problems": len(r.problems)} for r in page]}

    @app.get("/v1/domains/{domain_id}", response_model=DomainDetail, responses=_ERRORS,
             tags=["store"])
    def domain_endpoint(domain_id: str, dataset: str = BUILTIN) -> dict:
        """One domain: gold PDDL, abstract and concrete descriptions, problems."""
        record = _record(dataset, domain_id)
        return {"dataset": dataset, "id": record.id, "name": record.name, "split": record.split,
                "domain": record.domain, "abstract": record.abstract,
                "concrete": record.concrete,
                "problems": [{"name": p.name, "pddl": p.pddl} for p in record.problems]}

    @app.get("/v1/runs", response_model=RunPage, tags=["runs"])
    def runs_endpoint(
        offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
        limit: Annotated[int, Query(ge=1, le=500)] = 50,
    ) -> dict:
        """Evaluation runs in the runs directory, with their summaries."""
        folders = _run_dirs(settings.runs_dir)
        root = settings.runs_dir.resolve()
        page = folders[offset: offset + limit]
        return {"runs_dir": str(settings.runs_dir), "total": len(folders), "offset": offset,
                "limit": limit,
                "next_offset": offset + limit if offset + limit < len(folders) else None,
                "items": [_run_summary(folder, root) for folder in page]}

    @app.get("/v1/runs/{run_id}", response_model=RunDetail, responses=_ERRORS, tags=["runs"])
    def run_endpoint(run_id: str) -> dict:
        """One run: its config (without credentials), summary and number of logged items."""
        _check_plain(run_id, "run")
        for folder in _run_dirs(settings.runs_dir):
            if folder.name == run_id:
                return _run_summary(folder, settings.runs_dir.resolve(), detail=True)
        raise ApiError(404, "unknown_run",
                       f"no run {run_id!r} in {settings.runs_dir} (GET /v1/runs lists the runs)")

    viewer.install(app)  # the results viewer (/view/, /v1/runs/{id}/...) and offline /docs
    return app


app = create_app()
