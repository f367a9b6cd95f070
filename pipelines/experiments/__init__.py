"""The experiments layer: running games to answer a question (simulate, compare, sweep, tune,
regress, bench, the game conformance check), with the choice of game, the pools, the progress
display and the issues counted on the fly. Below the command line, above the report."""
