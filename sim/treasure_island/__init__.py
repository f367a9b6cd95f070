"""Treasure Island (Остров сокровищ), the push-your-luck card game: cards, rules, engine."""
