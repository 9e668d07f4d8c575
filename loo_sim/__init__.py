"""loo_sim: a Monte Carlo strategy analyzer for Loo (Lanterloo)."""

from .api import play_deal, play_deals
from .errors import LooError
from .policies import Policy
from .record import DealRecord
from .rules import Rules

__version__ = "0.1.0"
__all__ = ["DealRecord", "LooError", "Policy", "Rules", "play_deal", "play_deals", "__version__"]
