#!/usr/bin/env bash
# Differential check against py-draughts (needs PyPI): makes a virtual environment under
# target/differential-venv, installs py-draughts there, builds pdnkit and runs
# bench/differential.py. Extra arguments go to the script (--games, --setups, --seed…).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/differential-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "py-draughts==${PY_DRAUGHTS_VERSION:-1.10.1}"
fi
cargo build --release --quiet
exec "$venv/bin/python" bench/differential.py --pdnkit target/release/pdnkit "$@"
