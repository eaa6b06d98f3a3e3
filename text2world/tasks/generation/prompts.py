"""The generation task's prompts: the built-in or user templates (generation and correction)
and the messages of each round, as in the released code."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from text2world.engine.run_store import text_hash
from text2world.errors import Text2WorldError
from text2world.files import InputFileError, read_input_text
from text2world.model.environment import SYSTEM_MESSAGE
from text2world.store.datasets import Record
from text2world.store.plans import problems_text

# prob2domain: the prompt of ``--description problems`` (its problems and plans, no description)
BUILTIN_PROMPTS = {"zero-shot": "zero-shot.txt", "few-shot": "few-shot.txt",
                   "prob2domain": "prob2domain.txt"}
PROBLEMS_PROMPT = "prob2domain"
CORRECTION_PROMPT = "correction.txt"
HISTORY_ROUNDS = 5  # earlier rounds shown in a correction prompt, as in the released code
DESCRIPTIONS = ("abstract", "concrete", "problems")  # what the model is given of a domain


class EvalError(Text2WorldError, ValueError):
    """Bad input to an evaluation (model, dataset, domains, template): a clear message."""


@dataclass(frozen=True)
class Template:
    name: str
    text: str

    @property
    def hash(self) -> str:
        return text_hash(self.text)


def load_template(name_or_path: str, required: tuple[str, ...], what: str) -> Template:
    """A built-in template by name, or a template file; it must hold ``required`` fields."""
    builtin = BUILTIN_PROMPTS.get(name_or_path) or (
        CORRECTION_PROMPT if name_or_path == "correction" else None)
    if builtin:
        text = resources.files("text2world").joinpath("prompts", builtin).read_text("utf-8")
        return Template(name_or_path, text)
    path = Path(name_or_path)
    if not path.exists():
        choices = ", ".join(BUILTIN_PROMPTS) if what == "prompt" else "a file"
        raise EvalError(f"{what} template {name_or_path!r}: no such file (built-in choices: "
                        f"{choices})")
    if path.is_dir():
        raise EvalError(f"{what} template {path}: is a folder, not a file")
    try:
        text = read_input_text(path, f"{what} template")
    except InputFileError as err:
        raise EvalError(str(err)) from None
    missing = [f"{{{name}}}" for name in required if f"{{{name}}}" not in text]
    if missing:
        raise EvalError(f"{what} template {path} lacks the placeholder(s) {', '.join(missing)}")
    return Template(str(path), text)


def prompt_for(description: str, prompt: str, mystery: bool = False) -> str:
    """The generation prompt of a description kind: ``problems`` (Prob2Domain) takes
    ``prob2domain`` (in place of the default zero-shot) or a template file; ``prob2domain``
    shows problems, so it takes no other kind."""
    if description == "problems":
        if mystery:  # the shipped plans are keyed by, and name, the original texts
            raise EvalError("--description problems shows the store's shipped plans, which "
                            "mystery worlds do not have: drop --mystery")
        if prompt == "zero-shot":
            return PROBLEMS_PROMPT
        if prompt in BUILTIN_PROMPTS and prompt != PROBLEMS_PROMPT:
            raise EvalError(f"--description problems takes the {PROBLEMS_PROMPT} prompt (the "
                            f"default) or a template file with {{description}}, not {prompt!r}")
    elif prompt == PROBLEMS_PROMPT:
        raise EvalError(f"--prompt {PROBLEMS_PROMPT} shows a domain's problems and plans: give "
                        "it with --description problems")
    return prompt


def _fill(template: str, values: dict[str, str]) -> str:
    # Plain replacement: PDDL and descriptions are full of braces that str.format would choke on.
    text = template
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return text


def description_text(record: Record, kind: str) -> str | None:
    """What the model is given of ``record``: its ``abstract`` or ``concrete`` description, or
    (``problems``: Prob2Domain) its problems with their shipped plans."""
    return problems_text(record) if kind == "problems" else record.description(kind)


def few_shot_examples(records: list[Record], description: str) -> str:
    parts = []
    for number, record in enumerate(records, 1):
        text = description_text(record, description) or record.abstract or ""
        parts.append(f"Example {number}:\n## Domain description\n{text.strip()}\n\n"
                     f"## PDDL domain\n```pddl\n{record.domain.strip()}\n```")
    return "\n\n".join(parts)


@dataclass(frozen=True)
class Prompts:
    generation: Template
    correction: Template
    examples: str = ""

    def generation_messages(self, description: str) -> list[dict]:
        prompt = _fill(self.generation.text, {"examples": self.examples,
                                               "description": description.strip()})
        return [{"role": "system", "content": SYSTEM_MESSAGE},
                {"role": "user", "content": prompt}]

    def correction_messages(self, history: list[tuple[str, str]], domain: str, error: str,
                            round_index: int) -> list[dict]:
        shown = history[-HISTORY_ROUNDS:]
        first = len(history) - len(shown) + 1
        blocks = [f"Round {first + i}\nDomain with errors:\n{d}\nError message:\n{e}\n"
                  for i, (d, e) in enumerate(shown)]
        history_text = ("Earlier attempts:\n\n" + "\n".join(blocks)) if blocks else ""
        prompt = _fill(self.correction.text, {"history": history_text, "domain": domain,
                                               "error": error, "round": str(round_index)})
        return [{"role": "system", "content": SYSTEM_MESSAGE},
                {"role": "user", "content": prompt}]
