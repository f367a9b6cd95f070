"""The layers import one way (design: state and rules, strategies, rendering, analysis, the
notebook API; inside the analysis: statistics, metrics, single games, report, experiments,
command line), as the import-linter contracts of pyproject.toml say, and no module imports
itself round a cycle, counting the imports made only for type checking."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("sim", "strategies", "pipelines", "reports")
#: The one cycle left: the run store opens its S3 kind on demand, which builds on the store
#: and its lock (a factory, not game code).
KNOWN_CYCLES: list[list[str]] = []


def _graph() -> dict[str, set[str]]:
    modules: dict[str, Path] = {}
    for pkg in PACKAGES:
        for f in (ROOT / pkg).rglob("*.py"):
            name = ".".join(f.relative_to(ROOT).with_suffix("").parts)
            modules[name.removesuffix(".__init__")] = f
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for m, f in modules.items():
        for node in ast.walk(ast.parse(f.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            graph[m].update(t for t in targets if t in modules and t != m)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for root, children_of_root in graph.items():
        if root in index:
            continue
        work = [(root, iter(sorted(children_of_root)))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def test_layers_import_one_way() -> None:
    # The venv's own lint-imports, reading pyproject.toml; no cache, so that a run writes
    # nothing into the checkout.
    lint = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run(
        [str(lint), "--no-cache", "--no-logo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 kept, 0 broken" in done.stdout


def test_the_runner_imports_no_game() -> None:
    games = ("sim.tobago", "sim.treasure_island")
    graph = _graph()
    generic = [m for m in graph if m.startswith(("sim.runner", "sim.storage")) or m == "sim.game"]
    assert len(generic) > 10
    wrong = [(m, t) for m in generic for t in graph[m] if t.startswith(games)]
    assert not wrong


def test_the_storage_imports_neither_the_runner_nor_a_game() -> None:
    # Where runs are kept is the runner's tool (and the readers'), not the other way round.
    graph = _graph()
    storage = [m for m in graph if m.startswith("sim.storage")]
    assert len(storage) >= 8
    above = ("sim.runner", "sim.game", "sim.tobago", "sim.treasure_island")
    wrong = [(m, t) for m in storage for t in graph[m] if t.startswith(above)]
    assert not wrong


#: Each game's packages in every layer (its rules and engine, its strategies, its part of the
#: analysis): the rest of the code reaches a game only through the entry points.
GAME_PACKAGES = tuple(
    f"{layer}.{game}" for layer in PACKAGES for game in ("tobago", "treasure_island")
)


def test_the_generic_layers_import_no_game() -> None:
    graph = _graph()
    # strategies.examples: plug-in players written for one game, as a user's would be.
    own = (*GAME_PACKAGES, "sim.", "strategies.examples")
    generic = [m for m in graph if not m.startswith(own)]
    generic += [m for m in graph if m.startswith(("sim.runner", "sim.storage")) or m == "sim.game"]
    assert {
        "pipelines.report.assemble",
        "pipelines.experiments.simulate",
        "strategies.registry",
    } <= set(generic)
    wrong = [(m, t) for m in generic for t in graph[m] if t.startswith(GAME_PACKAGES)]
    assert not wrong


#: Every game package: the built-in games' rules and engines and the test plug-ins'.
GAME_SOURCES = (
    ROOT / "sim" / "tobago",
    ROOT / "sim" / "treasure_island",
    *sorted(ROOT.glob("tests/plugins/*/tourney_*")),
)


def _runner_imports(folder: Path) -> list[tuple[str, str]]:
    out = []
    for f in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(f.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            out += [(f.name, n) for n in names if n == "sim.runner" or n.startswith("sim.runner.")]
    return out


def test_no_game_imports_the_runner() -> None:
    # A game needs only the contract (sim.game, sim.game_tables): the runner is the
    # runner's, and a game in its own package must not depend on how it is built.
    assert len(GAME_SOURCES) >= 4
    wrong = {str(folder.relative_to(ROOT)): _runner_imports(folder) for folder in GAME_SOURCES}
    assert {k: v for k, v in wrong.items() if v} == {}


def test_the_runner_import_finder_finds_them(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("import sim.runner.run\nfrom sim.runner import games\n")
    (tmp_path / "b.py").write_text("from sim.game import GamePlan\nimport sim.runners_x\n")
    assert _runner_imports(tmp_path) == [
        ("a.py", "sim.runner.run"),
        ("a.py", "sim.runner"),
        ("a.py", "sim.runner.games"),
    ]


def test_no_import_cycles() -> None:
    assert _cycles(_graph()) == KNOWN_CYCLES


def test_the_cycle_finder_finds_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e2"}, "e2": {"e"}}
    assert _cycles(graph) == [["a", "b", "c"], ["e", "e2"]]


#: A simulate in a fresh interpreter, then the scipy.stats modules it loaded.
_SIMULATE_THEN_LIST = """
import sys
from pipelines.cli.main import app
try:
    app(["simulate", "--games", "4", "--islands", "abc-1", "--backend", "serial",
         "--out", sys.argv[1]])
except SystemExit as end:
    assert not end.code, end.code
print(sorted(m for m in sys.modules if m.startswith("scipy.stats")))
"""


def test_a_simulate_never_imports_the_distribution_functions(tmp_path: Path) -> None:
    # scipy.stats takes most of a second of CPU to import: a simulate (its summary's
    # intervals are Wilson's, with a fixed z) and every command started as a process pay it
    # for nothing unless the functions needing it import it when first called.
    done = subprocess.run(
        [sys.executable, "-c", _SIMULATE_THEN_LIST, str(tmp_path / "run")],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[]"
