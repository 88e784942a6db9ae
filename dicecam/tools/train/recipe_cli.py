"""``dicecam train recipe FILE``: make a model again from its recipe (``recipe.py``).

The inputs are resolved and checked first (a file from git history by its hash), then
each step runs as its own ``dicecam train`` process, in order, stopping at the first that
fails. ``--dry-run`` resolves the inputs and prints the commands without running them;
``--list`` names the project's recipes.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from dicecam.errors import InputError
from dicecam.tools.train.recipe import RECIPES, commands, load_recipe, resolve_input

HELP = "make a model again from its recipe (dicecam/tools/train/recipes/*.toml)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("recipe", nargs="?", type=Path,
                        help="a recipe file, or the name of one of the project's "
                             "(die_reader, detector, ...)")
    parser.add_argument("--work", type=Path, default=None,
                        help="the folder for the inputs and intermediate files (default: a "
                             "temporary one, removed after)")
    parser.add_argument("--dry-run", action="store_true",
                        help="resolve and check the inputs, print the commands, run nothing")
    parser.add_argument("--list", action="store_true", help="list the project's recipes")


def find_recipe(given: Path) -> Path:
    if given.is_file():
        return given
    named = RECIPES / f"{given.name.removesuffix('.toml')}.toml"
    if named.is_file():
        return named
    known = ", ".join(sorted(p.stem for p in RECIPES.glob("*.toml")))
    raise InputError(f"no recipe {given}: give a file or one of {known}")


def run(args: argparse.Namespace) -> int:
    if args.list:
        for path in sorted(RECIPES.glob("*.toml")):
            recipe = load_recipe(path)
            print(f"{path.stem}: {recipe.about}")
        return 0
    if args.recipe is None:
        raise InputError("name a recipe (--list shows the project's)")
    recipe = load_recipe(find_recipe(args.recipe))
    with tempfile.TemporaryDirectory(prefix="dicecam-recipe-") as temporary:
        work = (args.work or Path(temporary)).resolve()
        work.mkdir(parents=True, exist_ok=True)
        files = {spec.name: resolve_input(spec, work) for spec in recipe.inputs}
        for spec in recipe.inputs:
            print(f"input {spec.name}: {spec.describe()} -> {files[spec.name]} (sha256 checked)"
                  if spec.sha256 else f"input {spec.name}: {files[spec.name]}")
        steps = commands(recipe, files, work)
        for k, (step, argv) in enumerate(zip(recipe.steps, steps, strict=True), 1):
            print(f"step {k}/{len(steps)}: {step.about}\n  dicecam {shlex.join(argv)}",
                  flush=True)
            if args.dry_run:
                continue
            done = subprocess.run([sys.executable, "-m", "dicecam", *argv], check=False)
            if done.returncode:
                print(f"step {k} failed (exit {done.returncode}); the recipe stops here",
                      file=sys.stderr)
                return done.returncode
    return 0
