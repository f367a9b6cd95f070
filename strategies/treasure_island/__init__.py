"""Treasure Island strategies: random, stopping rules and the single-turn reference."""
