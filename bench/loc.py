#!/usr/bin/env python3
"""Counts the production lines of src/: lines that are neither blank nor comments, outside
`#[cfg(test)]` items (and the files such items include with `#[path]`).

    python3 bench/loc.py          # the total, then each file with its count (-v)
"""
import os
import re
import sys


def production_lines(path, test_files):
    """The production lines of one file; adds the files its test modules include."""
    n = 0
    depth = 0
    skip_from = None  # brace depth where a #[cfg(test)] item started
    pending_test = False
    in_block_comment = False
    for line in open(path, encoding="utf-8"):
        s = line.strip()
        if in_block_comment:
            in_block_comment = "*/" not in s
            continue
        if s.startswith("/*"):
            in_block_comment = "*/" not in s
            continue
        opens, closes = line.count("{"), line.count("}")
        if skip_from is not None:
            depth += opens - closes
            if depth <= skip_from:
                skip_from = None
            continue
        if s.startswith("#[cfg(test)]"):
            pending_test = True
            continue
        if pending_test:
            m = re.match(r'#\[path\s*=\s*"([^"]+)"\]', s)
            if m:
                test_files.add(os.path.normpath(os.path.join(os.path.dirname(path), m.group(1))))
                continue
            if s.startswith("#["):
                continue
            pending_test = False
            if s.endswith(";"):
                continue
            if "{" in s:
                skip_from = depth
                depth += opens - closes
                if depth <= skip_from:
                    skip_from = None
                continue
        depth += opens - closes
        if s and not s.startswith("//"):
            n += 1
    return n


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    counts = {}
    test_files = set()
    for folder, _, files in os.walk(root):
        for f in files:
            if f.endswith(".rs"):
                p = os.path.normpath(os.path.join(folder, f))
                counts[p] = production_lines(p, test_files)
    for p in test_files:
        counts.pop(p, None)
    print(sum(counts.values()))
    if "-v" in sys.argv:
        for p, c in sorted(counts.items(), key=lambda kv: kv[1]):
            print(f"{c:6} {os.path.relpath(p, root)}")


main()
