#!/usr/bin/env bash
# Regenerates, with the tool itself, the pictures docs/rendering.md shows (the report's
# screenshot in headless Chromium included) and the README's example finding (the block
# between the signalscope-finding markers).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift run RenderGallery docs/images
swift build --product signalscope
swift build --product ObserveSelfLeak
swift build --product ScreensAtScale

# The app-scale example: its graph, and its report with a finding and an event's causal
# chain selected (the event with the longest chain).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
.build/debug/signalscope record --values -o "$work/scale.sslog" -- .build/debug/ScreensAtScale >/dev/null
.build/debug/signalscope graph "$work/scale.sslog" -o docs/images/app-scale-graph.png >/dev/null
.build/debug/signalscope report "$work/scale.sslog" -o "$work/report.html" >/dev/null
event=$(python3 - "$work/report.html" <<'PY'
import json, re, sys
page = open(sys.argv[1]).read()
data = json.loads(re.search(r'id="signalscope-data">(.*?)</script>', page, re.S).group(1))
events = data["events"]
def depth(index):
    steps = 0
    while events[index][4] is not None:
        index, steps = events[index][4], steps + 1
    return steps
print(max(range(len(events)), key=depth))
PY
)
chromium --headless=new --no-sandbox --disable-gpu --no-first-run --user-data-dir="$work/profile" \
  --virtual-time-budget=10000 --window-size=1600,1000 --screenshot=docs/images/report.png \
  "file://$work/report.html#finding=0&event=$event" 2>/dev/null
# check exits 2 on the planted leak, which is the point here.
finding=$(.build/debug/signalscope check --format text -- .build/debug/ObserveSelfLeak | grep -v '^header shows\|^no deinit' || true)
python3 - "$finding" <<'PY'
import re, sys
path = "README.md"
text = open(path).read()
block = "<!-- signalscope-finding:start -->\n```\n$ signalscope check -- swift run ObserveSelfLeak\n" + sys.argv[1].rstrip() + "\n```\n<!-- signalscope-finding:end -->"
updated = re.sub(r"<!-- signalscope-finding:start -->.*?<!-- signalscope-finding:end -->", lambda _: block, text, flags=re.S)
if updated == text and block not in text:
    sys.exit("README.md has no signalscope-finding markers")
open(path, "w").write(updated)
PY
echo "updated docs/images and the finding in README.md"
