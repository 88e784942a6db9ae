"""The package layering holds: a dependency direction one can draw, no cycles, no tools in
the product, imports at module top.

    commands -> tools -> hub -> webapp -> teach -> scorer + vision -> calibration + synth -> core

``core`` is the top-level modules (errors, jsoncheck, messages, paths, reading). Read from the
source with ``ast``, so a new import that breaks the shape fails here with its file.
"""

from __future__ import annotations

import ast
from pathlib import Path

import dicecam
from dicecam.scorer.registry import game_names

ROOT = Path(dicecam.__file__).parent
CORE = {"errors", "jsoncheck", "messages", "paths", "reading", "__init__", "__main__", "cli",
        "__version__"}
#: package -> the packages it may import from (besides core and itself)
ALLOWED = {
    "calibration": set(),
    "synth": set(),
    "scorer": set(),
    "models": set(),
    "vision": {"calibration", "synth"},
    # a table learns its own dice: the shipped models fine-tuned on what its players taught
    "teach": {"vision", "calibration", "synth"},
    "webapp": {"scorer", "vision", "calibration", "teach"},
    # the hub serves the tablet page's copy of the Socket.IO client (webapp.static)
    "hub": {"webapp", "scorer"},
    "tools": {"hub", "webapp", "teach", "scorer", "vision", "calibration", "synth"},
    "commands": {"tools", "hub", "webapp", "teach", "scorer", "vision", "calibration", "synth"},
}
#: function-level imports kept on purpose: torch comes with the optional train extra
LAZY = ("dicecam.tools.train.reader.net", "dicecam.tools.train.detector.net")


def _imports() -> list[tuple[str, str, int, bool]]:
    """(file's package, imported package, line, at module top) for each dicecam import."""
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module]
                if node.module == "dicecam":
                    modules = [f"dicecam.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            else:
                continue
            for module in modules:
                parts = module.split(".")
                if parts[0] != "dicecam" or len(parts) < 2 or module.startswith(LAZY):
                    continue
                found.append((f"{path.relative_to(ROOT)}", parts[1], node.lineno,
                              id(node) in top))
    return found


def test_packages_import_only_downwards() -> None:
    wrong = []
    for where, target, line, _ in _imports():
        package = where.split("/")[0].removesuffix(".py")
        if package in CORE or target in CORE or target == package:
            if package in CORE and target not in CORE:
                wrong.append(f"{where}:{line} core imports {target}")
            continue
        if target not in ALLOWED.get(package, set()):
            wrong.append(f"{where}:{line} {package} -> {target}")
    assert not wrong, "imports against the layering:\n" + "\n".join(wrong)


def test_training_never_imports_a_bench() -> None:
    """A bench measures what training made; what both need lives below both."""
    wrong = [f"{w}:{line}" for w, line in _tool_imports("train", "bench")]
    assert not wrong, "training imports a bench: " + ", ".join(wrong)


def _tool_imports(source: str, target: str) -> list[tuple[str, int]]:
    found = []
    for path in sorted((ROOT / "tools" / source).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                    f"dicecam.tools.{target}"):
                found.append((f"{path.relative_to(ROOT)}", node.lineno))
    return found


def test_the_product_never_imports_the_tools() -> None:
    runtime = {"calibration", "synth", "scorer", "vision", "webapp", "models"}
    wrong = [f"{w}:{line}" for w, target, line, _ in _imports()
             if target == "tools" and w.split("/")[0] in runtime]
    assert not wrong


def test_dicecam_imports_sit_at_module_top() -> None:
    inner = [f"{w}:{line}" for w, _, line, at_top in _imports() if not at_top]
    assert not inner, "imports inside functions: " + ", ".join(inner)


#: optional extras (training, benchmarks, test clients): imported where used, so the
#: product runs without them
OPTIONAL_TOOLS = "tools"
#: modules outside scorer/ that may name a game, and why
NAMES_A_GAME = {
    # the built-in dice sets: the dice in each game's box, named as their colour profiles
    # (calibration/builtin/<set>.json); a game says which set it uses (descriptor.dice_set)
    "synth/dicesets.py",
    # the tournament hub keeps the V6 evening's typed records (scorer/v6/tables.py): it
    # is that game's hub and nothing else
    "hub/app.py",
    "hub/store.py",
}


def _runtime_modules() -> list[tuple[str, ast.Module]]:
    return [(f"{p.relative_to(ROOT)}", ast.parse(p.read_text(encoding="utf-8")))
            for p in sorted(ROOT.rglob("*.py"))
            if p.relative_to(ROOT).parts[0] != OPTIONAL_TOOLS]


def test_runtime_modules_import_everything_at_module_top() -> None:
    """cv2, onnxruntime and the rest too: a missing dependency fails at import, and the
    cost of importing shows where the module is imported, not at a first frame."""
    inner = []
    for where, tree in _runtime_modules():
        top = {id(node) for node in tree.body}
        inner += [f"{where}:{node.lineno} {ast.unparse(node)}" for node in ast.walk(tree)
                  if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in top]
    assert not inner, "imports inside functions:\n" + "\n".join(inner)


def _docstrings(tree: ast.Module) -> set[int]:
    nodes = [tree, *(n for n in ast.walk(tree)
                     if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef))]
    return {id(n.body[0].value) for n in nodes
            if n.body and isinstance(n.body[0], ast.Expr)
            and isinstance(n.body[0].value, ast.Constant)}


def test_only_the_scorer_names_a_game() -> None:
    """Each game's facts live in its package and are reached through its descriptor: no
    runtime module outside scorer/ compares with, passes or imports a game by name (the
    registry is the one list). Docstrings and comments may name games as examples."""
    games = set(game_names())
    found = []
    for where, tree in _runtime_modules():
        if where.startswith("scorer/") or where in NAMES_A_GAME:
            continue
        docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            named = None
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and id(node) not in docstrings:
                named = games & {node.value, *node.value.replace("/", " ").split()}
            elif isinstance(node, ast.ImportFrom) and node.module:
                named = games & {*node.module.split("."), *(a.name for a in node.names)}
            elif isinstance(node, ast.Import):
                named = games & {part for a in node.names for part in a.name.split(".")}
            if named:
                found.append(f"{where}:{node.lineno} names {', '.join(sorted(named))}")
    assert not found, "game names outside scorer/:\n" + "\n".join(found)


#: the most modules one folder holds before it is split by concept into sub-packages
MODULES_PER_FOLDER = 12


def test_no_folder_holds_more_modules_than_a_reader_can_take_in() -> None:
    crowded = []
    for folder in sorted({p.parent for p in ROOT.rglob("*.py")}):
        modules = [p for p in folder.glob("*.py") if p.name != "__init__.py"]
        if len(modules) > MODULES_PER_FOLDER:
            crowded.append(f"{folder.relative_to(ROOT)}: {len(modules)} modules")
    assert not crowded, "split these by concept: " + ", ".join(crowded)
