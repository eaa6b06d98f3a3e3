"""Reports over finished runs: generation (Table 1), semantic, world-model, and what the viewer shows."""
