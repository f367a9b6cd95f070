"""A fresh worker process for one notebook API run: ``python -m tourney.worker REQUEST
RESULT`` reads the pickled call (a :mod:`tourney.calls` function's name and arguments, and
the caller's ``sys.path``), runs it, and writes the pickled outcome: its value, or the
exception it raised with the worker's traceback.

A new interpreter rather than a ``multiprocessing`` child: a 'spawn' or 'forkserver' child
imports the caller's main script again, which a script without an ``if __name__ ==
"__main__"`` guard cannot survive, and nothing of the caller's process (its patched classes,
its imported plug-ins) can reach a new interpreter.
"""

from __future__ import annotations

import pickle
import sys
import traceback
from pathlib import Path
from typing import Any

from tourney import calls

#: Where an exception's class may come from to travel back as itself: unpickling a class of
#: a plug-in's module would import that module, and run its code, in the caller's process.
_OWN = ("builtins", "sim", "strategies", "pipelines", "reports", "tourney")


def _outcome(request: dict[str, Any]) -> tuple[str, object, str]:
    sys.path[:] = request["sys_path"]
    try:
        value = getattr(calls, request["call"])(*request["args"])
    except BaseException as exc:  # everything goes back to the caller, as it would in-process
        if type(exc).__module__.split(".", 1)[0] not in _OWN:
            exc = RuntimeError(f"{type(exc).__module__}.{type(exc).__qualname__}: {exc}")
        return "error", exc, traceback.format_exc()
    return "value", value, ""


def main(argv: list[str]) -> int:
    """Run the call in ``argv[1]`` and write its outcome to ``argv[2]``."""
    request = pickle.loads(Path(argv[1]).read_bytes())
    kind, value, trace = _outcome(request)
    try:
        data = pickle.dumps((kind, value, trace))
    except Exception as exc:  # an exception (or a value) that does not pickle: its words do
        words = f"{type(value).__name__}: {value}"
        data = pickle.dumps(("error", RuntimeError(words), trace or repr(exc)))
    Path(argv[2]).write_bytes(data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
