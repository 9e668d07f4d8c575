"""The numba kernel: arrays and ints only (DESIGN.md properties 2-5).

- ``bits``: hands as 52-bit masks; trumps, Pam, heading and card power (R1, R7, P1)
- ``krng``: the counter-based generator of ``loo_sim.rng`` in numba
- ``deal``: one deal, step by step like ``reference.py`` (deal, declare, exchange,
  flush, tricks, score), written into a record vector (``layout.py``)
- ``chunks``: many deals in parallel chunks, each reduced to aggregates
"""
