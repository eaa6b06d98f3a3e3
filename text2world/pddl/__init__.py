"""The PDDL layer: the domain model, input bounds, validation, extraction from answers, seeded perturbations."""
