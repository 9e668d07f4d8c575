"""Compiling without the numba runtime's reference counting (``NO_REFCOUNT``).

A deal allocates nothing and every array it touches belongs to its caller, so the deal
and the per-block loops that inline it are compiled without reference counting (the
``_nrt`` option): each array bound by an inlined step would otherwise cost an atomic
increment and decrement per call, which made the split deal more than twice as slow as
the one 289-line function was. Functions compiled this way must not allocate (no
``np.zeros``, no array expression, no row copy ``a[i, :] = b``), and neither may what they
call: numba compiles a callee with its caller's options. A driver compiled this way
may be called from Python (``counterfactual.decision_block``, whose caller allocates its
arrays): numba then borrows the arrays passed, as it did before its runtime existed,
and Python holds them for the call. ``_nrt`` is a private numba
option (0.59-0.68 at least): where it is gone, they compile with reference counting,
slower but with the same results.
"""


def _no_refcount_options() -> dict:
    try:
        from numba.core.cpu import CPUTargetOptions

        return {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}
    except ImportError:
        return {}


NO_REFCOUNT = _no_refcount_options()
