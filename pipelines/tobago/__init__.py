"""Tobago's part of the analysis layer: its report sections and metrics (curses, board
fairness, cells), the ``tourney board`` commands and the board setup benchmark."""
