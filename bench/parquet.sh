#!/usr/bin/env bash
# `convert --format parquet` against `convert --format csv` on the generated archive
# (issue 47's targets: at most 1.25 times the time of the CSV export; games + moves tables
# at most 0.35 times the bytes of the game CSV plus the per-move CSV; peak RSS under
# 128 MB whatever the input's size).
#
#   bash bench/parquet.sh                       # 100 MB archive, 5 runs of each side of a pair
#   RUNS=3 ARCHIVE=../main/target/bench/archive-100mb-s1.pdn bash bench/parquet.sh
#   PROFILE=release bash bench/parquet.sh      # the plain release build instead of release-lto
#   BIG=10 bash bench/parquet.sh                # also the archive 10 times over standard input
#
# Each row is a pair of commands run in turn, A B A B... (RUNS times each), so that the
# drift of a shared machine falls on both alike and not on their ratio; the figures are
# medians of wall time, and the greatest peak RSS of the runs (/usr/bin/time -v's
# maximum resident set size). Every command writes its output to a file (-o).
set -euo pipefail

cd "$(dirname "$0")/.."
SIZE_MB=${SIZE_MB:-100}
SEED=${SEED:-1}
RUNS=${RUNS:-5}
PROFILE=${PROFILE:-release-lto}
BIG=${BIG:-0}
OUT=target/bench
mkdir -p "$OUT"

echo "building with the $PROFILE profile..." >&2
cargo build --profile "$PROFILE" --quiet --bin pdnkit
BIN=target/$PROFILE/pdnkit

# shellcheck source=bench/lib.sh
source bench/lib.sh
FILE=${ARCHIVE:-$(archive "$SIZE_MB")}
cat "$FILE" >/dev/null
WORK=$(mktemp -d "$OUT/parquet.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

TIME=/usr/bin/time
[[ -x $TIME ]] || TIME=""

# run CMD -> "wall_s peak_kib" (peak 0 without /usr/bin/time)
run() {
    local t0 t1 peak=0 m
    m=$(mktemp)
    t0=$EPOCHREALTIME
    if [[ -n $TIME ]]; then
        eval "$TIME -f %M -o $m $1" >/dev/null 2>&1 || true
        peak=$(tail -n 1 "$m")
    else
        eval "$1" >/dev/null 2>&1 || true
    fi
    t1=$EPOCHREALTIME
    rm -f "$m"
    awk -v a="$t0" -v b="$t1" -v p="$peak" 'BEGIN { printf "%.4f %d\n", b - a, p }'
}

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
max() { printf '%s\n' "$@" | sort -g | tail -n 1; }

# pair "CMD A" "CMD B" -> "wall_a wall_b peak_a peak_b"
pair() {
    local wa=() wb=() pa=() pb=() r
    for ((i = 0; i < RUNS; i++)); do
        rm -rf "$WORK"/out*
        r=$(run "$1")
        wa+=("${r% *}") pa+=("${r#* }")
        rm -rf "$WORK"/out*
        r=$(run "$2")
        wb+=("${r% *}") pb+=("${r#* }")
    done
    echo "$(median "${wa[@]}") $(median "${wb[@]}") $(max "${pa[@]}") $(max "${pb[@]}")"
}

echo "## convert --format parquet against --format csv: $FILE ($(stat -c %s "$FILE") bytes)"
echo
echo "- pdnkit $(git rev-parse --short HEAD 2>/dev/null || echo "?"), $PROFILE profile; $(nproc) cores; load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- medians of $RUNS runs of each command, the two of a row in turn; peak RSS the greatest of the runs"
echo
echo "| parquet command | parquet wall s | csv wall s | ratio | target | parquet peak RSS MB | csv peak RSS MB |"
echo "|---|---|---|---|---|---|---|"
CSV="$BIN convert -q --format csv $FILE -o $WORK/out.csv"
row() { # row LABEL TARGET ARGS...: convert --format parquet ARGS against the CSV export
    local label=$1 target=$2
    shift 2
    local r
    r=$(pair "$BIN convert -q --format parquet $* $FILE -o $WORK/out-pq" "$CSV")
    awk -v l="$label" -v r="$r" -v t="$target" 'BEGIN {
        split(r, x, " ")
        printf "| %s | %.3f | %.3f | %.2f | %s | %.1f | %.1f |\n", l, x[1], x[2], x[1] / x[2], t, x[3] / 1024, x[4] / 1024
    }'
}
row "--format parquet" "≤ 1.25"
row "--format parquet -j1 (csv -j2)" "" -j1
row "--format parquet --partition-by year" "" --partition-by year
row "--format parquet --positions" "" --positions
echo

echo "## Sizes"
echo
"$BIN" convert -q --format parquet "$FILE" -o "$WORK/size-pq" || true
"$BIN" convert -q --format csv "$FILE" -o "$WORK/size-games.csv" || true
"$BIN" convert -q --format csv --per-move "$FILE" -o "$WORK/size-moves.csv" || true
bytes() { stat -c %s "$@" | awk '{s += $1} END {print s}'; }
G=$(bytes "$WORK/size-pq/games.parquet")
M=$(bytes "$WORK/size-pq/moves.parquet")
D=$(bytes "$WORK/size-pq/diagnostics.parquet")
CG=$(bytes "$WORK/size-games.csv")
CM=$(bytes "$WORK/size-moves.csv")
echo "| file | bytes |"
echo "|---|---|"
echo "| games.parquet | $G |"
echo "| moves.parquet | $M |"
echo "| diagnostics.parquet | $D |"
echo "| game CSV | $CG |"
echo "| per-move CSV | $CM |"
awk -v g="$G" -v m="$M" -v cg="$CG" -v cm="$CM" 'BEGIN {
    printf "\ngames + moves tables / (game CSV + per-move CSV) = %.3f (target ≤ 0.35)\n", (g + m) / (cg + cm)
}'
rm -rf "$WORK"/size-*

if ((BIG > 0)); then
    echo
    echo "## $BIG times the archive through standard input"
    echo
    rm -rf "$WORK"/out*
    m=$(mktemp)
    t0=$EPOCHREALTIME
    for ((k = 0; k < BIG; k++)); do cat "$FILE"; done |
        ${TIME:+$TIME -f %M -o $m} "$BIN" convert -q --format parquet -o "$WORK/out-big" || true
    t1=$EPOCHREALTIME
    r="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }') $(tail -n 1 "$m")"
    rm -f "$m"
    awk -v r="$r" -v n="$BIG" -v s="$(stat -c %s "$FILE")" 'BEGIN {
        split(r, x, " ")
        printf "%.0f MB in %.1f s, peak RSS %.1f MB\n", n * s / 1e6, x[1], x[2] / 1024
    }'
fi
