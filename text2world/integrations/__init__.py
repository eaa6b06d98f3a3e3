"""Bridges to other ecosystems: the MCP server for agents (``mcp_server``), Inspect tasks
(``inspect_tasks``) and the Hugging Face dataset folder (``hf_export``)."""

# The modules callers use (from other packages, tests, bench/ and the docs); the rest are
# this package's own. Nothing is imported here: each module is imported where it is needed.
__all__ = [
    "mcp_server", "inspect_tasks", "inspect_engine", "inspect_generation", "inspect_wm",
    "inspect_import", "inspect_reference", "hf_export", "ray_batch", "ray_worlds",
]
