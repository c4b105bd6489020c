#!/usr/bin/env bash
# Peak memory (RSS) and time of `pdnkit duplicates` on generated archives of GAMES games
# (default 10^6), against the reader and checker alone (`lint --select C101`: every game
# read and replayed, nothing reported), whose peak is what `duplicates` adds to: the
# difference over the games is what it holds per game (the target is at most 48 bytes).
#
#   bash bench/duplicates.sh
#   GAMES=100000 JOBS=1 bash bench/duplicates.sh
#
# Two inputs: GAMES different games (few copies: the first pass's fingerprints only), and
# GAMES/2 games written twice (every game in a group: the second pass re-reads the whole
# archive and spools an entry per game). The archives are generated once, in OUT
# (target/bench), outside the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-1000000}
SEED=${SEED:-1}
JOBS=${JOBS:-2}
PROFILE=${PROFILE:-release}
OUT=${OUT:-target/bench}
mkdir -p "$OUT"
# shellcheck source=bench/lib.sh
source bench/lib.sh

cargo build --profile "$PROFILE" --quiet --workspace
PDNKIT=target/$PROFILE/pdnkit
GEN=target/$PROFILE/pdnkit-generate

distinct=$OUT/duplicates-$GAMES-s$SEED.pdn
if [[ ! -s $distinct ]]; then
    echo "generating $distinct..." >&2
    generate --games "$GAMES" --seed "$SEED" -o "$distinct.tmp" && mv "$distinct.tmp" "$distinct"
fi
twice=$OUT/duplicates-$((GAMES / 2))x2-s$SEED.pdn
if [[ ! -s $twice ]]; then
    echo "generating $twice..." >&2
    generate --games $((GAMES / 2)) --seed "$SEED" -o "$twice.half"
    cat "$twice.half" "$twice.half" >"$twice.tmp" && mv "$twice.tmp" "$twice" && rm "$twice.half"
fi

# one run: prints "seconds peak_kib"
measure() {
    local t
    t=$(mktemp)
    /usr/bin/time -f "%e %M" -o "$t" "$PDNKIT" "$@" >/dev/null 2>&1 || [[ $? == 1 ]]
    tail -n 1 "$t"
    rm -f "$t"
}

printf '%-34s %-26s %8s %10s %14s\n' input command seconds "peak MiB" "bytes a game"
for input in "$distinct" "$twice"; do
    read -r base_s base_kib < <(measure lint -q -j "$JOBS" --select C101 "$input")
    printf '%-34s %-26s %8s %10.1f %14s\n' "$(basename "$input")" "lint --select C101" "$base_s" \
        "$(echo "$base_kib / 1024" | bc -l)" -
    read -r s kib < <(measure duplicates -q -j "$JOBS" "$input")
    printf '%-34s %-26s %8s %10.1f %14.1f\n' "$(basename "$input")" "duplicates" "$s" \
        "$(echo "$kib / 1024" | bc -l)" "$(echo "($kib - $base_kib) * 1024 / $GAMES" | bc -l)"
done
