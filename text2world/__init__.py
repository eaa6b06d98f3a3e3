"""text2world: benchmark LLMs on writing PDDL world models from natural language.

    from text2world import score, validate, extract_domain, load_dataset
"""

from .contamination import Contamination, contamination_rate
from .extract import NoDomainFound, extract_domain
from .metrics import MODES, Score, ScoringError, score, score_answer
from .pddl import Domain, DomainInputError, parse_domain
from .semantic import SemanticScore, semantic_score
from .store import Dataset, DatasetError, Record, load_dataset
from .validation import Issue, Validation, validate

__all__ = [
    "MODES", "Contamination", "Dataset", "DatasetError", "Domain", "DomainInputError", "Issue", "NoDomainFound",
    "Record", "Score", "ScoringError", "SemanticScore", "Validation", "contamination_rate",
    "extract_domain", "load_dataset", "score_answer", "semantic_score",
    "parse_domain", "score", "validate",
]
__version__ = "0.1.0"
