"""Credentials in model settings: never written anywhere, never part of a run's identity.

A model can be given credentials three ways besides the API-key variable (which is never
stored): userinfo in ``--api-base`` (``http://user:KEY@host/v1``), HTTP headers in a model
argument (``--model-arg 'extra_headers={"Authorization": "Bearer ..."}'``), and secret-named
fields nested in a model argument (``extra_body={"api_key": ...}``).

``redact`` gives the form of a config or record that may be written or shown: URL userinfo
becomes ``***``, the values of credential headers and secret-named fields become ``***``, and
the values of other headers become a fingerprint (``sha256:`` + 12 hex digits of the value).
The same form is the run's identity and part of the response-cache key:

* a credential never changes a model's answer, so two keys (a rotated key, a colleague's key)
  give the same run and the same cache entries: nothing is paid twice, and resuming with a new
  key continues the run;
* any other header might (a routing header, a deployment name), so its fingerprint keeps runs
  and cache entries with different values apart, without writing the value.

A redacted config cannot make calls: resuming such a run needs the credentials again
(``needs_credentials``), from the same command line.

Redaction by value: every secret the process knows (``known_secrets``: the values of
environment variables named as secrets, ``*_KEY``, ``*_TOKEN``, ``*_SECRET`` and the like,
which covers litellm's provider keys; and each value given to ``remember_secret``: a key
passed in code, ``--api-base`` userinfo, the service's ``--token``) is masked in any text we
write (``redact_text``; ``mask_known_secrets`` for records), wherever it appears and
whatever a provider echoes of it: the whole value, a run of 8 or more of its characters, or
its first or last characters next to a provider's own mask (``sk-abc1****wxyz``).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

__all__ = [
    "MASK", "is_secret_name", "fingerprint", "split_userinfo", "remember_secret",
    "mask_secrets", "redact_text", "mask_known_secrets", "redact_streams", "redact",
    "needs_credentials", "lost_credentials_message",
]

MASK = "***"
FINGERPRINT = "sha256:"
HEADER_FIELDS = frozenset({"extra_headers", "headers", "default_headers"})
_SECRET_NAMES = frozenset({"authorization", "proxy_authorization", "cookie", "set_cookie",
                           "credentials", "auth"})
_SECRET_SUFFIXES = ("key", "token", "secret", "password", "passwd", "signature", "credential",
                    "credentials")
_URL_USERINFO = re.compile(
    r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.\-]*://)(?P<userinfo>[^/?#@\s\"'<>]+)@")
# An Authorization value quoted in an error message (tokens are long; prose words are not).
_AUTH_VALUE = re.compile(r"\b(?P<scheme>Bearer|Basic)\s+[A-Za-z0-9._~+/=\-]{16,}")


def is_secret_name(name: str) -> bool:
    """Whether a header or field of this name holds a credential (Authorization, X-API-Key,
    access_token, ...). ``max_tokens`` or ``api_key_env`` (a variable's name) are not.

    The one rule of the package: what ``redact`` masks (run files, cache keys, the API's run
    configs and summaries) and which model arguments are refused as secrets (``aliases``)."""
    normalized = str(name).strip().lower().replace("-", "_")
    return normalized in _SECRET_NAMES or normalized.endswith(_SECRET_SUFFIXES)


def fingerprint(value: Any) -> str:
    return FINGERPRINT + hashlib.sha256(str(value).encode("utf-8")).hexdigest()[:12]


def split_userinfo(url: str) -> tuple[str, str | None, str | None]:
    """(url without userinfo, user, password); user and password are None without userinfo."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url, None, None
    if "@" not in parts.netloc:
        return url, None, None
    userinfo, host = parts.netloc.rsplit("@", 1)
    user, _, password = userinfo.partition(":")
    return (urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment)),
            unquote(user), unquote(password) if password else None)


def redact_url(text: str) -> str:
    """Every URL's userinfo masked: ``http://user:KEY@host`` -> ``http://***@host``."""
    return _URL_USERINFO.sub(lambda m: m.group("scheme") + MASK + "@", text)


# Environment variables whose values are secrets: the suffixes litellm's provider table
# uses (OPENAI_API_KEY, HF_TOKEN, AZURE_CLIENT_SECRET, WATSONX_APIKEY, ...) and the service's
# own T2W_API_TOKEN.
_SECRET_VARIABLE_SUFFIXES = ("_KEY", "_TOKEN", "_SECRET", "_APIKEY", "_PASSWORD", "_PASSWD",
                             "_CREDENTIALS", "_PAT", "_AUTH")
MIN_SECRET_CHARS = 8  # shorter values ("EMPTY", "1") are placeholders, not secrets
_PLACEHOLDERS = frozenset({"EMPTY", "none", "None", "null", "dummy", "changeme"})
_remembered: set[str] = set()
# a run of key characters in text: what a provider echoes of a key, cut by its own mask
_KEY_RUN = re.compile(r"[A-Za-z0-9_\-+/]{4,}")
_PROVIDER_MASK = frozenset("*.\u2026")


def is_secret_variable(name: str) -> bool:
    """Whether an environment variable of this name holds a secret (its value is masked)."""
    return name.upper().endswith(_SECRET_VARIABLE_SUFFIXES)


def remember_secret(value: str | None) -> None:
    """Mask ``value`` in everything this process writes from now on."""
    if value and len(value) >= MIN_SECRET_CHARS and value not in _PLACEHOLDERS:
        _remembered.add(value)


def known_secrets(environ: Any = None) -> tuple[str, ...]:
    """Every secret this process knows: remembered values and secret-named variables'."""
    import os

    found = set(_remembered)
    for name, value in (os.environ if environ is None else environ).items():
        if (is_secret_variable(name) and len(value) >= MIN_SECRET_CHARS
                and value not in _PLACEHOLDERS and not value.isdigit()):
            found.add(value)
    return tuple(sorted(found, key=len, reverse=True))


def mask_secrets(text: str, secrets: tuple[str, ...]) -> str:
    """``text`` with each of ``secrets`` masked: whole, in runs of 8 or more of its
    characters, or by its first or last 4+ characters next to a provider's own mask."""
    if not secrets or not text:
        return text
    for secret in secrets:
        text = text.replace(secret, MASK)

    def masked(match: re.Match) -> str:
        run = match.group()
        before = text[match.start() - 1] if match.start() else ""
        after = text[match.end()] if match.end() < len(text) else ""
        beside_mask = before in _PROVIDER_MASK and before or after in _PROVIDER_MASK and after
        for secret in secrets:
            if len(run) >= MIN_SECRET_CHARS and run in secret:
                return MASK
            if beside_mask and (secret.startswith(run) or secret.endswith(run)):
                return MASK
        return run

    return _KEY_RUN.sub(masked, text)


def redact_text(text: str, secrets: tuple[str, ...] = ()) -> str:
    """Free text (an error message, a log line): URL userinfo, ``Bearer``/``Basic`` values,
    the given secret values and every secret the process knows (``known_secrets``) are
    masked."""
    text = redact_url(text)
    text = _AUTH_VALUE.sub(lambda m: m.group("scheme") + " " + MASK, text)
    given = tuple(s for s in secrets if s and len(s) >= 4)
    return mask_secrets(text, tuple(sorted(set(given) | set(known_secrets()), key=len,
                                           reverse=True)))


def mask_known_secrets(value: Any) -> Any:
    """A copy of a record (nested dicts, lists, strings) with every known secret masked in
    its strings, keys and structure kept: what run files and logs are written as."""
    secrets = known_secrets()
    if not secrets:
        return value

    def walk(item: Any) -> Any:
        if isinstance(item, str):
            return mask_secrets(item, secrets)
        if isinstance(item, dict):
            return {key: walk(child) for key, child in item.items()}
        if isinstance(item, (list, tuple)):
            return [walk(child) for child in item]
        return item

    return walk(value)


class RedactingStream:
    """A text stream (``sys.stderr``, ``sys.stdout``) that writes every known secret masked
    (``mask_secrets``, by value only: what a command prints is otherwise left as it is)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(mask_secrets(text, known_secrets()))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:  # flush, fileno, isatty, encoding, buffer...
        return getattr(self._stream, name)


def redact_streams() -> None:
    """From now on, standard output and standard error of this process mask every secret
    it knows (a command's messages, a library's warnings, a traceback)."""
    import sys

    if not isinstance(sys.stderr, RedactingStream) and sys.stderr is not None:
        sys.stderr = RedactingStream(sys.stderr)
    if not isinstance(sys.stdout, RedactingStream) and sys.stdout is not None:
        sys.stdout = RedactingStream(sys.stdout)


def _redact_headers(headers: dict) -> dict:
    return {name: (MASK if is_secret_name(name) else
                   value if isinstance(value, str) and (value == MASK
                                                        or value.startswith(FINGERPRINT))
                   else fingerprint(value))
            for name, value in headers.items()}


def redact(value: Any, max_depth: int | None = None) -> Any:
    """A copy of a config, settings or record that holds no credential (see the module).

    ``max_depth``: values nested deeper are dropped (None), for data read from files that may
    nest without bound (the API's run configs and summaries)."""
    return _redact(value, max_depth)


def _redact(value: Any, depth: int | None) -> Any:
    if depth is not None:
        if depth < 0:
            return None
        depth -= 1
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, dict):
        result: dict[Any, Any] = {}
        for key, item in value.items():
            if key in HEADER_FIELDS and isinstance(item, dict):
                result[key] = _redact_headers(item)
            elif is_secret_name(key) and item not in (None, "", MASK):
                result[key] = MASK
            else:
                result[key] = _redact(item, depth)
        return result
    if isinstance(value, (list, tuple)):
        return [_redact(item, depth) for item in value]
    return value


def needs_credentials(value: Any) -> list[str]:
    """Where a redacted config lost what a call needs: the paths of masked values."""
    found: list[str] = []

    def walk(item: Any, path: str) -> None:
        if isinstance(item, str):
            if item == MASK or item.startswith(FINGERPRINT) or f"://{MASK}@" in item:
                found.append(path)
        elif isinstance(item, dict):
            for key, child in item.items():
                walk(child, f"{path}.{key}" if path else str(key))
        elif isinstance(item, (list, tuple)):
            for index, child in enumerate(item):
                walk(child, f"{path}[{index}]")

    walk(value, "")
    return found


def lost_credentials_message(api_base: str | None, model_args: dict, command: str,
                             resume: object | None) -> str | None:
    """Why a resumed run cannot call its model: its config had credentials redacted, and they
    were not given again (None when nothing is missing). ``command`` is what the user types."""
    lost = needs_credentials({"api_base": api_base, "model_args": model_args})
    if not lost:
        return None
    return (f"the run {resume or ''} was made with credentials, which are never written to disk "
            f"({', '.join(lost)}); give them again: {command} --resume {resume or 'RUN'} "
            + ("--api-base URL " if "api_base" in lost else "")
            + ("--model-arg KEY=VALUE" if any(p.startswith("model_args") for p in lost) else "")
            + " (or run the original command again)")
