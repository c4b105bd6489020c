"""pdnkit from Python against py-draughts and pydraughts, on the same games.

Usage (each library in its own virtual environment: py-draughts and pydraughts both
install a module named `draughts`; bench/python.sh makes them):

    python bench/python.py read LIBRARY GAMES.pdn [LIMIT]
    python bench/python.py legal LIBRARY POSITIONS.tsv [REPEAT]
    python bench/python.py positions GAMES.pdn LIMIT > POSITIONS.tsv   (pdnkit)

LIBRARY is `pdnkit`, `py-draughts` or `pydraughts`. `read` reads the games and replays
every move (pdnkit: `pdnkit.read`, which also checks results, draws and tags;
py-draughts: `RussianBoard.from_pdn` per game; pydraughts: `PDNReader` and `Board.push`
of each move). `legal` lists the legal moves of every position of the file (a numeric
and an algebraic FEN a line), boards made beforehand, `REPEAT` times (py-draughts'
`legal_moves` is a property, the others' a method). Each prints one
line of `key=value` fields.
"""

import re
import sys
import time


def read_pdnkit(path, limit):
    import pdnkit

    games = plies = failed = 0
    for game in pdnkit.read(path):
        if games == limit:
            break
        games += 1
        plies += len(game.moves)
        failed += game.status != "ok"
    return games, plies, failed


def split_games(path, limit):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return [g for g in re.split(r"(?m)^(?=\[Event )", text) if g.strip()][:limit]


def read_py_draughts(path, limit):
    from draughts import RussianBoard

    games = split_games(path, limit)
    plies = failed = 0
    for g in games:
        try:
            plies += len(RussianBoard.from_pdn(g)._moves_stack)
        except Exception:
            failed += 1
    return len(games), plies, failed


def read_pydraughts(path, limit):
    from draughts import Board, Move
    from draughts.PDN import PDNReader

    with open(path, encoding="utf-8") as f:
        text = f.read()
    games = PDNReader(pdn_text=text).games[:limit]
    plies = failed = 0
    for game in games:
        board = Board("russian")
        try:
            for m in game.moves:
                board.push(Move(board, pdn_move=m))
                plies += 1
        except Exception:
            failed += 1
    return len(games), plies, failed


def positions(path, limit):
    """The positions of the first `limit` games, each as a numeric and an algebraic FEN."""
    import pdnkit

    for n, game in enumerate(pdnkit.read(path)):
        if n == limit:
            break
        board = pdnkit.Board()
        print(board.fen(), board.fen("algebraic"), sep="\t")
        for m in game.moves:
            board.push(m)
            print(board.fen(), board.fen("algebraic"), sep="\t")


def boards(library, path):
    with open(path) as f:
        fens = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    if library == "pdnkit":
        import pdnkit

        return [pdnkit.Board(numeric) for numeric, _ in fens]
    if library == "py-draughts":
        from draughts import RussianBoard

        return [RussianBoard.from_fen(numeric) for numeric, _ in fens]
    from draughts import Board

    return [Board("russian", fen=algebraic) for _, algebraic in fens]


def main():
    mode, library, path = sys.argv[1], sys.argv[2], sys.argv[3]
    if mode == "positions":
        return positions(library, int(path))
    if mode == "read":
        limit = int(sys.argv[4]) if len(sys.argv) > 4 else 2000
        read = {"pdnkit": read_pdnkit, "py-draughts": read_py_draughts, "pydraughts": read_pydraughts}
        start = time.perf_counter()
        games, plies, failed = read[library](path, limit)
        seconds = time.perf_counter() - start
        print(
            f"games={games} plies={plies} failed={failed} seconds={seconds:.3f} "
            f"games_per_s={games / seconds:.1f}"
        )
        return
    repeat = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    made = boards(library, path)
    moves = 0
    start = time.perf_counter()
    if library == "py-draughts":
        # (a property there)
        for _ in range(repeat):
            for board in made:
                moves += len(board.legal_moves)
    else:
        for _ in range(repeat):
            for board in made:
                moves += len(board.legal_moves())
    seconds = time.perf_counter() - start
    calls = len(made) * repeat
    print(
        f"positions={len(made)} repeat={repeat} moves={moves // repeat} seconds={seconds:.3f} "
        f"us_per_position={seconds / calls * 1e6:.2f}"
    )


if __name__ == "__main__":
    main()
