#!/usr/bin/env bash
# Compares pdnkit's move generator with pydraughts' (PyPI `pydraughts`, module `draughts`)
# on the variants both know: perft from the start position one ply deeper than the
# published counts reach, where pydraughts is fast enough, and every position of random
# games. pydraughts gets its own virtual environment under target/ (its module name clashes
# with py-draughts', which bench/pydraughts.py uses).
#
#   bash bench/variants.sh            # the default depths and 50 games a variant
#   GAMES=200 bash bench/variants.sh
#
# Prints one line per comparison (`same`, or the first position whose moves differ).
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-50}
VENV=target/venv-pydraughts
if [[ ! -x $VENV/bin/python ]]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet pydraughts
fi
cargo build --release --quiet --bin pdnkit
PY=$VENV/bin/python
# pydraughts needs about a minute for perft(5) of International
for case in "international 5" "english 6" "italian 6" "russian 6" "brazilian 6" "turkish 4" "frisian 5"; do
    # shellcheck disable=SC2086
    "$PY" bench/variants.py perft $case
done
# Frisian kings that must rest after three quiet moves in a row (from ply 7 on)
for fen in W:WK46,37:B4,5 W:WK46,37,36:B4,5 W:WK46,45:B3,4; do
    "$PY" bench/variants.py perft frisian 7 "$fen"
done
for variant in international english italian russian brazilian turkish frisian; do
    "$PY" bench/variants.py games "$variant" "$GAMES"
done
