#!/usr/bin/env bash
# `pdnkit fix` against `pdnkit lint -j1` on a file with nothing to fix (the generated
# archive: fix must cost no more than lint), and the repairs of `fix --unsafe-fixes` on
# games with one slip of the pen (pdnkit-repairs: repaired to the move played, left as
# they were, repaired wrongly).
#
#   bash bench/fix.sh                   # 100 MB archive, 7 runs each, 1,000 slips a kind
#   SIZE_MB=10 PAIR_RUNS=3 GAMES=200 bash bench/fix.sh
set -euo pipefail

cd "$(dirname "$0")/.."
SIZE_MB=${SIZE_MB:-100}
SEED=${SEED:-1}
PAIR_RUNS=${PAIR_RUNS:-7}
GAMES=${GAMES:-1000}
PROFILE=${PROFILE:-release-lto}
OUT=target/bench
mkdir -p "$OUT"

echo "building with the $PROFILE profile..." >&2
cargo build --profile "$PROFILE" --quiet --bin pdnkit
cargo build --profile "$PROFILE" --quiet -p pdnkit-gen --bin pdnkit-generate --bin pdnkit-repairs
BIN=target/$PROFILE/pdnkit
GEN=target/$PROFILE/pdnkit-generate

# shellcheck source=bench/lib.sh
source bench/lib.sh
FILE=$(archive "$SIZE_MB")
# (fix works on a copy: it would write the file it fixes)
COPY=$OUT/fix-input.pdn
cp "$FILE" "$COPY"

seconds() { # seconds CMD... -> wall seconds of one run
    local t0 t1
    t0=$EPOCHREALTIME
    "$@" >/dev/null 2>&1 || true
    t1=$EPOCHREALTIME
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }'
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

fixes=() lints=()
for ((i = 0; i < PAIR_RUNS; i++)); do
    fixes+=("$(seconds "$BIN" fix -j1 -q "$COPY")")
    lints+=("$(seconds "$BIN" lint -j1 -q --exit-zero --format jsonl "$COPY")")
done
cmp -s "$FILE" "$COPY" || { echo "fix changed a file with nothing to fix" >&2; exit 1; }
f=$(median "${fixes[@]}") l=$(median "${lints[@]}")
echo "## fix against lint -j1: $FILE ($(stat -c %s "$FILE") bytes), medians of $PAIR_RUNS, in turn"
echo
echo "| fix -j1 s | lint -j1 s | ratio |"
echo "|---|---|---|"
awk -v f="$f" -v l="$l" 'BEGIN { printf "| %.3f | %.3f | %.2f |\n", f, l, f / l }'
echo
echo "## repairs of games with one slip ($GAMES a kind, seed $SEED)"
echo
"target/$PROFILE/pdnkit-repairs" --games "$GAMES" --seed "$SEED"
