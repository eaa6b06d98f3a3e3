"""The Inspect tasks and ``t2w import-inspect``: one set of answers replayed through Inspect
(``mockllm`` answering from the same scripts as the loopback server) and through ``t2w eval``
(litellm against the loopback OpenAI-compatible server) gives the same rounds and every metric
the same; the world-model tasks against ``t2w wm`` likewise (the reference models, through
Inspect's ``t2w`` provider and through litellm); an Inspect log becomes a run folder that
``t2w report`` and the viewer read."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402
from inspect_helpers import inspect_env  # noqa: E402
from llm_server import (  # noqa: E402
    Script,
    ScriptedLLMServer,
    broken_parenthesis,
    pddl_answer,
    request_round,
    small_domain,
    undefined_predicate,
    write_store,
)
from repo_paths import REPO
from typer.testing import CliRunner  # noqa: E402

from text2world.cli import app as cli  # noqa: E402
from text2world.engine.run_store import Run  # noqa: E402
from text2world.integrations import inspect_wm  # noqa: E402
from text2world.integrations.inspect_engine import ITEM_KEY  # noqa: E402
from text2world.integrations.inspect_generation import generation  # noqa: E402
from text2world.integrations.inspect_import import ImportError_, import_inspect_log  # noqa: E402
from text2world.tasks.generation.task import EvalOptions, evaluate  # noqa: E402
from text2world.tasks.wm.task import WmOptions, run_wm  # noqa: E402

NAMES = ["t2wi-valid", "t2wi-fix1", "t2wi-never", "t2wi-nopddl", "t2wi-short"]
PROBLEM = ("(define (problem move-{name}) (:domain {name})\n  (:objects t1 - thing p1 p2 - place)\n"
           "  (:init (at t1 p1) (free t1) (linked p1 p2))\n  (:goal (at t1 p2)))\n")


def scripts() -> dict[str, Script]:
    return {
        "t2wi-valid": Script([pddl_answer(small_domain("t2wi-valid"))]),
        "t2wi-fix1": Script([pddl_answer(broken_parenthesis(small_domain("t2wi-fix1"))),
                             pddl_answer(small_domain("t2wi-fix1"), "Fixed.")]),
        "t2wi-never": Script([pddl_answer(undefined_predicate(small_domain("t2wi-never")))]),
        "t2wi-nopddl": Script(["I cannot write domain t2wi-nopddl, sorry.",
                               pddl_answer(small_domain("t2wi-nopddl", 1))]),
        "t2wi-short": Script([pddl_answer(small_domain("t2wi-short", 1))]),
    }


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    root = write_store(tmp_path / "store", NAMES)
    for name in NAMES:
        folder = root / "problems" / name
        folder.mkdir(parents=True)
        (folder / "p01.pddl").write_text(PROBLEM.format(name=name))
    return root


def scripted_model(table: dict[str, Script]):
    """mockllm answering each call as the loopback server answers it (same marker and round
    rules, ``llm_server.ScriptedLLMServer``), with a usage so Inspect counts no tokens itself."""
    return get_model("mockllm/scripted", custom_outputs=scripted_answers(table))


def scripted_answers(table: dict[str, Script]):
    server = ScriptedLLMServer(table)

    def answer(messages, tools, tool_choice, config) -> ModelOutput:
        prompt = "\n".join(message.text for message in messages)
        _, script = server._match(prompt)
        content = script.answers[min(request_round(prompt), len(script.answers) - 1)]
        output = ModelOutput.from_content(model="scripted", content=content)
        output.usage = ModelUsage(input_tokens=len(prompt) // 4, output_tokens=len(content) // 4,
                                  total_tokens=len(prompt) // 4 + len(content) // 4)
        return output

    return answer


def _untimed(semantic: dict) -> dict:
    return {key: value for key, value in semantic.items() if key != "seconds"}


def _assert_close(ours, theirs, where: str = "") -> None:
    if isinstance(ours, dict):
        assert set(ours) == set(theirs), where
        for key in ours:
            _assert_close(ours[key], theirs[key], f"{where}.{key}")
    elif isinstance(ours, list):
        assert len(ours) == len(theirs), where
        for index, (mine, other) in enumerate(zip(ours, theirs)):
            _assert_close(mine, other, f"{where}[{index}]")
    elif isinstance(ours, float):
        assert ours == pytest.approx(theirs, rel=1e-12), where
    else:
        assert ours == theirs, where


def _nan_to_none(value):
    return None if isinstance(value, float) and math.isnan(value) else value


def test_generation_task_scores_exactly_as_t2w_eval(store, tmp_path):
    ec = 2
    with ScriptedLLMServer(scripts()) as server:
        result = evaluate(EvalOptions(model="openai/scripted", api_base=server.url,
                                      dataset=str(store), ec=ec, workers=0, max_retries=1,
                                      runs_root=tmp_path / "runs"))
    eval_items = {item["item"]: item for item in result.run.items()}
    assert set(eval_items) == set(NAMES)
    assert result.run.config["semantic"] is True

    log = inspect_eval(generation(ec=ec, dataset=str(store)), model=scripted_model(scripts()),
                       log_dir=str(tmp_path / "logs"), display="none")[0]
    assert log.status == "success", log.error
    inspect_items = {}
    for sample in log.samples:
        score = next(iter(sample.scores.values()))
        inspect_items[sample.id] = score.metadata[ITEM_KEY]
    assert set(inspect_items) == set(NAMES)
    for name in NAMES:
        ours, theirs = inspect_items[name], eval_items[name]
        assert ours["ec"] == theirs["ec"], name  # every metric, every round, both modes, semantic
        assert (ours["valid"], ours["valid_round"], ours["rounds_used"]) == \
            (theirs["valid"], theirs["valid_round"], theirs["rounds_used"])
        for mine, other in zip(ours["rounds"], theirs["rounds"], strict=True):
            for key in ("messages", "response", "domain", "extracted", "valid", "validation",
                        "category", "error_text", "scores"):
                assert mine.get(key) == other.get(key), (name, mine["round"], key)
            assert _untimed(mine["semantic"]) == _untimed(other["semantic"]), name
    # Inspect's own means of the headline scores are t2w eval's EC_k means, in its headline
    # (paper) mode by default
    summary = result.summary["metrics"]
    assert log.eval.metadata["text2world"]["mode"] == "paper"
    for entry in log.results.scores:
        value = entry.metrics["mean"].value
        if entry.name == "valid":
            assert value == pytest.approx(result.summary["valid_at_round"][ec] / len(NAMES))
        elif entry.name.startswith("semantic_"):
            key = entry.name.removeprefix("semantic_")
            assert value == pytest.approx(summary["semantic"][ec][key], rel=1e-12), entry.name
        else:
            assert value == pytest.approx(summary["paper"][ec][entry.name], rel=1e-12), \
                entry.name

    # import-inspect: the same summary as t2w eval's, readable by t2w report and the viewer
    out = tmp_path / "runs" / "imported"
    result_cli = CliRunner().invoke(cli, ["import-inspect", str(log.location), "--out", str(out)])
    assert result_cli.exit_code == 0, result_cli.output
    imported = json.loads((out / "summary.json").read_text())
    # equal up to the order of summation (items finish in another order)
    _assert_close(imported["metrics"], result.summary["metrics"])
    assert imported["valid_at_round"] == result.summary["valid_at_round"]
    run = Run.open(out)
    assert run.kind == "generation"
    report = CliRunner().invoke(cli, ["report", str(result.run.path), str(out), "--out",
                                      str(tmp_path / "report")])
    assert report.exit_code == 0, report.output
    assert "mockllm/scripted" in (tmp_path / "report" / "report.md").read_text()
    from text2world.reports.runview import item_detail, overview, round_diff
    items = run.items()
    page = overview(run, items)
    assert page["summary"]["finished_items"] == len(NAMES)
    _assert_close(page["per_round"]["canonical"], result.summary["metrics"]["canonical"])
    detail = item_detail(run, items, "t2wi-fix1")
    assert detail["valid_round"] == 1 and detail["gold"] == small_domain("t2wi-fix1")
    diff = round_diff(run, items, "t2wi-short", 0)
    assert diff.get("ok", True) and diff["actions"]


def _wm_summary(task: str, store_dir: Path, runs: Path) -> tuple[dict, dict]:
    result = run_wm(WmOptions(model="reference/noisy-oracle", dataset="text2world",
                              split="all", domains=["blocksworld"], task=task,
                              problems_per_domain=1, runs_root=runs))
    return result.summary["metrics"]["all"]["all"], {i["item"]: i for i in result.run.items()}


@pytest.mark.parametrize("task_name, factory", [
    ("next-state", inspect_wm.next_state), ("verify", inspect_wm.verify),
    ("propose", inspect_wm.propose), ("plan", inspect_wm.plan)])
def test_world_model_tasks_score_exactly_as_t2w_wm(task_name, factory, store, tmp_path):
    overall, records = _wm_summary(task_name, store, tmp_path / "runs")
    log = inspect_eval(factory(domains="blocksworld", split="all", problems_per_domain=1),
                       model="t2w/noisy-oracle", log_dir=str(tmp_path / "logs"), display="none")[0]
    assert log.status == "success", log.error
    assert {s.id for s in log.samples} == set(records)
    for sample in log.samples:
        mine = next(iter(sample.scores.values())).metadata[ITEM_KEY]
        theirs = records[sample.id]
        for key in ("answer", "format_error", "metrics"):
            assert mine[key] == theirs[key], (sample.id, key)
        assert [c["response"] for c in mine["calls"]] == [c["response"] for c in theirs["calls"]]
        assert [c.get("messages") or c["prompt_tail"] for c in mine["calls"]] == \
            [c.get("messages") or c["prompt_tail"] for c in theirs["calls"]]
    headline = {"next-state": "accuracy", "verify": "accuracy", "propose": "hit_at_1", "plan": "success"}
    assert log.results.scores[0].name == headline[task_name], \
        "Inspect's progress bar shows the first metric: the task's headline, not format_error"
    for entry in log.results.scores:
        if entry.name == "format_error":
            assert entry.metrics["mean"].value * overall["items"] == overall["format_errors"]
            continue
        key = entry.name.replace("_at_", "@")
        assert _nan_to_none(entry.metrics["mean"].value) == pytest.approx(overall[key],
                                                                         rel=1e-12), key
    out = tmp_path / "imported"
    imported = import_inspect_log(Path(log.location), out)
    _assert_close(imported.summary["metrics"]["all"]["all"], overall)
    report = CliRunner().invoke(cli, ["report", str(out)])
    assert report.exit_code == 0, report.output


def test_import_inspect_refuses_what_it_cannot_read(tmp_path, store):
    junk = tmp_path / "junk.eval"
    junk.write_bytes(b"not a zip")
    with pytest.raises(ImportError_, match="not a readable Inspect log"):
        import_inspect_log(junk)
    with pytest.raises(ImportError_, match="no such file"):
        import_inspect_log(tmp_path / "missing.eval")
    log = inspect_eval(generation(ec=0, dataset=str(store), domains="t2wi-valid"),
                       model=scripted_model(scripts()), log_dir=str(tmp_path / "logs"),
                       display="none")[0]
    out = tmp_path / "run"
    import_inspect_log(Path(log.location), out)
    with pytest.raises(ImportError_, match="already exists"):
        import_inspect_log(Path(log.location), out)
    result = CliRunner().invoke(cli, ["import-inspect", str(junk)])
    assert result.exit_code == 1 and "not a readable Inspect log" in result.output


def test_import_inspect_shows_each_failed_sample_and_report_advises_a_retry_in_inspect(tmp_path,
                                                                                      store):
    """A sample whose model call failed: import-inspect names it with its error, and the
    report's advice fits an imported run (retry in Inspect, import again), not t2w eval's."""
    answers = scripted_answers(scripts())

    def failing(messages, tools, tool_choice, config) -> ModelOutput:
        if "t2wi-fix1" in "\n".join(message.text for message in messages):
            raise RuntimeError("the provider answered 503: overloaded")
        return answers(messages, tools, tool_choice, config)

    log = inspect_eval(generation(ec=1, dataset=str(store), domains="t2wi-valid,t2wi-fix1"),
                       model=get_model("mockllm/scripted", custom_outputs=failing),
                       log_dir=str(tmp_path / "logs"), display="none", fail_on_error=False)[0]
    out = tmp_path / "runs" / "imported"
    result = CliRunner().invoke(cli, ["import-inspect", str(log.location), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "1 item (1 failed sample) written to" in result.output
    assert "failed sample t2wi-fix1: RuntimeError('the provider answered 503: overloaded')" \
        in " ".join(result.output.split())
    report = CliRunner().invoke(cli, ["report", str(out)])
    assert report.exit_code == 0, report.output
    flat = " ".join(report.output.split())
    assert "1 item failed" in flat and "inspect eval-retry" in flat, report.output
    assert "t2w import-inspect" in flat and "t2w eval --resume" not in flat


@pytest.mark.parametrize("arguments, message", [
    ({"ec": -1}, "ec must be 0 or more"), ({"description": "vague"}, "unknown description"),
    ({"mode": "exact"}, "mode must be"), ({"domains": "nope"}, "no domain with id"),
    ({"prompt": "/no/such/template.txt"}, "no such file"),
])
def test_generation_task_arguments_get_clear_errors(arguments, message):
    with pytest.raises(ValueError, match=message):
        generation(**arguments)


def test_reference_models_answer_only_inside_text2world_tasks(tmp_path):
    from inspect_ai import Task
    from inspect_ai.dataset import Sample

    log = inspect_eval(Task(dataset=[Sample(input="Write a PDDL domain.")]),
                       model="t2w/oracle", log_dir=str(tmp_path), display="none")[0]
    assert log.status == "error" and "answer only text2world's tasks" in log.error.message


def test_pyproject_registers_the_tasks_and_inspect_eval_finds_them(tmp_path):
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert project["entry-points"]["inspect_ai"] == {
        "text2world": "text2world.integrations.inspect_tasks"}
    env = inspect_env(tmp_path)
    inspect = [sys.executable, "-m", "inspect_ai"]
    listed = subprocess.run([*inspect, "list", "tasks", "text2world/integrations"], cwd=REPO,
                            env=env, capture_output=True, text=True, timeout=300)
    assert listed.returncode == 0, listed.stderr
    for name in ("generation", "next_state", "verify", "propose", "plan"):
        assert f"@{name}" in listed.stdout, listed.stdout
    ran = subprocess.run([*inspect, "eval", "text2world/generation", "--model", "t2w/oracle",
                          "-T", "ec=0", "-T", "split=train", "-T", "domains=gripper",
                          "--log-dir", str(tmp_path / "logs"), "--display", "none"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr[-3000:]
    from inspect_ai.log import read_eval_log

    log = read_eval_log(str(next((tmp_path / "logs").glob("*.eval"))))
    assert log.eval.task == "text2world/generation"
    assert {k: v.metrics["mean"].value for k, v in
            ((s.name, s) for s in log.results.scores)}["f1_effects"] == 1.0


def test_world_model_tasks_take_the_mystery_copies(store):
    """``-T mystery=true``: the same items on the obfuscated world (no store name in a prompt)."""
    def prompts(task) -> str:
        return " ".join(str(sample.input) for sample in task.dataset)

    plain = prompts(inspect_wm.next_state(domains="blocksworld", split="all",
                                          problems_per_domain=1))
    mystery = prompts(inspect_wm.next_state(domains="blocksworld", split="all",
                                            problems_per_domain=1, mystery=True))
    assert "unstack" in plain.lower()
    assert mystery and "unstack" not in mystery.lower()


def test_import_after_inspect_limit_plans_only_the_samples_run(store, tmp_path):
    """Issue 47: ``inspect eval --limit 2 --epochs 2`` of a 5-domain task, imported with
    ``t2w import-inspect``: the run plans the 2 samples the log ran (never 2/5), asked in 2
    epochs, and counts them as items x epochs."""
    log = inspect_eval(generation(ec=0, dataset=str(store), semantic=False),
                       model=scripted_model(scripts()), limit=2, epochs=2,
                       log_dir=str(tmp_path / "logs"), display="none")[0]
    assert log.status == "success", log.error
    out = tmp_path / "runs" / "imported"
    done = subprocess.run([sys.executable, "-m", "text2world.cli", "import-inspect",
                           str(log.location), "--out", str(out)],
                          env={**inspect_env(tmp_path), "COLUMNS": "80"}, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["planned_items"], summary["finished_items"], summary["finished_samples"],
            summary["epochs"]) == (2, 2, 4, 2), summary
    config = json.loads((out / "config.json").read_text())
    ran = {str(sample.id) for sample in log.samples}
    assert len(ran) == 2 and set(config["selected"]) == ran and config["planned_items"] == 2
    assert len(summary["per_epoch"]) == 2
