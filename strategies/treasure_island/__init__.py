"""Treasure Island strategies: random, stopping rules and the exact single-turn reference."""
