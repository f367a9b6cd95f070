"""Treasure Island's part of the analysis layer: its report sections, the push-your-luck
metrics and the study of the ``optimal`` approximation's error."""
