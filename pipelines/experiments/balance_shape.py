"""The game-shape measures of a balance study's games (lead changes, comebacks, how early the
winner is known), per game from its move log, by the reports' own per-game code
(:func:`pipelines.metrics.game_shape.per_game` over the game's tables and its report part's
``score_events``): a chunk's games are put through the game's table builder into an
in-memory DuckDB, as one run, and each game's row is read back as block sums.

Only the reference engine keeps a move log (Treasure Island's compiled engine keeps none), so
a study with a shape objective plays on the reference engine; so does a study counting choices
per decision, which are counted at the reference engine's referee.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import duckdb

from sim.errors import InputError
from sim.game import GamePlan
from sim.runner.games import game_kind

#: Why a study with a shape objective plays on the reference engine.
NEEDS_LOG = (
    "a game-shape objective reads each game's move log, which the compiled engine does not keep"
)
#: Why a study counting choices per decision plays on the reference engine.
NEEDS_REFEREE = (
    "choices per decision are counted at the reference engine's referee, which the compiled "
    "engine does not have"
)


def engine_reason(shape: bool, choices: bool) -> str | None:
    """Why a study's objectives need the reference engine (a shape measure's reason first),
    or None."""
    return NEEDS_LOG if shape else NEEDS_REFEREE if choices else None


def score_events(game: str, where: str) -> str:
    """The SELECT of the game's scores from its move log (its report part's), or
    ``InputError`` naming ``where`` for a game whose part does not say."""
    from pipelines.report.assemble import game_report

    report = game_report(game)
    if report.score_events is None:
        raise InputError(
            f"{where}: {report.title}'s report part does not say how to read its scores from "
            "the move log (no game-shape objective for it)"
        )
    return report.score_events


def shape_sums(
    game: str, labels: Sequence[str], played: Sequence[tuple[GamePlan, Any]]
) -> dict[int, dict[str, float]]:
    """Per game id, its block totals (:data:`pipelines.experiments.balance_objectives.SHAPE`:
    the game counted, its lead changes, whether it had a sole leader at two thirds and
    whether that leader lost, the fraction of the game after which its winner was known,
    whether it had a sole winner and that winner's lead over the others' mean score after
    each tenth of the game); a game the shape does not measure has none."""
    from pipelines.metrics import game_shape
    from pipelines.metrics.game_shape_games import POINTS

    kind = game_kind(game)
    builder = kind.builder(game, list(labels))
    for plan, g in played:
        builder.add(plan, g)
    tables = builder.build()
    con = duckdb.connect()
    try:
        for name in ("games", "seats", "moves"):
            con.register(f"{name}_rows", tables[name])
            con.execute(f"CREATE VIEW {name} AS SELECT 0::BIGINT AS run, * FROM {name}_rows")
        rows = game_shape.per_game(con, score_events(game, game)).to_pylist()
    finally:
        con.close()
    out = {}
    for r in rows:
        lost = r["leader_lost"]
        sole = r["winner"] is not None
        out[int(r["game_id"])] = {
            "shape_games": 1.0,
            "shape_lead_changes": float(r["lead_changes"]),
            "shape_led": float(lost is not None),
            "shape_comeback": float(bool(lost)),
            "shape_decided_at": float(r["decided_at"]),
            "shape_sole": float(sole),
            **{
                f"shape_gap_{j}": float(r[f"winner_at_{j}"] - r[f"others_at_{j}"]) if sole else 0.0
                for j in range(1, POINTS + 1)
            },
        }
    return out
