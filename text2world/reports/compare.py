"""``t2w compare RUN_A RUN_B``: two runs item by item (paired), not mean against mean.

On the items both runs finished: per metric (and, for generation runs, at EC_0 and at each
run's last round) the mean difference B - A with its 95% paired bootstrap interval, a
sign-flip permutation p-value, and wins / ties / losses over items; per domain, the mean
difference of the headline metric, wins / ties / losses, and the domains that differ most.
Works for generation runs (any scoring mode in both logs), world-model runs of one task, and
contamination probes. Nothing calls a model.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from text2world.engine.kinds import kind_spec, spec_of
from text2world.engine.run_reader import open_run
from text2world.engine.run_store import ItemRecord, Run, RunError, run_epochs, run_label
from text2world.errors import Text2WorldError
from text2world.reports.rendering import count_of
from text2world.stats import SEED, format_interval, paired_difference

TOP_DOMAINS = 10


class CompareError(Text2WorldError, ValueError):
    """Runs that cannot be compared (missing, of different kinds, no common item)."""


@dataclass
class _Side:
    run: Run
    kind: str
    items: Sequence[ItemRecord]  # records of the run's kind: read through ``*_items``

    @property
    def label(self) -> str:
        return f"{self.run.config.get('model')} ({self.run.run_id})"


def _open(path: Path) -> _Side:
    try:
        run = open_run(path)
        kind = run.kind
        items = run.scored_items()
    except RunError as err:
        raise CompareError(str(err)) from None
    if not spec_of(kind).compared:
        raise CompareError(f"{path}: runs of kind {kind!r} cannot be compared")
    if not items:
        raise CompareError(f"{path}: no finished item")
    return _Side(run, kind, items)


@dataclass(frozen=True)
class RunColumns:
    """A run's per-item values, as ``t2w compare`` pairs them (``t2w report --by family``
    groups them): column (``f1_mean@EC_k``, ``accuracy``, ...) -> item -> value."""

    run: Run
    kind: str
    items: Sequence[ItemRecord]
    columns: dict[str, dict[str, float]]
    headline: str  # the column the per-domain tallies use
    domains: dict[str, str]  # item -> its domain (world-model items share one)


def run_columns(path: Path, mode: str = "paper") -> RunColumns:
    """The per-item values of a generation (in ``mode``), world-model or probe run
    (``CompareError`` when it has none)."""
    return _columns_of(_open(path), mode)


def _columns_of(side: _Side, mode: str) -> RunColumns:
    spec = kind_spec(side.kind)
    try:
        columns, headline = spec.compare_columns(side.run, side.items, mode)
    except ValueError as err:
        raise CompareError(str(err)) from None
    return RunColumns(side.run, side.kind, side.items, columns, headline,
                      spec.item_domains(side.items))


def compare_runs(path_a: Path, path_b: Path, mode: str = "paper",
                 seed: int = SEED) -> dict:
    """The comparison of run B against run A (differences are B - A)."""
    a, b = _open(path_a), _open(path_b)
    if a.kind != b.kind:
        raise CompareError(f"cannot compare a {a.kind} run with a {b.kind} run")
    spec = kind_spec(a.kind)
    try:
        spec.check_comparable(a.run.config, b.run.config)
    except ValueError as err:
        raise CompareError(str(err)) from None
    side_a, side_b = _columns_of(a, mode), _columns_of(b, mode)
    cols_a, cols_b, headline = side_a.columns, side_b.columns, side_a.headline
    notes = spec.pairing_notes(a.run.config, b.run.config)
    ids_a = {str(i["item"]) for i in a.items}
    ids_b = {str(i["item"]) for i in b.items}
    common = sorted(ids_a & ids_b)
    if not common:
        raise CompareError(f"the runs share no item ({len(ids_a)} and {count_of(len(ids_b), 'item')})")
    if len(common) < len(ids_a | ids_b):
        notes.append(f"compared on the {count_of(len(common), 'item')} both finished (A has {len(ids_a)}, "
                     f"B has {len(ids_b)})")
    domains = side_a.domains
    clusters = [domains[i] for i in common] if spec.clustered_by_domain else None
    metrics = []
    for column in [c for c in cols_a if c in cols_b]:
        values_a = [cols_a[column].get(i) for i in common]
        values_b = [cols_b[column].get(i) for i in common]
        result = paired_difference(values_a, values_b, clusters, seed=seed)
        if result.n:
            metrics.append({"metric": column, **result.as_dict()})
    per_domain = _per_domain(cols_a.get(headline, {}), cols_b.get(headline, {}), common,
                             domains)
    differing = sorted((d for d in per_domain if d["difference"]),
                       key=lambda d: -abs(d["difference"]))[:TOP_DOMAINS]
    tally = {"wins": sum(d["difference"] > 1e-9 for d in per_domain),
             "ties": sum(abs(d["difference"]) <= 1e-9 for d in per_domain),
             "losses": sum(d["difference"] < -1e-9 for d in per_domain)}
    notes += spec.settings_notes(a.run.config, b.run.config)

    def side_data(side: _Side, ids: set[str]) -> dict:
        protocol, protocol_label = spec.protocol(side.run.config)
        return {"run_id": side.run.run_id, "model": side.run.config.get("model"),
                "label": run_label(side.run.config, side.run.run_id),
                "items": len(ids), "epochs": run_epochs(side.run.config),
                "protocol": protocol, "protocol_label": protocol_label}

    return {"a": side_data(a, ids_a), "b": side_data(b, ids_b),
            "kind": a.kind, "task": a.run.config.get("task"), "mode": mode,
            "common_items": len(common), "seed": seed, "clustered_by_domain": spec.clustered_by_domain,
            "metrics": metrics, "headline": headline, "per_domain": per_domain,
            "domains": tally, "differ_most": differing, "notes": notes}


def _per_domain(a: dict[str, float], b: dict[str, float], common: list[str],
                domains: dict[str, str]) -> list[dict]:
    groups: dict[str, list[tuple[float, float]]] = {}
    for item in common:
        if item in a and item in b:
            groups.setdefault(domains[item], []).append((a[item], b[item]))
    rows = []
    for domain, pairs in sorted(groups.items()):
        mean_a = sum(x for x, _ in pairs) / len(pairs)
        mean_b = sum(y for _, y in pairs) / len(pairs)
        rows.append({"domain": domain, "items": len(pairs), "a": mean_a, "b": mean_b,
                     "difference": mean_b - mean_a})
    return rows


def _protocol_note(side: dict) -> str:
    label = side.get("protocol_label") or side.get("protocol")
    return f" (protocol {label})" if label and label != "-" else ""


def side_title(side: dict) -> str:
    """One side of a comparison as its titles name it: the model, then what tells its run
    apart (its label) and its protocol, ``reference/oracle [next-state-mystery]``."""
    epochs = int(side.get("epochs") or 1)
    told = [part for part in (side.get("label"), side.get("protocol_label"),
                              f"{epochs} epochs" if epochs > 1 else None)
            if part and part != "-"]
    return f"{side['model']} [{', '.join(told)}]" if told else str(side["model"])


def compare_markdown(data: dict) -> str:
    """The comparison as markdown: paired differences, domains that differ most."""
    def pct(value):
        return "-" if value is None else f"{100 * value:.1f}"

    lines = [f"# {side_title(data['b'])} vs {side_title(data['a'])} ({data['kind']}"
             + (f" {data['task']}" if data.get("task") else "")
             + (f", {data['mode']} mode" if spec_of(data["kind"]).score_modes else "") + ")", "",
             f"A: {data['a']['run_id']}{_protocol_note(data['a'])}  ",
             f"B: {data['b']['run_id']}{_protocol_note(data['b'])}", "",
             f"{data['common_items']} common items; differences are B - A in points, with a "
             "95% paired bootstrap interval"
             + (" (domains resampled)" if data["clustered_by_domain"] else "")
             + f" and a sign-flip permutation p-value (seed {data['seed']}).", ""]
    lines += [f"> {note}" for note in data["notes"]]
    lines += ["", "| metric | A | B | B - A [95%] | p | B wins | ties | B loses |",
              "|---|---|---|---|---|---|---|---|"]
    for row in data["metrics"]:
        lines.append(f"| {row['metric']} | {pct(row['mean_a'])} | {pct(row['mean_b'])} | "
                     f"{format_interval(row['difference'])} | "
                     f"{'-' if row['p_value'] is None else format(row['p_value'], '.3g')} | "
                     f"{row['wins']} | {row['ties']} | {row['losses']} |")
    tally = data["domains"]
    lines += ["", (f"Per domain ({data['headline']}): B better in {tally['wins']}, equal in "
                   f"{tally['ties']}, worse in {tally['losses']}."), ""]
    if data["differ_most"]:
        lines += ["| domain | items | A | B | B - A |", "|---|---|---|---|---|"]
        lines += [f"| {d['domain']} | {d['items']} | {pct(d['a'])} | {pct(d['b'])} | "
                  f"{100 * d['difference']:+.1f} |" for d in data["differ_most"]]
    return "\n".join(lines) + "\n"
