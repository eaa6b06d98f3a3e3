"""The tools an agent calls: validate, score, plan, simulate, look domains up. The MCP server
(``integrations.mcp_server``, ``t2w mcp``) serves them; the agent protocol (``t2w eval
--agent``) and the plans feedback call them in-process. Both get the same checks and limits.

Bounded like the REST API: the text arguments of one call may hold at most ``max_body`` bytes
(the API's body limit, 1 MiB), semantic problems at most 20 with names of at most 200
characters, every domain passes ``text2world.pddl.bounds`` before the parser sees it, and every
validation, scoring and simulation job runs in a scoring process of ``ScoringExecutor``
(``service.executor``), stopped past ``score_timeout`` (10 s). Planning runs the planner front
there too (in-process search, then Fast Downward within ``plan_timeout`` CPU seconds; the job
is stopped past 1.5 times that plus ``score_timeout``). Errors are ``ApiError`` with the
service's codes (``service.error_codes``, ``MCP`` surface).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

from text2world.errors import ApiError, ScoringTimeout, ScoringUnavailable
from text2world.service import simulation_jobs
from text2world.service.error_codes import MCP, api_error
from text2world.service.jobs import gold_problem_text, score_job, score_problem_job, validate_job
from text2world.service.limits import DEFAULT_MAX_BODY, DEFAULT_SCORE_TIMEOUT
from text2world.store.datasets import (
    BUILTIN,
    Dataset,
    DatasetUnavailable,
    Record,
    StoreGold,
    UnknownDataset,
    UnknownDomain,
    gold_from_store,
    named_dataset,
    named_record,
)

DEFAULT_PLAN_TIMEOUT = 20.0  # seconds; the world-model tasks' planner bound
MAX_PROBLEMS = 20  # semantic problems of one call, as ``ScoreRequest.problems``
MAX_PROBLEM_NAME = 200  # characters, as ``ProblemText.name``
MAX_PAGE = 500  # domains per list_domains page, as GET /v1/domains


@dataclass(frozen=True)
class McpSettings:
    """The tools' limits and executor: ``t2w mcp``'s flags; the agent protocol's tools keep the
    defaults (one scoring process, or threads under Inspect)."""

    max_body: int = DEFAULT_MAX_BODY
    """Bytes of text (UTF-8) the arguments of one tool call may hold."""
    score_timeout: float = DEFAULT_SCORE_TIMEOUT
    """Seconds one validation, scoring or simulation job may run; past it, the job is stopped."""
    plan_timeout: float = DEFAULT_PLAN_TIMEOUT
    """Seconds Fast Downward may search; the most a ``plan`` call may ask for."""
    processes: int = 1
    """Scoring processes (an agent's calls come one at a time)."""
    executor: str = "process"
    """"thread": jobs in threads of this process (past the time limit a job is reported as
    stopped but runs on): for hosts that own no process pool (an Inspect task's solver)."""

    def __post_init__(self) -> None:
        for name in ("max_body", "score_timeout", "plan_timeout", "processes"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name.replace('_', ' ')} must be positive, "
                                 f"not {getattr(self, name)}")


def _check_size(settings: McpSettings, **texts: Any) -> None:
    """The REST API's body limit, applied to the text a call carries."""
    size = 0
    for value in texts.values():
        if isinstance(value, str):
            size += len(value.encode("utf-8", "surrogatepass"))
        elif isinstance(value, (list, tuple)):
            size += sum(len(json.dumps(v, ensure_ascii=False).encode("utf-8", "surrogatepass"))
                        for v in value)
    if size > settings.max_body:
        raise ApiError(413, "payload_too_large", f"the arguments hold {size:,} bytes of text; the "
                       f"limit is {settings.max_body:,} (t2w mcp --max-body)")
    for name, value in texts.items():
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as err:
                raise ApiError(422, "invalid_request", f"{name} contains an unpaired UTF-16 "
                               f"surrogate at character {err.start}; send UTF-8 text") from None


def _one_of(first: tuple[str, Any], second: tuple[str, Any], what: str) -> None:
    if (first[1] is None) == (second[1] is None):
        raise ApiError(422, "invalid_request",
                       f"give exactly one of '{first[0]}' and '{second[0]}' ({what})")


def _dataset(name: str) -> Dataset:
    try:
        return named_dataset(name)
    except (UnknownDataset, DatasetUnavailable) as err:
        raise api_error(err, MCP) from None


def _record(dataset: str, record_id: str) -> Record:
    try:
        return named_record(dataset, record_id)
    except (UnknownDataset, DatasetUnavailable, UnknownDomain) as err:
        raise api_error(err, MCP) from None


def _gold(dataset: str, gold_id: str) -> StoreGold:
    try:
        return gold_from_store(dataset, gold_id)
    except (UnknownDataset, DatasetUnavailable, UnknownDomain) as err:
        raise api_error(err, MCP) from None


class Tools:
    """The tools as plain async methods (the MCP server only wraps them; the agent protocol
    calls them), over one executor, started on first use."""

    def __init__(self, settings: McpSettings) -> None:
        self.settings = settings
        self.executor: Any = None  # a ScoringExecutor (service.executor), once started

    async def start(self) -> None:
        from text2world.service.executor import ScoringExecutor

        self.executor = ScoringExecutor(self.settings.executor, self.settings.processes,
                                        self.settings.score_timeout)
        await self.executor.start(wait=False)

    def close(self) -> None:
        if self.executor is not None:
            self.executor.close()
            self.executor = None

    async def _run(self, job, task: dict, timeout: float | None = None) -> dict:
        if self.executor is None:
            await self.start()
        try:
            return await self.executor.run(job, task, "mcp", timeout=timeout)
        except (ScoringTimeout, ScoringUnavailable) as err:
            raise api_error(err, MCP) from None

    # ---- the tools

    async def validate_domain(self, pddl: str | None = None, response: str | None = None,
                              exact_case: bool = False) -> dict:
        _one_of(("pddl", pddl), ("response", response), "a domain or a raw model answer")
        _check_size(self.settings, pddl=pddl, response=response)
        return await self._run(validate_job, {"pddl": pddl, "response": response,
                                              "exact_case": exact_case})

    async def score_domain(self, pddl: str | None = None, response: str | None = None,
                           gold_id: str | None = None, gold_pddl: str | None = None,
                           mode: str = "paper", semantic: bool = False,
                           problems: list[dict] | None = None, dataset: str = BUILTIN) -> dict:
        _one_of(("pddl", pddl), ("response", response), "a domain or a raw model answer")
        _one_of(("gold_id", gold_id), ("gold_pddl", gold_pddl), "a store id or a gold domain")
        if mode not in ("paper", "canonical"):
            raise ApiError(422, "invalid_request",
                           f"mode must be 'paper' or 'canonical', not {mode!r}")
        _check_size(self.settings, pddl=pddl, response=response, gold_pddl=gold_pddl,
                    problems=problems or [])
        pairs = _problem_pairs(problems)
        gold_ref: dict[str, str] | None = None
        gold: str | None
        if gold_id is not None:
            found = await asyncio.to_thread(_gold, dataset, gold_id)
            gold, gold_ref = found.domain, found.ref()
            pairs = pairs or list(found.problems)
        else:
            gold = gold_pddl
            if semantic and not pairs:
                raise ApiError(422, "invalid_request", "'semantic' with 'gold_pddl' needs "
                               "'problems' (a list of {name, pddl})")
        result = await self._run(score_job, {"gold": gold, "pddl": pddl, "response": response,
                                             "mode": mode, "semantic": semantic,
                                             "problems": pairs})
        return {**result, "gold": gold_ref}

    async def score_problem(self, response: str, gold_problem: str, gold_id: str | None = None,
                            gold_pddl: str | None = None, dataset: str = BUILTIN) -> dict:
        """``POST /v1/score/problem``: a problem answer against a gold problem."""
        _one_of(("gold_id", gold_id), ("gold_pddl", gold_pddl), "a store id or a gold domain")
        for field, value in (("response", response), ("gold_problem", gold_problem)):
            if not isinstance(value, str):
                raise ApiError(422, "invalid_request", f"{field} must be text")
        _check_size(self.settings, response=response, gold_problem=gold_problem,
                    gold_pddl=gold_pddl)
        gold_ref, problems = None, []
        if gold_id is not None:
            found = await asyncio.to_thread(_gold, dataset, gold_id)
            domain, gold_ref, problems = found.domain, found.ref(), list(found.problems)
        else:
            assert gold_pddl is not None  # _one_of
            domain = gold_pddl
        problem, name = gold_problem_text(gold_problem, problems, gold_id,
                                          "get_domain lists them")
        result = await self._run(score_problem_job, {"domain": domain, "problem": problem,
                                                     "response": response})
        return {**result, "gold": gold_ref, "problem": name}

    async def plan(self, domain: str, problem: str, timeout: float | None = None) -> dict:
        from text2world.planning.front import PROVER_SHARE

        _check_size(self.settings, domain=domain, problem=problem)
        limit = self.settings.plan_timeout if timeout is None else timeout
        if not 0 < limit <= self.settings.plan_timeout:
            raise ApiError(422, "invalid_request", f"timeout must be in (0, "
                           f"{self.settings.plan_timeout:g}] seconds (t2w mcp --plan-timeout), "
                           f"not {limit}")
        # In a scoring process, never this one: Fast Downward's CPU limit (lama-first's
        # ``limit`` and the prover's share of it), the in-process search and the checks within
        # ``score_timeout``; past that, the process is killed.
        return await self._run(simulation_jobs.plan_job, {"domain": domain, "problem": problem,
                                                          "timeout": limit},
                               timeout=limit * (1 + PROVER_SHARE) + self.settings.score_timeout)

    async def validate_plan(self, domain: str, problem: str, plan: str | list[str]) -> dict:
        _check_size(self.settings, domain=domain, problem=problem,
                    plan=plan if isinstance(plan, str) else list(plan))
        return await self._run(simulation_jobs.validate_plan_job,
                               {"domain": domain, "problem": problem, "plan": plan})

    async def simulate(self, domain: str, problem: str, action: str,
                       state: list[str] | None = None) -> dict:
        _check_size(self.settings, domain=domain, problem=problem, action=action,
                    state=state or [])
        return await self._run(simulation_jobs.simulate_job, {
            "domain": domain, "problem": problem, "action": action, "state": state})

    async def list_domains(self, dataset: str = BUILTIN, split: str = "all", offset: int = 0,
                           limit: int = 50) -> dict:
        if split not in ("all", "train", "test"):
            raise ApiError(422, "invalid_request",
                           f"split must be all, train or test, not {split!r}")
        if offset < 0 or not 1 <= limit <= MAX_PAGE:
            raise ApiError(422, "invalid_request",
                           f"offset must be at least 0 and limit in 1..{MAX_PAGE}")
        records = (await asyncio.to_thread(_dataset, dataset)).split(split)
        page = records[offset: offset + limit]
        return {"dataset": dataset, "split": split, "total": len(records), "offset": offset,
                "next_offset": offset + limit if offset + limit < len(records) else None,
                "items": [{"id": r.id, "name": r.name, "split": r.split,
                           "category": r.meta.get("category"),
                           "has_abstract": r.abstract is not None,
                           "has_concrete": r.concrete is not None,
                           "problems": len(r.problems)} for r in page]}

    async def get_domain(self, domain_id: str, dataset: str = BUILTIN) -> dict:
        record = await asyncio.to_thread(_record, dataset, domain_id)
        return {"dataset": dataset, "id": record.id, "name": record.name, "split": record.split,
                "domain": record.domain, "abstract": record.abstract,
                "concrete": record.concrete,
                "problems": [{"name": p.name, "pddl": p.pddl} for p in record.problems]}


def _problem_pairs(problems: list[dict] | None) -> list[tuple[str, str]]:
    if not problems:
        return []
    if len(problems) > MAX_PROBLEMS:
        raise ApiError(422, "invalid_request",
                       f"problems: {len(problems)} given; at most {MAX_PROBLEMS}")
    pairs = []
    for index, entry in enumerate(problems):
        if (not isinstance(entry, dict) or not isinstance(entry.get("name"), str)
                or not isinstance(entry.get("pddl"), str) or set(entry) - {"name", "pddl"}):
            raise ApiError(422, "invalid_request",
                           f"problems[{index}] must be an object with text 'name' and 'pddl'")
        if len(entry["name"]) > MAX_PROBLEM_NAME:
            raise ApiError(422, "invalid_request", f"problems[{index}].name has more than "
                           f"{MAX_PROBLEM_NAME} characters")
        pairs.append((entry["name"], entry["pddl"]))
    return pairs
