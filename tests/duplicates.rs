//! `pdnkit duplicates`, `stats --unique`, `select --unique` and `lint --unique` through the real binary, on
//! the hand-made copies of `fixtures/duplicates`:
//!
//! - `archive.pdn` (UTF-8, numeric squares): three games, the third stopping at an illegal
//!   move at ply 40 (`5-10`), and the first ten plies of the first (too short to be an
//!   unfinished copy);
//! - `copies-cp1251.pdn` (Windows-1251, algebraic squares, short captures): the first
//!   game with the same roster tags and no comments, and the third with its illegal move
//!   written `a7-d6` and the move after it `a5:c7`;
//! - `other.pdn` (UTF-8, algebraic, full captures): the first game with another White,
//!   and the first 30 plies of the second, unfinished.

use assert_cmd::Command;
use serde_json::Value;

/// A line of `duplicates --format jsonl`: `(group, kind, file name, game, line, keep)`.
type Row = (u64, String, String, u64, u64, bool);

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/duplicates");

fn pdnkit() -> Command {
    Command::cargo_bin("pdnkit").expect("the pdnkit binary is built")
}

/// `(group, kind, file name, game, line, keep)` of each line of `duplicates --format jsonl`.
fn groups(args: &[&str], stdin: Option<Vec<u8>>) -> (Vec<Row>, i32) {
    let mut cmd = pdnkit();
    cmd.args(["duplicates", "--format", "jsonl", "-q"])
        .args(args);
    if let Some(input) = stdin {
        cmd.write_stdin(input);
    }
    let out = cmd.output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let rows = text
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            assert_eq!(v["schema"], "pdnkit-duplicates/1");
            let path = v["path"].as_str().unwrap();
            let name = path.rsplit('/').next().unwrap().to_string();
            (
                v["group"].as_u64().unwrap(),
                v["kind"].as_str().unwrap().to_string(),
                name,
                v["game"].as_u64().unwrap(),
                v["line"].as_u64().unwrap(),
                v["keep"].as_bool().unwrap(),
            )
        })
        .collect();
    (rows, out.status.code().unwrap())
}

fn row(g: u64, kind: &str, name: &str, game: u64, line: u64, keep: bool) -> Row {
    (g, kind.to_string(), name.to_string(), game, line, keep)
}

#[test]
fn every_kind_of_copy_is_found_whatever_the_notation_and_encoding() {
    let (rows, code) = groups(&[DIR], None);
    assert_eq!(
        rows,
        [
            // numeric, algebraic in CP1251 without comments, full captures with another White
            row(1, "same-moves", "archive.pdn", 1, 1, true),
            row(1, "same-game", "copies-cp1251.pdn", 1, 1, false),
            row(1, "same-moves", "other.pdn", 1, 1, false),
            // the first 30 plies of a game of 94, unfinished
            row(2, "prefix", "archive.pdn", 2, 17, true),
            row(2, "prefix", "other.pdn", 2, 17, false),
            // an illegal move and the move after it, compared by their squares
            row(3, "same-game", "archive.pdn", 3, 39, true),
            row(3, "same-game", "copies-cp1251.pdn", 2, 16, false),
        ]
    );
    // (a copy found is what the command looks for: exit 1, as lint's errors)
    assert_eq!(code, 1);
}

#[test]
fn the_readable_format_lists_each_group_with_its_tags() {
    let out = pdnkit().args(["duplicates", DIR]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("group 1: same-moves, 3 games\n"), "{text}");
    assert!(text.contains("group 2: prefix, 2 games\n"), "{text}");
    assert!(text.contains("[White \"Lebedev, D.\"]"), "{text}");
    // the CP1251 copy's tags, decoded
    assert!(text.contains("copies-cp1251.pdn:16 (game 2)  [Event \"Correspondence ch\"] [Site \"Санкт-Петербург\"]"), "{text}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("3 groups of copies, 4 copies to drop, among 8 games of 3 files"),
        "{stderr}"
    );
}

#[test]
fn standard_input_is_read_twice_through_a_temporary_file() {
    let archive = std::fs::read(format!("{DIR}/archive.pdn")).unwrap();
    let other = format!("{DIR}/other.pdn");
    let (rows, _) = groups(&["-", &other], Some(archive));
    assert_eq!(
        rows,
        [
            row(1, "same-moves", "-", 1, 1, true),
            row(1, "same-moves", "other.pdn", 1, 1, false),
            row(2, "prefix", "-", 2, 17, true),
            row(2, "prefix", "other.pdn", 2, 17, false),
        ]
    );
}

#[test]
fn no_copy_is_exit_0_and_a_short_common_start_is_no_copy() {
    // the first game and its first ten plies: under 20 plies, no unfinished copy
    let archive = std::fs::read_to_string(format!("{DIR}/archive.pdn")).unwrap();
    let games: Vec<&str> = archive.split("[Event ").filter(|g| !g.is_empty()).collect();
    let text = format!("[Event {}[Event {}", games[0], games[3]);
    let (rows, code) = groups(&["-"], Some(text.into_bytes()));
    assert_eq!((rows, code), (vec![], 0));
}

#[test]
fn the_richest_copy_is_kept_then_the_first() {
    let roster = "[Event \"e\"]\n[Site \"s\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"*\"]\n";
    let plain = format!("{roster}\n1. c3-d4 f6-g5 2. b2-c3 g7-f6 *\n\n");
    let rich = format!(
        "{roster}[Annotator \"a\"]\n\n1. c3-d4 {{best}} f6-g5 (1... d6-c5) 2. b2-c3 g7-f6 *\n\n"
    );
    // the same roster written otherwise: case, spaces, a date and a result in other forms
    let other = plain
        .replace("\"e\"", "\" E \"")
        .replace("2024.01.01", "01.01.2024");
    let text = format!("{plain}{rich}{other}{plain}");
    let (rows, _) = groups(&["-"], Some(text.into_bytes()));
    let keep: Vec<(u64, bool)> = rows.iter().map(|r| (r.3, r.5)).collect();
    assert_eq!(keep, [(1, false), (2, true), (3, false), (4, false)]);
    assert!(rows.iter().all(|r| r.1 == "same-game"), "{rows:?}");
}

#[test]
fn stats_unique_counts_each_game_once() {
    let totals = |unique: bool| {
        let mut cmd = pdnkit();
        cmd.args(["stats", "--format", "json", "-q", DIR]);
        if unique {
            cmd.arg("--unique");
        }
        let report: Value = serde_json::from_slice(&cmd.output().unwrap().stdout).unwrap();
        report["totals"]["games"].as_u64().unwrap()
    };
    assert_eq!((totals(false), totals(true)), (8, 4));
}

#[test]
fn select_unique_selects_from_the_collection_without_its_copies() {
    let select = |args: &[&str]| {
        let out = pdnkit()
            .args(["select", "--format", "matches", DIR])
            .args(args)
            .output()
            .unwrap();
        let games: Vec<(String, u64)> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .map(|m| {
                let path = m["path"].as_str().unwrap();
                let name = path.rsplit('/').next().unwrap().to_string();
                (name, m["game"].as_u64().unwrap())
            })
            .collect();
        (games, String::from_utf8(out.stderr).unwrap())
    };
    let (all, _) = select(&[]);
    assert_eq!(all.len(), 8);
    // the games kept of the three groups, and the one game that has no copy
    let (unique, stderr) = select(&["--unique", "-j", "1"]);
    let kept = [("archive.pdn", 1), ("archive.pdn", 2), ("archive.pdn", 3)];
    for (name, game) in kept {
        assert!(unique.contains(&(name.to_string(), game)), "{unique:?}");
    }
    assert_eq!(unique.len(), 4, "{unique:?}");
    assert!(
        stderr.contains("4 of 8 games selected from 3 files, 4 copies left out"),
        "{stderr}"
    );
    // with a criterion: the copies of archive.pdn's first game are left out
    let lebedev = |unique: &[&str]| select(&[&["--white", "Lebedev"], unique].concat()).0;
    assert_eq!(lebedev(&[]).len(), 4);
    let games = [
        ("archive.pdn".to_string(), 1),
        ("archive.pdn".to_string(), 4),
    ];
    assert_eq!(lebedev(&["--unique"]), games);
    assert_eq!(select(&["--unique", "-j", "2"]).0, unique);
}

#[test]
fn lint_unique_flags_each_copy_but_the_one_kept() {
    let lint = |args: &[&str]| {
        let out = pdnkit()
            .args(["lint", "--format", "jsonl", "-q", DIR])
            .args(args)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|d| d["code"] == "C101")
            .map(|d| {
                let path = d["path"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_string();
                (
                    path,
                    d["line"].as_u64().unwrap(),
                    d["game"].as_u64().unwrap(),
                )
            })
            .collect::<Vec<_>>()
    };
    let flagged = lint(&["--unique"]);
    assert_eq!(
        flagged,
        [
            ("copies-cp1251.pdn".to_string(), 1, 1),
            ("copies-cp1251.pdn".to_string(), 16, 2),
            ("other.pdn".to_string(), 1, 1),
            ("other.pdn".to_string(), 17, 2),
        ]
    );
    // not without --unique, nor when C101 is not selected
    assert!(lint(&[]).is_empty());
    assert!(lint(&["--unique", "--select", "M"]).is_empty());
    assert_eq!(
        lint(&["--unique", "--select", "duplicate-game", "-j", "1"]),
        flagged
    );
}
