#!/usr/bin/env bash
# The `cmake --install` tree: every file in its place, each checked by the tool the desktop itself uses
# (desktop-file-validate, appstreamcli, update-mime-database, groff/man).
# Usage: test_install.sh BUILD_DIR SOURCE_DIR VERSION
set -euo pipefail
# shellcheck source=checks.sh
source "$(dirname "$0")/checks.sh"

build="$1"
srcdir="$2"
version="$3"

need desktop-file-validate desktop-file-utils
need appstreamcli appstream
need xmllint libxml2-utils
need update-mime-database shared-mime-info
need groff groff-base

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/usr"

if ! cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1; then
    cat "$work/install.log" >&2
    echo "FAIL: cmake --install $build (are runlens and runlens_manpage built?)" >&2
    exit 1
fi

app_id="io.github.runlens.RunLens"
desktop="$prefix/share/applications/$app_id.desktop"
metainfo="$prefix/share/metainfo/$app_id.metainfo.xml"
mime="$prefix/share/mime/packages/runlens.xml"
manpage="$prefix/share/man/man1/runlens.1"
binary="$prefix/bin/runlens"

for file in "$binary" "$desktop" "$metainfo" "$mime" "$manpage" \
    "$prefix/share/icons/hicolor/scalable/apps/runlens.svg" \
    "$prefix/share/icons/hicolor/48x48/apps/runlens.png" \
    "$prefix/share/icons/hicolor/128x128/apps/runlens.png" \
    "$prefix/share/icons/hicolor/256x256/apps/runlens.png"; do
    [ -f "$file" ] || fail "not installed: ${file#"$prefix"/}"
done
[ -x "$binary" ] || fail "bin/runlens is not executable"

# Translations are resources inside the executable, not files next to it.
loose="$(find "$prefix" -name '*.qm')"
[ -z "$loose" ] || fail "loose .qm files were installed: $loose"
# The line after "Usage:" is RunLens's own description, so Chinese there comes from our translation.
description="$(LC_ALL=C.UTF-8 QT_QPA_PLATFORM=offscreen "$binary" --lang zh_CN --help | sed -n 2p)"
grep -q -P '[^\x00-\x7F]' <<<"$description" \
    || fail "bin/runlens --lang zh_CN --help is not in Chinese: the translation is not compiled in"

# Each PNG has the size of the folder it is in (width and height from the IHDR chunk).
for size in 48 128 256; do
    png="$prefix/share/icons/hicolor/${size}x${size}/apps/runlens.png"
    [ -f "$png" ] || continue
    dims="$(python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); assert d[:8]==b"\x89PNG\r\n\x1a\n", "not a PNG"; print("%dx%d" % struct.unpack(">II", d[16:24]))' "$png")"
    [ "$dims" = "${size}x${size}" ] || fail "${size}x${size}/apps/runlens.png is $dims"
done

# Desktop entry: no errors, warnings or hints; it starts the installed binary and names the installed icon.
out="$(desktop-file-validate "$desktop" 2>&1)" || true
[ -z "$out" ] || fail "desktop-file-validate: $out"
grep -q '^Exec=runlens %f$' "$desktop" || fail "desktop entry Exec is not 'runlens %f'"
grep -q '^Icon=runlens$' "$desktop" || fail "desktop entry Icon is not runlens"
grep -q '^MimeType=inode/directory;' "$desktop" || fail "desktop entry does not open folders"

# AppStream: pedantic hints are fine (the reverse-DNS id has capitals), anything else fails.
if ! out="$(appstreamcli validate --no-net --strict "$metainfo" 2>&1)"; then
    fail "appstreamcli validate: $out"
fi
grep -q "<release version=\"$version\"" "$metainfo" || fail "metainfo has no release $version"
grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$metainfo" \
    || fail "metainfo launchable is not $app_id.desktop"
grep -q "<binary>runlens</binary>" "$metainfo" || fail "metainfo does not provide the runlens binary"
if grep -q -E '@[A-Z_]+@' "$metainfo"; then
    fail "metainfo has unconfigured @VARIABLES@"
fi
# Every screenshot is one the repository holds.
for shot in $(grep -o '<image>[^<]*</image>' "$metainfo" | sed 's|<image>.*/\([^/]*\)</image>|\1|'); do
    [ -f "$srcdir/resources/screenshots/$shot" ] || fail "metainfo screenshot $shot is not in resources/screenshots"
done

# shared-mime-info: well-formed, and compiled by update-mime-database into one definition per type.
xmllint --noout "$mime" || fail "xmllint $mime"
mkdir -p "$work/mime/packages"
cp "$mime" "$work/mime/packages/"
if ! out="$(update-mime-database -V "$work/mime" 2>&1)"; then
    fail "update-mime-database: $out"
fi
if grep -i -E "warning|error|unknown" <<<"$out"; then
    fail "update-mime-database complained about runlens.xml"
fi
types="$(grep -o '<mime-type type="[^"]*"' "$mime" | sed 's/.*type="\([^"]*\)"/\1/')"
[ "$(wc -l <<<"$types")" -ge 9 ] || fail "runlens.xml defines $(wc -l <<<"$types") types"
for type in $types; do
    [ -f "$work/mime/$type.xml" ] || fail "update-mime-database did not compile $type"
    grep -q "MimeType=.*;$type;" "$desktop" || fail "desktop entry MimeType lacks $type"
done

# Manual page: renders without a single warning, names the version and every subcommand.
if ! out="$(groff -man -Tutf8 -ww -z "$manpage" 2>&1)" || [ -n "$out" ]; then
    fail "groff warns about runlens.1: $out"
fi
if command -v man >/dev/null; then
    if ! out="$(LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$manpage" 2>&1 >/dev/null)" || [ -n "$out" ]; then
        fail "man -l runlens.1: $out"
    fi
fi
rendered="$(groff -man -Tutf8 -P-cbou "$manpage" 2>/dev/null)"
grep -q "RunLens $version" <<<"$rendered" || fail "runlens.1 does not show version $version"
export QT_QPA_PLATFORM=offscreen LC_ALL=C.UTF-8
main_help="$("$binary" --help)"
listed="$(sed -n '/^Subcommands/,/^$/p' <<<"$main_help" | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p' | sort -u)"
[ -n "$listed" ] || fail "runlens --help lists no subcommands"
# The documented subcommands (ARCHITECTURE.md) that this build implements, whether or not the main help lists
# them: a subcommand answers --help with its own text, not the main help.
implemented=""
for candidate in scan info demo export advise; do
    if [ "$("$binary" "$candidate" --help 2>/dev/null)" != "$main_help" ]; then
        implemented="$implemented $candidate"
    fi
done
for command in $(printf "%s\n" $listed $implemented | sort -u); do
    grep -q "^   runlens $command\$" <<<"$rendered" || fail "runlens.1 has no section for 'runlens $command'"
done
for command in $implemented; do
    grep -qx "$command" <<<"$listed" || fail "runlens --help does not list the subcommand $command"
done
for command in scan info demo export; do
    grep -q " $command\b" <<<"$implemented" || fail "runlens $command is not a subcommand"
done
# Every option of every subcommand is in the page.
for command in $listed; do
    for option in $("$binary" "$command" --help | sed -n 's/^  \(-[a-z], \)\{0,1\}\(--[a-z][a-z-]*\).*/\2/p'); do
        grep -q -- "$option" <<<"$rendered" || fail "runlens.1 lacks the option $option of runlens $command"
    done
done

# Every option a desktop entry's Exec line (the main one and its actions) passes is one the program accepts.
for option in $(sed -n 's/^Exec=runlens //p' "$desktop" | grep -o -- '--[a-z][a-z-]*' | sort -u); do
    grep -q -- "^ *$option\b" <<<"$main_help" || fail "desktop entry runs runlens $option, which runlens --help lacks"
done

# The installed binary runs from the prefix.
[ "$("$binary" --version)" = "runlens $version" ] || fail "bin/runlens --version is not 'runlens $version'"

finish "install tree under a temporary prefix"
