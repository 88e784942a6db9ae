"""A model's recipe as a file: its inputs named by path or by hash, its steps in order.

A recipe (``dicecam/tools/train/recipes/*.toml``) says how a shipped model is made again:

    model = "die_reader"
    about = "stage 5 from stage 4, as shipped"

    [inputs.STAGE4]                      # a file from git history, checked by its hash
    git = "2285546"
    path = "dicecam/models/die_reader.onnx"
    sha256 = "879f3a87..."

    [[steps]]
    about = "stage 5"
    train = ["reader", "--init-onnx", "{STAGE4}", "--seed", "8"]

An input is a file of the repository at a commit (``git`` and ``path``: taken with ``git
show``) or a file at a path (``file``, relative to the repository); ``sha256`` is required
for the first and checked for both, so a recipe names exactly what it starts from. Each
step is one ``dicecam train`` command; ``{NAME}`` in its words is the input's file,
``{work}`` the folder the steps write their intermediate files to and ``{repository}``
the repository's root (where a step writes a shipped file). Each step's words are parsed
as ``dicecam`` parses them before anything runs, so a recipe naming a flag a trainer no
longer has is refused whole, not after an hour of its first step. ``dicecam train recipe
FILE`` runs it (``--dry-run``: resolve the inputs and print the commands).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import re
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path

from dicecam.cli import build_parser
from dicecam.errors import InputError

#: where the project's recipes are
RECIPES = Path(__file__).resolve().parent / "recipes"
#: the repository's root (inputs by ``file`` and ``git`` are relative to it)
REPOSITORY = Path(__file__).resolve().parents[3]

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_NAME = re.compile(r"^[A-Z][A-Z0-9_]*$")


@dataclass(frozen=True)
class Input:
    name: str
    sha256: str | None
    git: str | None = None  # a commit
    path: str | None = None  # the file's path at that commit
    file: str | None = None  # or a file at this path now

    def describe(self) -> str:
        return f"{self.git}:{self.path}" if self.git else str(self.file)


@dataclass(frozen=True)
class Step:
    about: str
    train: tuple[str, ...]


@dataclass(frozen=True)
class Recipe:
    source: Path
    model: str
    about: str
    inputs: tuple[Input, ...]
    steps: tuple[Step, ...]


def load_recipe(path: Path) -> Recipe:
    """The recipe in ``path`` (InputError naming what is wrong with it)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"cannot read the recipe {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path} is not a TOML file: {exc}") from None
    where = path.name
    for key in ("model", "about"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise InputError(f"{where}: `{key}` must be a text")
    inputs = []
    for name, spec in (data.get("inputs") or {}).items():
        if not _NAME.match(name):
            raise InputError(f"{where}: input {name!r} must be named in capitals (STAGE4)")
        if not isinstance(spec, dict):
            raise InputError(f"{where}: input {name} must be a table")
        unknown = set(spec) - {"git", "path", "file", "sha256"}
        if unknown:
            raise InputError(f"{where}: input {name} has unknown keys {sorted(unknown)}")
        by_git = "git" in spec or "path" in spec
        if by_git == ("file" in spec):
            raise InputError(f"{where}: input {name} is either `git` and `path` or `file`")
        if by_git and not ("git" in spec and "path" in spec and "sha256" in spec):
            raise InputError(f"{where}: input {name} from git history needs `git`, `path` "
                             "and `sha256`")
        sha = spec.get("sha256")
        if sha is not None and not re.fullmatch(r"[0-9a-f]{64}", str(sha)):
            raise InputError(f"{where}: input {name}'s sha256 must be 64 hex digits")
        inputs.append(Input(name, sha, spec.get("git"), spec.get("path"), spec.get("file")))
    steps = []
    for k, spec in enumerate(data.get("steps") or [], 1):
        train = spec.get("train") if isinstance(spec, dict) else None
        if not isinstance(train, list) or not train or not all(isinstance(w, str)
                                                               for w in train):
            raise InputError(f"{where}: step {k} needs `train`, a list of words")
        steps.append(Step(str(spec.get("about", "")), tuple(train)))
    if not steps:
        raise InputError(f"{where}: a recipe has at least one step")
    known = {i.name for i in inputs} | {"work", "repository"}
    for k, step in enumerate(steps, 1):
        for word in step.train:
            for name in _PLACEHOLDER.findall(word):
                if name not in known:
                    raise InputError(f"{where}: step {k} names {{{name}}}, which is no input")
    return Recipe(path, data["model"], data["about"], tuple(inputs), tuple(steps))


def resolve_input(spec: Input, work: Path, repository: Path = REPOSITORY) -> Path:
    """The input's file (taken from git history into ``work`` where it comes from there),
    its hash checked."""
    if spec.file is not None:
        path = (repository / spec.file).resolve()
        if not path.is_file():
            raise InputError(f"input {spec.name}: no file at {spec.file}")
        content = path.read_bytes()
    else:
        shown = subprocess.run(["git", "-C", str(repository), "show",
                                f"{spec.git}:{spec.path}"], capture_output=True, check=False)
        if shown.returncode:
            raise InputError(f"input {spec.name}: git has no {spec.git}:{spec.path} here "
                             f"({shown.stderr.decode(errors='replace').strip()}); a clone "
                             "with the project's whole history has it")
        content = shown.stdout
        path = work / "inputs" / f"{spec.name}{Path(spec.path).suffix}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
    digest = hashlib.sha256(content).hexdigest()
    if spec.sha256 is not None and digest != spec.sha256:
        raise InputError(f"input {spec.name} ({spec.describe()}) has sha256 {digest}, not "
                         f"the recipe's {spec.sha256}")
    return path


def commands(recipe: Recipe, files: dict[str, Path], work: Path) -> list[list[str]]:
    """Each step's ``dicecam train`` arguments, its placeholders filled in, each checked
    against the command's parser (InputError naming the step that does not parse)."""
    values = {name: str(path) for name, path in files.items()} | {
        "work": str(work), "repository": str(REPOSITORY)}
    argvs = [["train", *(_PLACEHOLDER.sub(lambda m: values[m.group(1)], word)
                         for word in step.train)] for step in recipe.steps]
    for k, argv in enumerate(argvs, 1):
        check_arguments(argv, f"{recipe.source.name}: step {k}")
    return argvs


def check_arguments(argv: list[str], where: str) -> None:
    """InputError where ``dicecam`` would refuse ``argv`` (argparse's own words kept)."""
    said = io.StringIO()
    try:
        with contextlib.redirect_stderr(said):
            build_parser(argv).parse_args(argv)
    except SystemExit:
        lines = [line for line in said.getvalue().splitlines() if line.strip()]
        raise InputError(f"{where} does not parse: {lines[-1] if lines else argv}") from None
