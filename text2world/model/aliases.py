"""Model aliases and litellm: ``--model`` (an alias or a litellm model string) resolved into a
``ModelSpec``, the key it needs, and litellm imported once, offline, with the reference
provider registered."""

from __future__ import annotations

import os
import tomllib
import warnings
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any

from text2world.errors import Text2WorldError
from text2world.files import home_dir
from text2world.model.credentials import is_secret_name
from text2world.model.environment import REFERENCE_MODELS, REFERENCE_PROVIDER, prepare_litellm_environment

__all__ = [
    "ModelConfigError", "litellm_module", "ModelSpec", "user_models_path",
    "load_model_aliases", "resolve_model", "api_key_for",
]


class ModelConfigError(Text2WorldError, ValueError):
    """An unknown model alias, a malformed models file or a missing API key."""



@lru_cache(maxsize=1)
def litellm_module() -> ModuleType:
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


def _configured_litellm() -> ModuleType:
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

    def to_config(self) -> dict[str, Any]:
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
        if is_secret_name(key):
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
