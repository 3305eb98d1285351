#!/usr/bin/env bash
# The Debian package: CPack builds it from the build tree, its Depends are real packages installed here and
# cover every library the executable links, and the program unpacked from it (dpkg -x, no LD_LIBRARY_PATH)
# runs: --version, and scan on the demo run it writes itself.
# Usage: test_deb.sh BUILD_DIR VERSION
set -euo pipefail
# shellcheck source=checks.sh
source "$(dirname "$0")/checks.sh"

build="$1"
version="$2"

need cpack cmake
need dpkg-deb dpkg
need readelf binutils
need python3 python3

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if ! cpack --config "$build/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1; then
    cat "$work/cpack.log" >&2
    echo "FAIL: cpack (are runlens and runlens_manpage built?)" >&2
    exit 1
fi
arch="$(dpkg --print-architecture)"
deb="$work/out/runlens_${version}_${arch}.deb"
[ -f "$deb" ] || { ls -l "$work/out" >&2; echo "FAIL: no runlens_${version}_${arch}.deb" >&2; exit 1; }

field() {
    dpkg-deb --field "$deb" "$1"
}
[ "$(field Package)" = "runlens" ] || fail "Package is '$(field Package)'"
[ "$(field Version)" = "$version" ] || fail "Version is '$(field Version)', not $version"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture is '$(field Architecture)'"
[ -n "$(field Maintainer)" ] || fail "no Maintainer"
case "$(field Section)" in science | devel) ;; *) fail "Section is '$(field Section)'" ;; esac
[ -n "$(field Description)" ] || fail "no Description"
depends="$(field Depends)"
[ -n "$depends" ] || { echo "FAIL: no Depends" >&2; exit 1; }
info="$(dpkg-deb --info "$deb")"
grep -q "^ Depends: $depends\$" <<<"$info" || fail "dpkg-deb -I does not show the Depends"
echo "Depends: $depends"

# Package names and minimum versions, one "name version" per line ("name -" when unversioned).
parse_depends() {
    tr ',' '\n' | sed -E 's/^ *//; s/ *$//' | grep -v '^$' \
        | sed -E 's/^([a-z0-9.+-]+)( *\(>= *([^)]+)\))?$/\1 \3/; s/ $/ -/'
}
declared="$(parse_depends <<<"$depends")"

# Every dependency is a package this (Debian 12) machine has installed, at a version that satisfies it.
while read -r name minimum; do
    installed="$(dpkg-query -W -f='${Status} ${Version}' "$name" 2>/dev/null || true)"
    if [[ "$installed" != "install ok installed "* ]]; then
        fail "Depends names $name, which is not an installed package"
        continue
    fi
    if [ "$minimum" != "-" ] && ! dpkg --compare-versions "${installed##* }" ge "$minimum"; then
        fail "$name ${installed##* } is older than the required $minimum"
    fi
done <<<"$declared"

# Every library the executable needs directly comes from a package in Depends.
mkdir -p "$work/root"
dpkg-deb -x "$deb" "$work/root"
binary="$work/root/usr/bin/runlens"
[ -x "$binary" ] || { echo "FAIL: usr/bin/runlens is not in the package" >&2; exit 1; }
declare -A lib_paths
for needed in $(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    # The dynamic loader (needed once the executable reads a library's thread-local storage, as
    # protobuf's arena does) is listed by ldd under its full path, not as "name => path".
    path="$(ldd "$binary" | awk -v lib="$needed" '$1 == lib { print $3 } $1 ~ ("/" lib "$") { print $1 }')"
    if [ -z "$path" ] || [ "$path" = "not" ]; then
        fail "$needed is not found on this machine"
        continue
    fi
    # dpkg knows a file by the path its package ships it at: /lib/... or /usr/lib/..., so ask for both.
    lib_paths[$needed]="$path $(readlink -f "$path")"
done
# One dpkg-query for all paths: each call reads the whole file list database.
# shellcheck disable=SC2068
owners="$(dpkg-query -S ${lib_paths[@]} 2>/dev/null || true)"
for needed in "${!lib_paths[@]}"; do
    owner=""
    for path in ${lib_paths[$needed]}; do
        owner="$(awk -v p="$path" -F': ' '$2 == p { print $1; exit }' <<<"$owners")"
        [ -n "$owner" ] && break
    done
    owner="${owner%%:*}"
    if [ -z "$owner" ]; then
        fail "no package owns ${lib_paths[$needed]} ($needed)"
    elif ! grep -q "^$owner " <<<"$declared"; then
        fail "$needed comes from $owner, which Depends does not name"
    fi
done

# Where dpkg-shlibdeps is available it is a second opinion: each package it derives must be in Depends,
# with a minimum version at least as high as the one it derives.
if command -v dpkg-shlibdeps >/dev/null; then
    mkdir -p "$work/shlibdeps/debian"
    printf 'Source: runlens\n\nPackage: runlens\nArchitecture: any\n' >"$work/shlibdeps/debian/control"
    if shlibs="$(cd "$work/shlibdeps" && dpkg-shlibdeps -O "$binary" 2>/dev/null)"; then
        while read -r name minimum; do
            ours="$(awk -v n="$name" '$1 == n { print $2; exit }' <<<"$declared")"
            if [ -z "$ours" ]; then
                fail "dpkg-shlibdeps wants $name, which Depends does not name"
            elif [ "$minimum" != "-" ] && { [ "$ours" = "-" ] || ! dpkg --compare-versions "$ours" ge "$minimum"; }; then
                fail "dpkg-shlibdeps wants $name (>= $minimum), Depends says ${ours/-/no version}"
            fi
        done < <(parse_depends <<<"${shlibs#shlibs:Depends=}")
    else
        fail "dpkg-shlibdeps could not read usr/bin/runlens"
    fi
fi

# Files are owned by root and the layout is the install layout under /usr.
not_root="$(dpkg-deb --contents "$deb" | awk '$2 != "root/root"')"
[ -z "$not_root" ] || fail "files not owned by root/root: $not_root"
for file in usr/bin/runlens usr/share/applications/io.github.runlens.RunLens.desktop \
    usr/share/metainfo/io.github.runlens.RunLens.metainfo.xml usr/share/mime/packages/runlens.xml \
    usr/share/man/man1/runlens.1 usr/share/icons/hicolor/scalable/apps/runlens.svg \
    usr/share/icons/hicolor/256x256/apps/runlens.png; do
    [ -f "$work/root/$file" ] || fail "the package lacks /$file"
done

# The unpacked program runs against the system libraries only.
unset LD_LIBRARY_PATH
export QT_QPA_PLATFORM=offscreen LC_ALL=C.UTF-8
unresolved="$(ldd "$binary" | grep "not found" || true)"
[ -z "$unresolved" ] || fail "unresolved libraries: $unresolved"
out="$("$binary" --version 2>"$work/version.err")" || fail "runlens --version failed: $(cat "$work/version.err")"
[ "$out" = "runlens $version" ] || fail "runlens --version printed '$out'"
demo="$work/demo-run"
"$binary" demo "$demo" >"$work/demo.log" 2>&1 || fail "runlens demo failed: $(cat "$work/demo.log")"
if "$binary" scan "$demo" --json >"$work/scan.json" 2>"$work/scan.err"; then
    # Every artifact scan reports is a file the demo wrote, and the demo wrote at least one of each family
    # the scanner knows it by.
    python3 - "$work/scan.json" "$demo" <<'EOF' || fail "runlens scan --json on the demo run"
import json, os, sys
report = json.load(open(sys.argv[1]))
artifacts = report.get("artifacts", [])
assert artifacts, "no artifacts"
for artifact in artifacts:
    path = os.path.join(sys.argv[2], artifact["path"])
    assert os.path.exists(path), f"{artifact['path']} is not in the demo run"
files = sum(len(names) for _, _, names in os.walk(sys.argv[2]))
assert len(artifacts) <= files, f"{len(artifacts)} artifacts from {files} files"
kinds = {artifact["kind"] for artifact in artifacts}
print(f"scan: {len(artifacts)} artifacts of {len(kinds)} kinds in the demo run ({files} files)")
EOF
else
    fail "runlens scan failed: $(cat "$work/scan.err")"
fi

finish "$(basename "$deb")"
