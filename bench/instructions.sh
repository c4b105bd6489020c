#!/usr/bin/env bash
# Instructions executed by pdnkit's main commands, counted by valgrind's callgrind, on the
# generated 10 MB archive (one thread). See docs/performance.md.
#
#   bash bench/instructions.sh                       # the release build of this checkout
#   BASE=/tmp/pdnkit-old bash bench/instructions.sh  # and the change against another binary
#
# The row `read` is the reader alone: pdnkit-read (tools/gen), and for BASE the
# pdnkit-read beside it, or BASE's own hidden `read` command (revisions before tools/gen).
#   FILE=some.pdn bash bench/instructions.sh         # another input (a file or a folder)
#   PROFILE=release-lto bash bench/instructions.sh   # another build profile
#
# Wall times on a shared virtual machine move by 5-30% from one minute to the next, more
# than most single optimisations gain; the number of instructions a command executes does
# not move at all (the same binary on the same input counts the same to the last few
# thousand). It is not time: a cache miss or a mispredicted branch costs many cycles and
# one instruction, and callgrind counts each byte of a `rep movsb` copy as one. So a change
# is judged by both: this script for the direction and size, alternating wall-time runs
# (bench/run.sh) for whether the time follows.
set -euo pipefail

cd "$(dirname "$0")/.."
PROFILE=${PROFILE:-release}
SEED=${SEED:-1}
OUT=target/bench
mkdir -p "$OUT"

if ! command -v valgrind >/dev/null; then
    echo "installing valgrind (for callgrind)..." >&2
    (apt-get update -qq && apt-get install -y -qq valgrind) >/dev/null 2>&1 || true
fi
if ! command -v valgrind >/dev/null; then
    echo "bench/instructions.sh: valgrind is needed (apt-get install valgrind)" >&2
    exit 2
fi

echo "building with the $PROFILE profile..." >&2
cargo build --profile "$PROFILE" --quiet --workspace
NEW=target/$PROFILE/pdnkit
BASE=${BASE:-}
if [[ -n $BASE && ! -x $BASE ]]; then
    echo "bench/instructions.sh: BASE=$BASE is not an executable" >&2
    exit 2
fi

FILE=${FILE:-$OUT/archive-10mb-s$SEED.pdn}
if [[ ! -e $FILE ]]; then
    echo "generating $FILE..." >&2
    "target/$PROFILE/pdnkit-generate" --size-mb 10 --seed "$SEED" -o "$FILE.tmp" && mv "$FILE.tmp" "$FILE"
fi

COMMANDS=(
    "lint -q -j1 --format jsonl"
    "convert -q -j1 --to csv"
    "convert -q -j1 --to jsonl"
    "convert -q -j1 --to pdn"
    "stats -q -j1 --format json"
    "read"
)

# instructions BINARY COMMAND -> millions of instructions, one decimal
instructions() {
    local log bin=$1 command=$2
    if [[ $command == read && -x $(dirname "$bin")/pdnkit-read ]]; then
        bin=$(dirname "$bin")/pdnkit-read
        command=
    fi
    log=$(mktemp)
    # (the command's own output is not wanted; callgrind's summary goes to the log)
    # shellcheck disable=SC2086
    valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-file="$log" \
        "$bin" $command "$FILE" >/dev/null 2>&1 || true
    awk '/Collected :/ { printf "%.1f", $NF / 1e6 }' "$log"
    rm -f "$log"
}

echo "## Instructions (callgrind), $FILE"
echo
echo "- pdnkit $(git rev-parse --short HEAD 2>/dev/null || echo "?") built with the $PROFILE profile, $(rustc --version)"
if [[ -n $BASE ]]; then
    echo "- against $BASE"
    echo
    echo "| command | base M | this build M | change |"
    echo "|---|---|---|---|"
else
    echo
    echo "| command | M instructions | per byte |"
    echo "|---|---|---|"
fi
if [[ -d $FILE ]]; then
    bytes=$(du -sb --apparent-size "$FILE" | cut -f1)
else
    bytes=$(stat -c %s "$FILE")
fi
for c in "${COMMANDS[@]}"; do
    new=$(instructions "$NEW" "$c")
    if [[ -z $new ]]; then
        echo "bench/instructions.sh: no count for \`$c\` (valgrind failed?)" >&2
        exit 1
    fi
    if [[ -n $BASE ]]; then
        base=$(instructions "$BASE" "$c")
        change=$(awk -v a="$base" -v b="$new" 'BEGIN { printf "%+.1f%%", (b - a) / a * 100 }')
        echo "| \`$c\` | $base | $new | $change |"
    else
        per=$(awk -v n="$new" -v b="$bytes" 'BEGIN { printf "%.1f", n * 1e6 / b }')
        echo "| \`$c\` | $new | $per |"
    fi
done
