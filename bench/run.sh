#!/usr/bin/env bash
# Whole-command benchmarks of pdnkit. See docs/performance.md.
#
#   bash bench/run.sh                 # 100 MB archive, 10/100 MB linearity, py-draughts
#   SIZE_MB=200 RUNS=5 bash bench/run.sh
#   LARGE=1 bash bench/run.sh         # also 1000 MB: linearity and peak RSS on 1 GB
#   NO_PY=1 bash bench/run.sh         # skip the py-draughts comparison
#   PAIR_RUNS=15 bash bench/run.sh    # runs of each side of the -j1 / -j2 ratio (default 7)
#   PROFILE=release bash bench/run.sh # measure the plain release build instead
#   PROFILE=pgo bash bench/run.sh     # measure the profile-guided build of bench/pgo.sh
#
# The binary measured is built with the `release-lto` profile (the release profile plus
# fat LTO), the build the README's Install section recommends: same code, about 3% faster,
# twice as long to build. PROFILE=release measures what `cargo build --release` gives;
# PROFILE=pgo the `release-lto` build optimised with a profile of a training run
# (bench/pgo.sh: llvm-tools needed, about two minutes of building).
#
# Every figure is the median wall time of RUNS runs (default 3) after a warm-up read of the
# file (so it is in the page cache), measured with /usr/bin/time, which also gives the user
# CPU time and the peak RSS. Throughput is MB/s (10^6 bytes) and games/s, and the ratio to
# `wc -l` on the same file, measured in the same run, as the baseline for reading bytes.
# On a shared machine wall times suffer from other load: the user CPU column and the load
# average printed at the top tell how much. The -j1 / -j2 ratio is measured with the two
# commands in turn (PAIR_RUNS runs each: 7 by default, never fewer than RUNS), so that
# drift does not bias it.
set -euo pipefail

cd "$(dirname "$0")/.."
SIZE_MB=${SIZE_MB:-100}
RUNS=${RUNS:-3}
SEED=${SEED:-1}
FILES=${FILES:-2000}
PY_GAMES=${PY_GAMES:-2000}
PROFILE=${PROFILE:-release-lto}
OUT=target/bench
mkdir -p "$OUT"

if [[ ! -x /usr/bin/time ]]; then
    echo "installing GNU time (for peak RSS)..." >&2
    (apt-get update -qq && apt-get install -y -qq time) >/dev/null 2>&1 || true
fi
if [[ ! -x /usr/bin/time ]]; then
    echo "bench/run.sh: /usr/bin/time is needed (apt-get install time)" >&2
    exit 2
fi

if [[ $PROFILE == pgo ]]; then
    echo "building with bench/pgo.sh..." >&2
    # (the script prints the binary it built)
    BIN=$(bash bench/pgo.sh | tail -n 1)
    BUILT="the profile-guided build of bench/pgo.sh (release-lto profile)"
    TOOLS=release-lto
else
    echo "building with the $PROFILE profile..." >&2
    cargo build --profile "$PROFILE" --quiet
    BIN=target/$PROFILE/pdnkit
    BUILT="built with the $PROFILE profile"
    TOOLS=$PROFILE
fi
# the generator of the inputs and the reader alone (tools/gen), built like pdnkit
cargo build --profile "$TOOLS" --quiet -p pdnkit-gen
GEN=target/$TOOLS/pdnkit-generate
READ=target/$TOOLS/pdnkit-read

# ---------------------------------------------------------------- machine
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
mem=$(free -g | awk '/^Mem:/ {print $2 " GiB"}')
echo "## Machine"
echo
echo "- cores (nproc): $(nproc); CPU: ${cpu}; memory: ${mem}"
echo "- load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine slows wall times)"
echo "- pdnkit $(git rev-parse --short HEAD 2>/dev/null || echo "?") $BUILT, $(rustc --version)"
echo

# ---------------------------------------------------------------- inputs
# shellcheck source=bench/lib.sh
source bench/lib.sh
# piped FILE CMD... : CMD reading FILE from a pipe, as `cat FILE | CMD -` (for the pairs)
PIPED=$OUT/piped.sh
printf '%s\n' '#!/usr/bin/env bash' 'f=$1; shift; cat "$f" | "$@" -' >"$PIPED"
bytes_of() { if [[ -d $1 ]]; then cat "$1"/*.pdn | wc -c; else stat -c %s "$1"; fi; }
games_of() { "$READ" "$1" | awk '{print $1}'; }
warm() { if [[ -d $1 ]]; then cat "$1"/*.pdn >/dev/null; else cat "$1" >/dev/null; fi; }

# ---------------------------------------------------------------- timing
# measure RUNS CMD... -> "median_wall median_user max_rss_kb" (wall includes the ~1 ms of
# starting /usr/bin/time)
measure() {
    local runs=$1
    shift
    local t
    t=$(mktemp)
    local walls=() users=() rss=0 w u m
    for ((i = 0; i < runs; i++)); do
        local t0=$EPOCHREALTIME
        /usr/bin/time -f '%e %U %M' -o "$t" "$@" >/dev/null 2>/dev/null || true
        local t1=$EPOCHREALTIME
        read -r _ u m <"$t"
        # wall time in microseconds from bash (GNU time's %e has 10 ms steps)
        w=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
        walls+=("$w")
        users+=("$u")
        ((m > rss)) && rss=$m
    done
    rm -f "$t"
    local mw mu
    mw=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    mu=$(printf '%s\n' "${users[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    echo "$mw $mu $rss"
}

# measure_pair RUNS "CMD A" "CMD B" -> "wall_a user_a wall_b user_b" (medians): the two
# commands run in turn, A B A B..., so that the machine's drift over the series (this is
# a shared virtual machine) falls on both alike and not on their ratio
measure_pair() {
    local runs=$1 a=$2 b=$3
    local t
    t=$(mktemp)
    local wa=() ua=() wb=() ub=() cmd w u which
    for ((i = 0; i < runs; i++)); do
        for which in a b; do
            [[ $which == a ]] && cmd=$a || cmd=$b
            local t0=$EPOCHREALTIME
            # (word splitting of the command line is wanted: paths here have no blanks)
            # shellcheck disable=SC2086
            /usr/bin/time -f '%U' -o "$t" $cmd >/dev/null 2>/dev/null || true
            local t1=$EPOCHREALTIME
            read -r u <"$t"
            w=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
            if [[ $which == a ]]; then wa+=("$w") ua+=("$u"); else wb+=("$w") ub+=("$u"); fi
        done
    done
    rm -f "$t"
    median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
    echo "$(median "${wa[@]}") $(median "${ua[@]}") $(median "${wb[@]}") $(median "${ub[@]}")"
}

WC_MBS=""
row() { # row LABEL BYTES GAMES RUNS CMD...
    local label=$1 bytes=$2 games=$3 runs=$4
    shift 4
    local r
    r=$(measure "$runs" "$@")
    read -r wall user rss <<<"$r"
    awk -v l="$label" -v b="$bytes" -v g="$games" -v w="$wall" -v u="$user" -v r="$rss" -v base="$WC_MBS" '
        BEGIN {
            if (w <= 0) w = 0.001
            mbs = b / 1e6 / w
            gs = (g > 0) ? sprintf("%.0f", g / w) : "-"
            ratio = (base > 0) ? sprintf("%.4f", mbs / base) : "1"
            printf "| %s | %.4f | %.2f | %.1f | %s | %s | %.1f |\n", l, w, u, mbs, gs, ratio, r / 1024
        }'
    if [[ -z $WC_MBS ]]; then
        WC_MBS=$(awk -v b="$bytes" -v w="$wall" 'BEGIN { if (w <= 0) w = 0.001; print b / 1e6 / w }')
    fi
}
header() {
    echo "| command | wall s (median of $RUNS) | user s | MB/s | games/s | ratio to wc -l | peak RSS MB |"
    echo "|---|---|---|---|---|---|---|"
}

# ---------------------------------------------------------------- main table
FILE=$(archive "$SIZE_MB")
BYTES=$(bytes_of "$FILE")
GAMES=$(games_of "$FILE")
warm "$FILE"
echo "## One file: $FILE ($BYTES bytes, $GAMES games)"
echo
header
row "wc -l" "$BYTES" "$GAMES" "$((RUNS + 2))" wc -l "$FILE"
row "pdnkit-read (reader only, 1 thread)" "$BYTES" "$GAMES" "$RUNS" "$READ" "$FILE"
row "pdnkit lint -j1" "$BYTES" "$GAMES" "$RUNS" "$BIN" lint -j1 -q --exit-zero --format jsonl "$FILE"
row "pdnkit lint -j2" "$BYTES" "$GAMES" "$RUNS" "$BIN" lint -j2 -q --exit-zero --format jsonl "$FILE"
ILLEGAL=$(illegal_archive "$FILE")
warm "$ILLEGAL"
row "pdnkit lint -j1, an illegal move in most games" "$(bytes_of "$ILLEGAL")" "$GAMES" "$RUNS" \
    "$BIN" lint -j1 -q --exit-zero --format jsonl "$ILLEGAL"
NOTAGS=$(tagless_archive "$FILE")
warm "$NOTAGS"
row "pdnkit lint -j1, the same games without tags" "$(bytes_of "$NOTAGS")" "$GAMES" "$RUNS" \
    "$BIN" lint -j1 -q --exit-zero --format jsonl "$NOTAGS"
LEGACY=$(legacy_archive "$FILE")
warm "$LEGACY"
row "pdnkit lint -j1, the same games in Windows-1251" "$(bytes_of "$LEGACY")" "$GAMES" "$RUNS" \
    "$BIN" lint -j1 -q --exit-zero --format jsonl "$LEGACY"
CRLF=$(crlf_archive "$FILE")
warm "$CRLF"
row "pdnkit lint -j1, the same games with CR LF line ends" "$(bytes_of "$CRLF")" "$GAMES" "$RUNS" \
    "$BIN" lint -j1 -q --exit-zero --format jsonl "$CRLF"
REAL=$(real_archive "$SIZE_MB")
if [[ -n $REAL ]]; then
    warm "$REAL"
    row "pdnkit lint -j1, real games (abatsiev.pdn repeated)" "$(bytes_of "$REAL")" \
        "$(games_of "$REAL")" "$RUNS" "$BIN" lint -j1 -q --exit-zero --format jsonl "$REAL"
fi
row "pdnkit lint -j2, the file through a pipe" "$BYTES" "$GAMES" "$RUNS" \
    bash "$PIPED" "$FILE" "$BIN" lint -j2 -q --exit-zero --format jsonl
row "pdnkit convert --to csv -j1" "$BYTES" "$GAMES" "$RUNS" "$BIN" convert -j1 --to csv -q "$FILE"
row "pdnkit convert --to csv" "$BYTES" "$GAMES" "$RUNS" "$BIN" convert --to csv -q "$FILE"
row "pdnkit convert --to jsonl -j1" "$BYTES" "$GAMES" "$RUNS" "$BIN" convert -j1 --to jsonl -q "$FILE"
row "pdnkit convert --to jsonl" "$BYTES" "$GAMES" "$RUNS" "$BIN" convert --to jsonl -q "$FILE"
row "pdnkit stats" "$BYTES" "$GAMES" "$RUNS" "$BIN" stats "$FILE"
row "pdnkit stats -j1" "$BYTES" "$GAMES" "$RUNS" "$BIN" stats -j1 "$FILE"
echo
PERFT=$(measure "$RUNS" "$BIN" perft 10)
echo "perft(10) from the start position (22,444,032 leaves): $(echo "$PERFT" | awk '{printf "%.3f s wall, %.2f s user, %.1f M leaves/s", $1, $2, 22.444032 / $1}')"
echo

# ---------------------------------------------------------------- threads: one file vs many
DIR=$(many_files "$SIZE_MB" "$FILES")
DBYTES=$(bytes_of "$DIR")
warm "$DIR"
LEGACY_DIR=$(legacy_archive "$DIR")
warm "$LEGACY_DIR"
# the ratio asked for: at least PAIR_RUNS (default 7) runs of each, in turn
PAIR_RUNS=${PAIR_RUNS:-7}
((PAIR_RUNS < RUNS)) && PAIR_RUNS=$RUNS
echo "## -j1 vs -j2"
echo
echo "(medians of $PAIR_RUNS runs each, the two commands in turn)"
echo
echo "| command | input | -j1 wall s | -j2 wall s | speed-up | -j1 user s | -j2 user s |"
echo "|---|---|---|---|---|---|---|"
# (lint, the target's command, then the other two commands of the issue's benchmarks)
# (each: the label, the subcommand, its options)
for command in "lint|lint|-q --exit-zero --format jsonl" "convert --to csv|convert|-q --to csv" \
    "stats|stats|-q"; do
    IFS='|' read -r label sub opts <<<"$command"
    for input in "$FILE" "$DIR" "$NOTAGS" "$LEGACY" "$LEGACY_DIR"; do
        r=$(measure_pair "$PAIR_RUNS" \
            "$BIN $sub -j1 $opts $input" \
            "$BIN $sub -j2 $opts $input")
        name=$input
        [[ -d $input ]] && name="$input ($FILES files, $(bytes_of "$input") bytes)"
        awk -v c="$label" -v n="$name" -v r="$r" 'BEGIN {
            split(r, x, " ")
            printf "| %s | %s | %.3f | %.3f | %.2fx | %.2f | %.2f |\n", c, n, x[1], x[3], x[1] / x[3], x[2], x[4]
        }'
    done
done
# standard input, cut into blocks at -j2 as a file is
r=$(measure_pair "$PAIR_RUNS" \
    "bash $PIPED $FILE $BIN lint -j1 -q --exit-zero --format jsonl" \
    "bash $PIPED $FILE $BIN lint -j2 -q --exit-zero --format jsonl")
awk -v n="$FILE through a pipe" -v r="$r" 'BEGIN {
    split(r, x, " ")
    printf "| lint | %s | %.3f | %.3f | %.2fx | %.2f | %.2f |\n", n, x[1], x[3], x[1] / x[3], x[2], x[4]
}'
echo

# ---------------------------------------------------------------- linearity
SIZES="10 100"
[[ -n ${LARGE:-} ]] && SIZES="10 100 1000"
echo "## Linearity: lint -j1 and lint (all cores) by input size"
echo
echo "| size MB | lint -j1 wall s | s per 100 MB | lint -j1 peak RSS MB | lint wall s | lint peak RSS MB |"
echo "|---|---|---|---|---|---|"
for mb in $SIZES; do
    f=$(archive "$mb")
    warm "$f"
    runs=$RUNS
    ((mb >= 1000)) && runs=1
    a=$(measure "$runs" "$BIN" lint -j1 -q --exit-zero --format jsonl "$f")
    b=$(measure "$runs" "$BIN" lint -q --exit-zero --format jsonl "$f")
    awk -v mb="$mb" -v a="$a" -v b="$b" 'BEGIN {
        split(a, x, " "); split(b, y, " ")
        printf "| %d | %.3f | %.3f | %.1f | %.3f | %.1f |\n", mb, x[1], x[1] * 100 / mb, x[3] / 1024, y[1], y[3] / 1024
    }'
done
echo

# ---------------------------------------------------------------- py-draughts
if [[ -z ${NO_PY:-} ]]; then
    VENV=$OUT/venv
    if [[ ! -x $VENV/bin/python ]] || ! "$VENV/bin/python" -c 'import draughts' 2>/dev/null; then
        echo "installing py-draughts into $VENV..." >&2
        python3 -m venv "$VENV"
        "$VENV/bin/pip" install -q py-draughts
    fi
    SUB=$OUT/py-$PY_GAMES-s$SEED.pdn
    PLAIN=$OUT/py-$PY_GAMES-s$SEED-numeric.pdn
    # the first PY_GAMES games of the archive (each game depends only on seed and index)
    "$GEN" --games "$PY_GAMES" --seed "$SEED" -o "$SUB"
    "$BIN" convert --to pdn --notation numeric --captures full --separator x \
        --strip comments,variations,nags -q "$SUB" -o "$PLAIN"
    PY=$("$VENV/bin/python" bench/pydraughts.py "$PLAIN" "$PY_GAMES")
    OURS=$(measure "$RUNS" "$BIN" lint -j1 -q --exit-zero --format jsonl "$SUB")
    OURS_BIG=$(measure 1 "$BIN" lint -j1 -q --exit-zero --format jsonl "$FILE")
    echo "## py-draughts $("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("py-draughts"))') replaying the same games"
    echo
    echo "- py-draughts (RussianBoard.from_pdn, numeric full-route moves, no comments): $PY"
    awk -v py="$PY" -v o="$OURS" -v ob="$OURS_BIG" -v n="$PY_GAMES" -v g="$GAMES" 'BEGIN {
        split(py, p, " "); for (i in p) { split(p[i], kv, "="); v[kv[1]] = kv[2] }
        split(o, x, " "); split(ob, y, " ")
        ours = n / x[1]; big = g / y[1]
        printf "- pdnkit lint -j1 on the same %d games (as generated): %.3f s, %.0f games/s; on the whole archive: %.0f games/s\n", n, x[1], ours, big
        printf "- ratio (archive games/s over py-draughts games/s): %.0fx\n", big / v["games_per_s"]
    }'
    echo
fi
