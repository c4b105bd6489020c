#!/usr/bin/env bash
# lint -j1 of International games against lint -j1 of Russian ones, the same binary, the
# runs alternating: the MB/s of each and their ratio (International / Russian; the aim is
# 0.7 or more). The inputs are real games of ../shared/corpus repeated to about SIZE_MB
# (International: the files that say GameType 20; Russian: abatsiev.pdn), never copied
# into the project.
#
#   bash bench/variant_lint.sh
#   SIZE_MB=50 RUNS=7 PROFILE=release bash bench/variant_lint.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SIZE_MB=${SIZE_MB:-100}
RUNS=${RUNS:-5}
PROFILE=${PROFILE:-release-lto}
OUT=target/bench
mkdir -p "$OUT"
# shellcheck source=bench/lib.sh
source bench/lib.sh

CORPUS=../shared/corpus/other-variants/international
[[ -d $CORPUS ]] || { echo "note: $CORPUS is absent; nothing to time" >&2; exit 0; }
RUSSIAN=$(real_archive "$SIZE_MB")
[[ -n $RUSSIAN ]] || { echo "note: the Russian real games are absent; nothing to time" >&2; exit 0; }
INTERNATIONAL="$OUT/real-international-${SIZE_MB}mb.pdn"
if [[ ! -s $INTERNATIONAL ]]; then
    python3 - "$CORPUS" "$SIZE_MB" "$INTERNATIONAL" <<'PY'
import pathlib, sys
folder, size, out = pathlib.Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
games = b"".join(
    p.read_bytes().rstrip() + b"\n\n"
    for p in sorted(folder.glob("*.pdn"))
    if b'[GameType "20"]' in p.read_bytes()
)
with open(out + ".tmp", "wb") as f:
    f.write(games * (size * 1_000_000 // len(games) + 1))
PY
    mv "$INTERNATIONAL.tmp" "$INTERNATIONAL"
fi

cargo build --profile "$PROFILE" --quiet
BIN=target/$PROFILE/pdnkit

# one run's user seconds (lint exits 1 on findings)
run() {
    /usr/bin/time -f "%U" -o "$OUT/variant-time.txt" "$BIN" lint -j1 --format jsonl "$1" >/dev/null 2>&1 || true
    tail -1 "$OUT/variant-time.txt"
}
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

declare -a ts_int ts_rus
for _ in $(seq "$RUNS"); do
    ts_int+=("$(run "$INTERNATIONAL")")
    ts_rus+=("$(run "$RUSSIAN")")
done
t_int=$(printf '%s\n' "${ts_int[@]}" | median)
t_rus=$(printf '%s\n' "${ts_rus[@]}" | median)
mb() { python3 -c "import os,sys; print(f'{os.path.getsize(sys.argv[1]) / 1e6 / float(sys.argv[2]):.1f}')" "$1" "$2"; }
mb_int=$(mb "$INTERNATIONAL" "$t_int")
mb_rus=$(mb "$RUSSIAN" "$t_rus")
echo "lint -j1, median of $RUNS alternating runs (user time, $PROFILE):"
echo "  international  ${t_int}s  ${mb_int} MB/s  ($INTERNATIONAL)"
echo "  russian        ${t_rus}s  ${mb_rus} MB/s  ($RUSSIAN)"
python3 -c "import sys; print(f'  ratio          {float(sys.argv[1]) / float(sys.argv[2]):.2f}')" "$mb_int" "$mb_rus"
