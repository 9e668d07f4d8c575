#!/usr/bin/env bash
# Set-up and run in one step. On first use (or when pyproject.toml changed) it makes
# .venv with python3 and installs loo-sim with its test and docs tools; then:
#   bash scripts/dev.sh test [PYTEST ARGS]   run the whole test suite, on 2 worker processes
#                                            (pytest-xdist; -n 0 after `test` runs it in one)
#   bash scripts/dev.sh run ARGS             run `loo-sim ARGS`
#   bash scripts/dev.sh bench                run scripts/bench.py
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
# editable_mode=compat puts the checkout on sys.path, so a script beside a clone named loo_sim/
# still imports the package (a strict editable install would load the clone as a namespace)
if [ ! -x .venv/bin/python ] || [ pyproject.toml -nt .venv/.installed ] || [ scripts/dev.sh -nt .venv/.installed ]; then
  echo "setting up .venv (first run: a minute or two) ..." >&2
  "$PY" -m venv .venv
  .venv/bin/python -m pip install -q --disable-pip-version-check -e ".[test,docs]" --config-settings editable_mode=compat
  touch .venv/.installed
fi
# numba compiles the kernel into the user cache folder, as a plain `loo-sim` does (one cache;
# $NUMBA_CACHE_DIR overrides it); the test suite uses .numba_cache/ (tests/conftest.py)
cmd="${1:-}"
[ $# -gt 0 ] && shift
case "$cmd" in
  test) exec .venv/bin/python -m pytest -n 2 "$@" ;;
  run) exec .venv/bin/loo-sim "$@" ;;
  bench) exec .venv/bin/python scripts/bench.py "$@" ;;
  *) echo "usage: bash scripts/dev.sh test|run ARGS|bench" >&2; exit 2 ;;
esac
