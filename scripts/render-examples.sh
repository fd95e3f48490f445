#!/usr/bin/env bash
# Regenerates the pictures docs/rendering.md shows, with the tool itself.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift run RenderGallery docs/images
