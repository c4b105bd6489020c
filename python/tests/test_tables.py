"""games_table and moves_table against the CSV export of the same files."""

import pytest

import pdnkit
from conftest import FIXTURES, csv_rows

pa = pytest.importorskip("pyarrow")


def inputs(corpus=None):
    return [str(FIXTURES / "example.pdn"), str(FIXTURES / "convert")] + (
        [str(corpus)] if corpus else []
    )


def check_games(pdnkit_cli, paths):
    table = pdnkit.games_table(paths)
    assert isinstance(table, pa.Table)
    rows = csv_rows(pdnkit_cli("convert", *paths, "--to", "csv"))
    got = table.to_pylist()
    assert len(got) == len(rows)
    for g, r in zip(got, rows):
        assert (g["path"], g["game"]) == (r["path"], int(r["game"]))
        for column in ["event", "site", "round", "white", "black", "result", "status"]:
            assert (g[column] or "") == r[column], column
        assert (g["date_raw"] or "") == r["date_raw"]
        assert g["plies"] == (int(r["plies"]) if r["plies"] else None)
        assert (g["final_fen"] or "") == r["final_fen"]
        assert (g["draw_basis"] or "") == r["draw_basis"]
        if r["score"]:
            assert g["score"] == float(r["score"])
        plies = g["plies"] or 0
        assert (g["first_moves"] or "").split() == r["moves"].split()[: min(plies, 20)]
    return table


def check_moves(pdnkit_cli, paths, games):
    table = pdnkit.moves_table(paths)
    rows = csv_rows(pdnkit_cli("convert", *paths, "--to", "csv", "--per-move"))
    ids = {g["game_id"]: (g["path"], g["game"]) for g in games.to_pylist()}
    got = table.to_pylist()
    assert len(got) == len(rows)
    for m, r in zip(got, rows):
        assert ids[m["game_id"]] == (r["path"], int(r["game"]))
        for column in ["ply", "move_number"]:
            assert m[column] == int(r[column])
        for column in ["side", "written", "move", "from", "to"]:
            assert m[column] == r[column], column
        assert m["captured"] == r["captured"].split()
        assert m["capture"] == (r["captured"] != "")
        assert m["promotes"] == (r["promotes"] == "true")


def test_the_tables_are_the_csv_export(pdnkit_cli):
    paths = inputs()
    games = check_games(pdnkit_cli, paths)
    check_moves(pdnkit_cli, paths, games)


def test_the_tables_of_the_corpus_are_its_csv_export(pdnkit_cli, corpus):
    paths = inputs(corpus)
    games = check_games(pdnkit_cli, paths)
    check_moves(pdnkit_cli, paths, games)


def test_the_schema_is_the_parquet_datasets():
    games = pdnkit.games_table(str(FIXTURES / "example.pdn"))
    moves = pdnkit.moves_table(str(FIXTURES / "example.pdn"))
    assert games.schema.field("date").type == pa.date32()
    assert moves.schema.field("captured").type == pa.list_(pa.field("element", pa.string(), False))
    assert moves.column_names[:4] == ["game_id", "ply", "move_number", "side"]
    with pytest.raises(pdnkit.PdnError):
        pdnkit.games_table("no/such.pdn")
