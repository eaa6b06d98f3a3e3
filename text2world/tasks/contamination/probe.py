"""The contamination probe (``t2w contamination --model``, paper section 3.4): prompt a model with
the first tokens of each gold domain and measure how much of the rest its continuation
reproduces (``contamination_rate``), as a run with the eval loop's model layer, cache and resume.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from text2world.tasks.contamination.overlap import (DEFAULT_MAX_MISMATCHES, DEFAULT_N, Contamination, check_parameters,
                            contamination_rate, mean_rate, prefix_end)
from text2world.model.client import RunSettings
from text2world.engine.run_store import utc_now
from text2world.store.datasets import DatasetError, first

# --------------------------------------------------------------------------------------------
# Probing a model (paper section 3.4): continue each gold domain from its first tokens


DEFAULT_PROMPT_TOKENS = 20
DEFAULT_CONCURRENCY = RunSettings.max_concurrency
PROBE_PROMPT = (
    "Here is the beginning of a PDDL domain file. Continue it from exactly where it stops, to "
    "the end of the domain. Reply with the continuation only, as PDDL, without explanations."
    "\n\n{prefix}"
)
HISTOGRAM_FILE = "contamination_hist.png"
_FENCED = re.compile(r"```[^\n`]*\r?\n(.*?)```", re.DOTALL)
_OPEN_FENCE = re.compile(r"```[^\n`]*\r?\n(.*)\Z", re.DOTALL)


class ProbeError(RuntimeError):
    """A probe that cannot start or had to stop (bad model, bad run folder, fatal API error)."""


def probe_messages(prefix_text: str) -> list[dict]:
    from text2world.model.client import SYSTEM_MESSAGE

    return [{"role": "system", "content": SYSTEM_MESSAGE},
            {"role": "user", "content": PROBE_PROMPT.format(prefix=prefix_text)}]


def continuation_text(answer: str) -> str:
    """The part of a model answer that continues the domain: the code blocks if there are any
    (an unclosed last block counts: the answer may have been cut by max_tokens), else all of it.
    Reasoning (<think> blocks) is dropped."""
    from text2world.pddl.extract import strip_reasoning

    text = strip_reasoning(answer)
    blocks = _FENCED.findall(text)
    rest = _FENCED.sub("", text)
    unclosed = _OPEN_FENCE.search(rest)
    if unclosed:
        blocks.append(unclosed.group(1))
    return "\n".join(blocks) if blocks else text


def probe_item_result(gold: str, continuation: str, n: int = DEFAULT_N,
                      max_mismatches: int = DEFAULT_MAX_MISMATCHES,
                      prompt_tokens: int = DEFAULT_PROMPT_TOKENS) -> Contamination:
    """Contamination of one gold domain by a model's continuation; the prompt is not counted."""
    return contamination_rate(gold, continuation, n, max_mismatches,
                              reference_start=prefix_end(gold, prompt_tokens))


@dataclass
class ProbeOptions(RunSettings):
    """``t2w contamination --model``: the run settings of ``t2w eval`` plus the probe's own."""

    prompt_tokens: int = DEFAULT_PROMPT_TOKENS
    n: int = DEFAULT_N
    max_mismatches: int = DEFAULT_MAX_MISMATCHES
    top: int = 10


@dataclass
class ProbeResult:
    run_path: Path
    resumed: bool
    summary: dict
    results: dict[str, Contamination]  # per item id, every finished item
    histogram: Path | None
    errors: list[dict]  # open infrastructure errors (items to retry with --resume)
    new_items: int = 0


def probe_run_id(config: dict) -> str:
    from text2world.engine.run_store import identity_hash

    def slug(value) -> str:
        return re.sub(r"[^A-Za-z0-9.]+", "-", str(value)).strip("-")

    return (f"contamination__{slug(config['model'])}__{slug(config['dataset'])}__"
            f"{config['split']}__p{config['prompt_tokens']}__{identity_hash(config)[:8]}")[:180]


def probe_options_from_run(path: str | os.PathLike, **overrides) -> ProbeOptions:
    """The options a probe run was started with (``--resume RUN``); ``overrides`` that are
    not None replace run-independent settings (concurrency, timeouts, n, ...), and give again
    the credentials never written to the run (``api_base``, ``model_args``: merged)."""
    from text2world.engine.run_store import Run, RunError

    from text2world.engine.run_store import runs_dir

    path = Path(path)
    if not path.is_dir() and (runs_dir() / path).is_dir():
        path = runs_dir() / path  # a run id instead of a folder
    try:
        run = Run.open(path)
    except RunError as err:
        raise ProbeError(str(err)) from None
    config = run.config
    if config.get("kind") != "contamination":
        raise ProbeError(f"{path} is not a t2w contamination run; resume it with the command "
                         "that made it (t2w eval --resume)")
    generation = dict(config.get("generation") or {})
    temperature = generation.pop("temperature", None)
    max_tokens = generation.pop("max_tokens", None)
    spec_params = (config.get("model_spec") or {}).get("params") or {}
    selection = config.get("selection") or {}
    dataset = config.get("dataset", "text2world")
    source = config.get("dataset_source") or ""
    if dataset != "text2world" and source and Path(source).exists() and \
            not (Path(source) / "records.jsonl").is_file():
        dataset = source  # a dataset read straight from a path
    options = ProbeOptions(
        model=config["model"], dataset=dataset, split=config.get("split", "test"),
        limit=selection.get("limit"), domains=selection.get("domains"),
        api_base=config.get("api_base"), temperature=temperature, max_tokens=max_tokens,
        model_args={k: v for k, v in generation.items() if k not in spec_params},
        timeout=float(config.get("timeout", 600.0)),
        max_retries=int(config.get("max_retries", 5)), seed=int(config.get("seed", 0)),
        prompt_tokens=int(config.get("prompt_tokens", DEFAULT_PROMPT_TOKENS)),
        resume=Path(path))
    return options.with_overrides(**overrides)


def _select(dataset, options: ProbeOptions) -> list:
    try:
        return first(dataset.select(options.split, options.domains), options.limit)
    except DatasetError as err:
        raise ProbeError(str(err)) from None


def probe(options: ProbeOptions, progress=None) -> ProbeResult:
    """Probe a model for memorised gold domains (paper section 3.4).

    Uses the ``t2w eval`` model layer: the same aliases and keys (``llm.resolve_model``),
    client, retries and response cache (``llm.LLMClient``), bounded concurrency, run folder
    and resume (``runs.Run``: config.json, log.jsonl, errors.jsonl, summary.json). Every
    finished domain is appended to ``log.jsonl`` with the model's continuation; rates are
    recomputed from the logged continuations, so resuming (or changing ``n`` or
    ``max_mismatches``) needs no new calls. ``progress(done, total)`` is called per domain.

    Raises ``ProbeError`` for bad input, an unusable run folder or a model that cannot be
    called at all, KeyboardInterrupt on Ctrl-C and ``runs.Stopped`` on SIGTERM or SIGHUP
    (finished domains are kept in every case).
    """
    import asyncio

    from text2world.model.credentials import lost_credentials_message

    from text2world.engine import run_store as runs
    from text2world.model.client import (
        FatalModelError,
        InfrastructureError,
        LLMClient,
        ModelConfigError,
        ResponseCache,
        RetryPolicy,
        api_key_for,
        resolve_model,
    )
    from text2world.store.datasets import load_dataset

    check_parameters(options.n, options.max_mismatches)
    if options.prompt_tokens < 1:
        raise ProbeError(f"--prompt-tokens must be at least 1, not {options.prompt_tokens}")
    if options.max_concurrency < 1:
        raise ProbeError(f"--max-concurrency must be at least 1, not {options.max_concurrency}")
    lost = lost_credentials_message(options.api_base, options.model_args,
                                    "t2w contamination", options.resume)
    if lost:
        raise ProbeError(lost)
    try:
        spec = resolve_model(options.model, options.api_base, options.model_args)
        api_key = api_key_for(spec)
    except ModelConfigError as err:
        raise ProbeError(str(err)) from None
    try:
        dataset = load_dataset(options.dataset)
    except DatasetError as err:
        raise ProbeError(str(err)) from None
    records = _select(dataset, options)
    client = LLMClient(spec, temperature=options.temperature, max_tokens=options.max_tokens,
                       timeout=options.timeout,
                       retry=RetryPolicy(options.max_retries, options.retry_base_delay),
                       cache=ResponseCache(), read_cache=options.use_cache,
                       api_key=api_key or "")
    config = {
        "kind": "contamination", "model": spec.name, "litellm_model": spec.litellm_model,
        "api_base": spec.api_base, "api_key_env": spec.api_key_env,
        "model_spec": spec.to_config(), "reference_model": spec.is_reference,
        "dataset": dataset.name, "dataset_source": dataset.source,
        "dataset_hash": dataset.content_hash, "split": options.split,
        "prompt": f"contamination-{options.prompt_tokens}",
        "prompt_hash": runs.text_hash(PROBE_PROMPT),
        "prompt_tokens": options.prompt_tokens, "generation": client.settings,
        "seed": options.seed, "timeout": options.timeout, "max_retries": options.max_retries,
        "selection": {"limit": options.limit, "domains": options.domains},
        "planned_items": len(records), "n": options.n, "max_mismatches": options.max_mismatches,
        "code_version": runs.code_version(),
    }
    if options.resume is not None:
        path = Path(options.resume)
        if not (path / "config.json").is_file() and (runs.runs_dir() / path).is_dir():
            path = runs.runs_dir() / path  # a run id instead of a folder
        if not (path / "config.json").is_file():
            raise ProbeError(f"cannot resume {options.resume}: not a run folder")
    else:
        path = runs.runs_dir() / (options.run_id or probe_run_id(config))
    try:
        if (path / "config.json").is_file() and \
                runs.Run.open(path).config.get("kind") != "contamination":
            raise ProbeError(f"{path} is a run of another command (not t2w contamination); "
                             "choose another --run-id")
        run, resumed = runs.Run.create_or_resume(path, config)
        run.lock()
    except runs.RunError as err:
        raise ProbeError(str(err)) from None
    try:
        finished = run.finished_ids()
        pending = [record for record in records if record.id not in finished]
        state = {"done": len(records) - len(pending), "new": 0, "fatal": None,
                 "checkpoint": time.monotonic()}
        if progress:
            progress(state["done"], len(records))

        async def probe_one(record) -> None:
            head_end = prefix_end(record.domain, options.prompt_tokens)
            messages = probe_messages(record.domain[:head_end])
            context = {"gold": record.domain, "item": record.id, "seed": options.seed}
            try:
                completion = await client.complete(messages, 0, context)
            except InfrastructureError as error:
                run.append_error({"item": record.id, "error": error.to_dict(),
                                  "at": utc_now()})
                return
            if not completion.cached:  # paid: into the ledger before anything else can fail
                run.append_paid(record.id, 0, completion)
            continuation = continuation_text(completion.content)
            result = probe_item_result(record.domain, continuation, options.n,
                                       options.max_mismatches, options.prompt_tokens)
            run.append_item({
                "item": record.id, "name": record.name, "split": record.split,
                "prompt_chars": head_end, "messages": messages,
                "response": completion.content, "reasoning": completion.reasoning,
                "continuation": continuation, "rate": result.rate,
                "contaminated": result.contaminated, "counted": result.counted,
                "usage": {"prompt_tokens": completion.prompt_tokens,
                          "completion_tokens": completion.completion_tokens},
                "cost": completion.cost, "latency": completion.latency,
                "attempts": completion.attempts, "cached": completion.cached,
                "finish_reason": completion.finish_reason,
                "rounds": [{"cached": completion.cached, "cost": completion.cost}],
                "finished": utc_now(),
            })
            state["done"] += 1
            state["new"] += 1
            if progress:
                progress(state["done"], len(records))
            if time.monotonic() - state["checkpoint"] > 2.0:
                state["checkpoint"] = time.monotonic()
                run.write_summary(_checkpoint_summary(run, len(records)))

        async def worker(queue: asyncio.Queue) -> None:
            while state["fatal"] is None:
                try:
                    record = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                try:
                    await probe_one(record)
                except FatalModelError as error:
                    state["fatal"] = error
                    return

        async def probe_all() -> None:
            queue: asyncio.Queue = asyncio.Queue()
            for record in pending:
                queue.put_nowait(record)
            await asyncio.gather(*(worker(queue) for _ in
                                   range(min(options.max_concurrency, len(pending)))))

        if pending:
            try:
                runs.run_stoppable(probe_all)
            finally:
                run.write_summary(_checkpoint_summary(run, len(records)))
        result = _finish_probe(run, records, options)
        result.resumed = resumed
        result.new_items = state["new"]
        if state["fatal"] is not None:
            raise ProbeError(f"the model cannot be called: {state['fatal']}. Finished domains "
                             f"are kept; fix the cause and resume with: t2w contamination "
                             f"--resume {run.path}")
        return result
    except (KeyboardInterrupt, runs.Stopped) as stop:
        stop.run_path = run.path  # for the message: where to resume
        raise
    finally:
        run.close()


def _checkpoint_summary(run, planned: int) -> dict:
    """A cheap summary while the probe runs: counts and the mean of the logged rates."""
    items = run.items()
    rates = [float(item.get("rate", 0.0)) for item in items]
    return {"run_id": run.run_id, "kind": "contamination", "model": run.config.get("model"),
            "dataset": run.config.get("dataset"), "planned_items": planned,
            "finished_items": len(items), "mean_rate": float(np.mean(rates)) if rates else None,
            "complete": False,
            "updated": utc_now()}


def _finish_probe(run, records: list, options: ProbeOptions) -> ProbeResult:
    """Rates from the logged continuations, the summary (atomically) and the histogram."""
    from text2world.reports.intervals import probe_interval

    n, max_mismatches, prompt_tokens = options.n, options.max_mismatches, options.prompt_tokens
    by_id = {record.id: record for record in records}
    results: dict[str, Contamination] = {}
    names: dict[str, str] = {}
    items = [item for item in run.items() if str(item.get("item")) in by_id]
    for item in items:
        record = by_id[str(item["item"])]
        results[record.id] = probe_item_result(record.domain, item.get("continuation", ""), n,
                                               max_mismatches, prompt_tokens)
        names[record.id] = record.name
    errors = run.open_errors()
    ordered = sorted(results, key=lambda i: (-results[i].rate, i))
    rates = [results[i].rate for i in ordered]
    histogram = None
    if rates:
        histogram = run.path / HISTOGRAM_FILE
        plot_histogram(rates, histogram, title=f"{run.config.get('model')} on "
                                               f"{run.config.get('dataset')} "
                                               f"({len(rates)} domains)")
    summary = {
        "run_id": run.run_id, "kind": "contamination", "model": run.config.get("model"),
        "dataset": run.config.get("dataset"), "split": run.config.get("split"),
        "n": n, "max_mismatches": max_mismatches, "prompt_tokens": prompt_tokens,
        "planned_items": len(records), "finished_items": len(results),
        "complete": len(results) == len(records),
        "infrastructure_errors": len(errors),
        "infrastructure_error_items": sorted(str(e.get("item")) for e in errors),
        "mean_rate": mean_rate(list(results.values())) if results else None,
        "mean_rate_interval": probe_interval([{"rate": rate} for rate in rates]),
        "median_rate": float(np.median(rates)) if rates else None,
        "domains_above_half": sum(1 for r in rates if r > 0.5),
        "calls": len(items), "cached_calls": sum(1 for i in items if i.get("cached")),
        "prompt_tokens_used": sum(i.get("usage", {}).get("prompt_tokens", 0) for i in items),
        "completion_tokens_used": sum(i.get("usage", {}).get("completion_tokens", 0)
                                      for i in items),
        "cost": sum(i.get("cost") or 0.0 for i in items),
        "cost_paid": (sum(c.get("cost") or 0.0 for c in paid) if (paid := run.paid_calls())
                      is not None else sum(i.get("cost") or 0.0 for i in items
                                           if not i.get("cached"))),
        "histogram": HISTOGRAM_FILE if histogram else None,
        "per_domain": [{"item": i, "name": names[i], **results[i].to_dict(spans=False)}
                       for i in ordered],
        "most_contaminated": [{"item": i, "name": names[i], **results[i].to_dict()}
                              for i in ordered[:options.top] if results[i].rate > 0],
        "updated": utc_now(),
    }
    run.write_summary(summary)
    return ProbeResult(run.path, False, summary, results, histogram, errors)


def plot_histogram(rates: Sequence[float], path: Path, title: str = "") -> Path:
    """Histogram of per-domain contamination rates with the mean marked (paper Figure 3)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 3.6), dpi=120)
    try:
        axes.hist(rates, bins=np.linspace(0.0, 1.0, 21), color="#4C72B0", edgecolor="white")
        average = float(np.mean(rates))
        axes.axvline(average, color="#C44E52", linestyle="--", linewidth=1.5,
                     label=f"mean = {average:.2f}")
        axes.set_xlim(0.0, 1.0)
        axes.set_xlabel("contamination rate (10-gram overlap with the gold domain)")
        axes.set_ylabel("number of domains")
        axes.set_title(title or "Contamination rates", fontsize=10)
        axes.legend(frameon=False)
        axes.spines[["top", "right"]].set_visible(False)
        figure.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.tmp.png")
        figure.savefig(temporary)
        os.replace(temporary, path)
    finally:
        plt.close(figure)
    return path
