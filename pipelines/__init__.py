"""Flows and the command line: ``tourney`` (typer), simulation specs, analyses, comparisons."""
