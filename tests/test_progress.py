"""Progress bars of the CLI (rich): drawn on a terminal's stderr, silent off a terminal
or on CI, and nothing for short loops; the library only calls progress(done, total)."""

import io

from loo_sim.cli.progress import TerminalProgress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_bar_per_loop_on_a_terminal(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    stream = Terminal()
    with TerminalProgress(stream=stream) as progress:
        deals, sessions = progress("deals"), progress("sessions")
        for done in (40_000, 100_000):
            deals(done, 100_000)
        sessions(7, 7)
    text = stream.getvalue()
    assert "deals" in text and "100000/100000" in text.replace(",", "")
    assert "sessions" in text and "7/7" in text


def test_silent_off_a_terminal_and_on_ci(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    assert TerminalProgress(stream=io.StringIO())("deals") is None
    monkeypatch.setenv("CI", "true")
    assert TerminalProgress(stream=Terminal())("deals") is None


def test_short_loops_draw_nothing(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    stream = Terminal()
    with TerminalProgress(min_total=2_000_000, stream=stream) as progress:
        progress("deals")(100_000, 100_000)
    assert stream.getvalue() == ""


def test_the_library_has_no_terminal_code():
    import loo_sim.run.simulate as simulate

    assert not hasattr(simulate, "TextProgress")


COLD = """
import io
from loo_sim.cli.progress import compile_notice

class Terminal(io.StringIO):
    def isatty(self):
        return True

stream = Terminal()
print(compile_notice("simulate", stream=stream))
print(repr(stream.getvalue()))
stream = Terminal()
compile_notice("simulate", "miss", stream=stream)  # two cold kinds: the longer one and a little more
print(repr(stream.getvalue()))
"""


def test_a_cold_kernel_cache_is_announced_on_a_terminal(tmp_path):
    # numba fixes a function's cache folder at import, so an empty NUMBA_CACHE_DIR needs its own process
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["NUMBA_CACHE_DIR"] = str(tmp_path)
    out = subprocess.run([sys.executable, "-c", COLD], capture_output=True, text=True, env=env, check=True).stdout
    said, text, both = out.splitlines()
    assert said == "True" and "compiling the kernel once, about 9 s" in text
    assert "compiling the kernel once, about 15 s" in both  # miss 12 s and 3 s more
    env["CI"] = "true"  # never on CI
    out = subprocess.run([sys.executable, "-c", COLD], capture_output=True, text=True, env=env, check=True).stdout
    assert out.splitlines() == ["False", "''", "''"]


def test_a_warm_kernel_cache_says_nothing(monkeypatch):
    from loo_sim import Rules
    from loo_sim.cli.progress import compile_notice
    from loo_sim.kernel import kernel_cache_is_warm
    from loo_sim.run.simulate import simulate

    monkeypatch.delenv("CI", raising=False)
    simulate(Rules.preset("three-card"), "basic", 100)  # compiled now if it was not, and cached
    assert kernel_cache_is_warm("simulate")
    stream = Terminal()
    assert not compile_notice("simulate", stream=stream) and stream.getvalue() == ""
    assert not compile_notice("simulate", stream=io.StringIO())  # never off a terminal


def test_the_commands_ask_before_they_compile(monkeypatch, capsys):
    from loo_sim.cli import main

    asked = []
    monkeypatch.setattr("loo_sim.cli.study.compile_notice", lambda *kinds, **kw: asked.append(kinds))
    assert main(["simulate", "--deals", "100"]) == 0
    assert asked == [("simulate",)]
    capsys.readouterr()


def test_calibrate_asks_only_when_it_calibrates(monkeypatch, capsys, tmp_path):
    from loo_sim.cli import main

    monkeypatch.setenv("LOO_SIM_CACHE", str(tmp_path))
    asked = []
    monkeypatch.setattr("loo_sim.cli.commands.calibrate.compile_notice", lambda *kinds, **kw: asked.append(kinds))
    argv = ["calibrate", "--preset", "three-card", "--set", "lead=ace", "--players", "4", "--deals", "4096"]
    assert main(argv) == 0 and asked == [("calibrate",)]
    assert main(argv) == 0 and asked == [("calibrate",)]  # cached now: nothing to compile
    assert main(["calibrate", "--preset", "three-card"]) == 0 and len(asked) == 1  # shipped
    capsys.readouterr()


def test_rates_are_in_the_unit_counted():
    # pots showed 120 sessions a second as "0.00 M/s"
    import io

    from loo_sim.cli.progress import _bars, rate_text

    assert rate_text(4_160_000, "deals") == "4.16 M deals/s"
    assert rate_text(1234.4, "sessions") == "1,234 sessions/s"
    assert rate_text(0.52, "sessions") == "0.5 sessions/s"

    class Task:
        finished_speed, speed, fields = None, 12_000.0, {"unit": "sessions"}

    rate = _bars(io.StringIO()).columns[3]  # the bar's rate column
    assert str(rate.render(Task())) == "12,000 sessions/s"


def test_each_bar_says_what_it_counts(monkeypatch):
    # miss drew two bars both labelled "deals": the chart's and the heuristics'
    from loo_sim.report.kinds import MissStudy, PotsStudy
    from loo_sim.report.running import run_study

    labels = []
    run_study(MissStudy(players=[4], deals=4096, carried=[0]), progress=lambda label: labels.append(label))
    run_study(PotsStudy(sessions=64, session_deals=5), progress=lambda label: labels.append(label))
    assert labels == ["chart deals", "heuristic deals", "sessions"]
    stream = Terminal()
    monkeypatch.delenv("CI", raising=False)
    with TerminalProgress(stream=stream) as progress:
        progress("heuristic deals")(5, 10)
    assert "heuristic deals" in stream.getvalue()


def test_the_notice_says_how_long_each_kind_compiles():
    from loo_sim.cli.progress import compile_seconds
    from loo_sim.kernel import COMPILE_SECONDS, DRIVERS

    assert set(COMPILE_SECONDS) == set(DRIVERS)  # a figure for every kind the notice can be asked about
    assert compile_seconds(["simulate"]) == 9 and compile_seconds(["miss"]) == 12
    assert compile_seconds(["simulate", "pots", "miss"]) == 18  # the longest and 3 s for each more
