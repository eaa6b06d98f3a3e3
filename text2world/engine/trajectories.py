"""Trajectories for fine-tuning: each logged sample of a run as one chat conversation with its
scores (``t2w export-trajectories``).

A line is ``{"messages": [...], "run", "kind", "item", "epoch", "verdict", "scores"}``: the
conversational format TRL's ``SFTTrainer`` trains on (a ``messages`` column of ``{"role",
"content"}`` dicts) and ``datasets.load_dataset("json", data_files=...)`` reads. The messages are
the prompt, every answer, and every correction message: a round whose prompt is a fresh
conversation (the generation task's correction rounds) adds its last user message; a call whose
messages extend the conversation so far (an agent's, with its ``tool`` results) adds what is new.
An answer's ``tool_calls``, when logged, stay on its assistant message.

``scores`` are the final round's, flattened (``paper.similarity``, ``canonical.f1_effects``,
``semantic.plan_validity``, a world-model item's ``correct``...), numbers or null; every line of
one export has the same keys, so the file loads as one table. ``verdict``: the final round's
semantic verdict, else ``valid``/``invalid`` (generation) or ``correct``/``wrong`` (world model).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from text2world.engine.kinds import spec_of
from text2world.engine.run_reader import open_run
from text2world.errors import Text2WorldError
from text2world.files import atomic_write_text

FILTERS = ("semantic_equivalent", "valid", "correct")
_COMPARISON = re.compile(r"^\s*([A-Za-z0-9_.]+)\s*(>=|<=|==|>|<)\s*([0-9.]+)\s*$")


class TrajectoryError(Text2WorldError, ValueError):
    """A filter or run the export cannot use; the message says which and why."""


def conversation(calls: Sequence[Mapping[str, Any]]) -> list[dict]:
    """The chat messages of a sample's calls (see the module docstring)."""
    messages: list[dict] = []
    for call in calls:
        sent = [dict(m) for m in call.get("messages") or () if isinstance(m, dict)]
        if not messages:
            messages = sent
        elif sent[:len(messages)] == messages:
            messages += sent[len(messages):]
        else:
            users = [m for m in sent if m.get("role") == "user"]
            messages += users[-1:]
        answer: dict[str, Any] = {"role": "assistant", "content": call.get("response") or ""}
        if call.get("tool_calls"):
            answer["tool_calls"] = call["tool_calls"]
        messages.append(answer)
    return messages


def _matches(line: dict, where: str | None) -> bool:
    if not where:
        return True
    if where == "semantic_equivalent":
        return line["verdict"] == "equivalent"
    if where in ("valid", "correct"):
        return line["verdict"] == where or (where == "valid" and line["verdict"] == "equivalent")
    match = _COMPARISON.match(where)
    assert match is not None  # checked by check_filter
    name, operator, bound = match.group(1), match.group(2), float(match.group(3))
    value = line["scores"].get(name)
    if value is None:
        return False
    return {">=": value >= bound, "<=": value <= bound, "==": value == bound,
            ">": value > bound, "<": value < bound}[operator]


def check_filter(where: str | None) -> None:
    if where and where not in FILTERS and not _COMPARISON.match(where):
        raise TrajectoryError(f"--where {where!r}: use {', '.join(FILTERS)} or a comparison of a "
                              "score such as 'canonical.similarity>=0.9' or 'semantic.plan_validity==1'")


def trajectories(runs: Iterable[Path], where: str | None = None) -> list[dict]:
    """The lines of every logged sample of ``runs`` that passes ``where``; the score keys are
    made the same on every line (missing ones null)."""
    check_filter(where)
    lines: list[dict[str, Any]] = []
    for path in runs:
        run = open_run(path)  # RunError says why a run cannot be read
        spec = spec_of(run.kind)
        for record in run.items():
            # any kind's record, each key checked before use: read as the JSON it is
            item: Mapping[str, Any] = record
            logged: Sequence[Any] = item.get("rounds") or item.get("calls") or []
            calls: list[Mapping[str, Any]] = [call for call in logged
                     if isinstance(call, dict) and call.get("messages")]
            if not calls and item.get("messages"):  # one-call records (the contamination probe)
                calls = [item]
            if not calls:
                continue
            scores, verdict = spec.trajectory_scores(item)
            line: dict[str, Any] = {"messages": conversation(calls), "run": run.run_id, "kind": run.kind,
                    "item": str(item.get("item")), "epoch": int(item.get("epoch") or 0),
                    "verdict": verdict, "scores": scores}
            if _matches(line, where):
                lines.append(line)
    keys = sorted({key for line in lines for key in line["scores"]})  # one table: the same keys
    for line in lines:
        line["scores"] = {key: line["scores"].get(key) for key in keys}
    return lines


def export_trajectories(runs: Iterable[Path], out: Path, where: str | None = None) -> int:
    """Write the trajectories of ``runs`` to ``out`` (JSONL); returns the number of lines."""
    lines = trajectories(runs, where)
    atomic_write_text(out, "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines),
                      what="--out")
    return len(lines)


__all__ = ["FILTERS", "TrajectoryError", "check_filter", "conversation", "export_trajectories",
           "trajectories"]
