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
"""

from __future__ import annotations

import hashlib
import re
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

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
    access_token, ...). ``max_tokens`` or ``api_key_env`` (a variable's name) are not."""
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


def redact_text(text: str, secrets: tuple[str, ...] = ()) -> str:
    """Free text (an error message): URL userinfo, ``Bearer``/``Basic`` values and the given
    secret values are masked."""
    text = redact_url(text)
    text = _AUTH_VALUE.sub(lambda m: m.group("scheme") + " " + MASK, text)
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, MASK)
    return text


def _redact_headers(headers: dict) -> dict:
    return {name: (MASK if is_secret_name(name) else
                   value if isinstance(value, str) and (value == MASK
                                                        or value.startswith(FINGERPRINT))
                   else fingerprint(value))
            for name, value in headers.items()}


def redact(value: Any) -> Any:
    """A copy of a config, settings or record that holds no credential (see the module)."""
    if isinstance(value, str):
        return redact_url(value)
    if isinstance(value, dict):
        result: dict = {}
        for key, item in value.items():
            if key in HEADER_FIELDS and isinstance(item, dict):
                result[key] = _redact_headers(item)
            elif is_secret_name(key) and item not in (None, "", MASK):
                result[key] = MASK
            else:
                result[key] = redact(item)
        return result
    if isinstance(value, (list, tuple)):
        return [redact(item) for item in value]
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
