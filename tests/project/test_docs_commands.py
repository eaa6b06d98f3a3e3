"""Every shell command that README.md and docs/**/*.md show is run here, as a new user would run it.

Collected: every fenced block tagged ``bash``, ``sh``, ``shell`` or ``console``. The directives, each an
HTML comment on its own line directly above the block (several may be stacked, in any order):

- ``<!-- docs-test: skip REASON -->``: not run (it needs an API key, a server left running, the
  network, ../shared, ...). REASON must be said: a skip without one fails.
- ``<!-- docs-test: expect TEXT -->``: TEXT must appear in the block's output (stdout and stderr),
  runs of white space counted as one space (a table title wrapped at 80 columns still matches).
- ``<!-- docs-test: slow REASON -->``: the block runs, but its page's test is marked ``slow``
  (``pytest -m "not slow"`` leaves it out; CI runs it).
- ``<!-- docs-test: run -->`` above a ``python`` block: it is run too, with ``python``, as the
  shell blocks are (a library example that defines everything it uses).

Every other block is run with ``bash -e``: the blocks of one page in order, each in its own shell, in one
fresh working folder with an empty ``HOME``, a fresh ``T2W_HOME`` and ``T2W_RUNS_DIR=./runs``, offline (no
proxy, no API key, litellm's bundled cost map, Hugging Face offline), at ``COLUMNS=80``, and must exit 0
and print no line wider than 80 characters (a line holding one path alone may be longer: a run's folder).
Then the whole site as a reader follows it (``test_docs_in_reading_order``): the README and every page in
mkdocs.yml's nav order, all in ONE folder and home, so a page's runs must not clash with an earlier
page's (name them so; a glob must match one run). In a
``console`` block only lines starting with ``$ `` are commands (the prompt is stripped; a command line
ending in ``\\`` continues on the next line); the other lines are output and are not run.

``pip install ...`` is not run (it would reinstall the package under test): a ``pip`` shell function
checks instead that each extra it names (``-e ".[test,docs]"``, ``text2world[mcp]``) exists in
pyproject.toml's ``[project.optional-dependencies]`` and that it installs this project, then returns 0.

Besides: every fence carries a language (a command cannot hide in an untagged block), every page of
docs/ is in mkdocs.yml's nav, the strict docs build is wired into .ci/run and the README stays one page.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from new_user import MAX_COLUMNS, new_user_environment, wide_lines
from repo_paths import REPO

DOCS = REPO / "docs"
SHELL_LANGUAGES = {"bash", "sh", "shell", "console"}
# Pages other engineers are writing; mkdocs.yml lists them in a comment until they exist.
BLOCK_TIMEOUT_S = 900
README_MAX_LINES = 150
_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
_DIRECTIVE = re.compile(r"^\s*<!--\s*docs-test:\s*(\w+)\s*(.*?)\s*-->\s*$")
_DIRECTIVES = {"skip", "expect", "slow", "run"}


class DocsFormatError(Exception):
    """A page's fences or docs-test directives are malformed (said with the page and line)."""


@dataclass
class Block:
    page: str
    line: int  # 1-based line of the opening fence
    language: str
    text: str
    skip: str | None = None
    slow: str | None = None
    expect: list[str] = field(default_factory=list)

    def script(self) -> str:
        """The commands to run: the block itself, or a console block's ``$ `` lines without the prompt."""
        if self.language == "python":
            return f"python - <<'DOCS_TEST_PYTHON'\n{self.text}DOCS_TEST_PYTHON\n"
        if self.language != "console":
            return self.text
        commands: list[str] = []
        continued = False
        for line in self.text.splitlines():
            if continued:
                commands.append(line)
            elif line.startswith("$ "):
                commands.append(line[2:])
            else:
                continue
            continued = line.rstrip().endswith("\\")
        return "\n".join(commands) + "\n"


def pages() -> list[Path]:
    found = [REPO / "README.md"]
    if DOCS.is_dir():
        found += sorted(DOCS.rglob("*.md"))
    return found


def page_name(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


def parse_blocks(path: Path, name: str | None = None) -> tuple[list[Block], list[str]]:
    """The page's shell blocks with their directives, and its format errors (untagged fences, bad directives)."""
    name = name or page_name(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    errors: list[str] = []
    pending: list[tuple[int, str, str]] = []  # directives seen directly above the next fence
    index = 0
    while index < len(lines):
        line = lines[index]
        directive = _DIRECTIVE.match(line)
        if directive:
            pending.append((index + 1, directive.group(1), directive.group(2)))
            index += 1
            continue
        fence = _FENCE.match(line)
        if not fence:
            if pending and line.strip():
                errors.append(f"{name}:{pending[0][0]}: a docs-test directive must be directly above a fenced block")
                pending = []
            index += 1
            continue
        indent, marker, language = fence.groups()
        start = index + 1
        body: list[str] = []
        index += 1
        while index < len(lines) and not lines[index].strip().startswith(marker):
            body.append(lines[index][len(indent):] if lines[index].startswith(indent) else lines[index])
            index += 1
        index += 1  # the closing fence
        if not language:
            errors.append(f"{name}:{start}: a fenced block without a language (tag it: bash, console, text, ...)")
        block = Block(name, start, language.lower(), "\n".join(body) + "\n")
        run = any(kind == "run" for _, kind, _ in pending)
        for at, kind, argument in pending:
            if kind not in _DIRECTIVES:
                errors.append(f"{name}:{at}: unknown docs-test directive {kind!r} (skip, expect, slow)")
            elif kind in ("skip", "slow") and not argument:
                errors.append(f"{name}:{at}: 'docs-test: {kind}' needs a reason")
            elif kind == "expect" and not argument:
                errors.append(f"{name}:{at}: 'docs-test: expect' needs the text to expect")
            elif kind == "run" and block.language != "python":
                errors.append(f"{name}:{at}: 'docs-test: run' applies to python blocks (shell blocks always run)")
            elif kind == "run":
                pass
            elif kind == "skip":
                block.skip = argument
            elif kind == "slow":
                block.slow = argument
            else:
                block.expect.append(argument)
        if pending and block.language not in SHELL_LANGUAGES and not run:
            errors.append(f"{name}:{pending[0][0]}: docs-test directives apply to shell blocks "
                          "(and python blocks marked 'run')")
        pending = []
        if block.language in SHELL_LANGUAGES or (run and block.language == "python"):
            blocks.append(block)
    if pending:
        errors.append(f"{name}:{pending[0][0]}: a docs-test directive at the end of the page, above no block")
    return blocks, errors


def _page_params() -> list:
    params = []
    for path in pages():
        blocks, _ = parse_blocks(path)
        slow = any(block.slow and not block.skip for block in blocks)
        params.append(pytest.param(path, id=page_name(path), marks=[pytest.mark.slow] if slow else []))
    return params


# Stands in for pip in the blocks: checks the extras a `pip install` names, installs nothing.
_PIP_CHECK = r'''
import re, sys, tomllib
pyproject, args = sys.argv[1], sys.argv[2:]
if not args or args[0] != "install":
    sys.exit(f"docs test: only 'pip install' may appear in the docs, not 'pip {' '.join(args)}'")
with open(pyproject, "rb") as file:
    project = tomllib.load(file)["project"]
extras = set(project.get("optional-dependencies", {}))
targets = [a for a in args[1:] if not a.startswith("-")]
if not targets:
    sys.exit("docs test: 'pip install' names nothing to install")
for target in targets:
    match = re.fullmatch(r"(\.|text2world)(?:\[([\w,\s-]*)\])?", target.strip("'\""))
    if not match:
        sys.exit(f"docs test: 'pip install {target}' does not install this project")
    for extra in filter(None, (e.strip() for e in (match.group(2) or "").split(","))):
        if extra not in extras:
            sys.exit(f"docs test: pyproject.toml has no extra {extra!r} (it has {sorted(extras)})")
'''


def _pip_checker(folder: Path) -> Path:
    checker = folder / "pip_check.py"
    checker.write_text(_PIP_CHECK, encoding="utf-8")
    return checker


def _run_block(block: Block, work: Path, env: dict[str, str], checker: Path) -> tuple[int, str]:
    check = " ".join(shlex.quote(part) for part in (sys.executable, str(checker), str(REPO / "pyproject.toml")))
    preamble = f'pip() {{ {check} "$@"; }}\npip3() {{ pip "$@"; }}\n'

    script = preamble + block.script()
    try:
        done = subprocess.run(["bash", "-e", "-c", script], cwd=work, env=env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=BLOCK_TIMEOUT_S)
    except subprocess.TimeoutExpired as stopped:
        output = stopped.stdout if isinstance(stopped.stdout, str) else (stopped.stdout or b"").decode()
        return -1, output + f"\n(stopped after {BLOCK_TIMEOUT_S} s)"
    return done.returncode, done.stdout


def _check_block(block: Block, code: int, output: str) -> None:
    """A block passes when it exits 0, prints what it expects and no line wider than 80 columns."""
    assert code == 0, _failure(block, f"exit code {code}", output)
    flowing = " ".join(output.split())
    for text in block.expect:
        assert " ".join(text.split()) in flowing, _failure(block, f"the output does not contain {text!r}", output)
    wide = wide_lines(output)
    assert not wide, _failure(block, f"{len(wide)} output lines wider than {MAX_COLUMNS} columns:\n"
                              + "\n".join(wide), output)


def _failure(block: Block, reason: str, output: str) -> str:
    tail = "\n".join(output.splitlines()[-40:])
    return f"{block.page}, block at line {block.line}: {reason}\n--- block ---\n{block.script()}--- output ---\n{tail}"


@pytest.fixture(scope="module")
def docs_seconds():
    """Seconds spent in the pages' blocks, printed at the end (pytest -s) to keep the docs test's CI time in view."""
    spent: list[float] = []
    yield spent
    if spent:
        print(f"\ndocs blocks: {len(spent)} pages in {sum(spent):.1f} s")


@pytest.mark.parametrize("path", _page_params())
def test_page_commands(path: Path, tmp_path: Path, docs_seconds: list[float]) -> None:
    """The page's shell blocks, in order, in one fresh working folder: each exits 0 and prints what it expects."""
    blocks, errors = parse_blocks(path)
    assert not errors, "\n".join(errors)
    runnable = [block for block in blocks if not block.skip]
    if not runnable:
        pytest.skip(f"{page_name(path)} has no runnable shell block")
    started = time.monotonic()
    _run_in_one_folder(runnable, tmp_path)
    docs_seconds.append(time.monotonic() - started)
    print(f"{page_name(path)}: {len(runnable)} blocks in {docs_seconds[-1]:.1f} s")


def _run_in_one_folder(blocks: list[Block], folder: Path) -> Path:
    """The blocks in order, each in its own shell, in ``folder/work`` with one new user's home;
    each must pass ``_check_block``. Returns the working folder."""
    home, work = folder / "home", folder / "work"
    home.mkdir()
    work.mkdir()
    checker = _pip_checker(folder)
    env = new_user_environment(home, work)
    for block in blocks:
        block_started = time.monotonic()
        code, output = _run_block(block, work, env, checker)
        print(f"{block.page}:{block.line}: exit {code} in {time.monotonic() - block_started:.1f} s")
        _check_block(block, code, output)
    return work


def reading_order() -> list[Path]:
    """The README, then every docs page in mkdocs.yml's nav order: the order a reader follows them."""
    return [REPO / "README.md"] + [DOCS / page for page in _nav_order(_mkdocs_config().get("nav", []))]


def _nav_order(node: object) -> list[str]:
    if isinstance(node, str):
        return [node] if node.endswith(".md") else []
    if isinstance(node, list):
        return [page for item in node for page in _nav_order(item)]
    if isinstance(node, dict):
        return [page for value in node.values() for page in _nav_order(value)]
    return []


@pytest.mark.slow
def test_docs_in_reading_order(tmp_path: Path) -> None:
    """The README and every page in the site's order, block by block, in ONE folder with one home, as a
    reader follows them: a page's runs must not clash with an earlier page's, nor its globs match two runs."""
    blocks = []
    for path in reading_order():
        page_blocks, errors = parse_blocks(path)
        assert not errors, "\n".join(errors)
        blocks += [block for block in page_blocks if not block.skip]
    started = time.monotonic()
    work = _run_in_one_folder(blocks, tmp_path)
    print(f"\ndocs in reading order: {len(blocks)} blocks in {time.monotonic() - started:.1f} s")
    site = _mkdocs_config().get("site_dir", "site")
    assert not (work / site).exists(), \
        f"a docs command wrote into {site}/, the folder `mkdocs build` replaces with the documentation"


def test_curl_calls_the_port_t2w_listens_on() -> None:
    """A ``curl`` at this machine in a shell block (run or skipped) names ``t2w serve``'s port or
    ``t2w view``'s, or a port the block chose (``$port``): never 8000, vLLM's (rewards.md did)."""
    from text2world.cli.serve import SERVE_PORT
    from text2world.cli.view import VIEW_PORT

    wrong = []
    for path in pages():
        blocks, _ = parse_blocks(path)
        for block in blocks:
            for line in block.script().splitlines():
                if "curl" not in line:
                    continue
                for port in re.findall(r"(?:localhost|127\.0\.0\.1):(\d+)", line):
                    if int(port) not in (SERVE_PORT, VIEW_PORT):
                        wrong.append(f"{block.page}:{block.line}: {line.strip()}")
    assert not wrong, f"curl to a port neither t2w serve ({SERVE_PORT}) nor t2w view listens on:\n" \
        + "\n".join(wrong)


def test_wide_lines_are_found() -> None:
    """Counted in characters; a path alone on its line is let through, a path inside a sentence is not."""
    path = "runs/" + "reference-noisy-oracle__" * 4
    prose = "a line of prose " * 6
    output = "\n".join(["é" * 80, path, "  " + path, f"({path}):", "run: " + path, prose, "é" * 81 + " é"])
    assert wide_lines(output) == ["run: " + path, prose, "é" * 81 + " é"]


def test_pip_check_refuses_an_unknown_extra(tmp_path: Path) -> None:
    """The stand-in for pip fails on an extra pyproject.toml does not define, so a stale install line fails."""
    checker = _pip_checker(tmp_path)
    block = Block("example.md", 1, "bash", 'pip install -e ".[no-such-extra]"\n')
    code, output = _run_block(block, tmp_path, new_user_environment(tmp_path / "home", tmp_path), checker)
    assert code != 0 and "no extra 'no-such-extra'" in output
    block = Block("example.md", 1, "bash", 'pip install -e ".[test]" && echo checked\n')
    code, output = _run_block(block, tmp_path, new_user_environment(tmp_path / "home", tmp_path), checker)
    assert code == 0 and "checked" in output


def test_directives_are_parsed(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "<!-- docs-test: skip needs an API key -->\n```bash\nt2w eval --model gpt-4o\n```\n\n"
        "<!-- docs-test: expect hello -->\n<!-- docs-test: slow the whole store -->\n"
        "```console\n$ echo hello \\\n  world\nhello world\n$ true\n```\n\n"
        "<!-- docs-test: skip -->\n```sh\nfalse\n```\n\n```\nuntagged\n```\n", encoding="utf-8")
    blocks, errors = parse_blocks(page, "page.md")
    assert [block.line for block in blocks] == [2, 8, 16]
    assert blocks[0].skip == "needs an API key"
    assert blocks[1].expect == ["hello"] and blocks[1].slow == "the whole store"
    assert blocks[1].script() == "echo hello \\\n  world\ntrue\n"
    assert any("needs a reason" in error for error in errors)
    assert any("without a language" in error for error in errors)


def test_python_blocks_marked_run_are_run(tmp_path: Path) -> None:
    """A python block marked ``run`` is collected and run with python (an unmarked one is not), and an
    error in it fails the block; ``run`` above a shell block is a format error."""
    page = tmp_path / "page.md"
    page.write_text(
        "<!-- docs-test: run -->\n```python\nx = 6 * 7\nprint('answer', x)\n```\n\n"
        "```python\nnot run\n```\n\n<!-- docs-test: run -->\n```python\nprint(undefined_name)\n```\n\n"
        "<!-- docs-test: run -->\n```bash\ntrue\n```\n", encoding="utf-8")
    blocks, errors = parse_blocks(page, "page.md")
    assert [block.line for block in blocks] == [2, 12, 17]
    assert errors == ["page.md:16: 'docs-test: run' applies to python blocks (shell blocks always run)"]
    checker = _pip_checker(tmp_path)
    env = new_user_environment(tmp_path / "home", tmp_path)
    code, output = _run_block(blocks[0], tmp_path, env, checker)
    assert code == 0 and "answer 42" in output
    code, output = _run_block(blocks[1], tmp_path, env, checker)
    assert code != 0 and "NameError" in output


def _mkdocs_config() -> dict:
    yaml = pytest.importorskip("yaml", reason="PyYAML (installed with mkdocs: the docs extra) reads mkdocs.yml")

    class _Loader(yaml.SafeLoader):
        pass

    # mkdocs.yml may hold Python tags (pymdownx's emoji functions); their values do not matter here.
    _Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    return yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)


def test_every_docs_page_is_in_the_nav() -> None:
    config = _mkdocs_config()
    in_nav = set(_nav_order(config.get("nav", [])))
    on_disk = {path.relative_to(DOCS).as_posix() for path in DOCS.rglob("*.md")}
    missing = sorted(on_disk - in_nav)
    assert not missing, f"docs pages not in mkdocs.yml's nav: {missing}"
    dangling = sorted(in_nav - on_disk)
    assert not dangling, f"mkdocs.yml's nav names pages that do not exist: {dangling}"


def test_docs_build_offline_and_strict_in_ci() -> None:
    config = _mkdocs_config()
    theme = config.get("theme", {})
    assert theme.get("name") == "material" and theme.get("font") is False, \
        "Material with font: false (no font fetched from Google at build or view time)"
    plugins = [next(iter(p)) if isinstance(p, dict) else p for p in config.get("plugins", [])]
    assert not {"social", "privacy", "material/social", "material/privacy"} & set(plugins), \
        "the social and privacy plugins download at build time"
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"mkdocs build --strict", ci), ".ci/run must build the docs with --strict"
    assert re.search(r'pip install[^\n]*\.\[[^\]]*docs', ci), ".ci/run must install the docs extra"
    extras = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert any(requirement.startswith("mkdocs-material") for requirement in extras["docs"])


def test_readme_is_one_page() -> None:
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines; the rest belongs under docs/"
    long = [number for number, line in enumerate(lines, 1) if len(line) > 200]
    assert not long, f"README.md lines over 200 characters: {long}"
    blocks, _ = parse_blocks(REPO / "README.md")
    setup = [block for block in blocks if "pip install" in block.text]
    assert [block.script().strip() for block in setup] == [
        "pip install -e . && t2w eval --model reference/noisy-oracle --ec 3",
        'pip install -e ".[test]" && pytest -q',
    ], "the README gives exactly two set-up commands: the main job, then the tests"
