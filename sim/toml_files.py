"""Reading a TOML data file with one-line errors that name the file and the problem."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from sim.errors import InputError
from sim.text_input import read_text


def read_toml(path: Path, what: str) -> dict[str, Any]:
    """The parsed file; ``what`` names the kind of file in messages ("rules file", ...).

    Read through :func:`sim.text_input.read_text`: a regular text file of at most 1 MiB."""
    text = read_text(path, what)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not valid TOML ({exc})") from None
