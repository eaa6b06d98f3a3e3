"""The generation kind (``t2w eval``, the EC_k task) as the engine, the reports, the API, the
bundle and the CLI know it (``engine.kinds.KindSpec``); registered in ``tasks/registry.py``.
Light to import: what it computes is imported when asked."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence, cast

from text2world.engine.kinds import TASK_IDENTITY_KEYS, Columns, KindSpec, score_number
from text2world.scoring.score_base import METRICS, MODES, mode_metrics

if TYPE_CHECKING:
    from text2world.engine.run_store import ItemRecord, Run, RunConfig, ScoresRecord

EQUIVALENT = "equivalent@EC_k"  # the share of items whose last round is semantically equivalent


def f1_mean(score: Mapping[str, Any]) -> float | None:
    """The mean of a round's F1s (in one mode), None when it has none."""
    values = [score[m] for m in METRICS[2:] if isinstance(score.get(m), (int, float))]
    return sum(values) / len(values) if values else None


class GenerationKind(KindSpec):
    name = "generation"
    command = "t2w eval"
    title = "generation (t2w eval)"
    identity_keys = TASK_IDENTITY_KEYS + ("correction_prompt_hash", "ec")
    task_module = "text2world.tasks.generation.task"
    page_module = "text2world.tasks.generation.page"
    item_record = "text2world.tasks.generation.records:GenerationItem"
    report = "text2world.cli.report:generation_report"
    score_modes = MODES
    compared = True
    round_diffs = True
    published_tables = True
    epoch_curves = True
    inspect_import = True

    def item_page(self, run: "Run", item: "ItemRecord") -> dict:
        from text2world.tasks.generation.page import item_page

        return item_page(run, item)

    def with_rescored(self, item: "ItemRecord", scores: "ScoresRecord") -> "ItemRecord":
        """The item's ``ec`` (its scores per mode) with the modes scored again replaced."""
        logged = cast("Mapping[str, Any]", item).get("ec", {})
        return cast("ItemRecord", {**item, "ec": {**logged, **scores.get("ec", {})}})

    def compare_columns(self, run: "Run", items: "Sequence[ItemRecord]",
                        mode: str) -> tuple[Columns, str]:
        """Column ("executable@EC_0", ...) -> item -> value, at EC_0 and at the run's last
        round; the headline: the mean F1 at EC_k (in semantic mode its first EC_k column)."""
        from text2world.tasks.generation.intervals import generation_values
        from text2world.tasks.generation.records import config_ec, generation_items

        logged = generation_items(items)
        if not any(mode in (item.get("ec") or {}) for item in logged):
            raise ValueError(f"{run.path}: no {mode} scores in its log")
        last = config_ec(run.config)
        metrics = (mode_metrics(mode) if mode in MODES
                   else sorted({k for item in logged
                                for score in ((item.get("ec") or {}).get(mode) or [])
                                if isinstance(score, dict)
                                for k, v in score.items()
                                if isinstance(v, (int, float)) and not isinstance(v, bool)}))
        columns: Columns = {}
        for label, index in (("EC_0", 0), ("EC_k", last)):
            for metric in metrics:
                columns[f"{metric}@{label}"] = generation_values(logged, mode, index, metric)
            if mode in MODES:
                f1 = {}
                for item in logged:
                    scores = (item.get("ec") or {}).get(mode) or []
                    if len(scores) > index and isinstance(scores[index], dict):
                        value = f1_mean(scores[index])
                        if value is not None:
                            f1[str(item["item"])] = value
                columns[f"f1_mean@{label}"] = f1
        headline = "f1_mean@EC_k" if mode in MODES else next(
            (c for c in columns if c.endswith("@EC_k")), "")
        return columns, headline

    def pairing_notes(self, a: "RunConfig", b: "RunConfig") -> list[str]:
        ka, kb = a.get("ec"), b.get("ec")
        return [f"EC_k is each run's last round: EC_{ka} for A, EC_{kb} for B"] if ka != kb else []

    def settings_notes(self, a: "RunConfig", b: "RunConfig") -> list[str]:
        from text2world.tasks.generation.feedback import config_protocol, protocol_label

        if config_protocol(a) == config_protocol(b):
            return []
        return [f"protocols differ: A ran {protocol_label(a)}, B ran {protocol_label(b)} "
                "(docs/protocols.md)"]

    def protocol(self, config: "RunConfig") -> tuple[str, str]:
        from text2world.tasks.generation.feedback import config_protocol, protocol_label

        return config_protocol(config), protocol_label(config)

    def family_columns(self, columns: Columns, headline: str, config: "RunConfig",
                       items: "Sequence[ItemRecord]", mode: str) -> Columns:
        """Executability and mean F1 at the last round (``mode``; its headline in semantic
        mode) and, where it was scored semantically, the share equivalent to the gold."""
        from text2world.scoring.semantic_record import verdict_of
        from text2world.tasks.generation.records import config_ec, generation_items

        chosen = ["executable@EC_k", "f1_mean@EC_k"] if mode in MODES else [headline]
        shown = {name: columns[name] for name in chosen if name in columns}
        last = config_ec(config)
        samples: dict[str, list[float]] = {}
        for item in generation_items(items):
            cells = (item.get("ec") or {}).get("semantic") or []
            if len(cells) > last and isinstance(cells[last], dict):
                samples.setdefault(str(item["item"]), []).append(
                    float(verdict_of(cells[last]) == "equivalent"))
        if samples:
            shown[EQUIVALENT] = {item: sum(v) / len(v) for item, v in samples.items()}
        return shown

    def trajectory_scores(self, item: Mapping[str, Any]) -> tuple[dict[str, float | None], str]:
        """The last round's scores in every mode, its semantic verdict (else valid/invalid)."""
        scores: dict[str, float | None] = {}
        last = (item.get("rounds") or [{}])[-1]
        for mode, values in (last.get("scores") or {}).items():
            for name, value in (values or {}).items():
                if name not in ("mode", "errors"):
                    scores[f"{mode}.{name}"] = score_number(value)
        semantic = last.get("semantic")
        if isinstance(semantic, dict):
            from text2world.scoring.semantic import METRICS as SEMANTIC_METRICS
            from text2world.scoring.semantic_record import verdict_of

            scores.update({f"semantic.{m}": score_number(semantic.get(m))
                           for m in SEMANTIC_METRICS})
            return scores, verdict_of(semantic)
        return scores, "valid" if item.get("valid") else "invalid"
