"""The one exception type for bad user input (files, keys, values) in every layer.

Its message is a single line that names the file, key or value and what is allowed; the CLI
prints it without a traceback and exits with code 2.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input from a user: a data file, a spec, a flag or a name.

    ``str(error)`` is the whole one-line message shown to the user.
    """

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))
