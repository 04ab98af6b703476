#!/usr/bin/env bash
# Render an HTML report in headless Chromium and save a PNG screenshot.
#
#   scripts/screenshot_report.sh REPORT.html OUT.png [WIDTH,HEIGHT]
#
# WIDTH,HEIGHT is the browser window and so the size of the image (default
# 1280,2000); the screenshot shows the top of the page. The page is opened
# from disk with networking off, so a page that needed the network would
# show it. The browser is $CHROMIUM, else the first of chromium,
# chromium-browser, google-chrome on the PATH (Debian: apt-get install
# chromium). As root, Chromium runs with --no-sandbox.
#
# Example (the screenshot in the README):
#   spacy-coref-eval report KEY RESPONSE -o report.html
#   scripts/screenshot_report.sh report.html docs/report.png 1280,2000
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
[ -f "$1" ] || { echo "no such file: $1" >&2; exit 1; }
html="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
out="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
size="${3:-1280,2000}"

browser="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}"
if [ -z "$browser" ]; then
    echo "Chromium not found: install it (Debian: apt-get install chromium) or set CHROMIUM" >&2
    exit 1
fi

profile="$(mktemp -d)"
log="$profile.log"
trap 'rm -rf "$profile" "$log"' EXIT
flags=(
    --headless --disable-gpu --hide-scrollbars --force-device-scale-factor=1
    --disable-background-networking --disable-component-update --disable-sync --no-first-run
    --user-data-dir="$profile" --window-size="$size" --screenshot="$out"
)
if [ "$(id -u)" -eq 0 ]; then
    flags+=(--no-sandbox)
fi

rm -f "$out"
if ! "$browser" "${flags[@]}" "file://$html" >"$log" 2>&1 || [ ! -s "$out" ]; then
    cat "$log" >&2
    echo "Chromium wrote no screenshot to $out" >&2
    exit 1
fi
echo "Saved $out ($size)"
