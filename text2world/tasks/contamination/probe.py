"""The contamination probe's parts (``t2w contamination --model``, paper section 3.4): the
prompt (the first tokens of a gold domain), the continuation in a model's answer, its
contamination rate, and the histogram. The probe runs as a task of the engine:
``contamination.task``."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Sequence

import numpy as np

from text2world.engine.options import RunOptions
from text2world.errors import Text2WorldError
from text2world.tasks.contamination.overlap import (
    DEFAULT_MAX_MISMATCHES,
    DEFAULT_N,
    Contamination,
    contamination_rate,
    prefix_end,
)

# --------------------------------------------------------------------------------------------
# Probing a model (paper section 3.4): continue each gold domain from its first tokens


DEFAULT_PROMPT_TOKENS = 20
DEFAULT_CONCURRENCY = RunOptions.max_concurrency
PROBE_PROMPT = (
    "Here is the beginning of a PDDL domain file. Continue it from exactly where it stops, to "
    "the end of the domain. Reply with the continuation only, as PDDL, without explanations."
    "\n\n{prefix}"
)
HISTOGRAM_FILE = "contamination_hist.png"
_FENCED = re.compile(r"```[^\n`]*\r?\n(.*?)```", re.DOTALL)
_OPEN_FENCE = re.compile(r"```[^\n`]*\r?\n(.*)\Z", re.DOTALL)


class ProbeError(Text2WorldError, RuntimeError):
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


def plot_histogram(rates: Sequence[float], path: Path, title: str = "") -> Path:
    """Histogram of per-domain contamination rates with the mean marked (paper Figure 3)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 3.6), dpi=120)
    try:
        axes.hist(rates, bins=np.linspace(0.0, 1.0, 21).tolist(), color="#4C72B0", edgecolor="white")
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
