"""Runs the README's DuckDB queries (the ```sql block of its Parquet section) in the
current folder, which holds `dataset/` and `by-year/` (pdnkit convert --format parquet,
the second with --partition-by year) and `games.csv`, `moves.csv` (convert --format csv,
and with --per-move, of the same input), and checks each answer against the CSV export.

    python readme_queries.py README.md

Exit status 0 when every answer is right; 1 with the differences otherwise.
"""

import csv
import re
import sys
from collections import Counter

import duckdb


def readme_queries(path):
    text = open(path, encoding="utf-8").read()
    section = text[text.index("**Parquet**") :]
    block = re.search(r"```sql\n(.*?)```", section, re.S).group(1)
    return [q.strip() for q in block.split(";") if q.strip()]


def rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def none_last(value):
    return (value is None, value)


def expected_answers(games, moves):
    """The answer of each query, in its order, from the CSV export."""
    # results: games per result, most first
    results = Counter(g["result"] or None for g in games)
    q1 = sorted(results.items(), key=lambda kv: (-kv[1], none_last(kv[0])))
    # White's first moves, most played first, five
    first = Counter(m["move"] for m in moves if m["ply"] == "1")
    q2 = sorted(first.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    # per status: games, plies, captures
    status = {(g["path"], g["game"]): g["status"] for g in games}
    per = {}
    for g in games:
        per.setdefault(g["status"], [0, 0, 0])[0] += 1
    for m in moves:
        s = per[status[(m["path"], m["game"])]]
        s[1] += 1
        s[2] += m["captures"] != "0"
    q3 = sorted((k, *v) for k, v in per.items())
    # games per year of the Date tag (the partition's value), null last
    def year(g):
        d = g["date"]
        return int(d[:4]) if d[:4].isdigit() else None

    years = Counter(year(g) for g in games)
    q4 = sorted(years.items(), key=lambda kv: none_last(kv[0]))
    return [q1, q2, q3, q4]


def main():
    queries = readme_queries(sys.argv[1])
    expected = expected_answers(rows("games.csv"), rows("moves.csv"))
    if len(queries) != len(expected):
        print(f"the README has {len(queries)} queries; this script checks {len(expected)}")
        return 1
    con = duckdb.connect()
    failed = 0
    for query, want in zip(queries, expected):
        got = [tuple(r) for r in con.sql(query).fetchall()]
        want = [tuple(r) for r in want]
        ok = got == want
        failed += not ok
        print(("ok   " if ok else "DIFF ") + " ".join(query.split()))
        for r in got:
            print("     ", r)
        if not ok:
            print("  expected from the CSV export:")
            for r in want:
                print("     ", r)
    print(f"duckdb {duckdb.__version__}: {len(queries) - failed} of {len(queries)} queries right")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
