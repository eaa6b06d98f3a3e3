"""The problem-generation task (``t2w eval --task problem``): a PDDL problem from text."""
