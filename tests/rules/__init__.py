"""Golden deals, one module per section of RULES.md (helpers in ``golden.py``)."""
