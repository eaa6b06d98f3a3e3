"""How trainers and clusters reach the rewards, for the tests: veRL's loader replayed in a
fresh process, and Ray's presence (required in CI, a skip elsewhere)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# veRL's ``load_module`` (verl/utils/import_utils.py, v0.7 and main) as it is: a ``pkg://`` path
# imports the module; any other path is executed from the file under the name "custom_module",
# never entered in sys.modules. Then the reward loop calls the function with its own keywords.
_VERL_LOADER = textwrap.dedent("""
    import importlib, importlib.util, json, os, sys
    def load_module(module_path):
        if module_path.startswith("pkg://"):
            return importlib.import_module(module_path[len("pkg://"):].replace("/", "."))
        spec = importlib.util.spec_from_file_location("custom_module", module_path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    module = load_module(sys.argv[1])
    compute_score = getattr(module, "compute_score")
    gold = sys.stdin.read()
    for answer in ("```pddl\\n" + gold + "\\n```", "I do not know."):
        print(compute_score(data_source="text2world", solution_str=answer, ground_truth="gripper",
                            extra_info=json.loads(sys.argv[2]), reward_router_address=None,
                            reward_model_tokenizer=None))
""")


def verl_rewards(how: str, gold: str, extra_info: dict) -> list[str]:
    """The rewards veRL's loader (``how``: "file" or "pkg") gets in a fresh process for the
    fenced ``gold`` and for a non-answer, against the gold "gripper" with ``extra_info``."""
    from text2world import rewards

    path = rewards.__file__ if how == "file" else "pkg://text2world.rewards"
    result = subprocess.run([sys.executable, "-c", _VERL_LOADER, path, json.dumps(extra_info)],
                            input=gold, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout.split()


def require_ray() -> None:
    """Skip unless Ray is installed (a failure in CI, which installs it)."""
    try:
        import ray  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("ray is in the test extra: CI must install it")
        pytest.skip("ray is not installed (pip install 'text2world[ray]')")


def write_batch(folder: Path, lines: list[dict]) -> Path:
    """A ``t2w score-batch`` input file of ``lines`` (one JSON object per line) in ``folder``."""
    path = folder / "in.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path
