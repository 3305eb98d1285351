#!/usr/bin/env bash
# Renders the welcome page and every panel on the demo run into resources/screenshots/, as the README
# shows them. Each picture is `runlens --screenshot FILE --dock NAME DEMO` in a 1440x900 window, with
# fresh settings (default layout and preferences, English) so that the pictures do not depend on
# whoever runs the script.
#
#   bash packaging/screenshots.sh [BUILD_DIR]
#
# Without BUILD_DIR the Release build (build/release) is configured and built first.
set -euo pipefail
cd "$(dirname "$0")/.."

build="${1:-}"
if [[ -z "$build" ]]; then
    cmake --preset release >/dev/null
    cmake --build --preset release --target runlens
    build=build/release
fi
runlens="$build/app/runlens"
if [[ ! -x "$runlens" ]]; then
    echo "screenshots.sh: $runlens is missing; build RunLens first or pass its build folder" >&2
    exit 2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache" XDG_DATA_HOME="$work/data"
export QT_QPA_PLATFORM=offscreen LC_ALL=C.UTF-8 LANG=C.UTF-8
demo="$work/demo-run"
"$runlens" demo "$demo" >/dev/null

out=resources/screenshots
mkdir -p "$out"
"$runlens" --lang en --screenshot "$out/welcome.png" >/dev/null
echo "$out/welcome.png"

# The panel names come from the binary, so a new panel gets its picture without editing this script.
mapfile -t panels < <("$runlens" --lang en --list-docks)
if [[ ${#panels[@]} -eq 0 ]]; then
    echo "screenshots.sh: $runlens --list-docks printed no panels" >&2
    exit 1
fi
for panel in "${panels[@]}"; do
    file="$out/$(echo "$panel" | tr '[:upper:] ' '[:lower:]-').png"
    "$runlens" --lang en --screenshot "$file" --dock "$panel" "$demo" >/dev/null
    echo "$file"
done
