"""One LLVM option for the kernel's machine code, set when the kernel package is imported,
before anything compiles: on x86-64, keep selects as conditional moves.

The hot loops choose with selects, not branches, where the choice is a coin toss to the
processor: whether a follower heads the trick (kernel/tricks.py ``play_trick_basic``),
whether a seat comes in. LLVM's x86 "cmov converter" turns a conditional move whose
condition sits on a loop's longest dependency chain back into a branch, betting that
it is predictable; for these it is not, and each mispredicted branch costs the
pipeline. With the converter off the follower loop runs without a branch on the
trick's outcome: a five-card deal took about 275 ns instead of 305, a three-card deal
187 instead of 195 (one thread, ``scripts/bench.py``'s ``profile``).

It changes how fast the code runs, not what it computes. The option belongs to LLVM's
x86 backend (since LLVM 6), so it is set on x86-64 only. ``$LOO_SIM_NUMBA_AS_IS``
with ``cmov`` leaves LLVM as it is (for the bench). ``OPTIONS`` holds what was set; the
kernel's cache directory is named by it too, so code compiled with and without it is
never mixed.
"""

import os
import platform

CMOV = "-x86-cmov-converter=false"


def _set_options() -> tuple[str, ...]:
    if "cmov" in os.environ.get("LOO_SIM_NUMBA_AS_IS", "").replace(" ", "").split(","):
        return ()
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return ()
    try:
        import llvmlite.binding as llvm
    except ImportError:
        return ()
    llvm.set_option("loo_sim", CMOV)
    return (CMOV,)


OPTIONS = _set_options()  # the options in force
