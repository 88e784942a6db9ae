"""The package layering holds: a dependency direction one can draw, no cycles, no tools in
the product, imports at module top.

    commands -> tools -> hub -> webapp -> scorer + vision -> calibration + synth -> core

``core`` is the top-level modules (errors, jsoncheck, messages, paths, reading). Read from the
source with ``ast``, so a new import that breaks the shape fails here with its file.
"""

from __future__ import annotations

import ast
from pathlib import Path

import dicecam

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
    "webapp": {"scorer", "vision", "calibration"},
    # the hub serves the tablet page's copy of the Socket.IO client (webapp.static)
    "hub": {"webapp", "scorer"},
    "tools": {"hub", "webapp", "scorer", "vision", "calibration", "synth"},
    "commands": {"tools", "hub", "webapp", "scorer", "vision", "calibration", "synth"},
}
#: function-level imports kept on purpose: torch comes with the optional train extra
LAZY = ("dicecam.tools.train.reader_net", "dicecam.tools.train.detector_net")


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


def test_the_product_never_imports_the_tools() -> None:
    runtime = {"calibration", "synth", "scorer", "vision", "webapp", "models"}
    wrong = [f"{w}:{line}" for w, target, line, _ in _imports()
             if target == "tools" and w.split("/")[0] in runtime]
    assert not wrong


def test_dicecam_imports_sit_at_module_top() -> None:
    inner = [f"{w}:{line}" for w, _, line, at_top in _imports() if not at_top]
    assert not inner, "imports inside functions: " + ", ".join(inner)
