"""The command line layer: the ``tourney`` app (:mod:`pipelines.cli.main`) and its commands by
theme. It sits on top of the analysis and imports any layer below it; nothing imports it."""
