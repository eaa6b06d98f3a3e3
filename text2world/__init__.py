"""text2world: benchmark LLMs on writing PDDL world models from natural language.

    from text2world import score, validate, extract_domain, load_dataset
"""

from text2world.pddl.extract import NoDomainFound, extract_domain
from text2world.pddl.model import Domain, DomainInputError, parse_domain
from text2world.pddl.validation import Issue, Validation, validate
from text2world.scoring.metrics import MODES, Score, ScoringError, score, score_answer
from text2world.scoring.semantic import SemanticScore, semantic_score
from text2world.store.datasets import Dataset, DatasetError, Record, load_dataset
from text2world.tasks import registry as _registry  # noqa: F401 - registers the run kinds
from text2world.tasks.contamination.overlap import Contamination, contamination_rate
from text2world.version import __version__ as __version__

__all__ = [
    "MODES", "Contamination", "Dataset", "DatasetError", "Domain", "DomainInputError", "Issue", "NoDomainFound",
    "Record", "Score", "ScoringError", "SemanticScore", "Validation", "contamination_rate",
    "extract_domain", "load_dataset", "score_answer", "semantic_score",
    "parse_domain", "score", "validate",
]
