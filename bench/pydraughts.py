"""Replays PDN games with py-draughts (RussianBoard.from_pdn) and reports games/s.

Usage: python bench/pydraughts.py GAMES.pdn [LIMIT]

The file should hold plain games (numeric squares, full capture routes, no comments or
variations): bench/run.sh writes one with `pdnkit convert`. Prints one line:
`games=N plies=P failed=F seconds=S games_per_s=G plies_per_s=Q`.
"""

import re
import sys
import time

from draughts import RussianBoard


def main() -> None:
    path = sys.argv[1]
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    with open(path, encoding="utf-8") as f:
        text = f.read()
    games = [g for g in re.split(r"(?m)^(?=\[Event )", text) if g.strip()][:limit]
    plies = 0
    failed = 0
    start = time.perf_counter()
    for g in games:
        try:
            board = RussianBoard.from_pdn(g)
            plies += len(board._moves_stack)
        except Exception:  # an illegal move (there should be none)
            failed += 1
    seconds = time.perf_counter() - start
    print(
        f"games={len(games)} plies={plies} failed={failed} seconds={seconds:.3f} "
        f"games_per_s={len(games) / seconds:.1f} plies_per_s={plies / seconds:.0f}"
    )


if __name__ == "__main__":
    main()
