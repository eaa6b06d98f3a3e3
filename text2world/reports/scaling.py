"""Test-time scaling of a generation run with several epochs (``t2w eval --epochs N``).

* pass@k, k = 1..N: the unbiased estimator of Chen et al. (2021), 1 - C(n-c, k) / C(n, k)
  per item (n samples, c of them successful), averaged over items; for executability (the
  final domain validates and scores executable) and semantic equivalence (its verdict on the
  item's problems is ``equivalent``).
* best-of-N, N = 1..epochs: one sample per item chosen by a rule that uses no gold: the
  samples whose final domain validates; among those, the one whose behaviour on the item's
  problems (the planner's outcome under its own domain, problem by problem) agrees with most
  other such samples, the earliest on ties; with none valid, the first sample.
* beside them, the correction-budget curve (EC_0 .. EC_k of the first epoch).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Callable, Sequence

from text2world.engine.run_store import RunConfig, run_epochs, sample_key
from text2world.engine.summary import items_phrase
from text2world.tasks.generation.records import GenerationItem, config_ec

SELECTION_RULE = ("the first sample whose domain validates; among those, the one whose "
                  "planner outcomes on the item's problems agree with most other valid samples")
OUTCOME_TIMEOUT = 5.0  # seconds of Fast Downward per (domain, problem) for the selection rule


def pass_at_k(n: int, c: int, k: int) -> float:
    """Chen et al. 2021: the probability that at least one of k samples drawn without
    replacement from n (c correct) is correct, computed stably as a product."""
    if n - c < k:
        return 1.0
    value = 1.0
    for i in range(n - c + 1, n + 1):
        value *= 1.0 - k / i
    return 1.0 - value


def executable(item: GenerationItem, mode: str = "paper") -> bool:
    final = ((item.get("ec") or {}).get(mode) or [None])[-1]
    return bool(item.get("valid")) and bool(final and final.get("executable"))


def equivalent(item: GenerationItem) -> bool | None:
    semantic = (item.get("ec") or {}).get("semantic")
    if not semantic:
        return None
    return bool(semantic[-1] and semantic[-1].get("verdict") == "equivalent")


def _final_domain(item: GenerationItem) -> str:
    rounds = item.get("rounds") or []
    return (rounds[-1].get("domain") or "") if rounds else ""


def planner_outcomes(domain: str, problems: list[tuple[str, str]]) -> tuple:
    """What a user can see of a domain's behaviour without a gold: per problem, whether the
    planner solves it under the domain and in how many steps (cached on disk)."""
    from text2world.planning.front import cached_plan

    outcome: list[tuple[str, int | str | None]] = []
    for _, problem in problems:
        try:
            result = cached_plan(domain, problem, OUTCOME_TIMEOUT)
            outcome.append((result.status, result.plan_length))
        except Exception as err:  # noqa: BLE001 - a domain the planner cannot read is an outcome
            outcome.append(("error", type(err).__name__))
    return tuple(outcome)


def select(samples: list[GenerationItem], outcomes: Callable[[str], tuple]) -> GenerationItem:
    """The best-of-N choice among ``samples`` (in epoch order), without the gold."""
    valid = [s for s in samples if s.get("valid")]
    if not valid:
        return samples[0]
    if len(valid) == 1:
        return valid[0]
    seen = [outcomes(_final_domain(s)) for s in valid]
    agreement = [sum(1 for j, other in enumerate(seen) if j != i and other == mine)
                 for i, mine in enumerate(seen)]
    return valid[agreement.index(max(agreement))]


def scaling_curves(items: Sequence[GenerationItem], config: RunConfig,
                   problems: dict[str, list[tuple[str, str]]], mode: str = "paper") -> dict | None:
    """pass@k and best-of-N curves of a run's items (every epoch), or None with one epoch.
    ``problems``: item id -> its problems (for the selection rule)."""
    epochs = run_epochs(config)
    if epochs < 2:
        return None
    samples: dict[str, list[GenerationItem]] = defaultdict(list)
    for item in sorted(items, key=lambda i: sample_key(i)[1]):
        samples[str(item["item"])].append(item)
    complete = {key: group for key, group in samples.items() if len(group) >= epochs}
    if not complete:
        return None
    memo: dict[tuple[str, str], tuple] = {}

    def outcomes_of(item_id: str) -> Callable[[str], tuple]:
        def outcomes(domain: str) -> tuple:
            key = (item_id, domain)
            if key not in memo:
                memo[key] = planner_outcomes(domain, problems.get(item_id, []))
            return memo[key]
        return outcomes

    with_semantic = all(equivalent(group[0]) is not None for group in complete.values())
    checks: dict[str, Callable[[GenerationItem], bool]] = {"executable": lambda i: executable(i, mode)}
    if with_semantic:
        checks["equivalent"] = lambda i: bool(equivalent(i))
    passes = {name: [sum(pass_at_k(epochs, sum(1 for s in group[:epochs] if check(s)), k)
                         for group in complete.values()) / len(complete)
                     for k in range(1, epochs + 1)] for name, check in checks.items()}
    chosen = {n: [select(group[:n], outcomes_of(key)) for key, group in complete.items()]
              for n in range(1, epochs + 1)}
    best = {name: [sum(1 for s in chosen[n] if check(s)) / len(complete)
                   for n in range(1, epochs + 1)] for name, check in checks.items()}
    first = [group[0] for group in complete.values()]
    ec = config_ec(config)

    def executable_at(item: GenerationItem, r: int) -> bool:
        cells = (item.get("ec") or {}).get(mode) or []
        return r < len(cells) and bool(cells[r] and cells[r].get("executable"))

    budget = {"executable": [sum(1 for i in first if executable_at(i, r)) / len(first)
                             for r in range(ec + 1)]}
    return {"epochs": epochs, "items": len(complete), "mode": mode, "pass_at_k": passes,
            "best_of_n": best, "selection_rule": SELECTION_RULE,
            "correction_budget": budget, "protocol": config.get("protocol") or "syntax"}


def scaling_markdown(label: str, curves: dict) -> str:
    from text2world.reports.rendering import md_table

    epochs = curves["epochs"]
    header = ["curve"] + [str(n) for n in range(1, epochs + 1)]
    rows = []
    for name, values in curves["pass_at_k"].items():
        rows.append([f"pass@k {name}"] + [f"{100 * v:.1f}" for v in values])
    for name, values in curves["best_of_n"].items():
        rows.append([f"best-of-N {name}"] + [f"{100 * v:.1f}" for v in values])
    budget = curves["correction_budget"]["executable"]
    # The heading short (a markdown heading cannot wrap at 80 columns), what it measures below it.
    return (f"## Test-time scaling: {label}\n\n{items_phrase(curves['items'], epochs)}, "
            f"protocol {curves['protocol']}, %:\n\n" + md_table(header, rows)
            + f"\n\nColumns: k (pass@k) or N (best-of-N). Best-of-N selection (no gold): "
              f"{curves['selection_rule']}. Correction budget (first sample, executable), "
              + ", ".join(f"EC_{r}: {100 * v:.1f}" for r, v in enumerate(budget)) + ".\n")


def item_problems(config: RunConfig) -> dict[str, list[tuple[str, str]]]:
    """The problems of the run's items (for the selection rule); none when the dataset cannot
    be read (every valid sample then agrees with every other: the first valid one is chosen)."""
    from text2world.store.datasets import DatasetError, load_dataset

    try:
        dataset = load_dataset(str(config.get("dataset_source") or config.get("dataset")))
    except (DatasetError, OSError):
        try:
            dataset = load_dataset(str(config.get("dataset")))
        except (DatasetError, OSError):
            return {}
    return {r.id: [(p.name, p.pddl) for p in r.problems] for r in dataset.records}


def scaling_section(runs: list[tuple[str, Sequence[GenerationItem], RunConfig]],
                    mode: str) -> tuple[str, dict]:
    """The markdown and data of every run with several epochs: ``runs`` are (label, items,
    config)."""
    parts, data = [], {}
    for label, items, config in runs:
        if run_epochs(config) < 2:
            continue
        curves = scaling_curves(items, config, item_problems(config), mode)
        if curves is not None:
            data[label] = curves
            parts.append(scaling_markdown(label, curves))
    return "\n".join(parts), data
