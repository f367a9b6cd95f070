"""What could make a report's figures wrong, found in the runs and said first.

- **Unfinished games**: games cut off at the turn cap or ended by a deadlock have no real
  winner; per run, end reason, player count and strategy, how many and what share of the
  strategy's games, and the command that replays the first one. Reports leave them out of
  win rates unless told otherwise.
- **Strategy failures**: exceptions and illegal answers (the engine played the fallback);
  per run and strategy, the failures, the games they touched, the first error's text and
  the command that replays its game.
- **Unfinished runs**: a run whose shards are not all played is reported for the games it has.
- **Pooled runs**: several runs of the same rules, players and code pooled into one table.

The replay command is ``tourney play --run RUN --game-id N``: the game is played again from
the run's manifest and checked against the moves the run logged.
"""

from __future__ import annotations

import shlex
from typing import Any

import duckdb

from pipelines.report.data import RunWarning
from pipelines.report.run_groups import Groups, run_label, short_label
from reports import numbers
from sim.outcome import UNFINISHED
from sim.runner.games import GAMES

#: Words for the end reasons that leave a game without a real winner.
END_WORDS = {
    "turn_cap": "stopped at the turn cap",
    "deadlock": "ended in a deadlock",
    "timeout": "were ended because a strategy ran past the decision time limit",
}


def replay_command(run: Any, game_id: int) -> str:
    """The ``tourney play`` command that replays game ``game_id`` of ``run`` (a RunInfo),
    checked against the moves the run logged."""
    parts = ["tourney", "play", "--run", run.where, "--game-id", str(game_id)]
    return " ".join(shlex.quote(p) for p in parts)


def _unfinished(con: duckdb.DuckDBPyConnection, groups: Groups, counted: bool) -> list[RunWarning]:
    reasons = ", ".join(f"'{r}'" for r in UNFINISHED)
    rows = con.sql(
        f"""WITH totals AS (
                SELECT s.run, g.n_players, s.strategy::VARCHAR AS strategy, count(*) AS seats
                FROM seats_all s JOIN games_all g USING (run, game_id) GROUP BY 1, 2, 3)
            SELECT s.run, g.end_reason::VARCHAR, g.n_players, s.strategy::VARCHAR,
                   count(*)::BIGINT, any_value(t.seats)::BIGINT, min(g.game_id)
            FROM seats_all s JOIN games_all g USING (run, game_id)
            JOIN totals t ON t.run = s.run AND t.n_players = g.n_players
                          AND t.strategy = s.strategy::VARCHAR
            WHERE g.end_reason::VARCHAR IN ({reasons})
            GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4"""
    ).fetchall()
    totals = con.sql(
        f"""SELECT run, end_reason::VARCHAR, count(*)::BIGINT, min(game_id),
                   (SELECT count(*) FROM games_all a WHERE a.run = g.run)::BIGINT
            FROM games_all g WHERE end_reason::VARCHAR IN ({reasons})
            GROUP BY 1, 2 ORDER BY 1, 2"""
    ).fetchall()
    out = []
    for run, reason, games, first, all_games in totals:
        info = groups.runs[run]
        details = [
            {
                "n_players": n,
                "strategy": strategy,
                "games": int(k),
                "share": int(k) / int(seats),
            }
            for r, why, n, strategy, k, seats, _ in rows
            if r == run and why == reason
        ]
        by_strategy = "; ".join(
            f"{d['strategy']} {numbers.count(d['games'])} ({numbers.pct(d['share'], 2)} of its "
            f"{d['n_players']}-player games)"
            for d in details
        )
        fate = (
            "are included in win rates as played (--include-unfinished)"
            if counted
            else "are left out of win rates, ratings and seat shares"
        )
        out.append(
            RunWarning(
                kind=reason,
                run=run_label(info),
                text=(
                    f"{numbers.count(games)} of {numbers.count(all_games)} games "
                    f"({numbers.pct(games / all_games, 2)}) of {short_label(info)} "
                    f"{END_WORDS.get(reason, reason)}; they {fate}. By strategy: {by_strategy}."
                ),
                command=replay_command(info, int(first)),
                details=tuple(details),
            )
        )
    return out


def _failures(con: duckdb.DuckDBPyConnection, groups: Groups) -> list[RunWarning]:
    rows = con.sql(
        """SELECT run, strategy::VARCHAR, sum(violations)::BIGINT,
                  count(*) FILTER (WHERE violations > 0)::BIGINT, count(*)::BIGINT
           FROM seats_all GROUP BY 1, 2 HAVING sum(violations) > 0 ORDER BY 1, 2"""
    ).fetchall()
    out = []
    for run, strategy, failures, touched, seats in rows:
        info = groups.runs[run]
        # The first exception says most about a bug; an illegal answer otherwise.
        first = con.execute(
            """SELECT game_id, turn, decision::VARCHAR, answer, error, seat,
                      (SELECT n_players FROM games_all g
                       WHERE g.run = f.run AND g.game_id = f.game_id)
               FROM failures f
               WHERE run = ? AND strategy::VARCHAR = ?
               ORDER BY answer NOT IN ('<raised>', '<no answer>'), game_id, turn LIMIT 1""",
            [run, strategy],
        ).fetchall()
        command = ""
        example = ""
        where: dict[str, int] = {}
        if first:
            game_id, turn, decision, answer, error, seat, n_players = first[0]
            # Where the first failure is, for its replay page (pipelines.report.games).
            where = {"run": int(run), "game_id": int(game_id), "turn": int(turn)}
            where |= {"seat": int(seat), "n_players": int(n_players or 0)}
            command = replay_command(info, int(game_id))
            if answer == "<raised>":
                what = f"first exception: {error}"
            elif answer == "<no answer>":
                what = f"first time limit: {error}"
            else:
                what = f"first illegal answer: {answer}"
            example = f" Its {what} (game {game_id}, turn {turn}, a {decision} decision)."
        out.append(
            RunWarning(
                kind="strategy_failures",
                run=run_label(info),
                text=(
                    f"{strategy} failed {numbers.count(failures)} times (an exception, an "
                    f"illegal answer or a change found by the audit: the engine played the "
                    f"fallback instead; or a decision past the time limit, which ended the "
                    f"game) in "
                    f"{numbers.count(touched)} of its {numbers.count(seats)} games "
                    f"({numbers.pct(touched / seats)}) in {short_label(info)}; its results "
                    f"measure the fallback as much as the strategy.{example}"
                ),
                command=command,
                details=(
                    {
                        "strategy": strategy,
                        "failures": int(failures),
                        "games": int(touched),
                        **({"first": where} if where else {}),
                    },
                ),
            )
        )
    return out


def run_warnings(
    con: duckdb.DuckDBPyConnection, groups: Groups, include_unfinished: bool
) -> list[RunWarning]:
    """Every warning about ``groups``' runs (``con`` is connected to all of them)."""
    out: list[RunWarning] = []
    for run in groups.runs:
        if not run.complete:
            have = con.execute(
                "SELECT count(*) FROM games_all WHERE run = ?", [groups.runs.index(run)]
            ).fetchall()[0][0]
            left = run.checked.leftovers if run.checked is not None else ()
            stray = (
                f" Not read: {numbers.count(len(left))} part file{'s' if len(left) != 1 else ''}"
                f" of unplayed shards that the interrupted simulate left unrecorded ({left[0]}"
                f"{', ...' if len(left) > 1 else ''})."
                if left
                else ""
            )
            out.append(
                RunWarning(
                    kind="unfinished_run",
                    run=run_label(run),
                    text=(
                        f"{short_label(run)} ({run.where}) is an unfinished run: reported for the "
                        f"{numbers.count(have)} of {numbers.count(run.manifest['spec']['games'])} "
                        f"games it has; run the same simulate command again to finish it.{stray}"
                    ),
                )
            )
    out += _unfinished(con, groups, include_unfinished)
    out += _failures(con, groups)
    for cohort in groups.cohorts:
        if len(cohort.runs) > 1:
            names = ", ".join(r.where for r in cohort.runs)
            words = GAMES[cohort.game].board_words() if cohort.game in GAMES else None
            on = f" on the same {words[1]}" if words else ""
            out.append(
                RunWarning(
                    kind="pooled_runs",
                    run=cohort.label,
                    text=(
                        f"{len(cohort.runs)} runs are pooled into one set of tables ({names}): "
                        f"they played the same rules and players{on} with different seeds, "
                        "and the same code played them."
                    ),
                )
            )
    return out
