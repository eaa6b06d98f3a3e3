"""The REST service's request and response models (the JSON bodies in /docs).

Requests are strict: a field of the wrong JSON type (``"semantic": "yes"``, ``"limit": "5"``)
is refused with a 422 naming the field, never coerced; unknown fields are refused too.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from pydantic.json_schema import JsonDict

from text2world.store.datasets import BUILTIN

# The OpenAPI form of the "exactly one of" checks of the request models.
_ONE_GOLD: JsonDict = {"oneOf": [{"required": ["gold_id"], "properties": {"gold_id": {"type": "string"}}},
                       {"required": ["gold_pddl"], "properties": {"gold_pddl": {"type": "string"}}}]}
_ONE_DOMAIN: JsonDict = {"oneOf": [{"required": ["pddl"], "properties": {"pddl": {"type": "string"}}},
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


def _dataset_name(value: str) -> str:
    # A service reads datasets by name only (the built-in store or an imported one): a path
    # would let a client make the server read any file it can.
    from text2world.store.datasets import DatasetError, check_dataset_name

    try:
        check_dataset_name(value)
    except DatasetError as err:
        raise ValueError(f"{err} (the service takes dataset names, never paths)") from None
    return value


DatasetName = Annotated[str, AfterValidator(_dataset_name)]
Mode = Literal["paper", "canonical"]


class _Strict(BaseModel):
    # strict: JSON true/false only for a bool, a number for a number, and so on.
    model_config = ConfigDict(extra="forbid", strict=True)


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
    dataset: Text = Field(BUILTIN, description="Dataset that `gold_id` refers to (a name).")
    semantic: bool = Field(False, description="Also score behaviour on the gold's problems "
                           "(plan validity, gold plan acceptance, applicability F1, transition "
                           "accuracy, per-action diagnoses).")
    problems: list[ProblemText] | None = Field(
        None, max_length=20, description="Problems for `semantic` with `gold_pddl` (a store "
        "gold uses its own unless these are given).")

    @model_validator(mode="after")
    def _one_of_each(self) -> ScoreRequest:
        if (self.gold_id is None) == (self.gold_pddl is None):
            raise ValueError("give exactly one of 'gold_id' (a store id) and 'gold_pddl' (PDDL text)")
        if (self.pddl is None) == (self.response is None):
            raise ValueError("give exactly one of 'pddl' (a domain) and 'response' (a raw LLM answer)")
        if self.semantic and self.gold_pddl is not None and not self.problems:
            raise ValueError("'semantic' with 'gold_pddl' needs 'problems' (name and pddl of each)")
        return self


MAX_BATCH_ITEMS = 512  # lines per POST /v1/score/batch (a GRPO step of 2,048 is four requests)


class BatchItem(_Strict):
    """One answer of a batch: its ``id``, its gold (``gold_id`` or ``gold_pddl``) and the raw
    model answer (``response``)."""

    model_config = ConfigDict(json_schema_extra=_ONE_GOLD)

    id: Text = Field(..., min_length=1, max_length=200)
    gold_id: Text | None = None
    gold_pddl: Text | None = None
    response: Text
    dataset: DatasetName = BUILTIN

    @model_validator(mode="after")
    def _one_gold(self) -> BatchItem:
        if (self.gold_id is None) == (self.gold_pddl is None):
            raise ValueError("give exactly one of 'gold_id' (a store id) and 'gold_pddl' (PDDL text)")
        return self


class BatchScoreRequest(_Strict):
    """Answers to score as rewards (``text2world.rewards``), each line as ``t2w score-batch``
    writes it."""

    items: list[BatchItem] = Field(..., min_length=1, max_length=MAX_BATCH_ITEMS)
    metric: Literal["executable", "paper_f1", "canonical_f1", "semantic"] = Field(
        "semantic", description="The metric in each result's `reward` (every score is returned).")


class BatchResult(BaseModel):
    id: str
    gold: str | None
    metric: str
    reward: float
    executable: bool | None
    verdict: str | None
    reason: str
    scores: dict[str, float]


class BatchScoreResponse(BaseModel):
    results: list[BatchResult]


class ValidateRequest(_Strict):
    """A domain (``pddl``) or a raw model answer (``response``): exactly one of them."""

    model_config = ConfigDict(json_schema_extra=_ONE_DOMAIN)

    pddl: Text | None = Field(None, description="A PDDL domain.")
    response: Text | None = Field(None, description="A raw LLM answer; the domain is extracted.")
    exact_case: bool = Field(False, description="Parse exactly as written, as the paper's "
                             "evaluator did (default: case-insensitive, as PDDL is).")

    @model_validator(mode="after")
    def _one_input(self) -> ValidateRequest:
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
        "(text2world.scoring.alignment.Alignment.to_dict()).")
    validation: ValidateResponse
    gold: GoldRef | None = Field(None, description="The store record scored against, if any.")
    semantic: dict | None = Field(None, description="With `semantic: true`: the semantic "
                                  "scores (see text2world.scoring.semantic.SemanticScore); `verdict` "
                                  "is equivalent, different, incomplete (`unmatched` lists "
                                  "the gold's parts without counterpart) or not_simulated "
                                  "(`reason` says why).")


class ProblemScoreRequest(_Strict):
    """A model's problem answer (``response``) and the gold problem it should pose:
    ``gold_problem`` (a problem name of the store domain ``gold_id``, or problem PDDL) of the
    gold domain (``gold_id`` or ``gold_pddl``: exactly one)."""

    model_config = ConfigDict(json_schema_extra=_ONE_GOLD)

    gold_id: Text | None = Field(None, description="Id of the gold domain in `dataset`.",
                                 examples=["blocksworld"])
    gold_pddl: Text | None = Field(None, description="The gold domain as PDDL text.")
    gold_problem: Text = Field(..., description="A problem name of `gold_id` (GET "
                               "/v1/domains/{id} lists them) or the gold problem's PDDL.",
                               examples=["p01"])
    response: Text = Field(..., description="The raw model answer; its `(define (problem ...))` "
                           "is extracted.")
    dataset: DatasetName = Field(BUILTIN, description="Dataset that `gold_id` refers to.")

    @model_validator(mode="after")
    def _one_gold(self) -> ProblemScoreRequest:
        if (self.gold_id is None) == (self.gold_pddl is None):
            raise ValueError("give exactly one of 'gold_id' (a store id) and 'gold_pddl' (PDDL text)")
        return self


class ProblemScoreResponse(BaseModel):
    """``scoring.problem_answer``: the reward (1 equivalent, else 0), why, the verdict."""

    gold: GoldRef | None = Field(None, description="The store record scored against, if any.")
    problem: str | None = Field(None, description="The store problem's name, if any.")
    reward: float = Field(..., description="1.0 when the answer poses the gold's task, else 0.")
    reason: str = Field(..., description="Why the reward is below 1 (empty when it is 1).")
    verdict: dict | None = Field(None, description="The equivalence verdict (parseable, "
                                 "solvable, equivalent, rule, counterexample, similarity, "
                                 "init_f1, goal_f1, mapping, states, message); None when the "
                                 "answer holds no problem.")
    extracted: str | None = Field(None, description="The problem taken from the answer.")


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
    label: str | None = Field(None, description="The run's short label, which tells two runs "
                              "of one model apart: its --label, else what its run id says "
                              "beyond the model.")
    epochs: int = Field(1, description="Samples per item (--epochs): the summary counts "
                        "finished_items and, apart, finished_samples.")
    dataset: str | None = None
    summary: Any = None
    problems: list[str] = Field(default_factory=list,
                                description="Missing or unreadable run files.")
    kind: str = Field("unknown", description="The run's kind (a registered kind: "
                      "generation, wm, contamination, judge, problem, ...), or unknown.")
    kind_label: str | None = Field(None, description="How the viewer titles runs of its kind "
                                   "(its registration's title, else its name and command).")
    headline: dict[str, float | None] | None = Field(
        None, description="The run's main values (its kind's task's headline of its summary): "
                          "the viewer's columns for a kind it has no table of its own for.")
    task: str | None = Field(None, description="World-model runs: next-state, verify, "
                                               "propose or plan.")
    reference_model: bool = Field(False, description="Made by a built-in reference model "
                                                     "(checks the pipeline; not an LLM result).")
    status: str = Field("ok", description="ok; failed (no item finished: e.g. the model "
                                          "could not be reached); damaged (its files cannot "
                                          "be read).")
    reason: str | None = Field(None, description="Why a run is failed or damaged.")


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
    published: Any = Field(None, description="Generation runs: the published table chosen for "
                           "the run's description and prompt (GET /v1/published) and its rows "
                           "of the run's model, or why there are none.")


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


ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorResponse} for status in (404, 413, 422, 429)}
SCORING_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorResponse} for status in (404, 413, 422, 429, 503)}
