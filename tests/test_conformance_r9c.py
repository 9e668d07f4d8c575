"""The 1,000 R9c conformance deals (shared/conformance/deals_r9c.jsonl, from the same
independent implementation as the others): every line whose options and policies loo_sim
has is played through both engines and must give the expected record. The lines that
use a setting or a policy family loo_sim lacks yet are counted, and the count is pinned:
when the last of them lands, every one of the 1,000 lines is played."""

from collections import Counter

from loo_sim import LooError, Rules, play_deals
from loo_sim.game.policy import Policy
from tests.data import load_conformance_r9c
from tests.test_conformance import assert_record_matches

DEALS = load_conformance_r9c()
# the lines played today; the rest wait for the settings and families the test lists
COVERED = 1000
# what the other lines wait for (a setting or a policy family loo_sim lacks), as `lacking` names it
WAITING: set[str] = set()


def lacking(d: dict) -> list[str]:
    """The settings and policy families of one line that loo_sim does not have yet."""
    missing = []
    for name, value in d["overrides"].items():
        try:
            Rules.coerce_option(name, value)
        except LooError:
            missing.append(f"{name}={value}")
    for text in d["policy"]:
        try:
            Policy.parse(text)
        except LooError:
            missing.append(f"policy {text.split('/')[0]}")
    return missing


def test_r9c_conformance_file_is_whole():
    assert len(DEALS) == 1000


def test_r9c_conformance_deals_agree_in_both_engines():
    waiting: Counter = Counter()
    covered = 0
    for i, d in enumerate(DEALS):
        missing = lacking(d)
        if missing:
            waiting.update(set(missing))
            continue
        rules = Rules.preset(d["preset"], **d["overrides"])
        for engine in ("reference", "kernel"):
            rec = play_deals(rules, [d["deck"]], [d["dealer"]], [d["carried"]], d["policy"], engine=engine)[0]
            where = f"{engine}: line {i + 1} ({d['preset']} {d['overrides']})"
            assert_record_matches(rec.to_dict(), d["expected"], where)
        covered += 1
    assert covered == COVERED, f"{covered} of {len(DEALS)} lines played; still waiting for {dict(waiting)}"
    assert set(waiting) == WAITING, f"the lines wait for {sorted(waiting)}, not {sorted(WAITING)}"
    if not waiting:  # everything is implemented: every line is played
        assert covered == len(DEALS)
