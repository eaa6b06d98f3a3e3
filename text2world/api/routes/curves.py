"""Curves the viewer draws across runs and epochs (computed by ``text2world.reports.protocols``):

* ``GET /v1/protocols?model=MODEL``: the EC curves of every generation run of one model, one
  series per run labelled with its protocol (oracle feedback said), side by side.
* ``GET /v1/runs/{run_id}/scaling``: a run with several epochs (``t2w eval --epochs N``): pass@k
  and best-of-N against N, beside its correction-budget curve.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Mapping, Sequence

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from text2world.api.schemas import ERRORS
from text2world.engine.kinds import spec_of
from text2world.engine.run_reader import list_runs
from text2world.engine.run_store import (
    LOG_FILE,
    ItemRecord,
    RunConfig,
    RunError,
    kind_of,
    run_epochs,
    sample_key,
)
from text2world.errors import ApiError
from text2world.tasks.generation.records import generation_items

router = APIRouter(prefix="/v1", tags=["runs"])


class ProtocolSeries(BaseModel):
    run_id: str
    protocol: str = Field(description="syntax, plans, behavior or agent")
    label: str = Field(description="the protocol as the curve is labelled: 'behavior (oracle "
                       "feedback)', 'agent (10 tool calls)'; runs of one protocol that differ "
                       "in another setting add it (else their run id)")
    oracle_feedback: bool = Field(description="the protocol reveals the gold's behaviour")
    agent: bool
    tool_budget: int | None = None
    dataset: str | None = None
    ec: int = Field(description="the run's last correction round k")
    epochs: int
    items: int = Field(description="finished items (each asked ``epochs`` times)")
    run_label: str = Field(description="the run's short label (--label, else what its run "
                                       "id says beyond the model)")
    reference_model: bool
    curves: dict[str, list[float | None]] = Field(
        description="'mode.metric' -> its mean at EC_0 .. EC_k, as the run's report has them "
        "(semantic means over all items); 'semantic.equivalent': the share of items whose "
        "verdict is equivalent")
    intervals: dict[str, list[dict[str, float] | None]] = Field(
        default_factory=dict, description="'mode.metric' -> its 95% interval at EC_0 .. EC_k "
        "({low, high}; items resampled, each item's epochs within it), as the run's report "
        "gives them; none for 'semantic.equivalent'")


class ProtocolHeadline(BaseModel):
    executability: str | None = Field(description="the executability curve's key "
                                      "(paper.executable)")
    semantic: str | None = Field(description="the semantic curve's key (semantic.plan_validity, "
                                 "or paper.similarity when no run has semantic scores)")


class ProtocolCurves(BaseModel):
    model: str
    protocols: list[str] = Field(description="the protocols of the series, in their order")
    headline: ProtocolHeadline
    metrics: list[str] = Field(description="every curve key some series has")
    series: list[ProtocolSeries]
    notes: list[str]


class ScalingCurves(BaseModel):
    run_id: str
    label: str = Field(description="the run's protocol, as protocol curves label it")
    protocol: str
    epochs: int
    items: int = Field(description="items with every epoch's sample")
    mode: str
    pass_at_k: dict[str, list[float]] = Field(
        description="executable / equivalent -> pass@k for k = 1..epochs (Chen et al. 2021)")
    best_of_n: dict[str, list[float]] = Field(
        description="executable / equivalent -> the share of items whose chosen sample passes, "
        "N = 1..epochs")
    selection_rule: str
    correction_budget: dict[str, list[float]] = Field(
        description="executable at EC_0 .. EC_k of each item's first sample")


def _model_of(config: Mapping[str, Any]) -> str | None:
    """Any JSON object: a config of an older version held the model as an object."""
    model = config.get("model")
    return model.get("name") if isinstance(model, dict) else model


def _model_runs(runs_dir: Path, model: str) -> list:
    try:
        infos = list_runs(runs_dir, confined=True)
    except RunError as err:
        raise ApiError(503, "runs_unavailable", str(err)) from None
    return [info.run for info in infos
            if info.run is not None and info.error is None
            and spec_of(kind_of(info.run.config)).epoch_curves
            and _model_of(info.run.config) == model
            and (info.path / LOG_FILE).is_file()]


@router.get("/protocols", response_model=ProtocolCurves, responses=ERRORS,
            summary="The protocols of one model side by side")
def model_protocols(
    request: Request,
    model: Annotated[str, Query(min_length=1, max_length=300)],
) -> dict:
    """Every generation run of ``model`` as one series of EC curves (EC_0 .. EC_k of each
    scoring mode, the semantic equivalence share), labelled with its protocol (``t2w eval
    --feedback``, ``--agent``; oracle feedback said): the viewer's ``#/protocols/MODEL``."""
    from text2world.api.viewer import computed
    from text2world.reports.protocols import protocol_curves

    runs = _model_runs(request.app.state.settings.runs_dir, model)
    if not runs:
        raise ApiError(404, "unknown_model", f"no generation run of model {model!r} in "
                       f"{request.app.state.settings.runs_dir} (GET /v1/runs lists the runs)")
    entries = []
    for run in runs:
        try:
            count, curves, intervals = computed(
                run, "protocol_curves", lambda items, run=run: _curves_of(run.config, items))
        except ApiError:
            continue  # a run whose log cannot be read is left out; its page says why
        entries.append((run.run_id, run.config, count, curves, intervals))
    return protocol_curves(model, entries)


def _curves_of(config: RunConfig, items: Sequence[ItemRecord]) -> tuple[int, dict, dict]:
    from text2world.reports.protocols import round_curves, round_intervals

    items = generation_items(items)  # a generation run's (``_model_runs``)
    curves = round_curves(config, items)
    # items, not samples: --epochs asks each item several times
    return len({sample_key(item)[0] for item in items}), curves, round_intervals(items, curves)


@router.get("/runs/{run_id}/scaling", response_model=ScalingCurves, responses=ERRORS,
            summary="Test-time scaling of a run with several epochs")
def run_scaling(request: Request, run_id: str,
                mode: Annotated[str, Query(pattern="^(paper|canonical)$")] = "paper") -> dict:
    """pass@k (k = 1..N) for executability and semantic equivalence, best-of-N under the
    selection rule that uses no gold, and the correction-budget curve of the first sample, of a
    run made with ``t2w eval --epochs N`` (``t2w report``'s test-time scaling section)."""
    from text2world.api.viewer import computed, open_run
    from text2world.reports.protocols import run_scaling as scaling

    run = open_run(request, run_id)
    if not spec_of(kind_of(run.config)).epoch_curves or run_epochs(run.config) < 2:
        raise ApiError(404, "no_scaling", f"run {run_id!r} is not a generation run with several "
                       "epochs (t2w eval --epochs N): it has no test-time scaling curves")
    curves = computed(run, f"scaling:{mode}",
                      lambda items: scaling(run.config, generation_items(items), mode))
    if curves is None:
        raise ApiError(404, "no_scaling", f"run {run_id!r} has no item with every epoch's "
                       "sample yet")
    return {"run_id": run_id, **curves}
