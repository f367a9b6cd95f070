"""The replay page of one game: a single self-contained HTML file (inline CSS, script and
data; the board's SVG is drawn by the script), no network, no external fonts.

Takes a replay document (plain data: the game's facts, its scene, one frame of state
differences per logged event and the events in words; see ``pipelines.report.replay_page``) and
wraps it with the player (``replay/player.js``: steps, turns, play/pause, keys, the event
list, the URL fragment) and the game's renderer (the script its replay hooks name, e.g.
``pipelines/tobago/replay.js``), which draws a frame and computes nothing the frames do not
hold.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from reports.figures import TERRAIN_COLOURS

ASSETS = Path(__file__).parent / "replay"


def _asset(name: str) -> str:
    return (ASSETS / name).read_text(encoding="utf-8")


def _script_json(obj: Any) -> str:
    """JSON safe inside a ``<script>`` element: ``<`` only ever appears inside strings, where
    ``\\u003c`` reads back the same, so no ``</script>`` or ``<!--`` can end the element."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).replace("<", "\\u003c")


#: The keys every event has; any other key rides along in the event's last item.
_EVENT_KEYS = ("turn", "seat", "name", "text", "secret")


def compact_events(events: list[dict[str, Any]]) -> dict[str, Any]:
    """Events as the page carries them: the event names once, then each event as ``[turn,
    seat, name index, text]``, followed by its ``secret`` when it has one or other keys, and
    those other keys as an object (``player.js`` reads them back). About half the size of
    the plain records, which matters for a game of thousands of steps."""
    names: dict[str, int] = {}
    rows: list[list[Any]] = []
    for e in events:
        row: list[Any] = [e["turn"], e["seat"], names.setdefault(e["name"], len(names)), e["text"]]
        extra = {k: v for k, v in e.items() if k not in _EVENT_KEYS}
        if e["secret"] != -1 or extra:
            row.append(e["secret"])
        if extra:
            row.append(extra)
        rows.append(row)
    return {"names": list(names), "rows": rows}


def _headline(doc: dict[str, Any]) -> tuple[str, str]:
    """The page's title and the line under it (players, result)."""
    where = f", {doc.get('board') or 'board'} {doc['island']}" if doc.get("island") else ""
    title = f"{doc['title']} replay: seed {doc['seed']}{where}"
    # A game cut short has a leader, not a winner.
    first = " (winner)" if doc["end_reason"] == "deck_exhausted" else " (leading)"
    seats = ", ".join(
        f"seat {i + 1} {label} {score}{first if rank == 1 else ''}"
        for i, (label, score, rank) in enumerate(
            zip(doc["players"], doc["scores"], doc["ranks"], strict=True)
        )
    )
    end = {
        "turn_cap": ", stopped at the turn cap",
        "deadlock": ", ended in a deadlock",
        "timeout": ", ended by a decision past the time limit",
    }.get(str(doc["end_reason"]), "")
    line = (
        f"Rules {doc['rules']} ({doc['rules_hash']}); {doc['turns']} turns{end}; final scores: "
        f"{seats}."
    )
    return title, line


def replay_html(doc: dict[str, Any], renderer: str) -> str:
    """The whole page of a replay document, with ``renderer``, the game's script that draws
    a frame (it defines ``GAME``)."""
    title, line = _headline(doc)
    data = dict(doc)
    data["palette"] = TERRAIN_COLOURS
    data["events"] = compact_events(doc["events"])
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{_asset('replay.css')}</style></head>"
        f'<body class="game-{html.escape(str(doc["game"]))}">'
        f"<header><h1>{html.escape(title)}</h1><p class='note'>{html.escape(line)}</p>"
        f"<p class='note'>Plays it again: <code>{html.escape(str(doc['source']))}</code>. "
        "Keys: ← → a step, Shift+← → a turn, Home and End, Space plays and pauses; the "
        "address keeps the step, to share it.</p>"
        "</header>"
        "<noscript><p>This replay needs JavaScript to show the game.</p></noscript>"
        f'<script type="application/json" id="replay-data">{_script_json(data)}</script>'
        f"<script>{_asset('player.js')}\n{renderer}\nstartReplay(GAME);</script>"
        "</body></html>"
    )
