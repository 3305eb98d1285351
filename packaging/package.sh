#!/usr/bin/env bash
# Builds the RunLens Debian package (Release, without tests) and prints its path.
# Usage: packaging/package.sh [BUILD_DIR]    (default build/package)
# Install it with: apt install ./build/package/runlens_<version>_<arch>.deb   (or dpkg -i, then apt -f install)
set -euo pipefail
cd "$(dirname "$0")/.."

build="${1:-build/package}"
bash packaging/install-deps.sh
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRUNLENS_BUILD_TESTS=OFF -DRUNLENS_BUILD_BENCHMARKS=OFF
# Only what the package holds: the program and the manual page generated from it.
cmake --build "$build" --target runlens runlens_manpage
(cd "$build" && cpack --config CPackConfig.cmake)

version="$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")"
deb="$build/runlens_${version}_$(dpkg --print-architecture).deb"
[ -f "$deb" ] || { echo "package: $deb was not written" >&2; exit 1; }
dpkg-deb --field "$deb" Package Version Depends
echo "package: $deb"
