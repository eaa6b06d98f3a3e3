"""text2world: benchmark LLMs on writing PDDL world models from natural language."""
