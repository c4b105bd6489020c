#!/usr/bin/env bash
# Profile-guided build of pdnkit: the `release-lto` build, optimised with a profile of
# pdnkit's own commands run on a generated training archive. See docs/performance.md.
#
#   bash bench/pgo.sh             # builds target/pgo/release-lto/pdnkit
#   PGO_MB=20 bash bench/pgo.sh   # a larger training archive (default 6 MB)
#
# Three steps, each in its own target directory so that no other build is disturbed:
# 1. an instrumented build (`-Cprofile-generate`) in target/pgo-generate;
# 2. every command pdnkit has, run on a training archive generated with seed 2 (by
#    pdnkit-generate of tools/gen, a plain release build; the benchmarks use seed 1: the
#    profile is not taken on the games it is measured on) and on the hand-written fixtures
#    (findings, odd syntax, other encodings);
# 3. the profiles merged with llvm-profdata and a build that uses them (`-Cprofile-use`)
#    in target/pgo.
# llvm-profdata comes with the `llvm-tools` component of rustup (`rustup component add
# llvm-tools`), matched to the compiler's LLVM; a copy on the PATH is used otherwise.
# Exits 2 when it cannot be found. Outputs are those of any other build: only the
# layout of the code and the compiler's choices of what to inline change.
set -euo pipefail

cd "$(dirname "$0")/.."
PGO_MB=${PGO_MB:-6}
GEN_DIR=target/pgo-generate
USE_DIR=target/pgo
DATA=$PWD/target/pgo-data
PROFILE=release-lto

host=$(rustc -vV | sed -n 's/^host: //p')
profdata="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"
if [[ ! -x $profdata ]]; then
    echo "installing the llvm-tools component (for llvm-profdata)..." >&2
    rustup component add llvm-tools >/dev/null 2>&1 || true
fi
if [[ ! -x $profdata ]]; then
    profdata=$(command -v llvm-profdata || true)
fi
if [[ -z $profdata ]]; then
    echo "bench/pgo.sh: llvm-profdata not found: run 'rustup component add llvm-tools'" >&2
    exit 2
fi

echo "1/3 instrumented build in $GEN_DIR..." >&2
rm -rf "$DATA"
RUSTFLAGS="-Cprofile-generate=$DATA" \
    cargo build --profile "$PROFILE" --target-dir "$GEN_DIR" --quiet -p pdnkit
gen="$GEN_DIR/$PROFILE/pdnkit"

echo "2/3 training run..." >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
train="$work/train.pdn"
cargo build --release --quiet -p pdnkit-gen --bin pdnkit-generate
target/release/pdnkit-generate --size-mb "$PGO_MB" --seed 2 -o "$train"
# (findings exit 1: that is what is being trained, not a failure)
run() {
    local status=0
    "$gen" "$@" >/dev/null 2>"$work/stderr" || status=$?
    if ((status > 1)); then
        echo "bench/pgo.sh: 'pdnkit $*' exited with $status:" >&2
        cat "$work/stderr" >&2
        exit 2
    fi
}
for jobs in 1 2; do
    run lint -q -j"$jobs" "$train"
done
run lint --color never fixtures
run lint --format jsonl fixtures
run lint --format json -j1 "$train"
run stats -j1 "$train"
run stats --format json fixtures
run convert --to csv -j1 "$train" -o "$work/out"
run convert --to csv --per-move -j1 "$train" -o "$work/out"
run convert --to jsonl -j1 "$train" -o "$work/out"
run convert --to pdn -j1 "$train" -o "$work/out"
run convert --to jsonl fixtures -o "$work/out"
run convert --to pdn fixtures -o "$work/out"
run perft 9
for game in 1 2 3 4 5 6 7 8; do
    "$gen" show --game "$game" --ply 40 --format fen "$train" >>"$work/fens" 2>/dev/null || true
done
"$gen" moves <"$work/fens" >/dev/null
run show --format svg "$train"
run rule --all

echo "3/3 build with the profile in $USE_DIR..." >&2
"$profdata" merge -o "$DATA/merged.profdata" "$DATA"
RUSTFLAGS="-Cprofile-use=$DATA/merged.profdata" \
    cargo build --profile "$PROFILE" --target-dir "$USE_DIR" --quiet -p pdnkit
echo "$USE_DIR/$PROFILE/pdnkit"
