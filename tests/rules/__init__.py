"""Golden deals, one module per section of docs/rules.md (helpers in ``golden.py``)."""
