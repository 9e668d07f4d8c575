"""The tunables, in one place (like stumpy's ``config.py``), and loo_sim's cache folders.

Changing a value here changes the numbers of the runs that use it (the block sizes also
fix which deals a round covers), so the tests pin them. The kernel freezes ``BLOCK`` and
``SESSION_BLOCK`` when numba compiles it; this file is part of the numba cache key
(``kernel/__init__.py``), so an edit here starts a fresh cache.
"""

from __future__ import annotations

import os
from pathlib import Path

# ---- kernel blocks -------------------------------------------------------------------------
BLOCK = 4096  # deals per kernel block (simulate, decision charts, heuristics, calibration)
SESSION_BLOCK = 64  # sessions per kernel block (pots)
MIN_SOLVE_DEALS = 2 * BLOCK  # solve's deals per iteration: two blocks at least (the halves of its honest estimates)

# ---- the miss study ------------------------------------------------------------------------
ROUND_BLOCKS = 8  # kernel blocks per round: the precision stopping rule looks only at whole rounds
MIN_HANDS = 30  # fewer decisions where both of two actions were on offer: a chart cell does not compare them
# --carried session: the sessions played for the carried pot's distribution, their deals, and the first deals of
# each not counted (from a clean pot towards the steady state)
SESSION_POTS_SESSIONS = 2000
SESSION_POTS_DEALS = 50
SESSION_POTS_BURN_IN = 10

# ---- strength tables (calibration) ---------------------------------------------------------
MIN_OBS = 50  # fewer hands in a (class, seats) cell: it borrows a coarser distribution
DEFAULT_DEALS = 500_000  # calibration deals per seat count m = 2..8, and for the entry rate
DEFAULT_SEED = 20260101  # the calibration runs' seed (the shipped tables use it)

# ---- the variants study --------------------------------------------------------------------
VARIANT_BATCHES = 20  # batch means per row: the SE of the net variance

# ---- cache folders -------------------------------------------------------------------------
APP_NAME = "loo_sim"


def cache_dir(name: str) -> Path:
    """One of loo_sim's cache folders: ``strength`` (calibrated tables) or ``numba``
    (compiled kernels). By default ``<user cache>/loo_sim/<name>``, the user cache as
    platformdirs gives it (``$XDG_CACHE_HOME`` or ``~/.cache`` on Linux). Overrides:
    ``$LOO_SIM_CACHE`` (tables go to ``$LOO_SIM_CACHE/strength``) and numba's own
    ``$NUMBA_CACHE_DIR`` (the kernels go there)."""
    if name == "strength" and os.environ.get("LOO_SIM_CACHE"):
        return Path(os.environ["LOO_SIM_CACHE"]) / "strength"
    if name == "numba" and os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    import platformdirs

    return platformdirs.user_cache_path(APP_NAME, appauthor=False) / name
