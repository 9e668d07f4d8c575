"""loo_sim: a Monte Carlo strategy analyzer for Loo (Lanterloo)."""

from loo_sim.errors import LooError
from loo_sim.game.policy import Policy
from loo_sim.game.record import DealRecord
from loo_sim.game.rules import Rules
from loo_sim.run.api import play_deal, play_deals, play_session, records_frame, shuffled_decks
from loo_sim.version import __version__

__all__ = [
    "DealRecord",
    "LooError",
    "Policy",
    "Rules",
    "play_deal",
    "play_deals",
    "play_session",
    "records_frame",
    "shuffled_decks",
    "__version__",
]
