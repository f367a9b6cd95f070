"""Scripted players per game and the registry that names them."""
