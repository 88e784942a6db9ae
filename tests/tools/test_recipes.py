"""A model's recipe is a file run by one command (issue 61, item 5): its inputs named by path
or hash and checked, its steps parsed as dicecam parses them before any runs."""

from __future__ import annotations

import argparse
import re
import subprocess
from pathlib import Path

import pytest

from dicecam.errors import InputError
from dicecam.tools.train import recipe_cli
from dicecam.tools.train.recipe import (
    RECIPES,
    REPOSITORY,
    commands,
    load_recipe,
    resolve_input,
)

SHIPPED_RECIPES = sorted(RECIPES.glob("*.toml"))


def _has_history(recipe_path: Path) -> bool:
    for spec in load_recipe(recipe_path).inputs:
        if spec.git and subprocess.run(["git", "-C", str(REPOSITORY), "cat-file", "-e",
                                        f"{spec.git}:{spec.path}"],
                                       capture_output=True).returncode:
            return False
    return True


def _args(recipe: Path, work: Path, dry_run: bool) -> argparse.Namespace:
    return argparse.Namespace(recipe=recipe, work=work, dry_run=dry_run, list=False)


def test_the_project_has_a_recipe_for_each_shipped_model() -> None:
    models = {load_recipe(p).model for p in SHIPPED_RECIPES}
    assert {"die_reader", "detector"} <= models
    assert {p.stem for p in SHIPPED_RECIPES} >= {"die_reader", "detector", "die_reader_int8"}


@pytest.mark.parametrize("path", SHIPPED_RECIPES, ids=lambda p: p.stem)
def test_each_shipped_recipe_resolves_its_inputs_and_parses_every_step(
        path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not _has_history(path):
        pytest.skip("this clone lacks the commit an input is taken from (a shallow clone)")
    assert recipe_cli.run(_args(path, tmp_path, dry_run=True)) == 0
    printed = capsys.readouterr().out
    steps = load_recipe(path).steps
    assert printed.count("  dicecam train ") == len(steps)
    assert "{" not in printed.replace("{}", "")  # every placeholder filled in


def _write(folder: Path, text: str) -> Path:
    path = folder / "r.toml"
    path.write_text(text)
    return path


def test_an_input_whose_hash_differs_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, f'''model = "die_reader"
about = "t"
[inputs.READER]
file = "dicecam/models/die_reader.onnx"
sha256 = "{'0' * 64}"
[[steps]]
train = ["quantize", "{{READER}}"]
''')
    recipe = load_recipe(path)
    with pytest.raises(InputError, match="has sha256 .* not the recipe's 0000"):
        resolve_input(recipe.inputs[0], tmp_path)


@pytest.mark.parametrize(("text", "said"), [
    ('model = "x"\nabout = "t"\n[[steps]]\ntrain = ["soup", "{NOPE}"]\n', "names {NOPE}"),
    ('model = "x"\nabout = "t"\n[inputs.A]\ngit = "abc"\npath = "f"\n[[steps]]\n'
     'train = ["soup"]\n', "needs `git`, `path` and `sha256`"),
    ('model = "x"\nabout = "t"\n', "at least one step"),
    ('model = "x"\nabout = [\n', "not a TOML file"),
])
def test_a_malformed_recipe_is_refused_with_what_is_wrong(tmp_path: Path, text: str,
                                                          said: str) -> None:
    with pytest.raises(InputError, match=re.escape(said)):
        load_recipe(_write(tmp_path, text))


def test_a_step_naming_a_flag_the_trainer_lacks_is_refused_before_anything_runs(
        tmp_path: Path) -> None:
    recipe = load_recipe(_write(tmp_path, '''model = "x"
about = "t"
[[steps]]
train = ["quantize", "--samples", "100"]
[[steps]]
train = ["quantize", "--sampels", "100"]
'''))
    with pytest.raises(InputError, match="step 2 does not parse: .*--sampels"):
        commands(recipe, {}, tmp_path)


def test_a_recipe_runs_its_steps_in_order_into_its_work_folder(tmp_path: Path) -> None:
    path = _write(tmp_path, '''model = "die_reader"
about = "an 8-bit copy of the shipped reader, quickly"
[inputs.READER]
file = "dicecam/models/die_reader.onnx"
[[steps]]
train = ["quantize", "{READER}", "--out", "{work}/first.onnx", "--samples", "100",
         "--check-samples", "0"]
[[steps]]
train = ["quantize", "{READER}", "--out", "{work}/second.onnx", "--samples", "100",
         "--check-samples", "0"]
''')
    work = tmp_path / "work"
    assert recipe_cli.run(_args(path, work, dry_run=False)) == 0
    first, second = work / "first.onnx", work / "second.onnx"
    # the same model, seed and count give the same file
    assert first.read_bytes() == second.read_bytes() and first.stat().st_size > 10_000


def test_a_failing_step_stops_the_recipe(tmp_path: Path) -> None:
    path = _write(tmp_path, '''model = "die_reader"
about = "t"
[[steps]]
train = ["quantize", "no-such-model.onnx", "--out", "{work}/q.onnx"]
[[steps]]
train = ["quantize", "--out", "{work}/never.onnx"]
''')
    work = tmp_path / "work"
    assert recipe_cli.run(_args(path, work, dry_run=False)) != 0
    assert not (work / "never.onnx").exists()
