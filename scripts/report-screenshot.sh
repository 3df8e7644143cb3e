#!/usr/bin/env bash
# Regenerates docs/images/report.png, the screenshot of a report page the README shows:
# the --emit=report page of samples/attention_scores.tile, rendered by headless Chromium
# (tests/report/check-report.js, which also checks the page), top 1200x900 pixels.
# Needs build/tilec (scripts/build-samples.sh) and the setup script's chromium and npm tools.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"
build/tilec samples/attention_scores.tile --emit=report -o "$work/attention_scores.html"
mkdir -p docs/images
node tests/report/check-report.js "$work/attention_scores.html" --page-shot docs/images/report.png
echo "report-screenshot: wrote docs/images/report.png"
