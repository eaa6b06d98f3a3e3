"""The run engine: the run store (config, item log, paid ledger, summary) and the scoring pool."""
