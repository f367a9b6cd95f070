"""Scripted Tobago strategies."""
