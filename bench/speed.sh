#!/usr/bin/env bash
# Times this checkout's pdnkit against another revision's on the same inputs, the two
# runs of each command alternating (so that both see the same machine), and prints each
# command's median times and their ratio (new / old: below 1 is faster).
#
#   bash bench/speed.sh REV                 # e.g. main~3, a tag, a commit
#   SIZE_MB=100 RUNS=9 bash bench/speed.sh REV
#   PROFILE=release bash bench/speed.sh REV # the plain release build (default release-lto)
#
# Commands: lint -j1 and -j2 (jsonl), convert --to csv -j2, stats -j2, convert --to jsonl
# -j2, on the generated archive of SIZE_MB (default 100) and on real games repeated to
# the same size. Peak RSS of each run is printed beside the times.
set -euo pipefail
cd "$(dirname "$0")/.."
REV=${1:?usage: bash bench/speed.sh REV}
SIZE_MB=${SIZE_MB:-100}
RUNS=${RUNS:-5}
SEED=${SEED:-1}
PROFILE=${PROFILE:-release-lto}
OUT=target/bench
mkdir -p "$OUT"
# shellcheck source=bench/lib.sh
source bench/lib.sh

cargo build --profile "$PROFILE" --quiet --workspace
NEW=target/$PROFILE/pdnkit
GEN=target/$PROFILE/pdnkit-generate
OLD=$(build_rev "$REV" "$PROFILE")

INPUTS=("$(archive "$SIZE_MB")")
INPUTS+=("$(real_archive "$SIZE_MB")")
COMMANDS=(
    "lint -j1 --format jsonl"
    "lint -j2 --format jsonl"
    "convert -j2 --to csv"
    "stats -j2 --format json"
    "convert -j2 --to jsonl"
)

# one timed run: prints "seconds peak_kib"
timed() {
    /usr/bin/time -f '%e %M' -o "$OUT/time.txt" "$@" >/dev/null 2>&1 || true
    cat "$OUT/time.txt"
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

printf '%-26s %-28s %8s %8s %6s %9s %9s\n' command input old_s new_s ratio old_MiB new_MiB
for input in "${INPUTS[@]}"; do
    for cmd in "${COMMANDS[@]}"; do
        read -ra args <<<"$cmd"
        old_t=() new_t=() old_m=0 new_m=0
        cat "$input" >/dev/null
        for ((i = 0; i < RUNS; i++)); do
            read -r t m < <(timed "$OLD" "${args[@]}" -q "$input")
            old_t+=("$t"); ((m > old_m)) && old_m=$m
            read -r t m < <(timed "$NEW" "${args[@]}" -q "$input")
            new_t+=("$t"); ((m > new_m)) && new_m=$m
        done
        o=$(printf '%s\n' "${old_t[@]}" | median)
        n=$(printf '%s\n' "${new_t[@]}" | median)
        printf '%-26s %-28s %8.3f %8.3f %6.2f %9d %9d\n' "$cmd" "$(basename "$input")" "$o" "$n" \
            "$(awk -v a="$n" -v b="$o" 'BEGIN {print (b > 0) ? a / b : 0}')" \
            $((old_m / 1024)) $((new_m / 1024))
    done
done
