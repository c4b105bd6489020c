#!/usr/bin/env python3
"""Counts the production lines of src/: lines that are neither blank nor comments, outside
`#[cfg(test)]` items (and the files such items include with `#[path]`). An item's end is
found by counting braces, leaving out those inside string and char literals and comments.

    python3 bench/loc.py          # the total, then each file with its count (-v)
"""
import os
import re
import sys


def braces(line, state):
    """The `{` and `}` of `line` that are code, not inside a string or char literal or a
    comment. `state` carries what a line leaves open into the next: a string (the text
    that closes it: `"`, or `"#` … for a raw string) or a block comment (its depth)."""
    opens = closes = 0
    i, n = 0, len(line)
    while i < n:
        if state.get("comment"):
            if line.startswith("*/", i):
                state["comment"] -= 1
                i += 2
            elif line.startswith("/*", i):
                state["comment"] += 1
                i += 2
            else:
                i += 1
            continue
        if "string" in state:
            close, raw = state["string"]
            if not raw and line[i] == "\\":
                i += 2
            elif line.startswith(close, i):
                del state["string"]
                i += len(close)
            else:
                i += 1
            continue
        c = line[i]
        m = re.match(r'b?r(#*)"', line[i:])
        if m and (i == 0 or not (line[i - 1].isalnum() or line[i - 1] == "_")):
            state["string"] = ('"' + m.group(1), True)
            i += m.end()
        elif c == '"':
            state["string"] = ('"', False)
            i += 1
        elif line.startswith("//", i):
            break
        elif line.startswith("/*", i):
            state["comment"] = 1
            i += 2
        elif c == "'":
            # a char literal ('{', '\'', '\u{7b}'), or a lifetime or label ('a)
            m = re.match(r"'(\\(u\{[0-9a-fA-F]*\}|.)|[^\\'])'", line[i:])
            i += m.end() if m else 1
        else:
            opens += c == "{"
            closes += c == "}"
            i += 1
    return opens, closes


def production_lines(path, test_files):
    """The production lines of one file; adds the files its test modules include."""
    n = 0
    depth = 0
    skip_from = None  # brace depth where a #[cfg(test)] item started
    pending_test = False
    in_block_comment = False
    literal = {}  # a string or comment that goes on to the next line
    for line in open(path, encoding="utf-8"):
        s = line.strip()
        if in_block_comment:
            in_block_comment = "*/" not in s
            continue
        if s.startswith("/*"):
            in_block_comment = "*/" not in s
            continue
        opens, closes = braces(line, literal)
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
