"""run/tasks.py: the blocks of a chunk on threads, and the kernel functions each kind of run compiles."""

import threading
from importlib import import_module

import numba
import pytest


@pytest.fixture
def two_threads():
    before = numba.get_num_threads()
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    yield numba.get_num_threads()
    numba.set_num_threads(before)


def test_each_block_runs_every_block_once(two_threads):
    import time

    from loo_sim.run.tasks import each_block

    seen, names = [], set()
    lock = threading.Lock()

    def work(b):
        time.sleep(0.02)  # long enough for the helper thread to take blocks too
        with lock:
            seen.append(b)
            names.add(threading.current_thread().name)

    each_block(work, 9)
    assert sorted(seen) == list(range(9))
    if two_threads > 1:  # this thread and a helper share the blocks
        assert any(n.startswith("loo-block") for n in names)
        assert all(t.daemon for t in threading.enumerate() if t.name.startswith("loo-block"))
    each_block(work, 0)
    assert len(seen) == 9


def test_each_block_raises_a_blocks_error_and_starts_no_block_after_it(two_threads):
    import time

    from loo_sim.run.tasks import each_block

    started = []

    def work(b):
        started.append(b)
        if b == 1:
            raise ValueError("block 1")
        time.sleep(0.05)

    with pytest.raises(ValueError, match="block 1"):
        each_block(work, 40)
    assert len(started) < 10  # the other blocks were dropped, not run
    each_block(lambda b: None, 4)  # the helpers are free again for the next call


def _solve_one_position(rules) -> None:
    """A perfect-information solve of one first lead (the card-play solver, P7)."""
    import random

    from loo_sim.engine.deal import reference_positions
    from loo_sim.game.policy import Policy
    from loo_sim.kernel import solver as K
    from loo_sim.run.args import rules_arrays
    from loo_sim.run.solver import encode_position

    deck = list(range(52))
    random.Random(4).shuffle(deck)
    positions, _ = reference_positions(rules, deck, 0, 0.0, [Policy.parse("always")] * rules.players)
    pi, pf = encode_position(positions[0])
    K.solve_position(pi, pf, rules_arrays(rules)[0], *K.workspace(10))


def test_the_drivers_table_names_what_each_kind_runs():
    # kernel_cache_is_warm reads the cache of exactly these functions: a run must call them
    from loo_sim import Rules, play_deals, shuffled_decks
    from loo_sim.game.policy import parse_table
    from loo_sim.kernel import DRIVERS
    from loo_sim.run.sessions import make_arms, run_pots
    from loo_sim.run.simulate import simulate
    from loo_sim.run.variants import VariantRow, run_variants

    assert {"simulate", "variants", "miss", "pots", "calibrate", "play_deals"} <= set(DRIVERS)
    rules = Rules.preset("three-card")
    runs = {
        "simulate": lambda: simulate(rules, "basic", 100),
        "variants": lambda: run_variants([VariantRow("a", rules, parse_table("basic", 5))], deals=100),
        "pots": lambda: run_pots(make_arms(rules, lambda n: parse_table("basic", n), []), 10, 5, 1),
        "play_deals": lambda: play_deals(rules, shuffled_decks(1, 5), [0] * 5),
    }
    runs["search"] = lambda: _solve_one_position(rules)
    for kind, run in runs.items():
        run()
        for module, name in DRIVERS[kind]:
            dispatcher = getattr(import_module(f"loo_sim.kernel.{module}"), name)
            if kind == "search":  # the solver is compiled into the driver that calls it: its own cache says so
                assert dispatcher._cache._cache_file._load_index(), name
                continue
            assert dispatcher.signatures, (kind, name)  # called (compiled or loaded) in this process


def test_the_block_kernels_run_on_threads_release_the_gil():
    # each_block's threads run in parallel only if each block's kernel drops the GIL
    from loo_sim.kernel.calibrate import calibrate_block
    from loo_sim.kernel.chunks import play_rows, run_block
    from loo_sim.kernel.sessions import session_block
    from loo_sim.kernel.variants import variant_block

    for kernel in (run_block, session_block, variant_block, calibrate_block, play_rows):
        assert kernel.targetoptions.get("nogil") is True, kernel.py_func.__name__


class _Kernel:  # what first_call reads of a numba dispatcher
    def __init__(self, signatures):
        self.signatures = signatures


def test_first_call_collects_garbage_less_often_only_while_compiling():
    import gc

    from loo_sim.run.tasks import GC_THRESHOLD, first_call

    before = gc.get_threshold()
    with first_call(_Kernel([])):
        assert gc.get_threshold()[0] == max(before[0], GC_THRESHOLD)
        with first_call(_Kernel([])):  # nested (another thread's first call): restored by the last one out
            pass
        assert gc.get_threshold()[0] == max(before[0], GC_THRESHOLD)
    assert gc.get_threshold() == before
    with first_call(_Kernel(["(int64,)"])):  # compiled already: nothing changes
        assert gc.get_threshold() == before
    with pytest.raises(KeyError), first_call(_Kernel([])):
        raise KeyError
    assert gc.get_threshold() == before


def test_each_block_runs_a_cold_kernels_first_block_alone(two_threads):
    from loo_sim.run.tasks import each_block

    order = []
    each_block(lambda b: order.append((b, threading.current_thread() is threading.main_thread())), 4, _Kernel([]))
    assert order[0] == (0, True) and sorted(b for b, _ in order) == [0, 1, 2, 3]
