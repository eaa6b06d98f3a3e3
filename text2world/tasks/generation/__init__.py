"""The Text2World generation task: generate, extract, validate, correct and score, up to EC_k.

Modules: ``task`` (the task on the engine, ``evaluate``, ``plan``), ``prompts`` (templates
and round messages), ``scoring`` (one round's extraction, validation and scores),
``summary`` (EC_k means per mode, error categories, per-item cells), ``rescore``
(``t2w score-run``), ``page`` (the viewer's run page)."""

__all__ = ["agent", "exemplars", "feedback", "intervals", "kind", "page", "prompts", "records",
           "rescore", "scoring", "summary", "task"]
