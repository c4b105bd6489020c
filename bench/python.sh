#!/usr/bin/env bash
# pdnkit from Python against py-draughts and pydraughts, in one run on the same games
# (bench/python.py does the measuring). See docs/python.md.
#
#   bash bench/python.sh              # 2,000 generated games; legal moves of the first 20
#   GAMES=5000 SLOW_GAMES=200 LEGAL_GAMES=50 bash bench/python.sh
#
# Each library has a virtual environment of its own under target/bench-python (both
# py-draughts and pydraughts install a module named `draughts`), made from PyPI when
# missing; pdnkit's is this repository installed with `pip install .` (REBUILD=1 builds
# it again). The games are written by tools/gen and converted to what all three read:
# algebraic squares (pydraughts reads Russian moves so only), captures with every landing
# square and `x` (it refuses `:`), no comments, variations nor NAGs. pydraughts, some
# thousand times slower, reads the first SLOW_GAMES of them, once. Other figures are the
# best of RUNS runs (default 3).
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-2000}
SLOW_GAMES=${SLOW_GAMES:-100}
LEGAL_GAMES=${LEGAL_GAMES:-20}
SEED=${SEED:-1}
RUNS=${RUNS:-3}
OUT=target/bench-python
mkdir -p "$OUT"

echo "building pdnkit and the generator..." >&2
cargo build --release --quiet -p pdnkit --bin pdnkit
cargo build --release --quiet -p pdnkit-gen
BIN=target/release/pdnkit
GEN=target/release/pdnkit-generate

# venv NAME PACKAGE...: the environment NAME, made with PACKAGE... when it is not there
venv() {
    local dir=$OUT/$1
    shift
    if [[ ! -x $dir/bin/python ]]; then
        python3 -m venv "$dir"
        "$dir/bin/pip" install --quiet --upgrade pip
        "$dir/bin/pip" install --quiet "$@"
    fi
    echo "$dir/bin/python"
}
PDNKIT=$(venv pdnkit .)
if [[ -n ${REBUILD:-} ]]; then
    "$PDNKIT" -m pip install --quiet --force-reinstall --no-deps .
fi
PY_DRAUGHTS=$(venv py-draughts py-draughts)
PYDRAUGHTS=$(venv pydraughts pydraughts)

RAW=$OUT/games-$GAMES-s$SEED.pdn
PLAIN=$OUT/games-$GAMES-s$SEED-plain.pdn
POSITIONS=$OUT/positions-$LEGAL_GAMES-s$SEED.tsv
"$GEN" --games "$GAMES" --seed "$SEED" -o "$RAW"
"$BIN" convert --to pdn --notation algebraic --captures full --separator x \
    --strip comments,variations,nags -q "$RAW" -o "$PLAIN"
"$PDNKIT" bench/python.py positions "$PLAIN" "$LEGAL_GAMES" >"$POSITIONS"

# best PYTHON ARGS...: the line of bench/python.py with the fewest seconds of RUNS runs
best() {
    local python=$1
    shift
    for _ in $(seq "$RUNS"); do
        "$python" bench/python.py "$@"
    done | awk '{
        for (i = 1; i <= NF; i++) if ($i ~ /^seconds=/) s = substr($i, 9) + 0
        if (line == "" || s < min) { min = s; line = $0 }
    } END { print line }'
}
version() {
    "$1" -c "import importlib.metadata as m; print(m.version('$2'))"
}

echo "## pdnkit from Python, py-draughts and pydraughts on the same games"
echo
echo "- machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- versions: pdnkit $(version "$PDNKIT" pdnkit), py-draughts $(version "$PY_DRAUGHTS" py-draughts), pydraughts $(version "$PYDRAUGHTS" pydraughts); Python $("$PDNKIT" -c 'import sys; print(sys.version.split()[0])')"
echo "- games: $GAMES generated (seed $SEED), $(wc -c <"$PLAIN") bytes; legal moves of the $(wc -l <"$POSITIONS") positions of the first $LEGAL_GAMES"
echo
echo "### Reading and replaying"
echo
ours=$(best "$PDNKIT" read pdnkit "$PLAIN" "$GAMES")
a=$(best "$PY_DRAUGHTS" read py-draughts "$PLAIN" "$GAMES")
b=$(RUNS=1 best "$PYDRAUGHTS" read pydraughts "$PLAIN" "$SLOW_GAMES")
echo "- pdnkit.read: $ours"
echo "- py-draughts RussianBoard.from_pdn: $a"
echo "- pydraughts PDNReader + Board.push: $b"
field() { echo "$1" | tr ' ' '\n' | awk -F= -v k="$2" '$1 == k { print $2 }'; }
awk -v o="$(field "$ours" games_per_s)" -v a="$(field "$a" games_per_s)" -v b="$(field "$b" games_per_s)" \
    'BEGIN { printf "- games/s: pdnkit %.0fx py-draughts, %.0fx pydraughts\n", o / a, o / b }'
echo
echo "### Legal moves per position"
echo
ours=$(best "$PDNKIT" legal pdnkit "$POSITIONS" 20)
a=$(best "$PY_DRAUGHTS" legal py-draughts "$POSITIONS" 2)
b=$(RUNS=1 best "$PYDRAUGHTS" legal pydraughts "$POSITIONS" 1)
echo "- pdnkit Board.legal_moves: $ours"
echo "- py-draughts legal_moves: $a"
echo "- pydraughts legal_moves: $b"
awk -v o="$(field "$ours" us_per_position)" -v a="$(field "$a" us_per_position)" -v b="$(field "$b" us_per_position)" \
    'BEGIN { printf "- time per position: pdnkit %.0fx faster than py-draughts, %.0fx faster than pydraughts\n", a / o, b / o }'
