"""Error codes: the one place that maps the library's errors to the REST API's, the MCP tools' and
the agent protocol's tools' error codes.

``ApiError`` (defined in ``text2world.errors``, re-exported here) is an error answered with a
code: the REST API's JSON ``{"error": {"code", "message", ...}}`` with an HTTP status
(``api.errors``), the MCP tools' ``code: message`` (``integrations.mcp_server``). ``api_error``
turns a library error into one, by the table below; the two surfaces differ only in where they
point a client (``Surface``: the REST endpoint or the MCP tool that lists the ids, the word for
retrying). A scoring process raises the ``ApiError`` itself (it is pickled back), so the
mapping runs wherever the error is met.

Imports no web framework: scoring processes, the MCP server and the agent's tools use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from text2world.errors import ApiError, PublishedError, ScoringTimeout, ScoringUnavailable


@dataclass(frozen=True)
class Surface:
    """Where a client is pointed, on one surface."""

    domains: str
    """What lists a dataset's domain ids."""
    datasets: str
    """Said after the known datasets ("" for nothing)."""
    retry: str
    """How to retry: "retry the request", "retry the call"."""
    timed_out: str
    """What took too long ("scoring", "the job")."""
    smaller: str
    """What to send instead ("domain", "input")."""
    retry_after: bool
    """Whether a 503 carries ``Retry-After`` (HTTP)."""


API = Surface(domains="GET /v1/domains", datasets=" (GET /v1/datasets)",
              retry="retry the request", timed_out="scoring", smaller="domain", retry_after=True)
MCP = Surface(domains="list_domains", datasets="", retry="retry the call",
              timed_out="the job", smaller="input", retry_after=False)


def api_error(err: BaseException, surface: Surface = API) -> ApiError:
    """The ``ApiError`` of a library error (an ``ApiError`` as it is). Anything the table does
    not know is re-raised: an unexpected error is a bug, answered as one (500)."""
    if isinstance(err, ApiError):
        return err
    # Scoring (met in scoring processes: nothing more is imported for them)
    from text2world.pddl.extract import NoDomainFound
    from text2world.pddl.model import DomainInputError
    from text2world.scoring.metrics import ScoringError

    if isinstance(err, NoDomainFound):
        return ApiError(422, "no_domain_found", f"response: {err}")
    if isinstance(err, ScoringError):
        return ApiError(422, "unscorable", f"the pair cannot be scored: {err}")
    from text2world.scoring.problem_answer import ProblemComparisonError

    if isinstance(err, ProblemComparisonError):  # the gold domain or problem of a problem answer
        return ApiError(422, "unscorable", f"the problem cannot be scored: {err}")
    if isinstance(err, DomainInputError):  # the gold: the prediction's are in the score
        return ApiError(422, "invalid_domain", f"gold domain: {err.message}")
    from text2world.simulation import ProblemError, UnsupportedFeature

    if isinstance(err, UnsupportedFeature):
        return ApiError(422, "unsupported", f"the simulator does not support this: {err.reason}")
    if isinstance(err, ProblemError):
        return ApiError(422, "invalid_problem", f"problem: {err.reason}")
    from text2world.batch_scoring import BatchInputError

    if isinstance(err, BatchInputError):  # an item of POST /v1/score/batch
        return ApiError(422, "invalid_item", str(err))
    # The store
    from text2world.store.datasets import DatasetUnavailable, UnknownDataset, UnknownDomain

    if isinstance(err, UnknownDataset):
        return ApiError(404, "unknown_dataset", f"{err}{surface.datasets}")
    if isinstance(err, DatasetUnavailable):
        return ApiError(503, "dataset_unavailable", str(err))
    if isinstance(err, UnknownDomain):
        return ApiError(404, "unknown_domain", f"{err} ({surface.domains} lists the ids)")
    # The scoring executor, the published tables
    if isinstance(err, ScoringTimeout):
        return ApiError(422, "scoring_timeout",
                        f"{surface.timed_out} took longer than the {err.seconds:g} s limit and "
                        f"was stopped; send a smaller or simpler {surface.smaller}",
                        timeout_seconds=err.seconds)
    if isinstance(err, ScoringUnavailable):
        retry: dict[str, Any] = ({"headers": {"Retry-After": "1"}, "retry_after": 1}
                                 if surface.retry_after else {})
        return ApiError(503, "scoring_unavailable", f"{err}; {surface.retry}", **retry)
    if isinstance(err, PublishedError):
        return ApiError(503, "published_unavailable", str(err))
    raise err
