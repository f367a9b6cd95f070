"""Small modules and short functions: no module of the product over 600 lines, no function
over 80 (its decorators and signature included), but for the entries of :data:`ALLOWED`, each
with the reason it is longer."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sim", "strategies", "pipelines", "reports", "tourney")
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80

#: ``path`` (a module) or ``path::qualified.name`` (a function) -> why it may be longer.
ALLOWED: dict[str, str] = {
    "sim/treasure_island/compiled/engine.py::_resolve": (
        "compiled hot loop: the whole chain of powers of a placement (the reference's mutual "
        "recursion) in one loop, kept whole so that numba compiles it as one function"
    ),
}


def _functions(
    node: ast.AST, prefix: str = ""
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function under ``node`` with its qualified name (``Class.method``,
    ``outer.inner``)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = f"{prefix}{child.name}"
            if not isinstance(child, ast.ClassDef):
                yield name, child
            yield from _functions(child, f"{name}.")
        else:
            yield from _functions(child, prefix)


def sizes(root: Path) -> dict[str, int]:
    """The lines of every module over :data:`MAX_MODULE_LINES` and every function over
    :data:`MAX_FUNCTION_LINES` under ``root``'s packages, keyed as :data:`ALLOWED` is."""
    found: dict[str, int] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            text = path.read_text()
            where = path.relative_to(root).as_posix()
            lines = len(text.splitlines())
            if lines > MAX_MODULE_LINES:
                found[where] = lines
            for name, func in _functions(ast.parse(text, filename=where)):
                first = min([func.lineno, *(d.lineno for d in func.decorator_list)])
                assert func.end_lineno is not None
                length = func.end_lineno - first + 1
                if length > MAX_FUNCTION_LINES:
                    found[f"{where}::{name}"] = length
    return found


def test_no_long_module_or_function() -> None:
    offenders = {k: n for k, n in sizes(ROOT).items() if k not in ALLOWED}
    said = [f"{key}: {n} lines" for key, n in sorted(offenders.items())]
    for line in said:
        print(line)
    assert not said, (
        f"over {MAX_MODULE_LINES} lines a module or {MAX_FUNCTION_LINES} a function "
        "(split it by meaning, or add it to ALLOWED with the reason):\n" + "\n".join(said)
    )


def test_every_allowance_still_needed() -> None:
    # An entry outlives the length it excused: it would let the next growth through unseen.
    found = sizes(ROOT)
    stale = sorted(key for key in ALLOWED if key not in found)
    assert not stale, "within the limits now, remove from ALLOWED: " + ", ".join(stale)


def test_sizes_finds_long_modules_and_functions(tmp_path: Path) -> None:
    package = tmp_path / "sim"
    package.mkdir()
    body = "\n".join(f"        x{k} = {k}" for k in range(80))
    (package / "long.py").write_text(
        "import functools\n\n\nclass C:\n    @functools.cache\n    def method(self) -> None:\n"
        + body
        + "\n\n\ndef short() -> None:\n    pass\n"
        + "\n" * 600
    )
    (package / "ok.py").write_text("def f() -> None:\n" + "    pass\n" * 79)
    lines = len((package / "long.py").read_text().splitlines())
    # The method: its decorator, its signature and 80 lines of body.
    assert sizes(tmp_path) == {"sim/long.py": lines, "sim/long.py::C.method": 82}
