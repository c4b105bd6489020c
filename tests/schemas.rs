//! The JSON Schemas of `schemas/` hold for what pdnkit writes: every diagnostic of `lint
//! --format jsonl|json`, every game of `convert --to jsonl`, the report of `stats
//! --format json` (every grouping), every line of `select --format matches`, the groups of
//! `duplicates --format jsonl` and the index of `split --format jsonl`, on the fixtures and
//! on ../shared/corpus (which this says when it is absent).

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures");
const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus");

fn validator(name: &str) -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("schemas")
        .join(name);
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The inputs: the fixtures, and the corpus when it is there.
fn inputs() -> Vec<&'static str> {
    if Path::new(CORPUS).is_dir() {
        vec![FIXTURES, CORPUS]
    } else {
        eprintln!("../shared/corpus is absent: the schemas are checked on the fixtures only");
        vec![FIXTURES]
    }
}

fn stdout(args: &[&str]) -> String {
    let out = Command::cargo_bin("pdnkit")
        .unwrap()
        .args(args)
        .arg("-q")
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Every value is valid; returns how many there were.
fn check(
    validator: &jsonschema::Validator,
    values: impl IntoIterator<Item = Value>,
    what: &str,
) -> usize {
    let mut n = 0;
    for v in values {
        if let Err(e) = validator.validate(&v) {
            panic!(
                "{what}: {e} at {} in {}",
                e.instance_path(),
                v.to_string().chars().take(600).collect::<String>()
            );
        }
        n += 1;
    }
    n
}

fn lines(text: &str) -> impl Iterator<Item = Value> + '_ {
    text.lines().map(|l| serde_json::from_str(l).unwrap())
}

#[test]
fn select_matches_follow_their_schema() {
    let v = validator("select-match.schema.json");
    for input in inputs() {
        // (every game, then with a board criterion: the ply is a number)
        let all = stdout(&["select", "--format", "matches", input]);
        let n = check(&v, lines(&all), input);
        assert!(n > 10, "{input}: {n}");
        let start = ["--position", "W:W21-32:B1-12", "--format", "matches", input];
        let some = stdout(&[&["select"][..], &start[..]].concat());
        assert!(check(&v, lines(&some), input) > 0, "{input}");
        assert!(some.contains("\"ply\":0"));
    }
}

#[test]
fn lint_diagnostics_follow_their_schema() {
    let v = validator("diagnostic.schema.json");
    for input in inputs() {
        let n = check(
            &v,
            lines(&stdout(&["lint", "--format", "jsonl", input])),
            input,
        );
        assert!(n > 10, "{input}: {n}");
        let array: Value =
            serde_json::from_str(&stdout(&["lint", "--format", "json", input])).unwrap();
        let items = array.as_array().unwrap().clone();
        assert_eq!(check(&v, items, input), n);
    }
}

#[test]
fn convert_games_follow_their_schema() {
    let v = validator("game.schema.json");
    for input in inputs() {
        let n = check(
            &v,
            lines(&stdout(&["convert", "--to", "jsonl", input])),
            input,
        );
        assert!(n > 10, "{input}: {n}");
    }
    // a game the reader skipped has its own shorter record
    let skipped = stdout(&[
        "convert",
        "--to",
        "jsonl",
        "--max-game-bytes",
        "200",
        FIXTURES,
    ]);
    let skipped: Vec<Value> = lines(&skipped)
        .filter(|g| g["status"] == "skipped")
        .collect();
    assert!(!skipped.is_empty());
    check(&v, skipped, "skipped games");
}

#[test]
fn stats_reports_follow_their_schema() {
    let v = validator("stats.schema.json");
    for input in inputs() {
        for by in [
            None,
            Some("event"),
            Some("player"),
            Some("year"),
            Some("opening"),
            Some("file"),
        ] {
            let mut args = vec!["stats", "--format", "json", input];
            if let Some(by) = by {
                args.extend(["--by", by]);
            }
            let report: Value = serde_json::from_str(&stdout(&args)).unwrap();
            check(&v, [report], &format!("{input} {by:?}"));
        }
    }
}

#[test]
fn moves_and_rules_follow_their_schemas() {
    let v = validator("moves.schema.json");
    let fens = [
        "W:W21-32:B1-12",
        "W:WK29,c3:Bd4,f6,h6",
        "B:W18:B14,K1",
        "not a fen",
    ];
    for notation in ["numeric", "algebraic"] {
        let mut args = vec!["moves", "--notation", notation];
        for fen in fens {
            args.extend(["--fen", fen]);
        }
        let out = Command::cargo_bin("pdnkit")
            .unwrap()
            .args(&args)
            .output()
            .unwrap();
        let n = check(&v, lines(&String::from_utf8(out.stdout).unwrap()), notation);
        assert_eq!(n, fens.len());
        // the squares of the largest board, and Turkish's named ones
        for (variant, fen) in [
            ("canadian", "W:W61,K72:B1,50"),
            ("turkish", "W:Wa2,Kh8:Bh3"),
        ] {
            let args = [
                "moves",
                "--variant",
                variant,
                "--notation",
                notation,
                "--fen",
                fen,
            ];
            let out = Command::cargo_bin("pdnkit")
                .unwrap()
                .args(args)
                .output()
                .unwrap();
            let n = check(&v, lines(&String::from_utf8(out.stdout).unwrap()), variant);
            assert_eq!(n, 1);
        }
    }
    let v = validator("rule.schema.json");
    let rule = |args: &[&str]| {
        let out = Command::cargo_bin("pdnkit")
            .unwrap()
            .args(args)
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let n = check(
        &v,
        lines(&rule(&["rule", "--all", "--json"])),
        "rule --all --json",
    );
    assert_eq!(n, pdnkit::diag::codes::ALL.len());
    let one: Value = serde_json::from_str(&rule(&["rule", "--json", "M101"])).unwrap();
    check(&v, [one], "rule --json M101");
}

#[test]
fn duplicates_and_split_follow_their_schemas() {
    let v = validator("duplicates.schema.json");
    for input in inputs() {
        let n = check(
            &v,
            lines(&stdout(&["duplicates", "--format", "jsonl", input])),
            input,
        );
        assert!(n >= 7, "{input}: {n}");
    }
    let v = validator("split.schema.json");
    for by in ["event", "year", "white", "round", "50"] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let index = stdout(&[
            "split",
            FIXTURES,
            "--by",
            by,
            "--format",
            "jsonl",
            "-o",
            out.to_str().unwrap(),
        ]);
        let n = check(&v, lines(&index), by);
        assert!(n >= 1, "{by}: {n}");
    }
}
