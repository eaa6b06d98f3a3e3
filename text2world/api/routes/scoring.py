"""Scoring and validating generated domains (jobs run in the scoring processes)."""

from __future__ import annotations

from fastapi import APIRouter

from text2world.api.dependencies import JobRunnerDep, RecordsDep
from text2world.api.jobs import score_job, validate_job
from text2world.api.schemas import (
    SCORING_ERRORS,
    ScoreRequest,
    ScoreResponse,
    ValidateRequest,
    ValidateResponse,
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
    if request.gold_id is not None:
        record = await records.get(request.dataset, request.gold_id)
        gold, gold_ref = record.domain, {"dataset": request.dataset, "id": record.id}
        problems = problems or [(p.name, p.pddl) for p in record.problems]
    else:
        gold = request.gold_pddl
    task = {"gold": gold, "pddl": request.pddl, "response": request.response,
            "mode": request.mode, "semantic": request.semantic, "problems": problems}
    result = await run_job(score_job, task)
    return {**result, "gold": gold_ref}


@router.post("/validate", response_model=ValidateResponse, responses=SCORING_ERRORS,
             summary="Check that a domain parses")
async def validate_domain(request: ValidateRequest, run_job: JobRunnerDep) -> dict:
    """Every error in one pass, each with its category, kind and line, plus warnings; a raw
    model answer (`response`) has its domain extracted first."""
    return await run_job(validate_job, request.model_dump())
