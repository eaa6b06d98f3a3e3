"""The paper's published tables beside runs (``t2w report RUN --against paper``): the table is
chosen by the run's description and prompt, matched through the model aliases, and a run
the table has no row for gets its normal report and one line. A loopback server stands in
for the providers (deepseek-r1, deepseek-v3)."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import json

import pytest
from llm_server import Script, ScriptedLLMServer, broken_parenthesis, pddl_answer, small_domain, write_store
from typer.testing import CliRunner

from text2world.cli import app as cli
from text2world.tasks.generation.task import EvalOptions, evaluate

NAMES = ["t2wp-a", "t2wp-b", "t2wp-c", "t2wp-d"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, object]:
    """deepseek-r1 on abstract and concrete descriptions, deepseek-v3 on concrete ones."""
    root = tmp_path_factory.mktemp("published")
    store = write_store(root / "store", NAMES)
    scripts = {name: Script([pddl_answer(broken_parenthesis(small_domain(name))),
                             pddl_answer(small_domain(name))]) for name in NAMES[:2]}
    scripts.update({name: Script([pddl_answer(small_domain(name))]) for name in NAMES[2:]})
    made = {}
    with pytest.MonkeyPatch.context() as patch, ScriptedLLMServer(scripts) as server:
        patch.setenv("T2W_HOME", str(root / "home"))
        patch.delenv("DEEPSEEK_API_KEY", raising=False)  # a custom --api-base needs none
        for model, description in (("deepseek-r1", "abstract"), ("deepseek-r1", "concrete"),
                                   ("deepseek-v3", "concrete")):
            result = evaluate(EvalOptions(
                model=model, api_base=server.url, dataset=str(store), ec=3,
                description=description, workers=0, timeout=5, retry_base_delay=0.01,
                runs_root=root / "runs"))
            made[f"{model}/{description}"] = result.run.path
    return made


def test_shipped_tables_carry_their_source_and_every_model_is_an_alias():
    from text2world.model.aliases import load_model_aliases, resolve_model
    from text2world.reports.published import family_names, list_tables

    tables = {t["name"]: t for t in list_tables()}
    assert set(tables) >= {"text2world-table1", "text2world-table6-concrete",
                           "text2world-table2-icl"}
    assert family_names() == ["paper"]
    assert {tables[n]["source"]["table"] for n in tables if tables[n]["family"] == "paper"} == {
        "Table 1", "Table 6", "Table 2 (In-Context Learning rows)"}
    assert all(t["source"]["arxiv"] == "2502.13092" for t in tables.values())
    assert tables["text2world-table1"]["rows"] == 16 * 6 * 2
    aliases = load_model_aliases()
    for table in tables.values():
        for model in table["models"]:
            assert model in aliases, f"{table['name']}: {model} is not an alias"
            assert not resolve_model(model).is_reference


def test_deepseek_r1_beside_table_1(runs):
    from text2world.reports.published import against

    data = against(runs["deepseek-r1/abstract"], "paper")
    assert data["table"]["name"] == "text2world-table1" and "Table 1" in data["chosen"]
    assert data["matched"] == "deepseek-r1" and data["notes"] == []
    executable = {r["setting"]: r for r in data["rows"] if r["metric"] == "executable"}
    assert executable["EC_0"]["published"] == pytest.approx(0.723)
    assert executable["EC_3"]["published"] == pytest.approx(0.891)
    # ours: 2 of 4 executable at once, 4 of 4 after one correction
    assert executable["EC_0"]["ours"]["mean"] == pytest.approx(0.5)
    assert executable["EC_3"]["ours"]["mean"] == pytest.approx(1.0)
    assert executable["EC_3"]["status"] == "outside"  # 89.1 is below our [100, 100]
    assert len(data["rows"]) == 12

    result = CliRunner().invoke(cli, ["report", str(runs["deepseek-r1/abstract"]),
                                      "--against", "paper"])
    assert result.exit_code == 0, result.output
    assert "published table: Table 1 (text2world-table1)" in result.output
    lines = [line for line in result.output.splitlines() if "executable" in line]
    assert any("EC_0" in line and "72.3" in line and "50.0" in line for line in lines), lines
    assert any("EC_3" in line and "89.1" in line and "100.0" in line for line in lines), lines


def test_a_concrete_run_is_compared_with_table_6(runs):
    result = CliRunner().invoke(cli, ["report", str(runs["deepseek-v3/concrete"]),
                                      "--against", "paper", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["table"]["name"] == "text2world-table6-concrete" and data["notes"] == []
    assert data["matched"] == "deepseek-v3" and "description=concrete" in data["chosen"]
    table6 = json.loads((__import__("text2world.reports.published", fromlist=["x"])
                         .PACKAGE_TABLES / "text2world-table6-concrete.json").read_text())
    expected = {(r["setting"], r["metric"]): r["value"] / 100 for r in table6["rows"]
                if r["model"] == "deepseek-v3"}
    assert {(r["setting"], r["metric"]): r["published"] for r in data["rows"]} == \
        pytest.approx(expected)


def test_no_row_gives_the_normal_report_and_one_line(runs, tmp_path):
    # Table 6 has no deepseek-r1 row.
    result = CliRunner().invoke(cli, ["report", str(runs["deepseek-r1/concrete"]),
                                      "--against", "paper", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "Table 1 and Figure 6: deepseek-r1" in result.output  # the normal report
    assert (tmp_path / "out" / "report.md").is_file()  # the normal report was written
    flowing = " ".join(result.output.split())  # the line wraps at 80 columns
    assert flowing.count("no comparison with paper") == 1
    said = flowing[flowing.index("no comparison with paper"):].split(" note: ")[0]
    assert "Table 6" in said and "'deepseek-r1'" in said


def test_unknown_table_is_a_clear_error(runs):
    result = CliRunner().invoke(cli, ["report", str(runs["deepseek-r1/abstract"]),
                                      "--against", "tabel-1"])
    assert result.exit_code != 0
    assert "no published table 'tabel-1'" in " ".join(result.output.split()) and "paper" in result.output


def test_api_lists_the_tables_and_a_run_carries_its_row(runs):
    from fastapi.testclient import TestClient

    from text2world.api.app import create_app
    from text2world.api.settings import Settings

    runs_dir = runs["deepseek-r1/abstract"].parent
    with TestClient(create_app(Settings(runs_dir=runs_dir, executor="thread",
                                        score_processes=1))) as client:
        listing = client.get("/v1/published").json()
        assert listing["families"] == ["paper"]
        names = {t["name"]: t for t in listing["tables"]}
        assert names["text2world-table6-concrete"]["conditions"]["description"] == "concrete"
        assert "deepseek-r1" in names["text2world-table1"]["models"]
        table = client.get("/v1/published/text2world-table1").json()
        assert len(table["rows"]) == 192 and "path" not in table
        assert client.get("/v1/published/nope").status_code == 404
        assert client.get("/v1/published/..%2Fx").status_code == 404
        run = client.get(f"/v1/runs/{runs['deepseek-r1/abstract'].name}").json()
        published = run["published"]
        assert published["table"] == "text2world-table1" and published["matched"] == "deepseek-r1"
        executable = {r["setting"]: r["published"] for r in published["rows"]
                      if r["metric"] == "executable"}
        assert executable == pytest.approx({"EC_0": 0.723, "EC_3": 0.891})
        concrete = client.get(f"/v1/runs/{runs['deepseek-r1/concrete'].name}").json()
        assert concrete["published"]["matched"] is None
        assert "Table 6 has no row for 'deepseek-r1'" in concrete["published"]["reason"]
        # the viewer's panel: our interval beside the published value, flagged when outside
        panel = client.get(f"/v1/runs/{runs['deepseek-r1/abstract'].name}/against/paper").json()
        assert panel["chosen"].startswith("Table 1") and panel["outside"] >= 1


def test_mcp_lists_the_tables():
    import asyncio

    from text2world.integrations.mcp_server import McpSettings, Tools

    listing = asyncio.run(Tools(McpSettings()).list_published())
    assert {t["name"] for t in listing["tables"]} >= {"text2world-table1",
                                                     "text2world-table6-concrete"}
