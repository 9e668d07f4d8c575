

def test_a_calibration_run_in_rounds_counts_the_same_as_in_one(monkeypatch):
    """calibrate --deals 1e12 allocated one row per kernel block (7.6 TiB, a MemoryError):
    the blocks now run a round at a time, and the counts do not depend on the round size."""
    import loo_sim.run.strength as strength
    from loo_sim.base.config import BLOCK
    from loo_sim.game.rules import Rules

    rules = Rules.preset("three-card")
    whole = strength._run_calibration(rules, 4, "always", 5 * BLOCK + 7, seed=3)
    monkeypatch.setattr(strength, "CALIBRATION_ROUND", 2)
    rounds = strength._run_calibration(rules, 4, "always", 5 * BLOCK + 7, seed=3)
    assert all((a == b).all() for a, b in zip(whole, rounds))
    assert whole[1].sum() > 0
