"""Caches keyed by content: in memory, for functions of one (possibly large) text, bounded in
bytes (``TextCache``); on disk, for the results of scoring (``ResultCache``).

``functools.lru_cache`` bounds entries, not memory, and keeps every argument alive as its key: a
server scoring against distinct 1 MB gold domains grew by about 2 MB per gold and never shrank.
``gold_cache`` keys entries by a 16-byte BLAKE2b digest of the text (the text itself is not
kept) and evicts least recently used entries once the measured size of the cached values
passes ``max_bytes``. The size of a value is measured once, when it is cached, by walking the
objects it references (``sys.getsizeof`` of each, shared objects counted once per entry);
walking is linear in the value and far cheaper than the parse that produced it.

``ResultCache`` keeps JSON results under ``$T2W_HOME/cache/scores/``, keyed by a digest of the
inputs and of the code that computed them (``code_fingerprint``), so that a later run finds
what an earlier one computed from the same texts, and a changed scorer never finds it.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import sys
import threading
from collections import OrderedDict, namedtuple
from functools import lru_cache
from pathlib import Path
from types import BuiltinFunctionType, FunctionType, ModuleType
from typing import Callable, Generic, TypeVar

from text2world.files import JsonFileStore

__all__ = [
    "T", "DEFAULT_MAX_BYTES", "PREPARED_GOLDS_MAX_BYTES", "deep_size", "text_key",
    "default_max_bytes", "TextCache", "ALL_TEXT_CACHES", "gold_cache", "code_fingerprint",
    "ResultCache",
]

T = TypeVar("T")

DEFAULT_MAX_BYTES = 64 * 1024 * 1024
"""Default bound of each cache; ``T2W_GOLD_CACHE_BYTES`` overrides it for every cache."""
PREPARED_GOLDS_MAX_BYTES = 128 * 1024 * 1024
"""Default bound of the prepared golds (``semantic.prepare_gold``): the store's 101 golds take
about 76 MB, and a pass over more golds than fit prepares every one again (a least recently
used cache misses on each gold of a cycle longer than it holds); ``T2W_GOLD_CACHE_BYTES``
overrides it too."""

CacheInfo = namedtuple("CacheInfo", "hits misses currsize bytes max_bytes")

_NOT_WALKED = (type, ModuleType, FunctionType, BuiltinFunctionType)
_MAX_OBJECTS = 5_000_000  # a bound on the walk itself; past it the size is a lower bound


_LEAVES = (str, bytes, int, float, bool, type(None))  # sized, never walked into


def deep_size(value: object) -> int:
    """Bytes held by ``value`` and every object it references (classes, modules and functions
    excluded), each counted once. Walked a level at a time: the sizes and the referents of a
    whole level are read by single calls (``map``, ``gc.get_referents``), not object by
    object."""
    seen: set[int] = set()
    total = 0
    level: list = [value]
    while level and len(seen) < _MAX_OBJECTS:
        fresh = []
        for item in level:
            if id(item) in seen or isinstance(item, _NOT_WALKED):
                continue
            seen.add(id(item))
            fresh.append(item)
        total += sum(map(sys.getsizeof, fresh))
        inner = [item for item in fresh if not isinstance(item, _LEAVES)]
        level = gc.get_referents(*inner) if inner else []
    return total


def text_key(text: str) -> bytes:
    """A 16-byte digest that stands for ``text`` as a cache key."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def default_max_bytes(default: int = DEFAULT_MAX_BYTES) -> int:
    """The bound of each cache in bytes: ``T2W_GOLD_CACHE_BYTES``, else ``default`` (64 MiB)."""
    raw = os.environ.get("T2W_GOLD_CACHE_BYTES", "").strip()
    if raw:
        try:
            value = int(raw)
        except ValueError:
            raise ValueError(f"T2W_GOLD_CACHE_BYTES={raw!r}: expected a whole number of bytes") from None
        if value >= 0:
            return value
    return default


class TextCache(Generic[T]):
    """``function(text)`` memoized by a digest of the text, at most ``max_bytes`` of values."""

    def __init__(self, function: Callable[[str], T], max_bytes: int | None = None) -> None:
        self.function = function
        self.max_bytes = default_max_bytes() if max_bytes is None else max_bytes
        self._entries: OrderedDict[bytes, tuple[T, int]] = OrderedDict()
        self._bytes = 0
        self._hits = 0
        self._misses = 0
        self._lock = threading.Lock()
        self.__wrapped__ = function
        self.__doc__ = function.__doc__
        self.__name__ = getattr(function, "__name__", "text_cache")

    def __call__(self, text: str) -> T:
        key = text_key(text)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
                self._hits += 1
                return entry[0]
            self._misses += 1
        value = self.function(text)  # outside the lock: threads may parse different texts
        size = deep_size(value)
        with self._lock:
            if key not in self._entries and size <= self.max_bytes:
                self._entries[key] = (value, size)
                self._bytes += size
                while self._bytes > self.max_bytes:
                    _, (_, evicted) = self._entries.popitem(last=False)
                    self._bytes -= evicted
        return value

    def set_max_bytes(self, max_bytes: int) -> None:
        """Change the bound, evicting what no longer fits."""
        if max_bytes < 0:
            raise ValueError(f"a cache bound is a number of bytes >= 0, not {max_bytes}")
        with self._lock:
            self.max_bytes = max_bytes
            while self._bytes > self.max_bytes:
                _, (_, evicted) = self._entries.popitem(last=False)
                self._bytes -= evicted

    def cache_info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(self._hits, self._misses, len(self._entries), self._bytes,
                             self.max_bytes)

    def cache_clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = self._hits = self._misses = 0


ALL_TEXT_CACHES: list[TextCache] = []


def gold_cache(function: Callable[[str], T]) -> TextCache[T]:
    """Decorator: memoize a gold-domain parse within ``T2W_GOLD_CACHE_BYTES`` (default 64 MiB)
    of cached values; registered in ``ALL_TEXT_CACHES`` so a server can bound them all."""
    cache = TextCache(function)
    ALL_TEXT_CACHES.append(cache)
    return cache


# --------------------------------------------------------------------------------------------
# Results kept on disk

# Distributions besides the package whose code a score depends on: the parser and its runtime,
# the planner. A version of None: not installed (semantic scoring then says so).
SCORING_DISTRIBUTIONS = ("tarski", "antlr4-python3-runtime", "up-fast-downward")


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A digest of everything a score depends on besides its inputs: the source of every
    module of the text2world package, the planner answers shipped with the store
    (``data/plans/gold-front.json``), the Python version and the versions of
    ``SCORING_DISTRIBUTIONS``. Conservative: an edit anywhere in the package changes it."""
    from importlib.metadata import PackageNotFoundError, version

    from text2world.files import data_dir

    digest = hashlib.sha256(sys.version.encode())
    for name in SCORING_DISTRIBUTIONS:
        try:
            found: str | None = version(name)
        except PackageNotFoundError:
            found = None
        digest.update(f"\0{name}={found}".encode())
    package = Path(__file__).resolve().parent.parent
    shipped = data_dir() / "plans" / "gold-front.json"
    for path in [*sorted(package.rglob("*.py")), shipped]:
        try:
            content = path.read_bytes()
        except OSError:
            content = b"(missing)"
        name = str(path.relative_to(package)) if path.is_relative_to(package) else path.name
        digest.update(f"\0{name}\0{len(content)}\0".encode() + content)
    return digest.hexdigest()


class ResultCache(JsonFileStore):
    """JSON results on disk, one file per key (``$T2W_HOME/cache/scores/<2 hex>/<key>.json``),
    keyed by ``key(kind, inputs)``: a digest of the inputs and of ``code_fingerprint``. Only
    results that repeat belong here (none a clock shaped). Writes are atomic; an unreadable
    entry is a miss; a read-only home only costs the cache."""

    durable = False  # a lost entry is only a miss
    touch_on_hit = True  # pruning keeps the entries in use
    DEFAULT_MAX_BYTES = 512 * 1024 * 1024  # ``T2W_SCORE_CACHE_BYTES`` (0: no bound)

    def __init__(self, root: Path | None = None, max_bytes: int | None = None) -> None:
        from text2world.files import disk_cache_bytes, home_dir

        super().__init__(root or home_dir() / "cache" / "scores",
                         max_bytes if max_bytes is not None else
                         disk_cache_bytes("T2W_SCORE_CACHE_BYTES", self.DEFAULT_MAX_BYTES))

    @staticmethod
    def key(kind: str, inputs: object) -> str:
        """The key of ``kind`` of result (a name) of ``inputs`` (anything JSON can write)."""
        text = json.dumps([code_fingerprint(), kind, inputs], ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    def get(self, key: str) -> dict | None:
        data = self.read(key)
        result = data.get("result") if data is not None else None
        return result if isinstance(result, dict) else None

    def put(self, key: str, result: dict) -> None:
        """Keep ``result``; one JSON would not give back equal (a tuple, a key that is not a
        string) is not kept, so that what ``get`` answers is always what was computed."""
        try:
            text = json.dumps({"result": result}, ensure_ascii=False)
            if json.loads(text)["result"] != result:
                return
        except (ValueError, TypeError):
            return
        self.write(key, text)  # a full disk or a read-only home: only the cache misses it
