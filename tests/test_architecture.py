"""The layers of docs/architecture.md, checked on every module's imports (function-level ones too)."""

from __future__ import annotations

import ast
import graphlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "schemalint"
DOC = ROOT / "docs" / "architecture.md"


def table(marker: str) -> list[list[str]]:
    """The body rows of the table between `<!-- marker -->` and `<!-- /marker -->`, as cells."""
    text = DOC.read_text(encoding="utf-8").split(f"<!-- {marker} -->")[1].split(f"<!-- /{marker} -->")[0]
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in text.strip().splitlines()]
    return rows[2:]  # after the header and its rule


def names(cell: str) -> list[str]:
    return re.findall(r"`([\w.]+)`", cell)


LAYERS = [(names(row[0])[0], names(row[1])) for row in table("layers")]


def module_names() -> dict[str, Path]:
    """Every module under schemalint/, by its dotted name without the `schemalint.` prefix
    (`schemalint` for the package itself)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts) or "schemalint"] = path
    return found


MODULES = module_names()


def imported(name: str, path: Path) -> Iterator[str]:
    """The schemalint modules `name` imports anywhere in its body but under `if TYPE_CHECKING:` (a
    package's submodule when the name imported is one, else the module it is imported from)."""
    package = name.split(".") if path.name == "__init__.py" and name != "schemalint" else name.split(".")[:-1]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for statement in node.body
        for inner in ast.walk(statement)
    }
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ["schemalint", *package[: len(package) - node.level + 1]]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            targets = [f"{module}.{alias.name}" for alias in node.names] + [module]
        for target in targets:
            if target == "schemalint" or target.startswith("schemalint."):
                short = target.removeprefix("schemalint.")
                if short in MODULES:
                    yield short
                    break


def layer_of(module: str) -> int:
    """The index of the layer whose longest name covers `module`; -1 when none does."""
    best, length = -1, -1
    for index, (_, members) in enumerate(LAYERS):
        for member in members:
            if (module == member or module.startswith(member + ".")) and len(member) > length:
                best, length = index, len(member)
    return best


GRAPH = {name: set(imported(name, path)) - {name} for name, path in MODULES.items()}


def test_every_module_has_a_layer() -> None:
    unplaced = [name for name in MODULES if layer_of(name) < 0]
    assert not unplaced, f"add to the layer table of docs/architecture.md: {unplaced}"


def test_no_import_goes_to_a_higher_layer() -> None:
    wrong = [
        f"{name} ({LAYERS[layer_of(name)][0]}) imports {target} ({LAYERS[layer_of(target)][0]})"
        for name, targets in GRAPH.items()
        for target in sorted(targets)
        if layer_of(target) > layer_of(name) >= 0
    ]
    assert not wrong, "\n".join(wrong)


def test_no_import_circle() -> None:
    try:
        tuple(graphlib.TopologicalSorter(GRAPH).static_order())
    except graphlib.CycleError as error:
        pytest.fail(f"import circle: {' -> '.join(error.args[1])}")


def test_the_check_sees_imports_inside_functions(tmp_path: Path) -> None:
    source = tmp_path / "example.py"
    source.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from schemalint.diff import diff\n"
        "def f():\n    from schemalint.engine import lint\n    from ..cli import main\n"
    )
    assert set(imported("reporters.example", source)) == {"engine", "cli"}
