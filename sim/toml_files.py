"""Reading a TOML data file with one-line errors that name the file and the problem."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from sim.errors import InputError


def read_toml(path: Path, what: str) -> dict[str, Any]:
    """The parsed file; ``what`` names the kind of file in messages ("rules file", ...)."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: {what} not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read {what} ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not valid TOML ({exc})") from None
