"""``t2w report`` of contamination probes (``t2w contamination --model``): the mean n-gram
contamination rate with its 95% interval, the median, the domains above one half, the rate
per domain (markdown, CSV, JSON) and a histogram (PNG and SVG). Nothing calls a model."""

from __future__ import annotations

import json
from pathlib import Path

from text2world.engine.run_reader import open_run
from text2world.engine.run_store import RunError
from text2world.files import atomic_write_text, check_output_folder
from text2world.reports.generation import ReportError
from text2world.reports.rendering import csv_text, md_table, pyplot
from text2world.stats import format_interval
from text2world.tasks.contamination.records import probe_items


def build_probe_report(path: Path, out_dir: Path | None = None) -> tuple[dict, str, Path]:
    from text2world.tasks.contamination.page import overview as probe_overview

    try:
        run = open_run(path)
    except RunError as err:
        raise ReportError(str(err)) from None
    items = probe_items(run.items())
    if not items:
        raise ReportError(f"{path}: no probed domain yet (resume the probe)")
    data = probe_overview(run, items)
    data.pop("config")
    measures = data["measures"]
    out_dir = Path(out_dir or run.path / "report" / "contamination")
    check_output_folder(out_dir, "report folder")
    markdown = "\n".join([
        f"# Contamination probe: {run.config.get('model')} on {run.config.get('dataset')}", "",
        (f"The model continues each gold domain from its first {measures['prefix_tokens']} "
         f"GPT-2 tokens; rate: share of the gold's content {measures['n']}-grams (at most "
         f"{measures['max_mismatches']} mismatched tokens) its continuation reproduces."), "",
        md_table(["measure", "value"], [
            ["mean rate (%) [95% interval]", format_interval(measures["mean_rate"])],
            ["median rate (%)", "-" if measures["median_rate"] is None
             else f"{100 * measures['median_rate']:.1f}"],
            ["domains above 50%", f"{measures['domains_above_half']} of {measures['domains']}"]]),
        "", "## Per domain (highest rate first)", "",
        md_table(["domain", "rate %", "contaminated", "counted"],
                  [[r["item"], f"{100 * (r['rate'] or 0):.1f}", r["contaminated"], r["counted"]]
                   for r in data["items"]])]) + "\n"
    atomic_write_text(out_dir / "report.md", markdown)
    atomic_write_text(out_dir / "report.json", json.dumps(data, indent=2))
    atomic_write_text(out_dir / "per_domain.csv", csv_text(
        [["item", "rate", "contaminated", "counted"]]
        + [[r["item"], r["rate"], r["contaminated"], r["counted"]] for r in data["items"]]))
    plt = pyplot()
    for suffix in ("png", "svg"):
        figure, axis = plt.subplots(figsize=(7, 4))
        axis.hist([100 * r for r in data["rates"]], bins=[i * 10 for i in range(11)])
        axis.set_xlabel("contamination rate (%)")
        axis.set_ylabel("domains")
        axis.set_title(f"{run.config.get('model')}: contamination rate per domain")
        figure.tight_layout()
        figure.savefig(out_dir / f"rates.{suffix}", dpi=110)
        plt.close(figure)
    return data, markdown, out_dir
