"""The Inspect task ``text2world/problem``: ``t2w eval --task problem`` on Inspect's harness.

    inspect eval text2world/problem --model anthropic/claude-sonnet-4-0 -T ec=3 \
        -T description=explicit -T size=easy

The engine's ``ProblemTask`` (``tasks.problem.task``) builds the samples, describes each
problem, corrects (the validator's findings as the next user turn, up to ``ec`` times) and
scores every round by meaning (``inspect_engine``). The score's value holds the last round's
parseable, solvable and equivalent (0/1), similarity and init/goal F1; its metadata the
item's whole log record (what ``t2w import-inspect`` reads back).
"""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig

from text2world.integrations.inspect_engine import (
    chat_messages,
    engine_scorer,
    engine_solver,
    load_samples,
    task_metadata,
)
from text2world.pddl.model import parse_domain
from text2world.store.datasets import BUILTIN
from text2world.tasks.problem.descriptions import describe
from text2world.tasks.problem.intervals import METRICS
from text2world.tasks.problem.prompts import problem_messages
from text2world.tasks.problem.records import ProblemItem
from text2world.tasks.problem.task import ProblemOptions, ProblemTask


def score_value(item: ProblemItem) -> dict[str, float]:
    """The last round's value of each metric (an open answer counts 0, as the summary has it)."""
    return {metric: float((item.get("ec") or {}).get(metric, [0.0])[-1]) for metric in METRICS}


def _explain(item: ProblemItem) -> str:
    counterexample = (item.get("counterexample") or {}).get("text") or ""
    return f"rule {item.get('rule')}, {item.get('rounds_used')} round(s); {counterexample}"[:500]


@task
def problem(ec: int = 3, description: str = "explicit", size: str = "both",
            dataset: str = BUILTIN, split: str = "test", domains: str | None = None) -> Task:
    """Write the PDDL problem a text describes, given the gold domain, with up to ``ec``
    validator-driven corrections; scored by meaning against the gold problem."""
    if not isinstance(ec, int):
        raise ValueError(f"ec must be a whole number of corrections, not {ec!r}")
    engine_task = ProblemTask(ProblemOptions(
        model="inspect", dataset=dataset, split=split, ec=ec, style=description, size=size,
        domains=[d.strip() for d in domains.split(",") if d.strip()] if domains else None))
    samples = load_samples(engine_task)
    inspect_samples = []
    for s in samples:
        record = s.data["record"]
        text = describe(record, s.data["problem"], description)
        inspect_samples.append(Sample(
            id=s.id, target=s.data["problem"],
            input=chat_messages(problem_messages(record.domain,
                                                 parse_domain(record.domain).name, text)),
            metadata={"domain": record.id, "size": s.data["size"]}))
    return Task(dataset=MemoryDataset(inspect_samples, name=dataset),
                solver=engine_solver(engine_task, {s.id: s for s in samples}),
                scorer=engine_scorer(score_value, _explain),
                config=GenerateConfig(temperature=0.0),
                metadata=task_metadata(engine_task, samples), version=1)
