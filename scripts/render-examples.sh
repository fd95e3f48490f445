#!/usr/bin/env bash
# Regenerates, with the tool itself, the pictures docs/rendering.md shows and the README's
# example finding (the block between the signalscope-finding markers).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift run RenderGallery docs/images
swift build --product signalscope
swift build --product ObserveSelfLeak
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
