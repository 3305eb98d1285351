#!/usr/bin/env bash
# Renders the application icon (resources/icons/runlens.svg) to the PNG sizes installed into the hicolor
# theme. The PNGs are committed, so a build never needs the renderer; run this again after editing the SVG.
# Needs rsvg-convert (Debian package librsvg2-bin), which is not a build dependency.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v rsvg-convert >/dev/null; then
    echo "render-icons: rsvg-convert is missing (apt-get install librsvg2-bin)" >&2
    exit 1
fi

for size in 48 128 256; do
    rsvg-convert --width "$size" --height "$size" --keep-aspect-ratio \
        --output "resources/icons/runlens-$size.png" resources/icons/runlens.svg
    echo "render-icons: resources/icons/runlens-$size.png"
done
