"""The tables every game shares, where the runner's code has always found them: they are
part of the game contract and live in :mod:`sim.game_tables` (a game imports them there)."""

from sim.game_tables import (
    BASIC_GAMES_SCHEMA,
    BASIC_SCHEMAS,
    BASIC_SEATS_SCHEMA,
    BASIC_TABLES,
    FAILURES_PER_SEAT,
    FAILURES_SCHEMA,
    GAME_COLUMNS,
    MOVES_SCHEMA,
    SCHEMA_VERSION,
    SEAT_COLUMNS,
    BasicTableBuilder,
    append_common,
    append_failures,
    column,
    log_grid,
    moves_from_grid,
    moves_table,
    table_of,
)

__all__ = [
    "BASIC_GAMES_SCHEMA",
    "BASIC_SCHEMAS",
    "BASIC_SEATS_SCHEMA",
    "BASIC_TABLES",
    "FAILURES_PER_SEAT",
    "FAILURES_SCHEMA",
    "GAME_COLUMNS",
    "MOVES_SCHEMA",
    "SCHEMA_VERSION",
    "SEAT_COLUMNS",
    "BasicTableBuilder",
    "append_common",
    "append_failures",
    "column",
    "log_grid",
    "moves_from_grid",
    "moves_table",
    "table_of",
]
