//! Integration tests: the real `pdnkit` binary, one temp dir per test where files are needed.

use assert_cmd::Command;
use predicates::prelude::*;

fn pdnkit() -> Command {
    Command::cargo_bin("pdnkit").expect("the pdnkit binary is built")
}

#[test]
fn rule_explains_by_code_and_by_name() {
    pdnkit()
        .args(["rule", "M101"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("M101 illegal-move (error)"));
    pdnkit()
        .args(["rule", "illegal-move"])
        .assert()
        .success()
        .stdout(predicate::str::contains("capture was mandatory"));
}

#[test]
fn rule_unknown_name_is_a_usage_error() {
    pdnkit()
        .args(["rule", "no-such-rule"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("rule --all"));
}

#[test]
fn rule_all_lists_every_code_once() {
    let out = pdnkit().args(["rule", "--all", "--json"]).output().unwrap();
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), pdnkit::diag::codes::ALL.len());
    assert!(lines.iter().any(|l| l["name"] == "illegal-move"));
}

#[test]
fn no_arguments_is_a_usage_error_with_help() {
    pdnkit()
        .assert()
        .code(2)
        .stderr(predicate::str::contains("Usage"));
}

#[test]
fn perft_counts_from_the_start_position() {
    // RULES.md §2: 7, 49, 302, 1469, 7482
    for (depth, count) in [(1, "7"), (3, "302"), (5, "7482")] {
        pdnkit()
            .args(["perft", &depth.to_string()])
            .assert()
            .success()
            .stdout(format!("{count}\n"));
    }
}

#[test]
fn perft_divide_writes_ambiguous_moves_in_full() {
    // rules-cases/movegen/07: two distinct captures both written f4:h2
    pdnkit()
        .args(["perft", "--fen", "W:Wf4:Bg3,g5,e7,g7", "--divide", "1"])
        .assert()
        .success()
        .stdout("f4:h6:f8:d6:h2 1\nf4:h2 1\n\n2\n");
}

#[test]
fn perft_rejects_impossible_setups_with_a_reason() {
    pdnkit()
        .args(["perft", "--fen", "W:W33:B1", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("33 is not on the 8×8 board"));
}
