"""``t2w view --bundle DIR``: the viewer as a static site of chosen runs, for sharing results.

The viewer's own page and assets, plus every JSON answer its pages ask for (the run list, each
run's overview, every item, the per-action diff of every round, the published-figures panel,
the comparisons of runs of one kind), each stored as ``data/<key>.js`` calling
``__t2wData(url, answer)``: scripts load from ``file://``, where ``fetch`` cannot. The answers
come from the service's own endpoints (in process), so the bundle shows what ``t2w view``
shows. Open ``DIR/index.html``; no server needed.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

from text2world.api.viewer import STATIC
from text2world.engine.kinds import spec_of
from text2world.engine.run_store import run_epochs
from text2world.errors import Text2WorldError


class BundleError(Text2WorldError, ValueError):
    """Runs that cannot be bundled, or a folder that cannot be written."""


def bundle_key(url: str) -> str:
    """The data file of an API URL: two 32-bit FNV-1a hashes (the viewer computes the same)."""
    a, b = 0x811C9DC5, 0x01000193 ^ 0x5BD1E995
    for byte in url.encode("utf-8"):
        a = ((a ^ byte) * 0x01000193) & 0xFFFFFFFF
        b = ((b ^ byte) * 0x01000193) & 0xFFFFFFFF
    return f"{a:08x}{b:08x}"


def _q(value: str) -> str:
    return quote(value, safe="")  # as the viewer's encodeURIComponent (ids are plain names)


def _curves(get: Callable[[str], dict | None], base: str, config: Mapping[str, Any]) -> None:
    """A generation run's curves panels: its model's protocols, its test-time scaling.
    ``config``: the run's config as the API's JSON gives it (any JSON object)."""
    if isinstance(config.get("model"), str):
        get(f"/v1/protocols?model={_q(config['model'])}")
    if run_epochs(config) > 1:
        for mode in ("paper", "canonical"):
            get(f"{base}/scaling?mode={mode}")


def write_bundle(runs_dir: Path, out_dir: Path, run_ids: Iterable[str] | None = None,
                 progress: Callable[[str], None] | None = None) -> dict:
    """Write the static site of ``run_ids`` (default: every run) to ``out_dir``."""
    from fastapi.testclient import TestClient

    from text2world.api.app import create_app
    from text2world.api.settings import Settings

    out_dir = Path(out_dir)
    if out_dir.exists() and any(out_dir.iterdir()) and not (out_dir / "index.html").is_file():
        raise BundleError(f"{out_dir} exists and is not a bundle: choose an empty folder")
    app = create_app(Settings(runs_dir=Path(runs_dir).resolve(), executor="thread",
                              score_processes=1))
    (out_dir / "data").mkdir(parents=True, exist_ok=True)
    written = 0

    def save(url: str, body) -> None:
        nonlocal written
        text = json.dumps(body, ensure_ascii=False).replace("</", "<\\/")
        (out_dir / "data" / f"{bundle_key(url)}.js").write_text(
            f"__t2wData({json.dumps(url)}, {text});\n", encoding="utf-8")
        written += 1

    with TestClient(app) as client:
        def get(url: str) -> dict | None:
            answer = client.get(url)
            body = answer.json()
            save(url, body)  # errors too: the page shows their message
            return body if answer.status_code == 200 else None

        listing = client.get("/v1/runs?limit=500&offset=0").json()
        every = {run["id"]: run for run in listing["items"]}
        chosen = list(every) if run_ids is None else list(dict.fromkeys(run_ids))
        unknown = [run_id for run_id in chosen if run_id not in every]
        if unknown:
            raise BundleError(f"no run {unknown[0]!r} in {runs_dir} (runs: "
                              f"{', '.join(sorted(every)[:10])}{', ...' if len(every) > 10 else ''})")
        save("/v1/runs?limit=500&offset=0",
             {**listing, "runs_dir": f"bundle of {len(chosen)} runs", "total": len(chosen),
              "next_offset": None, "items": [every[run_id] for run_id in chosen]})
        for run_id in chosen:
            if progress:
                progress(run_id)
            base = f"/v1/runs/{_q(run_id)}"
            overview = get(f"{base}/overview")
            if overview is None:
                continue
            spec = spec_of(str(overview.get("kind")))
            if spec.published_tables:
                get(f"{base}/against/paper")
            if spec.epoch_curves:
                _curves(get, base, overview.get("config") or {})
            for row in overview.get("items", []):
                item_url = f"{base}/items/{_q(row['item'])}"
                item = get(item_url)
                if item is not None and spec.round_diffs:
                    for index in range(len(item.get("rounds") or [])):
                        get(f"{item_url}/diff?round={index}")
        for first in chosen:
            for second in chosen:
                if first != second and every[first].get("kind") == every[second].get("kind"):
                    get(f"/v1/runs/{_q(first)}/compare/{_q(second)}")
    for name in ("viewer.js", "viewer.css"):
        shutil.copyfile(STATIC / "viewer" / name, out_dir / name)
    page = (STATIC / "viewer" / "index.html").read_text(encoding="utf-8")
    page = (page.replace("/view/assets/", "")
            .replace('<script src="viewer.js">',
                     '<script>window.T2W_BUNDLE = true;</script>\n  <script src="viewer.js">'))
    (out_dir / "index.html").write_text(page, encoding="utf-8")
    return {"out_dir": str(out_dir), "runs": chosen, "answers": written}
