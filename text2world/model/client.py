"""Model client over litellm: aliases, API-key checks, bounded retries, a response cache, and
the built-in offline reference models.

litellm is imported lazily (``t2w validate`` should not pay for it) and always with the local
model cost map, so that importing it never reaches the network.
"""

from __future__ import annotations

import asyncio
import base64
import errno
import hashlib
import json
import os
import random
import shutil
import time
import tomllib
import warnings
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from text2world.model.credentials import redact, redact_text, split_userinfo
from text2world.store.datasets import atomic_write_text, home_dir

REFERENCE_PROVIDER = "reference"
REFERENCE_MODELS = ("oracle", "noisy-oracle")
SYSTEM_MESSAGE = "You are a helpful assistant."


@dataclass
class RunSettings:
    """What every run of a model over a dataset is configured with: ``t2w eval`` and the
    contamination probe extend it with their own options (same names, same defaults)."""

    model: str = ""
    dataset: str = "text2world"
    split: str = "test"
    limit: int | None = None
    domains: list[str] | None = None
    api_base: str | None = None
    temperature: float | None = 0.0
    max_tokens: int | None = None
    model_args: dict = field(default_factory=dict)
    max_concurrency: int = 4
    timeout: float = 600.0
    max_retries: int = 5
    retry_base_delay: float = 1.0
    use_cache: bool = True
    seed: int = 0
    run_id: str | None = None
    resume: Path | None = None

    def with_overrides(self, **overrides: Any):
        """These settings, as recorded by a run, with what a resuming command gives again:
        values that are not None replace the recorded ones; ``model_args`` are added to them
        (credentials are never recorded, so they come back this way)."""
        settings = self
        for key, value in overrides.items():
            if key == "model_args":
                value = {**settings.model_args, **value} if value else None
            if value is not None:
                settings = replace(settings, **{key: value})
        return settings


class ModelConfigError(ValueError):
    """An unknown model alias, a malformed models file or a missing API key."""


class InfrastructureError(RuntimeError):
    """A call that failed for reasons that are not the model's answer (rate limits, server
    errors, timeouts, bad requests), after the bounded retries."""

    def __init__(self, kind: str, message: str, attempts: int = 1) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.attempts = attempts

    def to_dict(self) -> dict:
        return {"kind": self.kind, "message": self.message, "attempts": self.attempts}


class FatalModelError(RuntimeError):
    """An error that every further call would repeat (bad key, unknown model): stop the run."""


# --------------------------------------------------------------------------------------------
# litellm, imported once and offline


def prepare_litellm_environment() -> None:
    """Keep litellm offline: call before anything imports it."""
    # Without these litellm downloads its model price list (at import) and Anthropic header
    # tables (at call time) from GitHub.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_LOCAL_ANTHROPIC_BETA_HEADERS", "True")
    os.environ.setdefault("LITELLM_LOCAL_BLOG_POSTS", "True")
    os.environ.setdefault("LITELLM_TELEMETRY", "False")
    os.environ.setdefault("LITELLM_LOG", "ERROR")


@lru_cache(maxsize=1)
def litellm_module():
    """The configured litellm module, with the reference provider registered.

    Imported with the cyclic garbage collector paused, then frozen (``gc.freeze``): litellm
    creates some hundred thousand long-lived objects, and the collections its import triggers
    would walk them again and again (about a quarter of its CPU time), as would every later
    full collection and those at interpreter exit (another second). Frozen objects are freed
    by reference counting as usual; only the cycle search skips them."""
    import gc

    prepare_litellm_environment()
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _configured_litellm()
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


def _configured_litellm():
    import litellm

    litellm.suppress_debug_info = True
    litellm.telemetry = False
    litellm.set_verbose = False
    litellm.drop_params = True  # e.g. temperature for o1-style models: drop, do not fail
    litellm.disable_hf_tokenizer_download = True  # token counts fall back to bundled tiktoken
    # litellm.acompletion builds the provider's coroutine in a thread and awaits it after; a
    # call cancelled in between (Ctrl-C, SIGTERM, a fatal error elsewhere) leaves that
    # coroutine unstarted (no request was sent), and Python warns about it at exit.
    warnings.filterwarnings("ignore", message=r"coroutine '[\w.]*acompletion' was never awaited",
                            category=RuntimeWarning)
    if not any(item.get("provider") == REFERENCE_PROVIDER for item in litellm.custom_provider_map):
        from text2world.model.reference import reference_handler

        litellm.custom_provider_map = [*litellm.custom_provider_map,
                                       {"provider": REFERENCE_PROVIDER,
                                        "custom_handler": reference_handler()}]
    return litellm


# --------------------------------------------------------------------------------------------
# Model aliases


@dataclass(frozen=True)
class ModelSpec:
    """A resolved ``--model``: what litellm is called with, and where its key comes from."""

    name: str  # what the user asked for (alias or litellm string)
    litellm_model: str
    api_base: str | None = None
    api_key_env: str | None = None  # None: ask litellm; "": no key needed
    params: dict = field(default_factory=dict)
    input_cost_per_mtok: float | None = None
    output_cost_per_mtok: float | None = None
    note: str = ""

    @property
    def provider(self) -> str:
        return self.litellm_model.split("/", 1)[0] if "/" in self.litellm_model else ""

    @property
    def is_reference(self) -> bool:
        return self.provider == REFERENCE_PROVIDER

    def to_config(self) -> dict:
        """What a run config records: never the key, only the variable's name."""
        data = asdict(self)
        data["is_reference"] = self.is_reference
        return data


def user_models_path() -> Path:
    return home_dir() / "models.toml"


def _read_models_file(text: str, where: str) -> dict[str, dict]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ModelConfigError(f"{where}: not valid TOML ({err})") from None
    models = data.get("models", {})
    if not isinstance(models, dict):
        raise ModelConfigError(f"{where}: [models] must be a table of aliases")
    for alias, entry in models.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("model"), str):
            raise ModelConfigError(f"{where}: alias {alias!r} needs a 'model' string "
                                   "(a litellm model name such as openai/gpt-4o)")
        if "params" in entry and not isinstance(entry["params"], dict):
            raise ModelConfigError(f"{where}: alias {alias!r}: 'params' must be a table")
    return models


def load_model_aliases() -> dict[str, dict]:
    """Built-in aliases, overridden and extended by ``$T2W_HOME/models.toml``."""
    builtin = resources.files("text2world").joinpath("models.toml").read_text(encoding="utf-8")
    aliases = dict(_read_models_file(builtin, "built-in models.toml"))
    user_file = user_models_path()
    if user_file.is_file():
        try:
            text = user_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise ModelConfigError(f"{user_file}: cannot be read ({err})") from None
        aliases.update(_read_models_file(text, str(user_file)))
    return aliases


def resolve_model(name: str, api_base: str | None = None,
                  extra_params: dict | None = None) -> ModelSpec:
    """Turn ``--model`` (an alias or a litellm model string) into a ``ModelSpec``."""
    if not name or not name.strip():
        raise ModelConfigError("no model given: pass --model ALIAS or a litellm model string")
    aliases = load_model_aliases()
    entry = aliases.get(name)
    if entry is not None:
        spec = ModelSpec(
            name=name, litellm_model=entry["model"], api_base=entry.get("api_base"),
            api_key_env=entry.get("api_key_env"), params=dict(entry.get("params", {})),
            input_cost_per_mtok=entry.get("input_cost_per_mtok"),
            output_cost_per_mtok=entry.get("output_cost_per_mtok"), note=entry.get("note", ""))
    elif name.startswith(REFERENCE_PROVIDER + "/"):
        raise ModelConfigError(f"unknown reference model {name!r}; reference models: "
                               + ", ".join(f"{REFERENCE_PROVIDER}/{m}" for m in REFERENCE_MODELS))
    else:
        litellm = litellm_module()
        try:
            litellm.get_llm_provider(name)
        except Exception:  # noqa: BLE001 - litellm raises its BadRequestError
            known = ", ".join(sorted(aliases))
            raise ModelConfigError(
                f"unknown model {name!r}: not an alias (known: {known}) and not a litellm model "
                "string (use provider/model, e.g. openai/gpt-4o or openai/my-model with "
                "--api-base)") from None
        spec = ModelSpec(name=name, litellm_model=name)
    if api_base:
        spec = ModelSpec(**{**asdict(spec), "api_base": api_base})
    if extra_params:
        spec = ModelSpec(**{**asdict(spec), "params": {**spec.params, **extra_params}})
    if spec.provider == REFERENCE_PROVIDER and spec.litellm_model.split("/", 1)[1] \
            not in REFERENCE_MODELS:
        raise ModelConfigError(f"alias {name!r} points to unknown reference model "
                               f"{spec.litellm_model!r}")
    # Model arguments end up in run configs: refuse anything that looks like a secret.
    for key in spec.params:
        lowered = key.lower()
        if lowered.endswith("key") or lowered in ("token", "access_token", "authorization"):
            raise ModelConfigError(
                f"model argument {key!r} looks like a secret: pass API keys in environment "
                "variables, never on the command line or in models.toml")
    return spec


def api_key_for(spec: ModelSpec) -> str | None:
    """The key to call ``spec`` with, or ModelConfigError naming the variable to set.

    Called before any work starts. A custom ``--api-base`` (a local OpenAI-compatible server)
    may need no key at all, so a placeholder is used when the variable is unset.
    """
    if spec.is_reference or spec.api_key_env == "":
        return "EMPTY" if spec.provider == "openai" else None
    if spec.api_key_env:
        value = os.environ.get(spec.api_key_env)
        if value:
            return value
        if spec.api_base:
            return "EMPTY"
        raise ModelConfigError(f"model {spec.name!r} needs an API key: set the environment "
                               f"variable {spec.api_key_env} (export {spec.api_key_env}=...)")
    litellm = litellm_module()
    try:
        check = litellm.validate_environment(model=spec.litellm_model)
    except Exception:  # noqa: BLE001
        return None
    missing = [k for k in check.get("missing_keys", []) if k]
    if not missing:
        return None
    if spec.api_base:
        return "EMPTY"
    names = " and ".join(missing)
    raise ModelConfigError(f"model {spec.name!r} needs an API key: set the environment "
                           f"variable{'s' if len(missing) > 1 else ''} {names}")


# --------------------------------------------------------------------------------------------
# Completions and the response cache


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

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Completion":
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**known)


def cache_dir() -> Path:
    return home_dir() / "cache"


def request_key(model: str, api_base: str | None, messages: list[dict], settings: dict,
                round_index: int) -> str:
    """What identifies a call: the same key is never paid for twice.

    Credentials are not part of it (``credentials.redact``): a rotated or another key gets
    the same answers from the cache, while other headers keep their fingerprints."""
    payload = json.dumps({"model": model, "api_base": redact(api_base or ""),
                          "messages": messages, "settings": redact(settings),
                          "round": round_index},
                         sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class ResponseCache:
    """One JSON file per answered call under ``$T2W_HOME/cache/<2 hex>/<key>.json``.

    A file per entry keeps concurrent runs (and a killed run) safe: each entry is written
    atomically and nothing is ever rewritten in place.
    """

    def __init__(self, root: Path | None = None) -> None:
        self.root = root or cache_dir()

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> Completion | None:
        path = self._path(key)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return Completion.from_dict(data["completion"])
        except (OSError, ValueError, KeyError, TypeError):
            return None  # missing or unreadable entries are simply misses

    def put(self, key: str, completion: Completion, model: str, round_index: int) -> None:
        record = {"key": key, "model": model, "round": round_index, "created": time.time(),
                  "completion": completion.to_dict()}
        atomic_write_text(self._path(key), json.dumps(record, ensure_ascii=False))

    def entries(self):
        if not self.root.is_dir():
            return
        for path in sorted(self.root.glob("??/*.json")):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                data = {}
            yield path, data

    def stats(self) -> dict:
        by_model: dict[str, dict] = {}
        total_bytes = 0
        count = 0
        for path, data in self.entries():
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
        removed = 0
        if model is None:
            for path, _ in self.entries():
                path.unlink(missing_ok=True)
                removed += 1
            if self.root.is_dir():
                shutil.rmtree(self.root, ignore_errors=True)
            return removed
        for path, data in self.entries():
            if data.get("model") == model:
                path.unlink(missing_ok=True)
                removed += 1
        return removed


# --------------------------------------------------------------------------------------------
# The client


@dataclass
class RetryPolicy:
    max_retries: int = 5
    base_delay: float = 1.0
    max_delay: float = 30.0
    # A connection that cannot be made (refused, unknown host) is retried a few times quickly:
    # a server that is down does not come back within a back-off of seconds to minutes.
    connect_retries: int = 2
    connect_delay: float = 0.5

    def delay(self, attempt: int, error: BaseException | None = None) -> float:
        retry_after = _retry_after_seconds(error)
        if retry_after is not None:
            return min(retry_after, self.max_delay * 2)
        backoff = min(self.max_delay, self.base_delay * (2 ** (attempt - 1)))
        return backoff * random.uniform(0.75, 1.25)


def _retry_after_seconds(error: BaseException | None) -> float | None:
    response = getattr(error, "response", None)
    headers = getattr(response, "headers", None)
    if not headers:
        return None
    try:
        value = headers.get("retry-after")
        return float(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def _chain(error: BaseException) -> list[BaseException]:
    """The error and its causes, outermost first."""
    chain: list[BaseException] = []
    while error is not None and len(chain) < 16 and not any(error is e for e in chain):
        chain.append(error)
        error = error.__cause__ or error.__context__
    return chain


def _is_timeout(error: BaseException) -> bool:
    import httpx
    import openai

    litellm = litellm_module()
    return isinstance(error, (asyncio.TimeoutError, TimeoutError, litellm.Timeout,
                              openai.APITimeoutError, httpx.TimeoutException))


def connection_failure(error: BaseException) -> tuple[str, bool] | None:
    """(cause, established) when ``error`` is a failed connection, else None. ``cause`` is the
    innermost reason (``Connection refused``, ``Name or service not known``); ``established``
    is False when no connection could be made at all (refused, unknown host, unreachable)."""
    import socket

    import httpx
    import openai

    chain = _chain(error)
    if any(_is_timeout(e) for e in chain):
        return None
    connection_types: tuple[type, ...] = (ConnectionError, socket.gaierror, httpx.TransportError,
                                          openai.APIConnectionError)
    try:
        import aiohttp

        connection_types += (aiohttp.ClientConnectionError,)
    except ImportError:  # pragma: no cover - litellm ships aiohttp
        pass
    if not any(isinstance(e, connection_types) for e in chain):
        return None
    cannot_connect = (ConnectionRefusedError, socket.gaierror, httpx.ConnectError)
    established = not any(isinstance(e, cannot_connect)
                          or (isinstance(e, OSError) and e.errno in _UNREACHABLE)
                          for e in chain)
    innermost = chain[-1]
    if isinstance(innermost, OSError) and isinstance(innermost.errno, int) and \
            not isinstance(innermost, socket.gaierror):
        cause = os.strerror(innermost.errno)
    elif isinstance(innermost, OSError) and innermost.strerror:
        cause = innermost.strerror
    else:
        cause = str(innermost).strip() or type(innermost).__name__
    return cause[:300], established


_UNREACHABLE = {errno.ECONNREFUSED, errno.EHOSTUNREACH, errno.ENETUNREACH, errno.EADDRNOTAVAIL}


def classify_exception(error: BaseException) -> tuple[str, bool, bool]:
    """(kind, retryable, fatal) for an exception raised by a litellm call."""
    litellm = litellm_module()
    if any(_is_timeout(e) for e in _chain(error)):
        return "timeout", True, False
    # litellm reports a failed connection as an InternalServerError (HTTP 500): look at the
    # causes before the status code.
    if connection_failure(error) is not None:
        return "connection_error", True, False
    if isinstance(error, litellm.RateLimitError):
        return "rate_limit", True, False
    if isinstance(error, (litellm.AuthenticationError, litellm.PermissionDeniedError)):
        return "authentication", False, True
    if isinstance(error, litellm.NotFoundError):
        return "not_found", False, True
    if isinstance(error, litellm.ContextWindowExceededError):
        return "context_window", False, False
    if isinstance(error, litellm.BadRequestError):
        return "bad_request", False, False
    if isinstance(error, litellm.APIConnectionError):
        return "connection_error", True, False
    status = getattr(error, "status_code", None)
    if isinstance(status, int) and (status >= 500 or status in (408, 409, 425, 429)):
        return f"server_error_{status}", True, False
    if isinstance(error, (litellm.InternalServerError, litellm.ServiceUnavailableError,
                          litellm.BadGatewayError, litellm.APIError)):
        return "server_error", True, False
    if isinstance(error, (ConnectionError, OSError)):
        return "connection_error", True, False
    return type(error).__name__, False, False


UNREACHABLE_STOP = 3  # calls in a row that cannot connect stop the run (the server is gone)


class LLMClient:
    """Calls one model through ``litellm.acompletion`` with retries and the response cache."""

    def __init__(self, spec: ModelSpec, *, temperature: float | None = 0.0,
                 max_tokens: int | None = None, timeout: float = 600.0,
                 retry: RetryPolicy | None = None, cache: ResponseCache | None = None,
                 read_cache: bool = True, api_key: str | None = None) -> None:
        self.spec = spec
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.timeout = timeout
        self.retry = retry or RetryPolicy()
        # Reference models are free and offline: caching them would only fill the disk.
        self.cache = None if spec.is_reference else (cache or ResponseCache())
        self.read_cache = read_cache
        self._api_key = api_key if api_key is not None else api_key_for(spec)
        self.calls = 0  # requests actually sent (not cache hits)
        self.answered = 0  # requests that got an answer
        self.unreachable_calls = 0  # calls in a row that could not connect, retries included

    @property
    def settings(self) -> dict:
        """The generation settings: part of the cache key and of the run config (both in
        their redacted form, ``credentials.redact``)."""
        settings: dict[str, Any] = {}
        if self.temperature is not None:
            settings["temperature"] = self.temperature
        if self.max_tokens is not None:
            settings["max_tokens"] = self.max_tokens
        settings.update(self.spec.params)
        return settings

    @property
    def api_base_shown(self) -> str | None:
        """The api base as messages show it (no userinfo)."""
        return redact_text(self.spec.api_base) if self.spec.api_base else None

    def _secrets(self) -> tuple[str, ...]:
        """Values that must never appear in an error message."""
        secrets = [self._api_key or ""]
        if self.spec.api_base:
            _, user, password = split_userinfo(self.spec.api_base)
            secrets += [password or "", user or ""]
        for field_name in ("extra_headers", "headers"):
            headers = self.spec.params.get(field_name)
            if isinstance(headers, dict):
                secrets += [str(v) for v in headers.values()]
        return tuple(s for s in secrets if s and s != "EMPTY")

    def call_arguments(self) -> dict[str, Any]:
        """The arguments litellm is called with (besides model, messages, timeout): userinfo
        in the api base becomes HTTP Basic authentication, which litellm's HTTP client does
        not accept inside the URL next to an API key."""
        kwargs: dict[str, Any] = dict(self.settings)
        if self.spec.api_base:
            base, user, password = split_userinfo(self.spec.api_base)
            kwargs["api_base"] = base
            if user is not None or password is not None:
                headers = dict(kwargs.get("extra_headers") or {})
                if not any(name.lower() == "authorization" for name in headers):
                    token = base64.b64encode(f"{user or ''}:{password or ''}".encode()).decode()
                    headers["Authorization"] = f"Basic {token}"
                kwargs["extra_headers"] = headers
        if self._api_key:
            kwargs["api_key"] = self._api_key
        return kwargs

    async def complete(self, messages: list[dict], round_index: int = 0,
                       reference_context: dict | None = None) -> Completion:
        key = request_key(self.spec.litellm_model, self.spec.api_base, messages, self.settings,
                          round_index)
        if self.cache is not None and self.read_cache:
            hit = self.cache.get(key)
            if hit is not None:
                hit.cached = True
                return hit
        litellm = litellm_module()
        kwargs: dict[str, Any] = dict(model=self.spec.litellm_model, messages=messages,
                                      timeout=self.timeout, num_retries=0, max_retries=0,
                                      **self.call_arguments())
        if self.spec.is_reference:
            kwargs["metadata"] = {"t2w": {**(reference_context or {}), "round": round_index}}
        attempt = 0
        connect_failures = 0
        while True:
            attempt += 1
            started = time.monotonic()
            try:
                # litellm enforces the timeout for HTTP providers; this guard covers the rest.
                response = await asyncio.wait_for(litellm.acompletion(**kwargs),
                                                  timeout=self.timeout * 1.5 + 5)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 - litellm raises many classes
                kind, retryable, fatal = classify_exception(error)
                message = redact_text(_short_error(error), self._secrets())
                if fatal:
                    raise FatalModelError(f"{self.spec.name}: {kind}: {message}") from None
                failure = connection_failure(error) if kind == "connection_error" else None
                if failure is not None and not failure[1]:  # no connection could be made
                    connect_failures += 1
                    where = self.api_base_shown or _request_origin(error) or \
                        f"the {self.spec.provider or 'model'} API"
                    message = f"cannot connect to {where}: {failure[0]}"
                    if connect_failures <= self.retry.connect_retries:
                        await asyncio.sleep(self.retry.connect_delay * connect_failures)
                        continue
                    self.unreachable_calls += 1
                    # Nothing ever answered, or the server is gone: every further call would
                    # fail the same way, after its own retries.
                    if self.answered == 0 or self.unreachable_calls >= UNREACHABLE_STOP:
                        why = ("nothing answered" if self.answered == 0 else
                               f"{self.unreachable_calls} calls in a row could not connect")
                        raise FatalModelError(
                            f"{self.spec.name}: {kind}: {message} ({attempt} attempts; {why}: "
                            "is the server running, and is the api base right?)") from None
                    raise InfrastructureError(kind, message, attempt) from None
                if retryable and attempt <= self.retry.max_retries:
                    await asyncio.sleep(self.retry.delay(attempt, error))
                    continue
                raise InfrastructureError(kind, message, attempt) from None
            finally:
                self.calls += 1
            self.answered += 1
            self.unreachable_calls = 0
            completion = self._completion(response, time.monotonic() - started, attempt)
            if self.cache is not None:
                self.cache.put(key, completion, self.spec.litellm_model, round_index)
            return completion

    def _completion(self, response, latency: float, attempts: int) -> Completion:
        choice = response.choices[0]
        message = choice.message
        content = getattr(message, "content", None) or ""
        reasoning = getattr(message, "reasoning_content", None)
        usage = getattr(response, "usage", None)
        prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
        return Completion(content=content, reasoning=reasoning, prompt_tokens=prompt_tokens,
                          completion_tokens=completion_tokens,
                          cost=self._cost(response, prompt_tokens, completion_tokens),
                          latency=round(latency, 4), attempts=attempts,
                          finish_reason=getattr(choice, "finish_reason", None),
                          model=getattr(response, "model", None))

    def _cost(self, response, prompt_tokens: int, completion_tokens: int) -> float | None:
        spec = self.spec
        if spec.is_reference:
            return 0.0
        if spec.input_cost_per_mtok is not None or spec.output_cost_per_mtok is not None:
            return (prompt_tokens * (spec.input_cost_per_mtok or 0.0)
                    + completion_tokens * (spec.output_cost_per_mtok or 0.0)) / 1e6
        litellm = litellm_module()
        try:
            prompt_cost, completion_cost = litellm.cost_per_token(
                model=spec.litellm_model, prompt_tokens=prompt_tokens,
                completion_tokens=completion_tokens)
            return float(prompt_cost + completion_cost)
        except Exception:  # noqa: BLE001 - unknown model: price unknown
            return None


def _request_origin(error: BaseException) -> str | None:
    """scheme://host:port of the request that failed, when the error says."""
    for link in _chain(error):
        try:
            url = getattr(link, "request", None).url
            port = f":{url.port}" if url.port else ""
            return f"{url.scheme}://{url.host}{port}"
        except Exception:  # noqa: BLE001 - no request attached
            continue
    return None


def _short_error(error: BaseException) -> str:
    text = str(error).strip().replace("\n", " ") or type(error).__name__
    return text[:500]
