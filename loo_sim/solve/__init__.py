"""Equilibrium solving: the game-independent numerics of fictitious play (fictitious.py)."""
