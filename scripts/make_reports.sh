#!/usr/bin/env bash
# Regenerate every committed report under reports/ (about three hours on 2 cores: the four solves
# under pimc card play take about 95 minutes and the cardplay report 30), then check
# each index.html in headless Chromium when it is installed (apt-get install chromium;
# pip install playwright).
set -euo pipefail
cd "$(dirname "$0")/.."
for name in miss pots variants variants-sessions solve tournament risk cardplay rules; do
  bash scripts/dev.sh run report "reports/$name.toml" --out "reports/$name"
done
# the miss chart's verdicts with basic and with pimc:8 card play (reports/cardplay.toml), side by side
bash scripts/dev.sh run cardplay --compare-charts reports/cardplay/chart-basic reports/cardplay/chart-pimc \
  --out reports/cardplay/chart-verdicts
.venv/bin/python scripts/cardplay_tips.py --deals 40000 --seed 1 --samples 16 --out reports/cardplay/tips
# the charts and equilibrium tables loo-sim advise looks a hand up in (loo_sim/data/canned/)
.venv/bin/python scripts/package_canned.py
if [ -x /usr/bin/chromium ] && .venv/bin/python -c "import playwright" 2>/dev/null; then
  .venv/bin/python scripts/check_report_html.py reports/*/index.html
else
  echo "note: Chromium or playwright missing; index.html pages were not checked in a browser" >&2
fi
