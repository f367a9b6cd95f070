"""Running tournaments: the game schedule, shards of games as Arrow tables, Parquet output,
and the backends (serial, process pool, Ray) that play the shards."""
