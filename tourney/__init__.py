"""``tourney`` as a library: the notebook API lives in :mod:`tourney.api`."""
