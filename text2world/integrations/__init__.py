"""Bridges to other ecosystems: the MCP server for agents (``mcp_server``), Inspect tasks
(``inspect_tasks``) and the Hugging Face dataset folder (``hf_export``)."""
