"""What every model call needs before litellm is imported: the reference models' names, the
system message, and the environment that keeps litellm offline. A leaf module (no text2world
imports), so that the reference models and the client both use it without an import cycle."""

from __future__ import annotations

import os

__all__ = [
    "REFERENCE_PROVIDER", "REFERENCE_MODELS", "REFERENCE_JUDGES", "SYSTEM_MESSAGE",
    "prepare_litellm_environment",
]

REFERENCE_PROVIDER = "reference"
REFERENCE_MODELS = ("oracle", "noisy-oracle", "judge-yes", "judge-random", "judge-oracle")
REFERENCE_JUDGES = ("judge-yes", "judge-random", "judge-oracle")  # answer only in t2w judge
SYSTEM_MESSAGE = "You are a helpful assistant."


def prepare_litellm_environment() -> None:
    """Keep litellm offline: call before anything imports it."""
    # Without these litellm downloads its model price list (at import) and Anthropic header
    # tables (at call time) from GitHub.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_LOCAL_ANTHROPIC_BETA_HEADERS", "True")
    os.environ.setdefault("LITELLM_LOCAL_BLOG_POSTS", "True")
    os.environ.setdefault("LITELLM_TELEMETRY", "False")
    os.environ.setdefault("LITELLM_LOG", "ERROR")

