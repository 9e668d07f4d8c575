"""The kinds of study, one module each (``report/kinds/<kind>.py``): the study's fields and
checks, its kernel drivers, the command line that gives it, its deal count for the run-time
estimate, and how it runs (some in ``<kind>_run.py`` beside it). The layers below name each
kind's code after it too (``kernel/``, ``run/``, ``analysis/``, ``plots/``,
``cli/commands/``), with the exceptions each module's docstring names.

A new kind is a module here, registered in ``STUDIES`` below; its kernel driver joins
``loo_sim.kernel.DRIVERS`` (with its cold compile seconds) and its command the list in
``loo_sim.cli``. ``tests/test_kinds.py`` checks every kind against those."""

from __future__ import annotations

import dataclasses

from loo_sim.report.kinds.base import Study
from loo_sim.report.kinds.cardplay import CardplayStudy
from loo_sim.report.kinds.miss import MissStudy
from loo_sim.report.kinds.pots import PotsStudy
from loo_sim.report.kinds.risk import RiskStudy
from loo_sim.report.kinds.simulate import SimulateStudy
from loo_sim.report.kinds.solve import SolveStudy
from loo_sim.report.kinds.tournament import TournamentStudy
from loo_sim.report.kinds.variants import VariantsStudy

STUDIES: dict[str, type[Study]] = {
    s.kind: s
    for s in (SimulateStudy, MissStudy, PotsStudy, VariantsStudy, SolveStudy, TournamentStudy, RiskStudy,
              CardplayStudy)
}  # fmt: skip
KINDS = tuple(STUDIES)


def study_fields(kind: str) -> tuple[str, ...]:
    """The fields of a kind's study, in order."""
    return tuple(f.name for f in dataclasses.fields(STUDIES[kind]))


__all__ = ["KINDS", "STUDIES", "CardplayStudy", "MissStudy", "PotsStudy", "RiskStudy", "SimulateStudy",
           "SolveStudy", "Study", "TournamentStudy", "VariantsStudy", "study_fields"]  # fmt: skip
