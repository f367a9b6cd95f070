"""Game engines and the tournament runner of ``tourney``.

``sim`` never imports ``strategies``, ``pipelines`` or ``reports``: callers hand it what it
needs (strategy factories, specs) and it returns data.
"""
