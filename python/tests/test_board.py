"""pdnkit.Board against the perft counts and the reference positions of the rules."""

import json

import pytest

import pdnkit
from conftest import CORPUS, FIXTURES, RULES_CASES

START = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
# (RULES.md's counts from the start, when the shared cases are absent)
PERFT_START = [7, 49, 302, 1469, 7482, 37986]


def perft_cases():
    path = RULES_CASES / "perft.json"
    if not path.exists():
        return [(START, PERFT_START)]
    cases = json.loads(path.read_text())
    found = []
    for name, case in cases.items():
        if isinstance(case, dict) and "fen" in case and "distinct" in case:
            # (the counts up to a few hundred thousand leaves: seconds at most)
            counts = [n for n in case["distinct"] if n <= 200_000]
            found.append((case["fen"], counts))
    return found


@pytest.mark.parametrize("fen,counts", perft_cases())
def test_perft_counts_are_the_references(fen, counts):
    board = pdnkit.Board(fen)
    assert [board.perft(d) for d in range(1, len(counts) + 1)] == counts


def test_perft_of_the_start_position():
    board = pdnkit.Board()
    assert board.fen() == START
    assert [board.perft(d) for d in range(1, 6)] == PERFT_START[:5]


def movegen_cases():
    folder = RULES_CASES / "movegen"
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent: the reference positions are not run")
    return sorted(folder.glob("*.json"))


def test_legal_moves_of_every_reference_position():
    for path in movegen_cases():
        case = json.loads(path.read_text())
        board = pdnkit.Board(case["fen"])
        moves = board.legal_moves()
        assert len(moves) == case["n_distinct_moves"], path.name
        got = {(m.from_, m.to, tuple(sorted(m.captured)), m.promotes) for m in moves}
        want = set()
        for m in case["moves"]:
            squares = m["notation"].replace(":", "x").replace("-", "x").split("x")
            want.add((squares[0], squares[-1], tuple(sorted(m["captured"])), m["promotes"]))
        assert got == want, path.name
        for m in moves:
            board.push(m)
            board.pop()
        assert board.fen() == pdnkit.Board(case["fen"]).fen()


def test_a_move_knows_its_squares_route_and_text():
    board = pdnkit.Board("W:Wd6:Be3,e7,g7")
    (first, second) = sorted(board.legal_moves(), key=lambda m: m.to)
    assert (first.from_, first.to, first.captured) == ("d6", "c1", ["e3", "e7", "g7"])
    assert first.route == ["d6", "f8", "h6", "c1"]
    assert first.promotes and first.is_capture
    assert first.text == "d6:c1"
    assert str(second) == "d6:d2"
    board.push(first)
    assert board.fen() == "B:WK30:B"


def test_push_pop_and_the_move_stack():
    board = pdnkit.Board()
    for text in ["c3-d4", "f6-g5", "b2-c3"]:
        board.push(text)
    assert [m.text for m in board.move_stack] == ["c3-d4", "f6-g5", "b2-c3"]
    assert board.turn == "black"
    assert board.pop().text == "b2-c3"
    assert board.turn == "white"
    board.push("25-22")  # numeric squares: b2-c3
    assert board.move_stack[-1].text == "b2-c3"
    copy = board.copy()
    copy.pop()
    assert len(board.move_stack) == 3 and len(copy.move_stack) == 2
    with pytest.raises(IndexError):
        pdnkit.Board().pop()


def test_bad_moves_and_positions_raise_pdn_errors():
    board = pdnkit.Board()
    with pytest.raises(pdnkit.PdnError) as e:
        board.push("c3-e5")
    assert e.value.code == "M101"
    with pytest.raises(pdnkit.PdnError) as e:
        board.push("c3-")
    assert e.value.code == "M106"
    with pytest.raises(pdnkit.PdnError) as e:
        board.push(pdnkit.Board("W:Wd4:Bh8").legal_moves()[0])
    assert e.value.code == "M101"
    with pytest.raises(pdnkit.PdnError) as e:
        pdnkit.Board("W:Wz9")
    assert e.value.code == "F101"
    assert e.value.line is None
    with pytest.raises(TypeError):
        board.push(3)
    with pytest.raises(ValueError):
        pdnkit.Board(variant="checkers-of-mars")


def test_a_side_without_moves_has_lost():
    board = pdnkit.Board("B:W21:B")
    assert board.is_over() and board.result() == "1-0"
    board = pdnkit.Board("W:W:B1")
    assert board.is_over() and board.result() == "0-1"
    assert not pdnkit.Board().is_over() and pdnkit.Board().result() == "*"


@pytest.mark.parametrize("rules", ["russia", "fmjd"])
def test_an_automatic_draw_ends_the_game_where_lint_says(pdnkit_cli, tmp_path, rules):
    # two kings shuffling: each edition draws it after its own number of moves
    plies = ["a1-b2", "h2-g1", "b2-a1", "g1-h2"] * 8
    game = tmp_path / "kings.pdn"
    game.write_text('[FEN "W:WK29:BK28"]\n' + " ".join(plies) + " *\n")
    out = pdnkit_cli("lint", str(game), "--rules", rules, "--select", "D101", "--format", "jsonl", "-q")
    drawn_at = json.loads(out)["ply"] - 1
    board = pdnkit.Board("W:WK29:BK28", rules=rules)
    for k, ply in enumerate(plies[:drawn_at], 1):
        assert not board.is_over() and board.result() == "*" and board.draw_rule() is None, k
        board.push(ply)
    assert board.is_over() and board.result() == "1/2-1/2"
    assert board.draw_rule().startswith({"russia": "6.1.8", "fmjd": "7.2"}[rules])
    # taking a move back undoes the draw; a copy keeps it
    drawn = board.copy()
    board.pop()
    assert not board.is_over() and board.result() == "*"
    assert drawn.is_over()
    with pytest.raises(ValueError):
        pdnkit.Board(rules="olympic")


def test_the_svg_is_the_one_show_draws(pdnkit_cli):
    path = FIXTURES / "example.pdn"
    game = next(iter(pdnkit.read(path)))
    board = pdnkit.Board()
    for text in game.moves[:3]:
        board.push(text)
    svg = pdnkit_cli("show", str(path), "--game", "1", "--ply", "3", "--format", "svg")
    assert board._repr_svg_() == svg
    assert pdnkit.Board()._repr_svg_() == pdnkit_cli(
        "show", str(path), "--game", "1", "--ply", "0", "--format", "svg"
    )


def test_fen_in_either_notation_reads_back():
    board = pdnkit.Board()
    board.push("c3-d4")
    algebraic = board.fen("algebraic")
    assert algebraic.startswith("B:W") and "d4" in algebraic
    assert pdnkit.Board(algebraic).fen() == board.fen()
    with pytest.raises(ValueError):
        board.fen("roman")


# (docs/VARIANTS.md: the published counts from each start position)
VARIANT_PERFT = {
    "international": [9, 81, 658, 4265, 27117],
    "english": [7, 49, 302, 1469, 7361],
    "brazilian": [7, 49, 302, 1469, 7473],
    "frisian": [9, 81, 658, 3874],
}


@pytest.mark.parametrize("variant", sorted(VARIANT_PERFT))
def test_every_variant_counts_its_published_perft(variant):
    board = pdnkit.Board(variant=variant)
    assert board.variant == variant
    counts = VARIANT_PERFT[variant]
    assert [board.perft(d) for d in range(1, len(counts) + 1)] == counts


def test_an_international_board_plays_in_its_own_numbering():
    board = pdnkit.Board(variant="20")
    assert board.variant == "international"
    assert board.fen() == "W:W" + ",".join(map(str, range(31, 51))) + ":B" + ",".join(
        map(str, range(1, 21))
    )
    assert sorted(m.text for m in board.legal_moves())[:3] == ["31-26", "31-27", "32-27"]
    for text in ["32-28", "19-23", "28x19", "14x23"]:
        board.push(text)
    capture = board.move_stack[2]
    assert (capture.from_, capture.to, capture.captured) == ("28", "19", ["23"])
    assert capture.is_capture and capture.route == ["28", "19"]
    assert repr(board).startswith("Board('W:W") and "variant='international'" in repr(board)
    assert board.pop().text == "14x23"
    assert board.turn == "black" and len(board.move_stack) == 3
    # the most pieces must be taken: c3 (37) takes two, g3 (39) only one
    board = pdnkit.Board("W:W37,39:B32,22,34", variant="international")
    assert [m.text for m in board.legal_moves()] == ["37x17"]
    with pytest.raises(pdnkit.PdnError) as e:
        board.push("39x30")
    assert e.value.code == "M101"
    board.push(board.legal_moves()[0])
    assert board.fen() == "B:W17,39:B34"
    with pytest.raises(pdnkit.PdnError) as e:
        board.push(pdnkit.Board(variant="international").legal_moves()[0])
    assert e.value.code == "M101"
    # a move of another variant's board is never played, even where its squares'
    # indices would name a legal move here
    brazilian = pdnkit.Board(variant="brazilian")
    for other in [pdnkit.Board(variant="international"), pdnkit.Board(variant="canadian")]:
        for move in other.legal_moves():
            with pytest.raises(pdnkit.PdnError) as e:
                brazilian.push(move)
            assert e.value.code == "M101" and other.variant in str(e.value)
    with pytest.raises(ValueError):
        board.fen("algebraic")
    # a 10×10 board, the last move an arrow from c3 (37) to g7 (17)
    svg = board._repr_svg_()
    assert 'width="648"' in svg and svg.count("<circle") == 3
    assert svg.count('class="last-move"') == 1
    text = str(board)
    assert text.splitlines()[1].startswith("10 |") and "black to move" in text


def test_other_variants_start_ambiguities_and_ends():
    english = pdnkit.Board(variant="english")
    assert english.turn == "black"
    english.push("11-15")
    # Italian: the players' files, b3 to a4 (21-17)
    italian = pdnkit.Board(variant="italian")
    italian.push("b3-a4")
    assert italian.move_stack[0].text == "21-17"
    # two captures of three men from 3 to 26: the landing says which
    fen = "B:W6,13,14,18,21,22,25,30,31:B1,2,3,4,7,9"
    board = pdnkit.Board(fen, variant="italian")
    with pytest.raises(pdnkit.PdnError) as e:
        board.push("3x26")
    assert e.value.code == "M102"
    board.push("3x17x26")
    assert board.move_stack[0].captured == ["6", "13", "21"]
    with pytest.raises(pdnkit.PdnError) as e:
        board.push("3x")
    assert e.value.code == "M106"
    with pytest.raises(pdnkit.PdnError) as e:
        pdnkit.Board("W:W51", variant="international")
    assert e.value.code == "F101"
    # a side with no move has lost; no automatic draws outside Russian
    lost = pdnkit.Board("W:W:B1", variant="international")
    assert lost.is_over() and lost.result() == "0-1" and lost.draw_rule() is None
    assert pdnkit.Board(variant="czech").result() == "*"


def test_a_frisian_king_rests_after_three_quiet_moves():
    board = pdnkit.Board("W:WK46,45:B3,4", variant="frisian")
    for white, black in [("46-41", "3-8"), ("41-46", "8-13"), ("46-41", "4-9")]:
        board.push(white)
        board.push(black)
    assert [m.text for m in board.legal_moves()] == ["45-40"]
    with pytest.raises(pdnkit.PdnError):
        board.push("41-46")
    board.push("45-40")
    board.push("13-18")
    assert any(m.from_ == "41" for m in board.legal_moves())


def test_real_international_games_replay_on_the_board():
    folder = CORPUS / "other-variants" / "international"
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent")
    played = 0
    for game in pdnkit.read(folder / "wk2003.pdn"):
        # (read replays them by International's rules, its moves by their numbers)
        assert (game.status, game.variant) == ("ok", "international")
        assert not game.unplayed
        board = pdnkit.Board(variant=game.tags.get("GameType", "20"))
        fens = game.positions()
        assert fens[0] == board.fen()
        for text, fen in zip(game.moves, fens[1:]):
            board.push(text)
            assert board.fen() == fen
            played += 1
    assert played > 1000
