#!/usr/bin/env python3
"""Peer of bench_runscanner: the walk RunScanner does, in Python, with the same rules.

Same entry rules as RunScanner with its default options: names starting with '.' are skipped (files and
folders), folders more than 8 levels below the root are not entered, the walk stops after 200,000 entries,
symbolic links to folders are entered after the real tree and only once (by device and inode), and a
file is opened only when its name can be a known kind: the extensions in SKIPPED (passed in by the
benchmark, which asks RunLens's FileSniffer) are never opened, names holding "tfevents", "summary.<digit>"
or starting "vdlrecords." with ".log" always are, and "x.json.gz" is judged by "json". A file that is
opened is opened relative to its folder (O_NOATIME where allowed), fstat'ed and its first 4 KiB read.
What the peer does not do: classify the head, group runs and ranks, or build a manifest.

Timed inside Python (interpreter start-up and imports excluded): one untimed warm-up scan, then
ITERATIONS timed scans; prints one JSON line with every scan's milliseconds and the counts.

    peer_runscanner.py ROOT ITERATIONS SKIPPED(comma-separated)
"""
import json
import os
import re
import stat
import sys
import time

MAX_DEPTH = 8
MAX_ENTRIES = 200000
HEAD_SIZE = 4096
SUMMARY_NAME = re.compile(r"summary\.\d")
FILE_FLAGS = os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK | os.O_NOCTTY
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC


def extension(lower):
    dot = lower.rfind(".")
    return "" if dot <= 0 else lower[dot + 1:]


def make_worth_reading(skipped):
    def worth_reading(name):
        lower = name.lower()
        if ("tfevents" in lower or SUMMARY_NAME.search(lower)
                or (lower.startswith("vdlrecords.") and ".log" in lower)):
            return True
        ext = extension(lower)
        if ext == "gz":
            ext = extension(lower[:-3])
        return ext not in skipped
    return worth_reading


def open_for_reading(dir_fd, name):
    try:
        return os.open(name, FILE_FLAGS | getattr(os, "O_NOATIME", 0), dir_fd=dir_fd)
    except PermissionError:
        return os.open(name, FILE_FLAGS, dir_fd=dir_fd)


def scan(root, worth_reading):
    state = {"entries": 0, "stop": False}
    files = []
    visited = set()
    deferred = []

    def visit_file(dir_fd, name, rel):
        if not worth_reading(name):
            return
        try:
            fd = open_for_reading(dir_fd, name)
        except OSError:
            return
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                return
            head = os.pread(fd, HEAD_SIZE, 0)
            files.append((rel, st.st_size, st.st_mtime_ns, len(head)))
        finally:
            os.close(fd)

    def walk(fd, rel, depth):
        stack = [(fd, rel, depth)]
        while stack and not state["stop"]:
            dir_fd, dir_rel, dir_depth = stack.pop()
            entries = list(os.scandir(dir_fd))
            for entry in entries:
                if state["entries"] >= MAX_ENTRIES:
                    state["stop"] = True
                    break
                state["entries"] += 1
                name = entry.name
                if name.startswith("."):
                    continue
                child_rel = name if not dir_rel else dir_rel + "/" + name
                if entry.is_dir(follow_symlinks=False):
                    if dir_depth + 1 > MAX_DEPTH:
                        continue
                    try:
                        child = os.open(name, DIR_FLAGS | os.O_NOFOLLOW, dir_fd=dir_fd)
                    except OSError:
                        continue
                    st = os.fstat(child)
                    if (st.st_dev, st.st_ino) in visited:
                        os.close(child)
                        continue
                    visited.add((st.st_dev, st.st_ino))
                    stack.append((child, child_rel, dir_depth + 1))
                elif entry.is_file(follow_symlinks=False):
                    visit_file(dir_fd, name, child_rel)
                elif entry.is_symlink():
                    try:
                        st = os.stat(name, dir_fd=dir_fd)
                    except OSError:
                        continue  # a dangling link
                    if stat.S_ISDIR(st.st_mode):
                        if dir_depth + 1 <= MAX_DEPTH:
                            deferred.append((child_rel, dir_depth + 1))
                    elif stat.S_ISREG(st.st_mode):
                        visit_file(dir_fd, name, child_rel)
            os.close(dir_fd)
        for dir_fd, _, _ in stack:
            os.close(dir_fd)

    root_fd = os.open(root, DIR_FLAGS)
    st = os.fstat(root_fd)
    visited.add((st.st_dev, st.st_ino))
    walk(root_fd, "", 0)
    while deferred and not state["stop"]:
        rel, depth = deferred.pop(0)
        try:
            fd = os.open(os.path.join(root, rel), DIR_FLAGS)
        except OSError:
            continue
        st = os.fstat(fd)
        if (st.st_dev, st.st_ino) in visited:
            os.close(fd)
            continue
        visited.add((st.st_dev, st.st_ino))
        walk(fd, rel, depth)
    return files, state["entries"]


def main():
    root, iterations = sys.argv[1], int(sys.argv[2])
    skipped = set(filter(None, sys.argv[3].split(","))) if len(sys.argv) > 3 else set()
    worth_reading = make_worth_reading(skipped)
    scan(root, worth_reading)  # warm-up, as RunLens's first scan
    times = []
    for _ in range(iterations):
        start = time.perf_counter()
        files, entries = scan(root, worth_reading)
        times.append((time.perf_counter() - start) * 1000.0)
    print(json.dumps({"ms": times, "opened": len(files), "entries": entries}))


if __name__ == "__main__":
    main()
