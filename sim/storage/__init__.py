"""Where runs are kept: a run's location (a local directory or a prefix in an S3-compatible
object store), its atomic writes, the lock or lease that keeps two commands out of it, the
manifest's record of its part files and their compaction. It knows nothing of games or of
how they are played: the runner (:mod:`sim.runner`) and the readers of runs use it, never
the other way round (an import-linter contract in ``pyproject.toml``)."""
