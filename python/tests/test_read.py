"""pdnkit.read against the CSV export of the same files: every game, its moves, status,
result and final position."""

import io

import pytest

import pdnkit
from conftest import FIXTURES, csv_rows, jsonl

EXAMPLE = FIXTURES / "example.pdn"


def by_game(rows):
    return {(r["path"], int(r["game"])): r for r in rows}


def check_against_csv(games, rows):
    expected = by_game(rows)
    seen = 0
    for game in games:
        row = expected[(game.path, game.number)]
        seen += 1
        plies = int(row["plies"]) if row["plies"] else 0
        assert game.status == row["status"], (game.path, game.number)
        assert (game.result or "") == row["result"]
        # (the CSV writes the moves after a stop as written; `moves` holds those replayed)
        assert game.moves == row["moves"].split()[:plies]
        if game.status != "unparsed" or game.moves:
            positions = game.positions()
            assert len(positions) == len(game.moves) + 1
            if row["final_fen"]:
                assert positions[-1] == row["final_fen"]
        if row["event"]:
            assert game.tags.get("Event") == row["event"]
    assert seen == len(rows)


def test_the_example_as_the_csv_export_has_it(pdnkit_cli):
    rows = csv_rows(pdnkit_cli("convert", str(EXAMPLE), "--to", "csv"))
    check_against_csv(pdnkit.read(str(EXAMPLE)), rows)


def test_every_file_of_the_corpus_as_the_csv_export_has_it(pdnkit_cli, corpus):
    rows = csv_rows(pdnkit_cli("convert", str(corpus), "--to", "csv"))
    assert rows, "the corpus has games"
    check_against_csv(pdnkit.read(str(corpus)), rows)


def test_paths_bytes_and_files_give_the_same_games():
    data = EXAMPLE.read_bytes()
    from_path = [(g.moves, g.status, g.result) for g in pdnkit.read(EXAMPLE)]
    from_bytes = [(g.moves, g.status, g.result) for g in pdnkit.read(data)]
    with open(EXAMPLE, "rb") as f:
        from_file = [(g.moves, g.status, g.result) for g in pdnkit.read(f)]
    from_list = [(g.moves, g.status, g.result) for g in pdnkit.read([EXAMPLE, EXAMPLE])]
    assert from_path == from_bytes == from_file
    assert from_list == from_path * 2
    with open(EXAMPLE, "rb") as f:
        assert next(iter(pdnkit.read(f))).path == str(EXAMPLE)


def test_a_game_has_its_tags_diagnostics_variations_and_comments(pdnkit_cli):
    text = (
        '[Event "e"]\n[White "w"]\n[Black "b"]\n'
        "1. c3-d4 {a comment} f6-g5 (1... f6-e5 2. d4:f6) 2. b2-c3 1-0\n"
    )
    game = next(iter(pdnkit.read(text.encode())))
    assert game.tags == {"Event": "e", "White": "w", "Black": "b"}
    assert game.moves == ["c3-d4", "f6-g5", "b2-c3"]
    assert game.variations == [(2, ["f6-e5", "d4:f6"])]
    assert game.comments == [(1, "a comment")]
    assert (game.number, game.line, game.status, game.result) == (1, 1, "ok", "1-0")
    assert game.positions()[0] == pdnkit.Board().fen()
    assert "<bytes>#1" in repr(game)
    # every field of lint's JSON Lines, every severity
    codes = {d["code"] for d in game.diagnostics}
    assert "T101" in codes
    assert set(game.diagnostics[0]) == {
        "schema", "path", "game", "line", "column", "code", "name", "severity",
        "message", "ply", "move", "fix",
    }


def test_notation_and_encoding():
    game = next(iter(pdnkit.read(EXAMPLE, notation="numeric")))
    assert game.moves[0] == "22-18"
    text = '[Event "Турнир"]\n1. c3-d4 *\n'.encode("cp1251")
    game = next(iter(pdnkit.read(text, encoding="windows-1251")))
    assert game.tags["Event"] == "Турнир"
    with pytest.raises(ValueError):
        pdnkit.read(EXAMPLE, notation="roman")
    with pytest.raises(ValueError):
        pdnkit.read(EXAMPLE, encoding="no-such")


def test_an_input_that_cannot_be_read_is_a_pdn_error():
    with pytest.raises(pdnkit.PdnError) as e:
        pdnkit.read("no/such/file.pdn")
    assert e.value.code == "E102"
    with pytest.raises(TypeError):
        pdnkit.read(42)


def test_problems_that_are_no_games_are_kept():
    games = pdnkit.read(b'[Event "x"]\n1. c3-d4 *\n\n\nstray words\n')
    assert len(list(games)) == 1
    assert [d["code"] for d in games.problems] == ["P111"]
    # (stray text before a game is the game's)
    game = next(pdnkit.read(b'stray words\n\n[Event "x"]\n1. c3-d4 *\n'))
    assert "P111" in [d["code"] for d in game.diagnostics]


class Counting(io.RawIOBase):
    """A binary file that counts the bytes read from it."""

    def __init__(self, data: bytes):
        self.data, self.at = data, 0

    def readable(self):
        return True

    def read(self, n=-1):
        n = len(self.data) - self.at if n < 0 else n
        chunk = self.data[self.at : self.at + n]
        self.at += len(chunk)
        return chunk


def test_games_come_as_they_are_read_not_after_the_whole_input():
    game = b'[Event "x"]\n1. c3-d4 f6-g5 2. b2-c3 *\n\n'
    data = game * 100_000  # 4 MB
    f = Counting(data)
    games = pdnkit.read(f)
    first = next(games)
    assert first.moves == ["c3-d4", "f6-g5", "b2-c3"]
    assert f.at < len(data) // 4, "the reader ran ahead by bounded games"
    assert sum(1 for _ in games) == 100_000 - 1
    # (a reader dropped half way stops its thread)
    games = pdnkit.read(data)
    next(games)
    del games


def test_positions_follow_a_setup_command_in_the_main_line(pdnkit_cli, tmp_path):
    path = tmp_path / "setup.pdn"
    path.write_text('[Event "x"]\n1. c3-d4 f6-g5 /FEN "W:Wc3:Bh8"/ 2. c3-b4 *\n')
    game = next(pdnkit.read(path))
    rows = csv_rows(pdnkit_cli("convert", str(path), "--to", "csv"))
    assert game.moves == rows[0]["moves"].split()[: int(rows[0]["plies"])]
    assert game.positions()[-1] == rows[0]["final_fen"]


def test_a_file_opened_as_text_is_a_pdn_error():
    with open(EXAMPLE, encoding="utf-8") as f:
        with pytest.raises(pdnkit.PdnError) as e:
            list(pdnkit.read(f))
    assert e.value.code == "E102"
    assert "binary mode" in str(e.value)
