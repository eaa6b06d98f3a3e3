"""The datasets and their domains (read-only)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from text2world.api.dependencies import dataset_named, record_named
from text2world.api.schemas import ERRORS, DatasetList, DomainDetail, DomainPage
from text2world.store.datasets import BUILTIN, DatasetError, list_datasets, load_dataset

router = APIRouter(prefix="/v1", tags=["store"])


@router.get("/datasets", response_model=DatasetList, summary="List the datasets")
def list_all_datasets() -> dict:
    """The built-in store and the imported datasets, each with its number of domains and
    content hash (or why it cannot be read)."""
    found = []
    for entry in list_datasets():
        info = {"name": entry["name"], "kind": entry["kind"]}
        try:
            dataset = load_dataset(entry["name"])
            info.update(domains=len(dataset), content_hash=dataset.content_hash)
        except DatasetError as err:
            info["problem"] = str(err)
        found.append(info)
    return {"datasets": found}


@router.get("/domains", response_model=DomainPage, responses=ERRORS,
            summary="List a dataset's domains")
def list_domains(
    split: Literal["all", "train", "test"] = "all",
    dataset: str = BUILTIN,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> dict:
    """The domains of a dataset, a page at a time, optionally of one split; `next_offset`
    is null on the last page."""
    records = dataset_named(dataset).split(split)
    page = records[offset: offset + limit]
    return {"dataset": dataset, "split": split, "total": len(records), "offset": offset,
            "limit": limit,
            "next_offset": offset + limit if offset + limit < len(records) else None,
            "items": [{"id": r.id, "name": r.name, "split": r.split,
                       "has_abstract": r.abstract is not None,
                       "has_concrete": r.concrete is not None,
                       "problems": len(r.problems)} for r in page]}


@router.get("/domains/{domain_id}", response_model=DomainDetail, responses=ERRORS,
            summary="Get one domain")
def get_domain(domain_id: str, dataset: str = BUILTIN) -> dict:
    """One domain: gold PDDL, abstract and concrete descriptions, problems."""
    record = record_named(dataset, domain_id)
    return {"dataset": dataset, "id": record.id, "name": record.name, "split": record.split,
            "domain": record.domain, "abstract": record.abstract,
            "concrete": record.concrete,
            "problems": [{"name": p.name, "pddl": p.pddl} for p in record.problems]}
