"""Equilibrium solving: the game-independent numerics of fictitious play (``fictitious.py``)
and the declaration game of Loo solved with the kernel as its oracle (``declarations.py``)."""
