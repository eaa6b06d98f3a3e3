"""The problem-generation task (``t2w eval --task problem``): a PDDL problem from text."""

__all__ = ["descriptions", "feedback", "intervals", "page", "prompts", "records", "reference",
           "summary", "task"]
