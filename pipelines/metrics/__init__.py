"""Metrics: small pure functions from a run's tables to tidy tables (DuckDB or Polars)."""
