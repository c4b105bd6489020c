"""pdnkit.lint gives what `pdnkit lint --format jsonl` prints."""

import pytest

import pdnkit
from conftest import FIXTURES, jsonl

LINT = FIXTURES / "lint"


def cli_lint(pdnkit_cli, *args):
    return jsonl(pdnkit_cli("lint", "--format", "jsonl", "--isolated", *args))


def test_fixtures_as_the_command_line_lints_them(pdnkit_cli):
    got = pdnkit.lint([str(LINT), str(FIXTURES / "example.pdn")])
    assert got, "the lint fixtures have findings"
    assert got == cli_lint(pdnkit_cli, str(LINT), str(FIXTURES / "example.pdn"))


def test_corpus_as_the_command_line_lints_it(pdnkit_cli, corpus):
    got = pdnkit.lint(str(corpus), severity="info")
    assert got == cli_lint(pdnkit_cli, str(corpus), "--severity", "info")


def test_select_ignore_severity_and_rules(pdnkit_cli):
    paths = [str(LINT)]
    got = pdnkit.lint(paths, select=["M", "R"], ignore=["M104"], severity="info", rules="fmjd")
    want = cli_lint(
        pdnkit_cli, *paths, "--select", "M,R", "--ignore", "M104", "--severity", "info",
        "--rules", "fmjd",
    )
    assert got == want
    assert all(d["code"][0] in "MR" and d["code"] != "M104" for d in got)
    with pytest.raises(ValueError):
        pdnkit.lint(paths, select=["illegal-mov"])
    with pytest.raises(ValueError):
        pdnkit.lint(paths, rules="nowhere")


def test_a_missing_file_is_an_io_error(pdnkit_cli):
    got = pdnkit.lint(["no/such.pdn"])
    assert [d["code"] for d in got] == ["E102"]
    assert got == cli_lint(pdnkit_cli, "no/such.pdn")
