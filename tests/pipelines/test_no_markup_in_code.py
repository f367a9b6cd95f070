"""Markup lives in the report's templates: no string in the pipelines' code, nor in the
report's blocks and renderer, holds an HTML tag (the pipelines build section values; only
``reports/templates`` says how they look)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: An HTML element the page uses, opened or closed (an f-string's attributes may follow in
#: a later part).
TAG = re.compile(
    r"</?(p|div|span|br|h[1-6]|table|thead|tbody|tr|td|th|ul|ol|li|a|code|em|strong|b|i|"
    r"details|summary|figure|figcaption|img|section|nav|style|script)(?=[\s/>]|$)",
    re.IGNORECASE,
)


def _strings(path: Path) -> list[tuple[int, str]]:
    """Every string constant of ``path`` (the literal parts of f-strings too), docstrings
    left out, with its line."""
    tree = ast.parse(path.read_text(), str(path))
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
    ]


def _markup(paths: list[Path], root: Path = ROOT) -> list[str]:
    """``file:line: text`` of each string holding a tag."""
    return [
        f"{path.relative_to(root)}:{line}: {text[:60]!r}"
        for path in paths
        for line, text in _strings(path)
        if TAG.search(text)
    ]


def test_no_html_is_built_in_the_pipelines() -> None:
    paths = sorted((ROOT / "pipelines").rglob("*.py"))
    assert len(paths) > 50
    assert _markup(paths) == []


def test_the_blocks_and_their_renderer_hold_no_markup() -> None:
    assert _markup([ROOT / "reports" / "blocks.py", ROOT / "reports" / "documents.py"]) == []


def test_the_check_sees_markup_in_an_f_string(tmp_path: Path) -> None:
    code = tmp_path / "page.py"
    code.write_text(
        '"""A page: <p>in a docstring</p> is words."""\n'
        "def cell(value: str) -> str:\n"
        "    return f\"{value}<br><span class='note'>{value}</span>\"\n"
        "def pairing(k: int) -> str:\n"
        "    return f'<div data-pairing=\"{k}\">'\n"
        'JUNIT = "<testcase name=x>"\n'
        'WORDS = "p < 0.05 with a <= b"\n'
    )
    found = _markup([code], tmp_path)
    assert sorted({int(f.split(":")[1]) for f in found}) == [3, 5]
