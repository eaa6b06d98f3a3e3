"""Published result tables (``t2w report RUN --against paper``): the Text2World paper's tables
shipped with the package and any in ``$T2W_HOME/published/``."""

from __future__ import annotations

from fastapi import APIRouter

from text2world.api.dependencies import check_plain
from text2world.api.schemas import ERRORS
from text2world.errors import ApiError
from text2world.service.error_codes import api_error

router = APIRouter(prefix="/v1", tags=["published"])


@router.get("/published", summary="List the published tables")
def list_published() -> dict:
    """Every published table without its rows (name, family, title, source: paper, arXiv id,
    table; conditions, settings, metrics, the models it has rows for), and the families
    (``paper``: the table matching a run's description and prompt is chosen)."""
    from text2world.reports.published import PublishedError, published_index

    try:
        return published_index()
    except PublishedError as err:
        raise api_error(err) from None


@router.get("/published/{name}", responses=ERRORS, summary="One published table, every row")
def get_published(name: str) -> dict:
    """One table with its rows (``{model, paper_name?, setting, metric, value}``)."""
    from text2world.reports.published import PublishedError, load_table, table_names

    check_plain(name, "table")
    if name not in table_names():
        raise ApiError(404, "unknown_table", f"no published table {name!r} (GET /v1/published "
                                             "lists them)")
    try:
        table = load_table(name)
    except PublishedError as err:
        raise api_error(err) from None
    return {key: value for key, value in table.items() if key != "path"}
