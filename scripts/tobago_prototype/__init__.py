"""The measured prototype of a compiled Tobago clue filter, in parts: the numba functions
(``kernels``), the reference's calls recorded from the bench's games (``capture``), those
positions as arrays and the compiled answers checked against the recorded ones
(``positions``), the reference replayed call by call and the compiled functions called from
Python (``replay``), the alternating-round timings and their report (``timing``) and where a
game's time goes (``profiling``). ``scripts/tobago_compiled_prototype.py`` runs it."""
