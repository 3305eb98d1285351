#!/usr/bin/env bash
# Installs every package RunLens needs to build, test and benchmark on Debian 12.
# Idempotent: does nothing when all packages are present. Uses sudo only when not run as root.
# `install-deps.sh fuzz` (or RUNLENS_PRESET=fuzz) also installs clang and libFuzzer for the fuzz preset.
set -euo pipefail

preset="${1:-${RUNLENS_PRESET:-}}"

packages=(
    build-essential cmake ninja-build pkg-config git ccache
    qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev qt6-svg-dev qt6-tools-dev qt6-multimedia-dev qt6-tools-dev-tools qt6-l10n-tools
    qt6-translations-l10n libgl-dev libvulkan-dev
    libqcustomplot-dev libqcustomplot2.1-qt6
    libgraphviz-dev graphviz
    libprotobuf-dev protobuf-compiler
    libflatbuffers-dev flatbuffers-compiler
    nlohmann-json3-dev libsimdjson-dev zlib1g-dev libzip-dev zipcmp zipmerge ziptool
    libbenchmark-dev
    libeigen3-dev
    xvfb xauth
    python3 python3-numpy python3-protobuf python3-crc32c python3-torch
    fonts-noto-cjk
    desktop-file-utils appstream shared-mime-info libxml2-utils groff-base
)
if [ "$preset" = "fuzz" ]; then
    packages+=(clang-14 libclang-rt-14-dev)
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#packages[@]} packages are installed"
    exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi

echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
