#!/usr/bin/env bash
# Regenerate every committed report under reports/ (a few minutes on 2 cores), then check
# each index.html in headless Chromium when it is installed (apt-get install chromium;
# pip install playwright).
set -euo pipefail
cd "$(dirname "$0")/.."
for name in miss pots variants variants-sessions solve tournament; do
  bash scripts/dev.sh run report "reports/$name.toml" --out "reports/$name"
done
if [ -x /usr/bin/chromium ] && .venv/bin/python -c "import playwright" 2>/dev/null; then
  .venv/bin/python scripts/check_report_html.py reports/*/index.html
else
  echo "note: Chromium or playwright missing; index.html pages were not checked in a browser" >&2
fi
