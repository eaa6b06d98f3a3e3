"""Model client over litellm: bounded retries, error classification (infrastructure errors
kept apart from fatal ones), the response cache and costs. Aliases and litellm's set-up:
``model.aliases``; the cache: ``model.cache``; the offline environment: ``model.environment``
(all re-exported here, where callers have always found them).
"""

from __future__ import annotations

import asyncio
import base64
import errno
import os
import random
import time
from dataclasses import dataclass
from typing import Any, Callable

from text2world.errors import Text2WorldError
from text2world.model.aliases import (
    ModelConfigError,
    ModelSpec,
    api_key_for,
    litellm_module,
    load_model_aliases,
    resolve_model,
    user_models_path,
)
from text2world.model.cache import Completion, ResponseCache, cache_dir, request_key
from text2world.model.credentials import is_secret_name, redact_text, remember_secret, split_userinfo
from text2world.model.environment import (
    REFERENCE_MODELS,
    REFERENCE_PROVIDER,
    SYSTEM_MESSAGE,
    prepare_litellm_environment,
)

__all__ = ["REFERENCE_MODELS", "REFERENCE_PROVIDER", "SYSTEM_MESSAGE", "Completion",
           "FatalModelError", "InfrastructureError", "LLMClient", "ModelConfigError",
           "ModelSpec", "ResponseCache", "RetryPolicy", "api_key_for", "cache_dir",
           "classify_exception", "connection_failure", "litellm_module", "load_model_aliases",
           "prepare_litellm_environment", "request_key", "resolve_model", "user_models_path"]


class InfrastructureError(Text2WorldError, RuntimeError):
    """A call that failed for reasons that are not the model's answer (rate limits, server
    errors, timeouts, bad requests), after the bounded retries."""

    def __init__(self, kind: str, message: str, attempts: int = 1) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.attempts = attempts

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message, "attempts": self.attempts}


class FatalModelError(Text2WorldError, RuntimeError):
    """An error that every further call would repeat (bad key, unknown model): stop the run."""



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
    link: BaseException | None = error
    while link is not None and len(chain) < 16 and not any(link is e for e in chain):
        chain.append(link)
        link = link.__cause__ or link.__context__
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
        remember_secret(self._api_key)  # masked in whatever this process writes
        if spec.api_base:
            remember_secret(split_userinfo(spec.api_base)[2])
        for field_name in ("extra_headers", "headers"):
            headers = spec.params.get(field_name)
            if isinstance(headers, dict):
                for name, value in headers.items():
                    if is_secret_name(name):
                        remember_secret(str(value).split()[-1] if str(value).strip() else None)
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
                       reference_context: dict | None = None, epoch: int = 0,
                       on_send: Callable[[int], None] | None = None,
                       tools: list[dict] | None = None) -> Completion:
        """The model's answer (or the cache's). ``on_send(attempt)`` runs before each request
        goes out (not for a cache hit): the run records it, so a kill in flight is counted.
        ``tools``: function definitions (OpenAI format) the model may call; part of the cache key
        only when given, so calls without tools keep their keys."""
        key_settings = {**self.settings, "tools": tools} if tools else self.settings
        key = request_key(self.spec.litellm_model, self.spec.api_base, messages, key_settings,
                          round_index, epoch)
        if self.cache is not None and self.read_cache:
            hit = self.cache.get(key)
            if hit is not None:
                hit.cached = True
                return hit
        if self.spec.is_reference:
            answered = self._reference_completion(messages, round_index, reference_context,
                                                  on_send)
            if answered is not None:
                return answered
        litellm = litellm_module()
        kwargs: dict[str, Any] = dict(model=self.spec.litellm_model, messages=messages,
                                      timeout=self.timeout, num_retries=0, max_retries=0,
                                      **self.call_arguments())
        if tools:
            kwargs["tools"] = tools
        if self.spec.is_reference:
            kwargs["metadata"] = {"t2w": {**(reference_context or {}), "round": round_index}}
        attempt = 0
        connect_failures = 0
        while True:
            attempt += 1
            started = time.monotonic()
            if on_send is not None:
                on_send(attempt)
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

    def _reference_completion(self, messages: list[dict], round_index: int,
                              reference_context: dict | None,
                              on_send: Callable[[int], None] | None) -> Completion | None:
        """A reference model's answer without litellm (``reference.reference_reply``, what its
        litellm provider replies), as ``_completion`` makes litellm's response; None for a call
        the model refuses or fails (made through litellm, which reports it as it always did)."""
        from text2world.model.reference import reference_reply

        model = self.spec.litellm_model.split("/", 1)[-1]
        started = time.monotonic()
        try:
            reply = reference_reply(model, messages,
                                    {**(reference_context or {}), "round": round_index})
        except Exception:  # noqa: BLE001 - litellm's path raises its own classes for them
            return None
        if on_send is not None:
            on_send(1)
        self.calls += 1
        self.answered += 1
        self.unreachable_calls = 0
        call = reply.tool_call
        return Completion(
            content=reply.text or "", reasoning=None, prompt_tokens=reply.prompt_tokens,
            completion_tokens=reply.completion_tokens, cost=0.0,
            latency=round(time.monotonic() - started, 4), attempts=1,
            finish_reason="tool_calls" if call else "stop",
            model=f"{REFERENCE_PROVIDER}/{model}",
            tool_calls=[{"id": call["id"], "name": call["function"]["name"],
                         "arguments": call["function"]["arguments"]}] if call else None)

    def _completion(self, response: Any, latency: float, attempts: int) -> Completion:
        choice = response.choices[0]
        message = choice.message
        content = getattr(message, "content", None) or ""
        reasoning = getattr(message, "reasoning_content", None)
        usage = getattr(response, "usage", None)
        prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
        calls = [{"id": getattr(call, "id", None) or f"call_{index}",
                  "name": getattr(call.function, "name", None) or "",
                  "arguments": getattr(call.function, "arguments", None) or "{}"}
                 for index, call in enumerate(getattr(message, "tool_calls", None) or [])]
        return Completion(content=content, reasoning=reasoning, prompt_tokens=prompt_tokens,
                          completion_tokens=completion_tokens,
                          cost=self._cost(response, prompt_tokens, completion_tokens),
                          latency=round(latency, 4), attempts=attempts,
                          finish_reason=getattr(choice, "finish_reason", None),
                          model=getattr(response, "model", None),
                          tool_calls=calls or None)

    def _cost(self, response: Any, prompt_tokens: int, completion_tokens: int) -> float | None:
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
            request: Any = getattr(link, "request", None)
            url = request.url  # AttributeError (caught) when there is none
            port = f":{url.port}" if url.port else ""
            return f"{url.scheme}://{url.host}{port}"
        except Exception:  # noqa: BLE001 - no request attached
            continue
    return None


def _short_error(error: BaseException) -> str:
    text = str(error).strip().replace("\n", " ") or type(error).__name__
    return text[:500]
