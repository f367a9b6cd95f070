"""Example user strategies, written only against the public game API."""
