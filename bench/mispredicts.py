#!/usr/bin/env python3
"""Which branches of a run an ideal branch predictor would still miss, by source line.

This machine's processor counters are not readable (a virtual machine), so mispredicted
branches cannot be counted. This script estimates them: valgrind's lackey tool lists every
superblock (a straight run of code with one entry) as it is entered, and a predictor in the
manner of TAGE (tables by length of the path history, with confidence counters, and
unbounded in size: an optimistic one) guesses each next superblock from the current one and
the path that led there. A wrong guess is one mispredicted branch, or more. The superblocks
whose exits it misses most are printed with their source lines (addr2line).

Use it on a small input (1 MB: about 9 million superblocks, a 100 MB trace and a minute of
Python):

    python3 bench/mispredicts.py target/release/pdnkit lint -q -j1 --exit-zero FILE

Caveat: a site it ranks high need not cost time (rewriting two such sites without
branches did not make `lint` faster: the processor hides some misses behind other work),
so treat its ranking as a list of suspects, not of costs. What it does show is how many
branches stay unpredictable per ply.
"""

import os
import subprocess
import sys
import tempfile
from collections import defaultdict

HISTORIES = [0, 2, 6, 16, 40]
BASE = 1000003
MOD = (1 << 61) - 1


def entry_point(binary):
    out = subprocess.run(["readelf", "-h", binary], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if "Entry point address" in line:
            return int(line.split()[-1], 16)
    raise SystemExit("no entry point in " + binary)


def superblocks(trace):
    with open(trace) as f:
        for line in f:
            if line.startswith("SB "):
                yield int(line[3:], 16)


def simulate(trace):
    """Misses and visits per superblock; also the first superblocks, to find the load base."""
    tables = {k: {} for k in HISTORIES}
    hashes = {k: 0 for k in HISTORIES}
    powers = {k: pow(BASE, k, MOD) for k in HISTORIES}
    longest = max(HISTORIES)
    ring = [0] * (longest + 1)
    misses, visits = defaultdict(int), defaultdict(int)
    first = []
    prev, pos = None, 0
    for here in superblocks(trace):
        if len(first) < 100_000:
            first.append(here)
        if prev is not None:
            guess = None
            for k in reversed(HISTORIES):
                entry = tables[k].get((prev, hashes[k]))
                if entry is not None and (entry[1] >= 1 or k == 0):
                    guess = entry[0]
                    break
            visits[prev] += 1
            if guess != here:
                misses[prev] += 1
            for k in HISTORIES:
                key = (prev, hashes[k])
                entry = tables[k].get(key)
                if entry is None:
                    tables[k][key] = [here, 0]
                elif entry[0] == here:
                    entry[1] = min(entry[1] + 1, 3)
                elif entry[1] > 0:
                    entry[1] -= 1
                else:
                    entry[0] = here
        dropped = {k: ring[(pos - k) % (longest + 1)] for k in HISTORIES if k}
        ring[pos % (longest + 1)] = here
        for k in HISTORIES:
            if k:
                hashes[k] = (hashes[k] * BASE + here - dropped[k] * powers[k]) % MOD
        prev, pos = here, pos + 1
    return misses, visits, first, pos


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    binary, args = sys.argv[1], sys.argv[2:]
    top = int(os.environ.get("TOP", 40))
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "trace")
        subprocess.run(
            ["valgrind", "--tool=lackey", "--trace-superblocks=yes", f"--log-file={trace}",
             binary, *args],
            stdout=subprocess.DEVNULL, check=False)
        misses, visits, first, total = simulate(trace)
    # the executable's load address: its entry point is the first of its superblocks run
    entry = entry_point(binary)
    base = next((a - entry for a in first if a >= entry and (a - entry) % 4096 == 0), 0)
    missed = sum(misses.values())
    print(f"{total} superblocks, {missed} missed ({100 * missed / max(total, 1):.1f}%)")
    print("missed  entered  rate  address  source (innermost first)")
    for here, n in sorted(misses.items(), key=lambda x: -x[1])[:top]:
        address = here - base
        where = subprocess.run(
            ["addr2line", "-i", "-e", binary, hex(address)], capture_output=True, text=True
        ).stdout.split()
        where = " ".join(w.rsplit("/", 1)[-1] for w in where[:3])
        print(f"{n:6d} {visits[here]:8d} {100 * n / visits[here]:4.1f}% {address:8x}  {where}")


if __name__ == "__main__":
    main()
