"""The two exception types the command line turns into one line on stderr.

:class:`InputError` is bad user input (files, keys, values, a run directory that is not
sound): exit code 2. :class:`RunError` is a run that cannot go on although its input is fine
(a worker running other code than the driver): exit code 1. Both carry a single line that
names what is wrong and what to do.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input from a user: a data file, a spec, a flag or a name.

    ``str(error)`` is the whole one-line message shown to the user.
    """

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))


class RunError(RuntimeError):
    """A run that had to stop for a reason other than its input (exit code 1).

    ``str(error)`` is the whole one-line message shown to the user.
    """

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))
