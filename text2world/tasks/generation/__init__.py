"""The Text2World generation task: generate, extract, validate, correct and score, up to EC_k."""
