"""The default bounds of one request or tool call, shared by every surface of the service (the
REST API's settings, the MCP tools, the agent protocol's tools). A module of constants only:
``api.settings`` reads it at start-up without importing the jobs."""

DEFAULT_MAX_BODY = 1024 * 1024  # bytes of text one request or tool call may carry
DEFAULT_SCORE_TIMEOUT = 10.0  # seconds one job may run before it is stopped
