"""Compares pdnkit's move generator with pydraughts' on the variants both know.

pydraughts (PyPI `pydraughts`, module `draughts`) knows International ("standard"),
English, Italian, Russian, Brazilian, Turkish and Frisian. Run it from its own virtual
environment (bench/variants.sh makes one under target/):

  python bench/variants.py perft VARIANT DEPTH [FEN]   both counts; where they differ, the
                                                       first position whose moves differ
  python bench/variants.py games VARIANT GAMES [SEED]  random games: every position's legal
                                                       moves in both

Moves are compared as (from, to, captured squares), pdnkit's identity of a move; a move
pydraughts lists twice (two routes) counts once. perft counts every route on both sides
(`pdnkit perft --routes`), as pydraughts lists them. Squares are compared as pdnkit writes
them: numbers for the numbered variants, algebraic names for Russian, Brazilian and
Turkish (pydraughts numbers those from a1, PDN from the far side).
"""

import json
import os
import random
import subprocess
import sys
import time

import draughts

PDNKIT = os.environ.get("PDNKIT", "target/release/pdnkit")
# pydraughts' name of each variant
PY_NAME = {
    "international": "standard",
    "english": "english",
    "italian": "italian",
    "russian": "russian",
    "brazilian": "brazilian",
    "turkish": "turkish",
    "frisian": "frisian",
}
ALGEBRAIC = {"russian", "brazilian", "turkish"}


def square(variant, n):
    """A square of pydraughts' numbering as pdnkit writes it."""
    if variant not in ALGEBRAIC:
        return n
    per_row = 8 if variant == "turkish" else 4
    row, k = divmod(n - 1, per_row)
    file = k if variant == "turkish" else 2 * k + row % 2
    return "abcdefgh"[file] + str(row + 1)


def py_moves(board, variant):
    """pydraughts' legal moves as a set of (from, to, captured)."""
    out = set()
    for m in board.legal_moves():
        steps = m.steps_move
        captured = tuple(sorted(str(square(variant, c)) for c in m.captures if c is not None))
        out.add((str(square(variant, steps[0])), str(square(variant, steps[-1])), captured))
    return out


def pdnkit_moves(variant, fens):
    """pdnkit's legal moves of each FEN, as sets of (from, to, captured)."""
    notation = "algebraic" if variant in ALGEBRAIC else "numeric"
    args = [PDNKIT, "moves", "--variant", variant, "--notation", notation]
    run = subprocess.run(args, input="\n".join(fens) + "\n", capture_output=True, text=True)
    result = []
    for line in run.stdout.splitlines():
        obj = json.loads(line)
        if "error" in obj:
            raise SystemExit(f"pdnkit: {obj['fen']}: {obj['error']}")
        result.append({
            (str(m["from"]), str(m["to"]), tuple(sorted(str(c) for c in m["captured"])))
            for m in obj["moves"]
        })
    return result


def py_perft(board, depth):
    if depth == 0:
        return 1
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)
    n = 0
    for m in moves:
        board.push(m)
        n += py_perft(board, depth - 1)
        board.pop()
    return n


def pdnkit_perft(variant, fen, depth):
    # (pydraughts lists a capture once per route)
    args = [PDNKIT, "perft", "--routes", "--variant", variant, str(depth)]
    if fen:
        args += ["--fen", fen]
    return int(subprocess.run(args, capture_output=True, text=True, check=True).stdout.split()[-1])


def perft(variant, depth, fen=None):
    board = draughts.Board(variant=PY_NAME[variant], fen=fen or "startpos")
    started = time.perf_counter()
    theirs = py_perft(board, depth)
    seconds = time.perf_counter() - started
    ours = pdnkit_perft(variant, board.fen, depth)
    verdict = "same" if ours == theirs else "DIFFERENT"
    print(f"{variant} perft({depth}): pdnkit {ours}, pydraughts {theirs} ({seconds:.1f} s): {verdict}")
    if ours != theirs:
        descend(variant, board, depth)


def descend(variant, board, depth):
    """Walks down to the first position whose move lists differ."""
    while depth > 0:
        fen = board.fen
        ours, theirs = pdnkit_moves(variant, [fen])[0], py_moves(board, variant)
        if ours != theirs:
            print(f"  {fen}: only pdnkit {sorted(ours - theirs)}, only pydraughts {sorted(theirs - ours)}")
            return
        for m in board.legal_moves():
            board.push(m)
            if py_perft(board, depth - 1) != pdnkit_perft(variant, board.fen, depth - 1):
                depth -= 1
                break
            board.pop()
        else:
            print(f"  {fen}: every move's count agrees")
            return


def occupied(fen):
    """The squares a FEN lists, as written (kings' K dropped)."""
    squares = set()
    for side in fen.split(":")[1:]:
        squares.update(t.lstrip("K") for t in side[1:].split(",") if t)
    return squares


def passes_a_piece(fen, move):
    """Whether a quiet Turkish move (algebraic squares) crosses an occupied square."""
    (f0, r0), (f1, r1) = [("abcdefgh".index(sq[0]), int(sq[1:])) for sq in move[:2]]
    df, dr = (f1 > f0) - (f1 < f0), (r1 > r0) - (r1 < r0)
    f, r, full = f0 + df, r0 + dr, occupied(fen)
    while (f, r) != (f1, r1):
        if "abcdefgh"[f] + str(r) in full:
            return True
        f, r = f + df, r + dr
    return False


def known(variant, fen, ours, theirs):
    """Why the two lists differ, when it is a difference this page has checked by hand."""
    if (variant == "frisian" and theirs < ours and all(not m[2] for m in ours - theirs)
            and len({m[0] for m in ours - theirs}) == 1):
        return ("Frisian's three moves of a king (pdnkit is given each position as a FEN, "
                "which does not say which king has moved three times; perft checks the rule)")
    if (variant == "turkish" and ours < theirs
            and all(not m[2] and passes_a_piece(fen, m) for m in theirs - ours)):
        return "pydraughts moves a Turkish king over pieces in its way"
    return None


def games(variant, count, seed=1):
    rng = random.Random(seed)
    positions = differences = 0
    explained = {}
    for _ in range(count):
        board = draughts.Board(variant=PY_NAME[variant])
        fens, theirs = [], []
        for _ in range(300):
            moves = board.legal_moves()
            if not moves or board.is_over():
                break
            fens.append(board.fen)
            theirs.append(py_moves(board, variant))
            board.push(rng.choice(moves))
        for fen, ours, py in zip(fens, pdnkit_moves(variant, fens), theirs):
            positions += 1
            if ours == py:
                continue
            why = known(variant, fen, ours, py)
            if why:
                explained[why] = explained.get(why, 0) + 1
                continue
            differences += 1
            if differences <= 5:
                print(f"  {fen}: only pdnkit {sorted(ours - py)}, only pydraughts {sorted(py - ours)}")
    print(f"{variant}: {count} random games, {positions} positions, {differences} with different moves")
    for why, n in explained.items():
        print(f"  and {n} where {why}")


def main():
    mode, variant = sys.argv[1], sys.argv[2]
    if mode == "perft":
        perft(variant, int(sys.argv[3]), sys.argv[4] if len(sys.argv) > 4 else None)
    elif mode == "games":
        games(variant, int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
