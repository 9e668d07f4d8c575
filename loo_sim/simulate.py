"""``loo_sim.simulate``: the public entry point of a kernel run, kept at the top of the
package for scripts written against it (``from loo_sim.simulate import simulate``).
The implementation is ``loo_sim.run.simulate``."""

from loo_sim.run.simulate import SimResult, simulate

__all__ = ["SimResult", "simulate"]
