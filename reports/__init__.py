"""Rendering of tidy tables into figures and HTML/Markdown/JSON reports."""
