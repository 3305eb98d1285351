# shellcheck shell=bash
# Shared by the packaging test scripts: checks report every failure and the script fails at the end,
# so one run lists everything that is wrong.

failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# need TOOL PACKAGE: stop at once when a tool the checks run is missing.
need() {
    command -v "$1" >/dev/null || {
        echo "FAIL: $1 is missing (packaging/install-deps.sh installs $2)" >&2
        exit 1
    }
}

# finish MESSAGE: the exit status of the whole script.
finish() {
    if [ "$failures" -ne 0 ]; then
        echo "$failures check(s) failed" >&2
        exit 1
    fi
    echo "$1: all checks passed"
}
