"""A memoizing cache for functions of one (possibly large) text, bounded in bytes.

``functools.lru_cache`` bounds entries, not memory, and keeps every argument alive as its key: a
server scoring against distinct 1 MB gold domains grew by about 2 MB per gold and never shrank.
``gold_cache`` keys entries by a 16-byte BLAKE2b digest of the text (the text itself is not
kept) and evicts least recently used entries once the measured size of the cached values
passes ``max_bytes``. The size of a value is measured once, when it is cached, by walking the
objects it references (``sys.getsizeof`` of each, shared objects counted once per entry);
walking is linear in the value and far cheaper than the parse that produced it.
"""

from __future__ import annotations

import gc
import hashlib
import os
import sys
import threading
from collections import OrderedDict, namedtuple
from types import BuiltinFunctionType, FunctionType, ModuleType
from typing import Callable, Generic, TypeVar

T = TypeVar("T")

DEFAULT_MAX_BYTES = 64 * 1024 * 1024
"""Default bound of each cache; ``T2W_GOLD_CACHE_BYTES`` overrides it for every cache."""

CacheInfo = namedtuple("CacheInfo", "hits misses currsize bytes max_bytes")

_NOT_WALKED = (type, ModuleType, FunctionType, BuiltinFunctionType)
_MAX_OBJECTS = 5_000_000  # a bound on the walk itself; past it the size is a lower bound


def deep_size(value: object) -> int:
    """Bytes held by ``value`` and every object it references (classes, modules and functions
    excluded), each counted once."""
    seen: set[int] = set()
    pending = [value]
    total = 0
    while pending and len(seen) < _MAX_OBJECTS:
        item = pending.pop()
        if id(item) in seen or isinstance(item, _NOT_WALKED):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, (str, bytes, int, float, bool)) or item is None:
            continue
        pending.extend(gc.get_referents(item))
    return total


def text_key(text: str) -> bytes:
    """A 16-byte digest that stands for ``text`` as a cache key."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def default_max_bytes() -> int:
    """The bound of each cache in bytes: ``T2W_GOLD_CACHE_BYTES``, else 64 MiB."""
    raw = os.environ.get("T2W_GOLD_CACHE_BYTES", "").strip()
    if raw:
        try:
            value = int(raw)
        except ValueError:
            raise ValueError(f"T2W_GOLD_CACHE_BYTES={raw!r}: expected a whole number of bytes") from None
        if value >= 0:
            return value
    return DEFAULT_MAX_BYTES


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
