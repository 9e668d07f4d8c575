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
