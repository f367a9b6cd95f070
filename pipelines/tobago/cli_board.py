"""``tourney board``: list, show, export and time the Tobago islands."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from pipelines.cli.app import app, command, echo_json
from pipelines.tobago.board_bench import measure_board_setup
from sim.seeding import stream
from sim.tobago.board_json import board_to_json
from sim.tobago.catalog import builtin_names, resolve_board
from sim.tobago.clues import clue_masks, default_deck, default_deck_path, load_clue_deck
from sim.tobago.island_file import format_island
from sim.tobago.modular import load_island, parse_name
from sim.tobago.render import render_island

board_app = typer.Typer(no_args_is_help=True, help="Tobago islands: list, show, export.")
app.add_typer(board_app, name="board")

IslandArg = Annotated[
    str,
    typer.Argument(
        help="A built-in island (aBc-2), generated:SEED, or an island file (.island/.json)."
    ),
]
LandmarkSeed = Annotated[
    int,
    typer.Option(
        "--landmarks",
        min=0,
        help="Seed of the landmark placement (ignored when the island file fixes landmarks).",
    ),
]
DeckOpt = Annotated[
    Path | None,
    typer.Option("--deck", help="Clue-deck TOML file (default: data/clues/default.toml)."),
]


@command(board_app, "list")
def board_list(
    as_json: Annotated[bool, typer.Option("--json", help="One JSON array.")] = False,
) -> None:
    """The 32 built-in islands with their cell counts."""
    rows = []
    for name in builtin_names():
        island = load_island(name)
        parsed = parse_name(name)
        assert parsed is not None
        faces, arrangement = parsed
        rows.append(
            {
                "island": name,
                "faces": "".join(faces),
                "arrangement": arrangement,
                "cells": island.n,
                "coast_cells": island.coast_mask.bit_count(),
                "inland_cells": island.n - island.coast_mask.bit_count(),
            }
        )
    if as_json:
        echo_json(rows)
        return
    typer.echo(f"{'island':<8} {'cells':>5} {'coast':>5} {'inland':>6}")
    for row in rows:
        typer.echo(
            f"{row['island']:<8} {row['cells']:>5} {row['coast_cells']:>5} {row['inland_cells']:>6}"
        )


@command(board_app, "show")
def board_show(
    island: IslandArg,
    landmarks: LandmarkSeed = 0,
    deck: DeckOpt = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object: cells, landmarks, clue cells.")
    ] = False,
) -> None:
    """Draw an island with its landmarks and list how many cells each clue card leaves."""
    board = resolve_board(island)
    marks = board.landmarks(stream(landmarks, "landmarks"))
    clue_deck = load_clue_deck(deck) if deck is not None else default_deck()
    if as_json:
        echo_json(board_to_json(board.island, marks, clue_deck))
        return
    isl = board.island
    typer.echo(f"{isl.name}: {isl.n} cells ({isl.origin}), landmark seed {landmarks}")
    typer.echo(render_island(isl, marks, color=sys.stdout.isatty()))
    masks = clue_masks(isl, marks, clue_deck)
    source = deck if deck is not None else default_deck_path()
    typer.echo(f"\nclue candidates ({clue_deck.name}, {source}): cells left of {isl.n}")
    width = max(len(c.text) for c in clue_deck.cards)
    for start in range(0, len(clue_deck.cards), 3):
        cols = [
            f"{c.id:>2} {c.text:<{width}} {masks[c.id].bit_count():>3}"
            for c in clue_deck.cards[start : start + 3]
        ]
        typer.echo("   ".join(cols))


@command(board_app, "export")
def board_export(island: IslandArg, landmarks: LandmarkSeed = 0) -> None:
    """Print an island (with one landmark placement) as an editable island file."""
    board = resolve_board(island)
    marks = board.landmarks(stream(landmarks, "landmarks"))
    typer.echo(format_island(board.island, marks), nl=False)


@command(board_app, "bench")
def board_bench(
    repeat: Annotated[int, typer.Option("--repeat", min=1, help="Rounds over all islands.")] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
) -> None:
    """Time board setup on one core: island tables from scratch, landmarks, clue masks."""
    result = measure_board_setup(builtin_names(), default_deck(), repeat)
    if as_json:
        echo_json(result)
        return
    for key, label in (("cold_setup", "from scratch"), ("per_game_setup", "per game")):
        row = result[key]
        typer.echo(
            f"{label:<13} mean {row['mean_ms']:.3f} ms  median {row['median_ms']:.3f} ms  "
            f"p99 {row['p99_ms']:.3f} ms  max {row['max_ms']:.3f} ms"
        )
    typer.echo(f"({result['islands']} islands x {result['rounds']} rounds)")
