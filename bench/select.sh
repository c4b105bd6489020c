#!/usr/bin/env bash
# `pdnkit select` against `pdnkit lint -j1` on the generated archive (issue 46's targets:
# on tags alone at most half of lint -j1's time; with --position or --material at most
# 1.25 times; -j2 scaling as lint's).
#
#   bash bench/select.sh                  # 100 MB archive, 7 runs of each side of a pair
#   SIZE_MB=10 PAIR_RUNS=3 bash bench/select.sh
#   PROFILE=release bash bench/select.sh  # the plain release build instead of release-lto
#
# Each row is a pair of commands run in turn, A B A B... (PAIR_RUNS times each), so that
# the drift of a shared machine falls on both alike and not on their ratio; the figures
# are medians of wall time. Every select writes its matches (--format matches), so the
# cost of putting out what is found is in the figure.
set -euo pipefail

cd "$(dirname "$0")/.."
SIZE_MB=${SIZE_MB:-100}
SEED=${SEED:-1}
PAIR_RUNS=${PAIR_RUNS:-7}
PROFILE=${PROFILE:-release-lto}
OUT=target/bench
mkdir -p "$OUT"

echo "building with the $PROFILE profile..." >&2
cargo build --profile "$PROFILE" --quiet --bin pdnkit
cargo build --profile "$PROFILE" --quiet -p pdnkit-gen --bin pdnkit-generate
BIN=target/$PROFILE/pdnkit
GEN=target/$PROFILE/pdnkit-generate

# shellcheck source=bench/lib.sh
source bench/lib.sh
FILE=$(archive "$SIZE_MB")
cat "$FILE" >/dev/null

# pair "CMD A" "CMD B" -> "wall_a wall_b" (medians of PAIR_RUNS runs each, in turn)
pair() {
    local wa=() wb=() cmd t0 t1 which
    for ((i = 0; i < PAIR_RUNS; i++)); do
        for which in a b; do
            [[ $which == a ]] && cmd=$1 || cmd=$2
            t0=$EPOCHREALTIME
            # (a command line with quoted words: eval)
            eval "$cmd" >/dev/null 2>&1 || true
            t1=$EPOCHREALTIME
            if [[ $which == a ]]; then
                wa+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')")
            else
                wb+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')")
            fi
        done
    done
    median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
    echo "$(median "${wa[@]}") $(median "${wb[@]}")"
}

echo "## select against lint -j1: $FILE ($(stat -c %s "$FILE") bytes)"
echo
echo "- pdnkit $(git rev-parse --short HEAD 2>/dev/null || echo "?"), $PROFILE profile; $(nproc) cores; load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- medians of $PAIR_RUNS runs of each command, the two of a row in turn"
echo
echo "| select criteria | games selected | select wall s | lint wall s | ratio | target |"
echo "|---|---|---|---|---|---|"
LINT="$BIN lint -j1 -q --exit-zero --format jsonl $FILE"
row() { # row LABEL TARGET ARGS...: select -j1 ARGS against lint -j1
    local label=$1 target=$2
    shift 2
    local args="$*" n r
    n=$(eval "$BIN select -j1 -q --count $args $FILE" || true)
    r=$(pair "$BIN select -j1 -q --format matches $args $FILE" "$LINT")
    awk -v l="$label" -v n="$n" -v r="$r" -v t="$target" 'BEGIN {
        split(r, x, " ")
        printf "| %s | %s | %.3f | %.3f | %.2f | %s |\n", l, n, x[1], x[2], x[1] / x[2], t
    }'
}
row "--event кубок (tags)" "≤ 0.5" "--event кубок"
row "--player Иванов --date 1960..1969 (tags)" "≤ 0.5" "--player Иванов --date 1960..1969"
row "--tag 'Round >= 5' --result 2-0 (tags)" "≤ 0.5" "--tag 'Round >= 5' --result 2-0"
row "--material '3K v K'" "≤ 1.25" "--material '3K v K'"
row "--position (start, any ply)" "≤ 1.25" "--position W:W21-32:B1-12"
row "--position (a position after 4 plies)" "≤ 1.25" "--position W:W17,21,22,24-32:B1-10,12,15"
row "--pattern 'W:WKa1:Eb2,c3'" "≤ 1.25" "--pattern W:WKa1:Eb2,c3"
row "--material '2K v K' --at end" "≤ 1.25" "--material '2K v K' --at end"
row "--opening 'c3-d4 f6-g5' --status clean" "≤ 1.25" "--opening 'c3-d4 f6-g5' --status clean"
echo

echo "## -j1 against -j2"
echo
echo "| command | -j1 wall s | -j2 wall s | speed-up |"
echo "|---|---|---|---|"
scale() { # scale LABEL ARGS...: the command with -j1 and with -j2
    local label=$1
    shift
    local r
    r=$(pair "$BIN $* -j1 $FILE" "$BIN $* -j2 $FILE")
    awk -v l="$label" -v r="$r" 'BEGIN {
        split(r, x, " ")
        printf "| %s | %.3f | %.3f | %.2fx |\n", l, x[1], x[2], x[1] / x[2]
    }'
}
scale "lint" lint -q --exit-zero --format jsonl
scale "select --event кубок" select -q --format matches --event кубок
scale "select --material '3K v K'" select -q --format matches --material "'3K v K'"
scale "select --event кубок (original text)" select -q --event кубок
