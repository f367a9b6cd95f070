"""The single-game layer: one seeded game played (:mod:`pipelines.play.game`), any game of a
run played again exactly (:mod:`pipelines.play.replay`), and the ablations of the rules. The
report replays games for its pages, so this sits below the report and above the metrics."""
