//! `pdnkit split` through the real binary: names safe and unique, games verbatim, files of
//! N games, the folder refused when not empty, failures named.

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

fn pdnkit() -> Command {
    Command::cargo_bin("pdnkit").expect("the pdnkit binary is built")
}

fn game(event: Option<&str>, moves: &str) -> String {
    let tag = event.map_or(String::new(), |e| format!("[Event \"{e}\"]\n"));
    format!("{tag}[Date \"1999.05.01\"]\n\n1. {moves} *\n\n")
}

/// The index lines of a `split --format jsonl` run: `(file name, value, games)`.
fn split(args: &[&str], stdin: &str) -> Vec<(String, Value, u64)> {
    let out = pdnkit()
        .args(["split", "--format", "jsonl", "-q", "-"])
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let name = Path::new(v["path"].as_str().unwrap())
                .file_name()
                .unwrap()
                .to_string_lossy()
                .to_string();
            (name, v["value"].clone(), v["games"].as_u64().unwrap())
        })
        .collect()
}

#[test]
fn names_are_safe_and_unique_where_case_is_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let text = [
        game(Some("Moscow ch/2"), "c3-d4"),
        game(Some("MOSCOW CH/2"), "c3-d4"),
        game(Some("Moscow ch/2"), "a3-b4"),
        game(Some("CON"), "c3-d4"),
        game(Some("..hidden?"), "c3-d4"),
        game(None, "c3-d4"),
        game(Some("?"), "c3-d4"),
        game(Some("Кубок: финал"), "c3-d4"),
    ]
    .concat();
    let index = split(&["--by", "event", "-o", out.to_str().unwrap()], &text);
    let v = |s: &str| Value::from(s);
    assert_eq!(
        index,
        [
            ("Moscow ch_2.pdn".to_string(), v("Moscow ch/2"), 2),
            ("MOSCOW CH_2-2.pdn".to_string(), v("MOSCOW CH/2"), 1),
            ("CON_.pdn".to_string(), v("CON"), 1),
            ("__hidden_.pdn".to_string(), v("..hidden?"), 1),
            ("no-event.pdn".to_string(), Value::Null, 2),
            ("Кубок_ финал.pdn".to_string(), v("Кубок: финал"), 1),
        ]
    );
    // each game verbatim, in input order, a blank line between two
    let moscow = std::fs::read_to_string(out.join("Moscow ch_2.pdn")).unwrap();
    assert_eq!(
        moscow,
        format!(
            "{}\n{}",
            game(Some("Moscow ch/2"), "c3-d4").trim_end(),
            game(Some("Moscow ch/2"), "a3-b4").trim_end()
        )
        .replace("*\n[", "*\n\n[")
            + "\n"
    );
}

#[test]
fn files_of_n_games_hold_the_games_as_read() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("parts");
    let games: Vec<String> = (1..=8)
        .map(|i| game(Some(&format!("e{i}")), "c3-d4 f6-g5"))
        .collect();
    // in Windows-1251, with a Cyrillic comment: written as UTF-8
    let cyrillic = "[Event \"Кубок\"]\n\n1. c3-d4 {хороший ход} *\n\n";
    let all = format!("{}{cyrillic}", games.concat());
    let (encoded, _, _) = encoding_rs::WINDOWS_1251.encode(&all);
    let file = dir.path().join("in.pdn");
    std::fs::write(&file, &encoded).unwrap();
    let run = pdnkit()
        .args(["split", "--by", "3", "--format", "jsonl", "-o"])
        .arg(&out)
        .arg(&file)
        .output()
        .unwrap();
    assert!(run.status.success());
    let index: Vec<Value> = String::from_utf8(run.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let parts: Vec<(Value, u64)> = index
        .iter()
        .map(|v| (v["value"].clone(), v["games"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        parts,
        [
            (Value::from(1), 3),
            (Value::from(2), 3),
            (Value::from(3), 3)
        ]
    );
    let mut back = String::new();
    for n in 1..=3 {
        back.push_str(&std::fs::read_to_string(out.join(format!("part-{n:04}.pdn"))).unwrap());
        back.push('\n');
    }
    assert_eq!(back, all);
}

#[test]
fn by_year_and_by_player() {
    let dir = tempfile::tempdir().unwrap();
    let text = "[White \"Ivanov\"][Date \"1999.05.01\"]\n1. c3-d4 *\n\n[White \"Petrov\"][Date \"01.06.2001\"]\n1. c3-d4 *\n\n[White \"Ivanov\"][Date \"????.??.??\"]\n1. c3-d4 *\n";
    let years = split(
        &["--by", "year", "-o", dir.path().join("y").to_str().unwrap()],
        text,
    );
    let names: Vec<(&str, u64)> = years.iter().map(|(n, _, g)| (n.as_str(), *g)).collect();
    assert_eq!(
        names,
        [("1999.pdn", 1), ("2001.pdn", 1), ("no-year.pdn", 1)]
    );
    let white = split(
        &[
            "--by",
            "white",
            "-o",
            dir.path().join("w").to_str().unwrap(),
        ],
        text,
    );
    let names: Vec<(&str, u64)> = white.iter().map(|(n, _, g)| (n.as_str(), *g)).collect();
    assert_eq!(names, [("Ivanov.pdn", 2), ("Petrov.pdn", 1)]);
}

#[test]
fn a_folder_not_empty_is_refused_without_force_and_a_failure_names_its_path() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("keep.txt"), "mine").unwrap();
    let text = game(Some("Moscow"), "c3-d4");
    let refused = pdnkit()
        .args(["split", "--by", "event", "-o"])
        .arg(dir.path())
        .arg("-")
        .write_stdin(text.clone())
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8(refused.stderr).unwrap();
    assert!(
        stderr.contains("is not empty") && stderr.contains("--force"),
        "{stderr}"
    );
    // with --force: written, what was there left alone
    pdnkit()
        .args(["split", "--by", "event", "--force", "-q", "-o"])
        .arg(dir.path())
        .arg("-")
        .write_stdin(text.clone())
        .assert()
        .success();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("keep.txt")).unwrap(),
        "mine"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("Moscow.pdn")).unwrap(),
        text.trim_end().to_string() + "\n"
    );
    // a file that cannot be written (a folder stands at its name) is named
    std::fs::remove_file(dir.path().join("Moscow.pdn")).unwrap();
    std::fs::create_dir(dir.path().join("Moscow.pdn")).unwrap();
    let failed = pdnkit()
        .args(["split", "--by", "event", "--force", "-o"])
        .arg(dir.path())
        .arg("-")
        .write_stdin(text)
        .output()
        .unwrap();
    assert_eq!(failed.status.code(), Some(2));
    let stderr = String::from_utf8(failed.stderr).unwrap();
    assert!(
        stderr.contains("cannot write") && stderr.contains("Moscow.pdn"),
        "{stderr}"
    );
}

#[test]
fn an_input_is_never_written_over() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("Moscow.pdn");
    let text = game(Some("Moscow"), "c3-d4");
    std::fs::write(&input, &text).unwrap();
    let out = pdnkit()
        .args(["split", "--by", "event", "--force", "-o"])
        .arg(dir.path())
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("is an input")
    );
    assert_eq!(std::fs::read_to_string(&input).unwrap(), text);
}
