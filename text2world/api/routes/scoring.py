"""Scoring and validating generated domains (jobs run in the scoring processes)."""

from __future__ import annotations

import asyncio
import json
from typing import Any, AsyncIterator, Sequence

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from text2world.api.dependencies import JobRunnerDep, RecordsDep
from text2world.api.schemas import (
    SCORING_ERRORS,
    BatchScoreRequest,
    BatchScoreResponse,
    ProblemScoreRequest,
    ProblemScoreResponse,
    ScoreRequest,
    ScoreResponse,
    ValidateRequest,
    ValidateResponse,
)
from text2world.errors import ApiError
from text2world.service.error_codes import api_error
from text2world.service.jobs import (
    batch_item_job,
    gold_problem_text,
    score_job,
    score_problem_job,
    validate_job,
)

router = APIRouter(prefix="/v1", tags=["scoring"])


@router.post("/score", response_model=ScoreResponse, responses=SCORING_ERRORS,
             summary="Score a generated domain against a gold domain")
async def score_domain(request: ScoreRequest, run_job: JobRunnerDep, records: RecordsDep) -> dict:
    """Executability, similarity and the F1 of predicates, parameters, preconditions and
    effects (`paper` mode: the released evaluator; `canonical`: rename-invariant, per action),
    against a store gold (`gold_id`) or PDDL text (`gold_pddl`). With `semantic: true`, also
    behaviour on the gold's problems. Text with no `(define` at all is an error of kind
    `NoDomainFound` in `errors`."""
    gold_ref = None
    problems = [(p.name, p.pddl) for p in request.problems or ()]
    gold: str | None
    if request.gold_id is not None:
        found = await records.get(request.dataset, request.gold_id)
        gold, gold_ref = found.domain, found.ref()
        problems = problems or list(found.problems)
    else:
        gold = request.gold_pddl
    task = {"gold": gold, "pddl": request.pddl, "response": request.response,
            "mode": request.mode, "semantic": request.semantic, "problems": problems}
    result = await run_job(score_job, task)
    return {**result, "gold": gold_ref}


@router.post("/score/problem", response_model=ProblemScoreResponse, responses=SCORING_ERRORS,
             summary="Score a problem answer against a gold problem")
async def score_problem(request: ProblemScoreRequest, run_job: JobRunnerDep,
                        records: RecordsDep) -> dict:
    """The `(define (problem ...))` of a raw model answer compared by meaning with the gold
    problem (`gold_problem`: a problem name of the store domain `gold_id`, or PDDL) of the gold
    domain: reward 1.0 when equivalent (the same initial state up to a renaming of objects,
    goals accepting the same reachable states), else 0, with the reason and the verdict. A
    gold domain or problem that does not parse is a 422 (`unscorable`); an unknown problem
    name a 404 (`unknown_problem`). Bounded like `/v1/score`."""
    gold_ref, problems = None, []
    if request.gold_id is not None:
        found = await records.get(request.dataset, request.gold_id)
        domain, gold_ref, problems = found.domain, found.ref(), list(found.problems)
    else:
        assert request.gold_pddl is not None  # the model's check
        domain = request.gold_pddl
    problem, name = gold_problem_text(request.gold_problem, problems, request.gold_id,
                                      "GET /v1/domains/{id} lists them")
    result = await run_job(score_problem_job, {"domain": domain, "problem": problem,
                                               "response": request.response})
    return {**result, "gold": gold_ref, "problem": name}


@router.post("/validate", response_model=ValidateResponse, responses=SCORING_ERRORS,
             summary="Check that a domain parses")
async def validate_domain(request: ValidateRequest, run_job: JobRunnerDep) -> dict:
    """Every error in one pass, each with its category, kind and line, plus warnings; a raw
    model answer (`response`) has its domain extracted first."""
    return await run_job(validate_job, request.model_dump())


def _batch_lines(request: BatchScoreRequest) -> list[dict]:
    """The items as ``batch_scoring`` tasks, every gold resolved first (422 naming the item)."""
    from text2world.batch_scoring import BatchInputError, parse_line

    try:
        return [parse_line(item.model_dump(exclude_none=True), f"items[{index}]").task()
                for index, item in enumerate(request.items)]
    except BatchInputError as err:
        raise api_error(err) from None


NDJSON = "application/x-ndjson"


@router.post("/score/batch", response_model=BatchScoreResponse, responses=SCORING_ERRORS,
             summary="Score many answers as rewards")
async def score_batch(request: BatchScoreRequest, run_job: JobRunnerDep,
                      http: Request) -> Any:
    """Each item's reward (`metric`: semantic by default, 0 for an answer that does not
    validate), every score, the semantic verdict and the reason, as `t2w score-batch` writes
    them. Each item is one scoring job, bounded like `/v1/score`; an item past the time limit
    gets reward 0 and says so. At most the client's concurrency of items score at once.

    With `Accept: application/x-ndjson` the results stream as JSON lines in the items' order,
    each as soon as it and those before it are scored; an error after the first line ends the
    stream with a line `{"error": {...}}` (before it, the usual error response)."""
    from text2world.rewards import DEFAULT_LIMIT

    lines = await anyio.to_thread.run_sync(_batch_lines, request)
    settings = run_job.settings
    limit = min(DEFAULT_LIMIT, settings.score_timeout)
    gate = asyncio.Semaphore(max(1, settings.per_client_concurrency))

    async def one(line: dict) -> dict:
        async with gate:
            try:
                return await run_job(batch_item_job, {"line": line, "metric": request.metric, "limit": limit})
            except ApiError as err:
                if err.code != "scoring_timeout":
                    raise
                return {"id": line["id"], "gold": None, "metric": request.metric, "reward": 0.0,
                        "executable": None, "verdict": None, "reason": err.message, "scores": {}}

    tasks = [asyncio.ensure_future(one(line)) for line in lines]
    if NDJSON in http.headers.get("accept", ""):
        return await _streamed(tasks)
    try:
        return {"results": await asyncio.gather(*tasks)}
    except BaseException:  # an error answers the request: the other items stop scoring
        _cancel(tasks)
        raise


def _cancel(tasks: Sequence[asyncio.Future]) -> None:
    for task in tasks:
        task.cancel()


async def _streamed(tasks: Sequence[asyncio.Future]) -> StreamingResponse:
    """The items' results as JSON lines in their order. The first is awaited before the
    response starts, so an error there is the usual error response."""
    try:
        first = await tasks[0] if tasks else None
    except BaseException:
        _cancel(tasks)
        raise

    async def lines() -> AsyncIterator[bytes]:
        try:
            if first is not None:
                yield json.dumps(first, ensure_ascii=False).encode() + b"\n"
            for task in tasks[1:]:
                try:
                    result = await task
                except ApiError as err:
                    error = {"code": err.code, "message": err.message, **(err.details or {})}
                    yield json.dumps({"error": error}).encode() + b"\n"
                    return
                yield json.dumps(result, ensure_ascii=False).encode() + b"\n"
        finally:  # the client went away, or an error ended the stream
            _cancel(tasks)

    return StreamingResponse(lines(), media_type=NDJSON)
