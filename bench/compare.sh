#!/usr/bin/env bash
# Compares what this checkout's pdnkit writes with what another revision's writes, byte
# for byte, on the corpus in ../shared, the fixtures and generated archives: `lint
# --format jsonl` (-j1 and -j2), `convert --to csv|jsonl|pdn` (csv per game, per move and
# with every tag) and `stats --format json`, and their exit statuses.
#
#   bash bench/compare.sh             # against HEAD (what the working tree changes)
#   bash bench/compare.sh main~5      # against any revision
#   SIZE_MB=100 bash bench/compare.sh # the generated archives at 100 MB (default 10)
#   KEEP=1 bash bench/compare.sh      # keep the outputs in target/compare/
#
# Prints one line per input and command, `same` or `DIFFERS` with the first lines that
# differ; exits 1 when something differs.
set -euo pipefail
cd "$(dirname "$0")/.."
REV=${1:-HEAD}
SIZE_MB=${SIZE_MB:-10}
SEED=${SEED:-1}
OUT=target/bench
RESULTS=target/compare
mkdir -p "$OUT" "$RESULTS"
# shellcheck source=bench/lib.sh
source bench/lib.sh

cargo build --release --quiet --bin pdnkit
NEW=target/release/pdnkit
OLD=$(build_rev "$REV" release)

INPUTS=(fixtures)
for f in fixtures/regressions/*; do INPUTS+=("$f"); done
if [[ -d ../shared/corpus ]]; then
    INPUTS+=(../shared/corpus)
else
    echo "(../shared/corpus is absent: the corpus is not compared)" >&2
fi
FILE=$(archive "$SIZE_MB")
INPUTS+=("$FILE" "$(illegal_archive "$FILE")" "$(tagless_archive "$FILE")"
    "$(legacy_archive "$FILE")" "$(crlf_archive "$FILE")")
REAL=$(real_archive "$SIZE_MB")
[[ -n $REAL ]] && INPUTS+=("$REAL")

COMMANDS=(
    "lint -j1 --format jsonl"
    "lint -j2 --format jsonl"
    "convert -j2 --to csv"
    "convert -j2 --to csv --per-move"
    "convert -j2 --to csv --tags all"
    "convert -j2 --to jsonl"
    "convert -j2 --to pdn"
    "stats -j2 --format json"
)

# run BIN OUTFILE ARGS... : the command's stdout to OUTFILE, its exit status after it
run() {
    local bin=$1 out=$2
    shift 2
    local status=0
    "$bin" "$@" >"$out" 2>/dev/null || status=$?
    echo "exit $status" >>"$out"
}

differ=0
for input in "${INPUTS[@]}"; do
    for command in "${COMMANDS[@]}"; do
        # (word splitting of the command is wanted: it has no quoted parts)
        # shellcheck disable=SC2206
        args=($command)
        a=$RESULTS/old.out
        b=$RESULTS/new.out
        run "$OLD" "$a" "${args[@]}" -q "$input"
        run "$NEW" "$b" "${args[@]}" -q "$input"
        if cmp -s "$a" "$b"; then
            echo "same     $command  $input"
        else
            differ=1
            echo "DIFFERS  $command  $input"
            { diff "$a" "$b" || true; } | head -8 | cut -c1-300 | sed 's/^/    /'
            if [[ -n ${KEEP:-} ]]; then
                name=$(echo "$command $input" | tr -c 'a-zA-Z0-9.-' '_')
                cp "$a" "$RESULTS/$name.old"
                cp "$b" "$RESULTS/$name.new"
            fi
        fi
    done
done
rm -f "$RESULTS/old.out" "$RESULTS/new.out"
exit $differ
