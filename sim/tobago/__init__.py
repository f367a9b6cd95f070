"""Tobago: island geometry, clues, landmarks, rules and the game engine."""
