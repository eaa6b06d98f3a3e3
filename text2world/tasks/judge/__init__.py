"""``t2w judge``: the LLM-judge baseline of the paper (section 3.6), measured against our
semantic verdicts."""

__all__ = ["agreement", "kind", "page", "records", "task"]
