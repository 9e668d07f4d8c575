"""loo_sim: a Monte Carlo strategy analyzer for Loo (Lanterloo).

The public names load on first use (PEP 562), so ``import loo_sim`` and the command
line's ``--help`` do not import numba, pandas or matplotlib: the kernel is imported when
a deal is about to be played."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from loo_sim.base.errors import LooError

if TYPE_CHECKING:  # pragma: no cover
    from loo_sim.analysis.advise_api import advise
    from loo_sim.base.version import __version__
    from loo_sim.game.policy import Policy
    from loo_sim.game.record import DealRecord
    from loo_sim.game.rules import Rules
    from loo_sim.run.api import play_deal, play_deals, play_session, records_frame, shuffled_decks

# public name -> the module that defines it
_LAZY = {
    "advise": "loo_sim.analysis.advise_api",
    "Policy": "loo_sim.game.policy",
    "DealRecord": "loo_sim.game.record",
    "Rules": "loo_sim.game.rules",
    "play_deal": "loo_sim.run.api",
    "play_deals": "loo_sim.run.api",
    "play_session": "loo_sim.run.api",
    "records_frame": "loo_sim.run.api",
    "shuffled_decks": "loo_sim.run.api",
    "__version__": "loo_sim.base.version",  # read from the package metadata: not for --help
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'loo_sim' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "advise",
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
