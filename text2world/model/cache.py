"""Completions and the response cache: what identifies a call (``request_key``) and the
answers kept under ``$T2W_HOME/cache`` so that the same call is never paid for twice."""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterator

from text2world.files import MAX_CACHE_ENTRY_BYTES, JsonFileStore, home_dir, read_input_text
from text2world.model.credentials import redact

__all__ = ["Completion", "cache_dir", "request_key", "ResponseCache"]


@dataclass
class Completion:
    content: str
    reasoning: str | None
    prompt_tokens: int
    completion_tokens: int
    cost: float | None  # USD; None when the price is unknown
    latency: float  # seconds of the call that answered
    attempts: int = 1
    cached: bool = False
    finish_reason: str | None = None
    model: str | None = None
    # function calls the model asked for (agent protocol): [{id, name, arguments (JSON text)}]
    tool_calls: list[dict] | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Completion":
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**known)


def cache_dir() -> Path:
    return home_dir() / "cache"


def request_key(model: str, api_base: str | None, messages: list[dict], settings: dict,
                round_index: int, epoch: int = 0) -> str:
    """What identifies a call: the same key is never paid for twice.

    Credentials are not part of it (``credentials.redact``): a rotated or another key gets
    the same answers from the cache, while other headers keep their fingerprints. ``epoch``
    (``--epochs``) makes each epoch's call a sample of its own; epoch 0 has no epoch in its
    key, so answers cached before epochs existed are found again."""
    payload = json.dumps({"model": model, "api_base": redact(api_base or ""),
                          "messages": messages, "settings": redact(settings),
                          "round": round_index,
                          # later epochs are new samples; epoch 0 keeps the key it always had
                          **({"epoch": epoch} if epoch else {})},
                         sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class ResponseCache(JsonFileStore):
    """One JSON file per answered call under ``$T2W_HOME/cache/<2 hex>/<key>.json``
    (``files.JsonFileStore``, never pruned: each entry is a call paid for).

    A file per entry keeps concurrent runs (and a killed run) safe: each entry is written
    atomically and nothing is ever rewritten in place.
    """

    def __init__(self, root: Path | None = None) -> None:
        super().__init__(root or cache_dir())

    def get(self, key: str) -> Completion | None:
        data = self.read(key)
        try:
            return Completion.from_dict(data["completion"]) if data is not None else None
        except (KeyError, TypeError):
            return None  # missing or unreadable entries are simply misses

    def put(self, key: str, completion: Completion, model: str, round_index: int) -> None:
        """Keep the answer; a full disk only costs the cache (the answer is still used and
        paid for)."""
        record = {"key": key, "model": model, "round": round_index, "created": time.time(),
                  "completion": completion.to_dict()}
        self.write(key, json.dumps(record, ensure_ascii=False))

    def records(self) -> Iterator[tuple[Path, dict[str, Any]]]:
        """(path, the entry's JSON, {} when unreadable) of every cached response (the entries
        ``JsonFileStore.entries`` finds)."""
        for path in sorted(path for path, _, _ in self.entries()):
            try:  # an entry linked to a device or a FIFO is refused, not read
                data = json.loads(read_input_text(path, "cache entry", MAX_CACHE_ENTRY_BYTES))
            except (OSError, ValueError):
                data = {}
            yield path, data

    def stats(self) -> dict[str, Any]:
        by_model: dict[str, dict] = {}
        total_bytes = 0
        count = 0
        for path, data in self.records():
            count += 1
            size = path.stat().st_size
            total_bytes += size
            model = data.get("model", "?")
            slot = by_model.setdefault(model, {"entries": 0, "bytes": 0, "cost": 0.0})
            slot["entries"] += 1
            slot["bytes"] += size
            slot["cost"] += (data.get("completion") or {}).get("cost") or 0.0
        return {"path": str(self.root), "entries": count, "bytes": total_bytes,
                "models": by_model}

    def clear(self, model: str | None = None) -> int:
        """Remove the cached responses (all, or ``model``'s); the number removed. The planner's
        and the scores' folders beside them (``plans/``, ``scores/``) are other caches: kept."""
        removed = 0
        for path, data in self.records():
            if model is None or data.get("model") == model:
                path.unlink(missing_ok=True)
                removed += 1
        if model is None and self.root.is_dir():
            for folder in self.root.glob("??"):
                try:
                    folder.rmdir()  # only when empty
                except OSError:
                    pass
        return removed
