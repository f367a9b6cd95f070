"""The statistics layer: pure functions over counts (:mod:`pipelines.stats.core` for
distributions, intervals and tests, with scipy for quantiles; the SPRT, the sequential
estimate, power). The bottom of the analysis: it imports no other part of ``pipelines``."""
