"""A problem run's intervals resample whole domains: a domain's problems share its predicates
and its description's wording, so they are not independent draws."""

from __future__ import annotations

from text2world.tasks.problem.intervals import floor_intervals, round_intervals


def _items(per_domain: dict[str, list[float]], epochs: int = 1) -> list[dict]:
    items = []
    for domain, values in per_domain.items():
        for index, value in enumerate(values):
            for epoch in range(epochs):
                items.append({"item": f"{domain}/p{index}", "domain": domain, "epoch": epoch,
                              "ec": {"equivalent": [value]},
                              "floors": {"empty-goal": {"equivalent": False}}})
    return items


def test_rounds_resample_domains_not_items():
    # five domains, six problems each, a domain all right or all wrong
    items = _items({f"d{k}": [float(k % 2)] * 6 for k in range(5)})
    interval = round_intervals(items, 1)[0]["equivalent"]
    assert interval["method"] == "domains" and interval["clusters"] == 5 and interval["n"] == 30
    assert interval["mean"] == 0.4
    # 30 independent items would give about +-0.18; five domains give about +-0.4
    assert interval["high"] - interval["low"] >= 0.6


def test_epochs_stay_within_their_item_and_floors_cluster_too():
    items = _items({"a": [1.0, 0.0], "b": [1.0, 1.0], "c": [0.0, 0.0]}, epochs=2)
    interval = round_intervals(items, 1)[0]["equivalent"]
    assert (interval["method"], interval["clusters"], interval["n"]) == ("domains+epochs", 3, 6)
    floor = floor_intervals(items)["empty-goal"]["equivalent"]
    assert floor["mean"] == 0.0 and floor["clusters"] == 3


def test_one_domain_resamples_its_items():
    interval = round_intervals(_items({"a": [1.0, 0.0, 1.0, 1.0]}), 1)[0]["equivalent"]
    assert interval["method"] == "items" and interval["clusters"] == 4
