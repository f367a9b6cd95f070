"""Which game a command plays when it names none (no ``--game``).

A command's own input says which game it is about when it can: a single installed game; the
built-in strategies it names (each belongs to one game's catalog); a rules preset or file
only one game loads; ``--island``/``--islands`` (only a game played on boards takes them);
rules keys (``sweep --param``); an ablation (``--ablate``). When the clues leave several
games, the command is refused in one line listing the installed games (exit 2): no game is
the default of a command.

Stored input is another matter: a spec, suite case or run manifest that names no game was
written when Tobago was the only game, and is read as Tobago's
(:data:`sim.runner.games.UNNAMED_GAME`).
"""

from __future__ import annotations

from collections.abc import Iterable

from sim.errors import InputError
from sim.runner.games import GAMES
from strategies.registry import REGISTRIES, split_specs


def _by_players(players: str) -> set[str]:
    """The games that have every named built-in strategy, else those that have any (a
    plug-in, ``pkg.mod:Class``, is no clue)."""
    names = {spec.split("(")[0].strip() for spec in split_specs(players)}
    names = {n for n in names if ":" not in n}
    every = {g for g in GAMES if names <= set(REGISTRIES.get(g, {}))}
    return every or {g for g in GAMES if names & set(REGISTRIES.get(g, {}))}


def _by_rules(rules: str) -> set[str]:
    out = set()
    for name, kind in GAMES.items():
        try:
            kind.load_rules(rules)
        except InputError:
            continue
        out.add(name)
    return out


def choose_game(
    given: str | None,
    *,
    players: str | None = None,
    rules: Iterable[str | None] = (),
    boards: bool = False,
    keys: Iterable[str] = (),
    ablation: str | None = None,
) -> str:
    """``given``, or the one game the command's input fits (see the module docstring):
    ``players`` the strategies it names, ``rules`` its rules presets or files, ``boards``
    whether it names boards, ``keys`` the rules keys it sets, ``ablation`` the part of the
    rules it removes. Each clue narrows the games
    only when some game fits it, so that a clue no game fits (an unknown strategy) is left
    for the chosen game to refuse in its own words."""
    if given is not None:
        return given
    installed = sorted(GAMES)
    if len(installed) == 1:
        return installed[0]
    fits = set(installed)
    clues: list[set[str]] = []
    if boards:
        clues.append({g for g in installed if GAMES[g].boards is not None})
    if players:
        clues.append(_by_players(players))
    clues += [_by_rules(r) for r in rules if r]
    if ablation:
        clues.append({g for g in installed if ablation in GAMES[g].ablations})
    wanted = set(keys)
    if wanted:
        clues.append({g for g in installed if wanted <= set(GAMES[g].rules_keys)})
    for clue in clues:
        if fits & clue:
            fits &= clue
    if len(fits) == 1:
        return fits.pop()
    raise InputError(
        f"--game is needed: {len(installed)} games are installed ({', '.join(installed)}) "
        "and nothing in the command says which"
    )
