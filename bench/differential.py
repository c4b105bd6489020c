#!/usr/bin/env python3
"""Differential check of pdnkit against py-draughts (an independent implementation).

Run through bench/differential.sh, which makes a virtual environment with py-draughts and
builds pdnkit. Compares, on random positions (random legal walks from the start position
and random setups):

1. legal move sets as distinct (from, to, captured set), numeric GameType-25 squares
   (py-draughts numbers squares 0..31 from b8, that is PDN number - 1);
2. replay verdicts of random games: every game legal by py-draughts must lint without
   move errors; the same game with one move replaced by a move py-draughts rejects must
   get a move error (M101/M102/M106) at exactly that ply from `pdnkit lint`.

Prints the counts and every mismatch (up to --show), exits 1 when there is any.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from draughts.boards.russian import Board
from draughts.models import Color


def their_moves(board: Board) -> set[tuple[int, int, frozenset[int]]]:
    return {
        (m.square_list[0] + 1, m.square_list[-1] + 1, frozenset(c + 1 for c in m.captured_list))
        for m in board.legal_moves
    }


def fen_of(board: Board) -> str:
    # py-draughts writes '[FEN "W:W21,...:B1,..."]'
    f = board.fen
    return f[f.index('"') + 1 : f.rindex('"')]


def random_setup(rng: random.Random) -> Board | None:
    white, black = [], []
    for sq in range(1, 33):
        r = rng.random()
        if r < 0.55:
            continue
        side = white if r < 0.775 else black
        king = rng.random() < 0.25
        # men never on their own promotion row (1-4 for White, 29-32 for Black)
        if (side is white and sq <= 4) or (side is black and sq >= 29):
            king = True
        if len(side) < 12:
            side.append(("K" if king else "") + str(sq))
    turn = rng.choice("WB")
    fen = f"{turn}:W{','.join(white)}:B{','.join(black)}"
    try:
        return Board.from_fen(fen)
    except ValueError:
        return None


def walk(board: Board, rng: random.Random, plies: int) -> list:
    """Random legal moves from `board` (modified); returns the moves played."""
    played = []
    for _ in range(plies):
        moves = board.legal_moves
        if not moves:
            break
        m = rng.choice(moves)
        board.push(m)
        played.append(m)
    return played


def move_text(m) -> str:
    sq = [s + 1 for s in m.square_list]
    sep = "x" if m.captured_list else "-"
    return sep.join(map(str, sq))


def pdnkit_moves(binary: str, fens: list[str]) -> list[dict]:
    out = subprocess.run(
        [binary, "moves"],
        input="\n".join(fens) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(lines) == len(fens), out.stderr
    return lines


def game_pdn(start_fen: str, black_first: bool, moves: list[str], index: int) -> str:
    parts = [f'[Event "differential {index}"]', f'[FEN "{start_fen}"]', ""]
    text = []
    for i, mv in enumerate(moves):
        ply = i + int(black_first)
        number = ply // 2 + 1
        if ply % 2 == 0:
            text.append(f"{number}.")
        elif i == 0:
            text.append(f"{number}...")
        text.append(mv)
    text.append("*")
    parts.append(" ".join(text))
    return "\n".join(parts) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pdnkit", default="target/release/pdnkit")
    ap.add_argument("--games", type=int, default=2000, help="random walks from the start")
    ap.add_argument("--setups", type=int, default=2000, help="random setups (each walked)")
    ap.add_argument("--plies", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show", type=int, default=20)
    args = ap.parse_args()
    rng = random.Random(args.seed)

    # ---- positions: walks from the start and from random setups -------------------------
    positions: list[tuple[str, set]] = []  # (fen, their move set)
    games = []  # (start fen, black first, [Move], [fen before each move])
    for g in range(args.games + args.setups):
        if g < args.games:
            board = Board()
        else:
            board = None
            while board is None:
                board = random_setup(rng)
        start = fen_of(board)
        black_first = board.turn == Color.BLACK
        fens, moves = [], []
        for _ in range(rng.randint(1, args.plies)):
            fen = fen_of(board)
            legal = their_moves(board)
            positions.append((fen, legal))
            if not legal:
                break
            m = rng.choice(board.legal_moves)
            fens.append(fen)
            moves.append(m)
            board.push(m)
        games.append((start, black_first, moves, fens))

    ours = pdnkit_moves(args.pdnkit, [f for f, _ in positions])
    move_mismatch = []
    for (fen, theirs), mine in zip(positions, ours):
        if "error" in mine:
            move_mismatch.append((fen, "pdnkit rejects the position: " + mine["error"], theirs))
            continue
        got = {(m["from"], m["to"], frozenset(m["captured"])) for m in mine["moves"]}
        if got != theirs:
            move_mismatch.append((fen, sorted(got - theirs, key=str), sorted(theirs - got, key=str)))

    # ---- replay verdicts: each game as played, and once with a corrupted move -------------
    texts, expect = [], []  # expect: None = no move error, else the ply of the first error
    game_of = []  # the game each text was made from
    for start, black_first, moves, fens in games:
        written = [move_text(m) for m in moves]
        texts.append(game_pdn(start, black_first, written, len(texts) + 1))
        expect.append(None)
        game_of.append((moves, fens))
        if not moves:
            continue
        k = rng.randrange(len(moves))
        board = Board.from_fen(fens[k])
        legal = their_moves(board)
        # a move py-draughts rejects (no legal move has its from and to, so it is illegal
        # however its intermediate squares are read): a capture stopped at its first
        # landing, the next move played too early, or a random pair of squares
        pairs = {(f, t) for f, t, _ in legal}
        m = moves[k]
        options = []
        if len(m.square_list) > 2:
            options.append(f"{m.square_list[0] + 1}x{m.square_list[1] + 1}")
        if k + 1 < len(moves):
            options.append(move_text(moves[k + 1]))
        for _ in range(50):
            a, b = rng.randint(1, 32), rng.randint(1, 32)
            if a != b and (a, b) not in pairs:
                options.append(f"{a}-{b}")
                break
        def ends(text: str) -> tuple[int, int]:
            sq = text.replace("x", "-").split("-")
            return int(sq[0]), int(sq[-1])
        options = [o for o in options if ends(o) not in pairs]
        if not options:
            continue
        bad = rng.choice(options)
        texts.append(game_pdn(start, black_first, written[:k] + [bad] + written[k + 1 :], len(texts) + 1))
        expect.append(k + 1)
        game_of.append((moves, fens))

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.pdn"
        path.write_text("\n".join(texts))
        out = subprocess.run(
            [args.pdnkit, "lint", "--format", "jsonl", "-q", "--exit-zero", str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
    first_error: dict[int, tuple[int | None, str]] = {}
    for line in out.stdout.splitlines():
        d = json.loads(line)
        if d["code"] in ("M101", "M102", "M106", "F101", "P105", "P199") and d["severity"] == "error":
            g = d["game"]
            if g not in first_error or (d["ply"] or 0) < (first_error[g][0] or 0):
                first_error[g] = (d["ply"], f'{d["code"]} {d["message"]}')
    def documented_ambiguity(i: int, got) -> bool:
        """M102 on a one-landing capture whose from/to another capture shares: it has no
        unambiguous notation, and RULES.md §3 resolves it from the rest of the game, which
        a corrupted later move (or the end of the game) cannot do."""
        ply = got[0]
        moves, fens = game_of[i - 1]
        if not got[1].startswith("M102") or ply is None or ply > len(moves):
            return False
        m = moves[ply - 1]
        if len(m.square_list) != 2 or not m.captured_list:
            return False
        legal = their_moves(Board.from_fen(fens[ply - 1]))
        same = [t for t in legal if t[0] == m.square_list[0] + 1 and t[1] == m.square_list[-1] + 1]
        return len(same) >= 2

    verdict_mismatch, ambiguities = [], 0
    for i, want in enumerate(expect, start=1):
        got = first_error.get(i)
        if got is not None and (want is None or (got[0] or 0) < want) and documented_ambiguity(i, got):
            ambiguities += 1
            continue
        if want is None and got is not None:
            verdict_mismatch.append((i, "legal by py-draughts, pdnkit: " + got[1]))
        elif want is not None and (got is None or got[0] != want):
            verdict_mismatch.append((i, f"illegal at ply {want} by py-draughts, pdnkit: {got}"))

    print(f"positions compared: {len(positions)} ({args.games} walks from the start, "
          f"{args.setups} from random setups)")
    print(f"legal-move-set mismatches: {len(move_mismatch)}")
    for fen, extra, missing in move_mismatch[: args.show]:
        print(f"  {fen}\n    only pdnkit: {extra}\n    only py-draughts: {missing}")
    print(f"games compared: {len(expect)} ({expect.count(None)} legal, "
          f"{len(expect) - expect.count(None)} with one corrupted move)")
    print(f"ambiguous one-landing captures (RULES.md §3, not mismatches): {ambiguities}")
    print(f"replay-verdict mismatches: {len(verdict_mismatch)}")
    for i, why in verdict_mismatch[: args.show]:
        print(f"  game {i}: {why}")
        print("    " + texts[i - 1].replace("\n", "\n    "))
    return 1 if move_mismatch or verdict_mismatch else 0


if __name__ == "__main__":
    sys.exit(main())
