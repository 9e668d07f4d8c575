"""The Dask backend: the same numbers as the local one, even when a worker dies. The
library's DaskBackend runs on a client it is given; the CLI makes the LocalCluster."""

import os
import signal

import numpy as np
import pytest

from loo_sim import Rules
from loo_sim.base.errors import LooError
from loo_sim.cli.backend import open_backend
from loo_sim.game.policy import Policy, parse_table
from loo_sim.run.backend import LocalBackend, make_backend
from loo_sim.run.decisions import decisions, heuristics
from loo_sim.run.sessions import Arm, run_pots
from loo_sim.run.simulate import simulate


@pytest.fixture(scope="module")
def cluster():
    with open_backend("dask", workers=2) as backend:
        yield backend


def test_simulate_miss_and_pots_give_identical_aggregates_on_a_local_cluster(cluster):
    rules = Rules.preset("three-card")
    table = parse_table(["basic", "cautious/random", "always", "nothing-takes-miss", "ev"], 5)
    local, dask = LocalBackend(), cluster
    a = simulate(rules, table, 200_000, seed=3, backend=local, by_class=True)
    b = simulate(rules, table, 200_000, seed=3, backend=dask, by_class=True)
    assert np.array_equal(a.totals, b.totals)
    a = decisions(rules, table, 40_000, 1, backend=local)
    b = decisions(rules, table, 40_000, 1, backend=dask)
    assert np.array_equal(a.totals, b.totals)
    names = ["basic", "cautious", "ev"]
    cands = [Policy.parse(x) for x in names]
    a = heuristics(rules, table, 0, cands, names, 300_000, 2, precision=0.05, backend=local)
    b = heuristics(rules, table, 0, cands, names, 300_000, 2, precision=0.05, backend=dask)
    assert a.deals == b.deals < 300_000 and np.array_equal(a.totals, b.totals)  # the stopping rule too
    arms = [Arm("limited", rules.replace(penalty="limited"), table), Arm("unlimited", rules, table)]
    a = run_pots(arms, 300, 30, 4, backend=local)
    b = run_pots(arms, 300, 30, 4, backend=dask)
    for field in ("scal", "deal_stats", "pot_hist", "pot_sum", "max_hist", "bal_hist"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field


def test_the_header_names_the_workers_not_the_clients_threads(cluster):
    # it said "on 2 thread(s)", the client's numba threads, which play no part in a Dask run
    from loo_sim.report.kinds import SimulateStudy
    from loo_sim.report.running import run_study

    study = SimulateStudy(deals=4096)
    header = run_study(study, backend=cluster).text.splitlines()[0]
    assert header.endswith("s on 2 Dask worker(s), 1 thread(s) each"), header
    assert run_study(study, backend=cluster).info["ran_on"] == "2 Dask worker(s), 1 thread(s) each"
    assert run_study(study).text.splitlines()[0].endswith(" thread(s)")  # local: numba's threads


def test_killing_a_worker_mid_run_still_gives_identical_results(cluster):
    rules = Rules.preset("five-card")
    expected = simulate(rules, "basic", 1_500_000, seed=9, blocks_per_call=4)
    pids = cluster.client.run(os.getpid)
    killed = []

    def kill_one(done, total):
        if not killed:  # after the first chunk came back, with the others in flight
            victim = sorted(pids)[0]
            os.kill(pids[victim], signal.SIGKILL)
            killed.append(victim)

    got = simulate(rules, "basic", 1_500_000, seed=9, blocks_per_call=4, backend=cluster, progress=kill_one)
    assert killed and got.deals_done == expected.deals_done
    assert np.array_equal(got.totals, expected.totals)


def test_bad_backend_options_are_clear():
    with pytest.raises(LooError, match="backend: 'spark' is not one of local, dask"):
        make_backend("spark")
    with pytest.raises(LooError, match="backend: dask needs a dask.distributed Client"):
        make_backend("dask")
    with (
        pytest.raises(LooError, match="--scheduler goes with --backend dask"),
        open_backend("local", "tcp://127.0.0.1:1"),
    ):
        pass
    with pytest.raises(LooError, match="cannot reach"), open_backend("dask", "tcp://127.0.0.1:9", timeout="2s"):
        pass


def test_the_library_runs_on_a_client_it_is_given():
    from dask.distributed import Client, LocalCluster

    rules = Rules.preset("three-card")
    with LocalCluster(n_workers=1, processes=False, dashboard_address=None) as lc, Client(lc) as client:
        backend = make_backend("dask", client)
        got = simulate(rules, "basic", 50_000, seed=2, backend=backend)
        backend.close()  # the client is the caller's: still open
        assert client.status == "running"
    assert np.array_equal(got.totals, simulate(rules, "basic", 50_000, seed=2).totals)


def test_without_dask_the_message_says_how_to_install_it(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # as if the extra were not installed
    with pytest.raises(LooError, match=r"pip install 'loo-sim\[dask\]'"), open_backend("dask"):
        pass


def test_variants_give_identical_aggregates_on_a_local_cluster(cluster):
    from loo_sim.run.variants import VariantRow, run_variants

    rows = [VariantRow(name, Rules.preset(name), parse_table("basic", 5)) for name in ("three-card", "limited")]
    a = run_variants(rows, deals=60_000, seed=5, backend=LocalBackend())
    b = run_variants(rows, deals=60_000, seed=5, backend=cluster)
    assert np.array_equal(a.pair, b.pair)
    for x, y in zip(a.results, b.results, strict=True):
        assert np.array_equal(x.totals, y.totals) and np.array_equal(x.batches, y.batches)
