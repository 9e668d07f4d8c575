"""The Dask backend: the same numbers as the local one, even when a worker dies. The
library's DaskBackend runs on a client it is given; the CLI makes the LocalCluster."""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from distributed.diagnostics.plugin import SchedulerPlugin

from loo_sim import Rules
from loo_sim.base.errors import LooError
from loo_sim.cli.backend import DASK_MISSING, open_backend
from loo_sim.game.policy import Policy, parse_table
from loo_sim.run.backend import LocalBackend, make_backend
from loo_sim.run.decisions import decisions, heuristics
from loo_sim.run.sessions import Arm, run_pots
from loo_sim.run.simulate import simulate

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def cluster():
    import dask

    # the tests kill workers: a nanny restarting one on a loaded machine can take longer than the
    # 15 s after which a LocalCluster gives the worker up for good (the tests expect 2 workers)
    patience = {"distributed.deploy.lost-worker-timeout": "300s"}
    with dask.config.set(patience), open_backend("dask", workers=2) as backend:
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


def test_an_argument_sent_once_is_computed_again_when_the_worker_holding_it_dies(cluster):
    # a chart seat's declaration table (2.2 MB) goes to the cluster once per run, as a task the
    # chunks depend on (DaskBackend.map_chunks); the worker holding it is killed while they run
    # (Dask computes it again, or copies it from the other worker if that one has it by then)
    from loo_sim.game import abi as L

    rules = Rules.preset("five-card")
    table = parse_table(["chart", "basic", "basic", "basic", "basic"], 5)
    chart = np.zeros(L.CHART_SHAPE, dtype=np.int64)  # pass wherever passing is allowed
    expected = simulate(rules, table, 600_000, seed=9, blocks_per_call=4, chart=chart)
    client = cluster.client
    client.wait_for_workers(2, timeout=120)
    pids = client.run(os.getpid)
    killed = []

    def kill_its_holder(done, total):
        if not killed:  # after the first chunk came back, with the others in flight
            holders = [w for key, ws in client.who_has().items() if str(key).startswith("loo-static-") for w in ws]
            assert holders and holders[0] in pids
            os.kill(pids[holders[0]], signal.SIGKILL)
            killed.append(holders[0])

    got = simulate(rules, table, 600_000, seed=9, blocks_per_call=4, chart=chart, backend=cluster,
                   progress=kill_its_holder)  # fmt: skip
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
    with LocalCluster(n_workers=1, processes=False, dashboard_address=":0") as lc, Client(lc) as client:
        backend = make_backend("dask", client)
        got = simulate(rules, "basic", 50_000, seed=2, backend=backend)
        backend.close()  # the client is the caller's: still open
        assert client.status == "running"
    assert np.array_equal(got.totals, simulate(rules, "basic", 50_000, seed=2).totals)


def test_a_second_local_cluster_beside_the_first_gives_no_port_warning(cluster):
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with open_backend("dask", workers=1):
            pass
    assert not [w for w in caught if "already in use" in str(w.message)]


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


# ---- every study on the cluster (issue #28 item 4): the commands end to end --------------------
# small runs that still make several chunk tasks on Dask: solve's lanes (4 of its 8 hold deals),
# 3 rounds of 512 sessions for tournament and risk, 2 of 16 blocks for the cardplay ladder
COMMANDS = {
    "solve": ["solve", "--players", "5", "--iterations", "2", "--deals", "16384", "--eval-deals", "8192",
              "--seed", "1"],
    "tournament": ["tournament", "--players", "5", "--policies", "basic,cautious,ev", "--sessions", "1200",
                   "--session-deals", "10", "--seed", "2"],
    "risk": ["risk", "--players", "5", "--sessions", "1200", "--session-deals", "20", "--seed", "3"],
    "cardplay": ["cardplay", "--players", "5", "--entrants", "basic,high", "--deals", "70000", "--seed", "4"],
}  # fmt: skip
# the same studies as a report's experiments
REPORT = """
title = "every study on the cluster"
[defaults]
preset = "three-card"
players = 5
[[experiments]]
name = "solve"
kind = "solve"
iterations = 2
deals = 16384
eval_deals = 8192
seed = 1
[[experiments]]
name = "tournament"
kind = "tournament"
policies = ["basic", "cautious", "ev"]
sessions = 1200
session_deals = 10
seed = 2
[[experiments]]
name = "risk"
kind = "risk"
sessions = 1200
session_deals = 20
seed = 3
[[experiments]]
name = "cardplay"
kind = "cardplay"
entrants = ["basic", "high"]
deals = 70000
seed = 4
"""


@pytest.fixture(scope="module")
def local_runs(tmp_path_factory) -> dict:
    """Each command's folder, run on the local backend."""
    from loo_sim.cli import main

    folders = {}
    for command, argv in COMMANDS.items():
        folders[command] = tmp_path_factory.mktemp("local") / command
        assert main([*argv, "--out", str(folders[command])]) == 0, command
    return folders


def _on(cluster) -> list[str]:
    """The flags that run a command on the fixture's cluster, once it has its 2 workers again."""
    cluster.client.wait_for_workers(2, timeout=120)
    return ["--backend", "dask", "--scheduler", cluster.client.scheduler.address]


def _assert_same_csvs(expected, got) -> None:
    names = sorted(p.name for p in expected.glob("*.csv"))
    assert names and names == sorted(p.name for p in got.glob("*.csv"))
    for name in names:
        assert (got / name).read_bytes() == (expected / name).read_bytes(), name


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_each_command_writes_the_same_csv_bytes_on_a_local_cluster(cluster, local_runs, tmp_path, command):
    from loo_sim.cli import main

    out = tmp_path / "dask"
    assert main([*COMMANDS[command], *_on(cluster), "--out", str(out)]) == 0
    _assert_same_csvs(local_runs[command], out)


@contextmanager
def _a_worker_killed_at_work(backend) -> Iterator[list]:
    """SIGKILL the first worker seen running one of our chunk tasks (its nanny starts another,
    Dask computes the lost tasks again); yields the list of the workers killed."""
    client = backend.client
    pids = client.run(os.getpid)
    killed: list = []
    done = threading.Event()

    def watch() -> None:
        while not done.is_set() and not killed:
            for worker, keys in client.processing().items():
                if worker in pids and any(str(k).startswith("loo-") for k in keys):
                    os.kill(pids[worker], signal.SIGKILL)
                    killed.append(worker)
                    break
            time.sleep(0.01)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield killed
    finally:
        done.set()
        watcher.join()


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_worker_killed_mid_run_is_recomputed_and_the_csvs_are_the_same(cluster, local_runs, tmp_path, command):
    from loo_sim.cli import main

    out = tmp_path / "dask"
    flags = _on(cluster)
    with _a_worker_killed_at_work(cluster) as killed:
        assert main([*COMMANDS[command], *flags, "--out", str(out)]) == 0
    assert killed, "no worker was seen at work"
    _assert_same_csvs(local_runs[command], out)


def test_a_report_runs_these_kinds_on_the_cluster_and_resume_needs_no_backend(cluster, local_runs, tmp_path, capsys):
    # the report's backend reaches solve, tournament, risk and cardplay as the other kinds; the
    # backend is not part of an experiment's digest, so a local --resume finds them done
    from loo_sim.cli import main

    config = tmp_path / "cluster.toml"
    config.write_text(REPORT)
    out = tmp_path / "report"
    assert main(["report", str(config), *_on(cluster), "--out", str(out)]) == 0
    for command, folder in local_runs.items():
        _assert_same_csvs(folder, out / command)
    capsys.readouterr()
    assert main(["report", str(config), "--out", str(out), "--resume"]) == 0
    said = capsys.readouterr().out
    for command in COMMANDS:
        assert f"{command}: unchanged since the last run, skipped" in said, said


class LanesDone(SchedulerPlugin):
    """Counts the solve lanes computed (``loo-infoset_task`` chunk tasks) on the scheduler."""

    name = "loo-lanes-done"

    def __init__(self) -> None:
        self.count = 0

    def transition(self, key, start, finish, *args, **kwargs) -> None:
        if finish == "memory" and str(key).startswith("loo-infoset_task-"):
            self.count += 1


def _lanes_done(client) -> int:
    return client.run_on_scheduler(lambda dask_scheduler: dask_scheduler.plugins[LanesDone.name].count)


def test_ctrl_c_in_a_solve_on_the_cluster_writes_the_iterations_done_partial(cluster, tmp_path):
    # as on the local backend: the iterations that finished, stamped PARTIAL, one line, exit 130;
    # the lanes in flight are cancelled (the cluster is left with none of them)
    client = cluster.client
    out = tmp_path / "solve"
    argv = ["solve", "--players", "5", "--iterations", "100000", "--deals", "8192", *_on(cluster), "--out", str(out)]
    client.register_plugin(LanesDone())
    proc = subprocess.Popen([sys.executable, "-m", "loo_sim", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=dict(os.environ, PYTHONPATH=str(REPO)))  # fmt: skip
    try:
        deadline = time.time() + 120
        while _lanes_done(client) < 3 * 2 * 8:  # three iterations: each its deals' and its exploring deals' 8 lanes
            assert proc.poll() is None and time.time() < deadline, proc.communicate()
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        client.unregister_scheduler_plugin(LanesDone.name)
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, err
    assert re.fullmatch(rf"interrupted: [\d,]+ of 100,001 iterations done; partial results in {re.escape(str(out))}\n",
                        err), err  # fmt: skip
    assert (out / "summary.md").read_text().startswith("**PARTIAL**")
    assert json.loads((out / "run.json").read_text())["partial"] is True
    deadline = time.time() + 30
    while any(str(k).startswith("loo-") for keys in client.processing().values() for k in keys):
        assert time.time() < deadline, client.processing()
        time.sleep(0.1)


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("flags, says", [
    (["--workers", "0"], "--workers: 0 is not allowed; allowed 1..512"),
    (["--backend", "dask", "--workers", "513"], "--workers: 513 is not allowed; allowed 1..512"),
    (["--workers", "2"], "--workers goes with --backend dask"),
    (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler goes with --backend dask"),
    (["--backend", "spark"], "--backend 'spark' is not one of local, dask"),
])  # fmt: skip
def test_bad_backend_options_are_one_error_line_and_nothing_written(capsys, tmp_path, command, flags, says):
    from loo_sim.cli import main

    out = tmp_path / "o"
    assert main([*COMMANDS[command], *flags, "--out", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"error: {says}") and captured.err.count("\n") == 1, captured.err
    assert "Traceback" not in captured.err + captured.out and not out.exists()


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_without_dask_each_command_says_how_to_install_it(monkeypatch, capsys, tmp_path, command):
    from loo_sim.cli import main

    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # as if the extra were not installed
    assert main([*COMMANDS[command], "--backend", "dask", "--workers", "2", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {DASK_MISSING}\n", err
    assert not (tmp_path / "o").exists()  # refused before --out is made
