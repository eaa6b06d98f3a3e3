"""The answer keys shipped with the store (``data/keys/``, built by ``answer_keys``): where a
domain's file is, how a state is named in it (``state_hash``) and a problem's key
(``shipped_key``, with the actions the planner left unanswered in the key's bound), read by
``world.World`` to check a proposal without the planner."""

from __future__ import annotations

import hashlib
from pathlib import Path

from text2world.simulation import atom_to_pddl
from text2world.store.datasets import Record, data_dir
from text2world.store.plans import plan_key, problem_entries, record_root

KEYS_FOLDER = "keys"
FORMAT = "t2w-answer-keys-1"


def keys_path(record_id: str, root: Path | None = None, generated: bool = False) -> Path:
    folder = (root or data_dir()) / KEYS_FOLDER
    return (folder / "generated" if generated else folder) / f"{record_id}.json"


def state_hash(state: frozenset) -> str:
    """A state's name in a key: the hash of its sorted atoms as PDDL."""
    return hashlib.sha256("\n".join(sorted(atom_to_pddl(a) for a in state))
                          .encode("utf-8")).hexdigest()[:32]


def shipped_key(record: Record, problem_name: str, problem_text: str,
                root: Path | None = None, planner_timeout: float | None = None
                ) -> dict[str, dict[str, float | None]]:
    """The shipped key of a problem (state hash -> action -> cost-to-go); empty when there is
    none or it is stale. With ``planner_timeout``, the actions the planner left unanswered when
    the key was built (``unanswered``) are in it too, as None (no answer: what the planner gives
    a check), when it was given at least that long (``bound_s``): a check then asks no planner
    what it already failed to answer in that time."""
    root = root or record_root(record, KEYS_FOLDER)
    for generated in (False, True):
        entry = problem_entries(keys_path(record.id, root, generated)).get(problem_name)
        if isinstance(entry, dict) and entry.get("key") == plan_key(record.domain, problem_text):
            states = entry.get("states")
            if not isinstance(states, dict):
                return {}
            unanswered = entry.get("unanswered")
            if planner_timeout is None or not isinstance(unanswered, dict) or \
                    float(entry.get("bound_s") or 0) < planner_timeout:
                return states
            merged = {name: dict(answers) for name, answers in states.items()
                      if isinstance(answers, dict)}
            for name, actions in unanswered.items():
                for action in actions if isinstance(actions, list) else ():
                    merged.setdefault(name, {}).setdefault(str(action), None)
            return merged
    return {}


__all__ = ["FORMAT", "KEYS_FOLDER", "keys_path", "shipped_key", "state_hash"]
