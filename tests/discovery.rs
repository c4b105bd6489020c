//! Which files the commands read and how the config file sets them: the real `pdnkit` in
//! a temporary folder per test (its own current folder, so that no config file above the
//! repository is found: a test that needs one writes it).

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::Path;

/// Two games, each with a `T101` (no Site or Round tag), the second with an `M101` on
/// line 15 (a capture was mandatory).
const GAMES: &str = "[Event \"e\"]\n[Date \"2024.05.01\"]\n[White \"a\"]\n[Black \"b\"]\n\
    [Result \"1-0\"]\n\n1. c3-d4 f6-g5 2. b2-c3 g5-h4 3. c3-b4 g7-f6 4. d4-c5 b6:d4 \
    5. e3:c5 1-0\n\n[Event \"e\"]\n[Date \"2024.05.01\"]\n[White \"a\"]\n[Black \"b\"]\n\
    [Result \"0-1\"]\n\n1. c3-d4 f6-e5 2. b2-c3 e5:c3 0-1\n";

/// `pdnkit` run in `dir`.
fn pdnkit(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("pdnkit").expect("the pdnkit binary is built");
    cmd.current_dir(dir).env("NO_COLOR", "1");
    cmd
}

/// Writes each file (folders made as needed) under `dir`.
fn write(dir: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// The paths of `lint --format concise`'s findings, in order, once each.
fn linted(dir: &Path, args: &[&str]) -> Vec<String> {
    let out = pdnkit(dir)
        .args(["lint", "--format", "concise", "-q"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.code() != Some(2), "{out:?}");
    let mut paths: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split(':').next().unwrap().to_string())
        .collect();
    paths.dedup();
    paths
}

/// The codes of `lint --format concise`'s findings.
fn codes(dir: &Path, args: &[&str]) -> Vec<String> {
    let out = pdnkit(dir)
        .args(["lint", "--format", "concise", "-q"])
        .args(args)
        .output()
        .unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split(' ').nth(1).unwrap().to_string())
        .collect()
}

// --- File discovery ---------------------------------------------------------------------

#[test]
fn hidden_folders_and_files_are_not_walked_but_read_when_named() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        &[
            (".git/a.pdn", GAMES),
            (".b.pdn", GAMES),
            ("c.pdn", GAMES),
            ("sub/.x/d.pdn", GAMES),
        ],
    );
    assert_eq!(linted(d, &["."]), ["./c.pdn"]);
    assert_eq!(linted(d, &[".git", ".b.pdn"]), [".git/a.pdn", ".b.pdn"]);
}

#[test]
fn include_and_exclude_choose_the_files_of_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        &[
            ("games/a.PDN", GAMES),
            ("games/b.txt", GAMES),
            ("games/old/c.pdn", GAMES),
            ("games/new/old/d.pdn", GAMES),
        ],
    );
    let all = ["games/a.PDN", "games/new/old/d.pdn", "games/old/c.pdn"];
    assert_eq!(linted(d, &["games"]), all);
    // by name anywhere, by path below the folder walked, or below the current folder
    assert_eq!(linted(d, &["games", "--exclude", "old"]), ["games/a.PDN"]);
    assert_eq!(linted(d, &["games", "--exclude", "old/"]), ["games/a.PDN"]);
    let top_old = ["games/a.PDN", "games/new/old/d.pdn"];
    assert_eq!(linted(d, &["games", "--exclude", "games/old"]), top_old);
    // --include replaces *.pdn; both repeat
    assert_eq!(linted(d, &["games", "--include", "*.txt"]), ["games/b.txt"]);
    let both = [
        "games",
        "--include",
        "*.txt",
        "--include",
        "*.pdn",
        "--exclude",
        "old",
    ];
    assert_eq!(linted(d, &both), ["games/a.PDN", "games/b.txt"]);
    // a file named is read, excluded or not
    assert_eq!(
        linted(d, &["games/old/c.pdn", "--exclude", "old"]),
        ["games/old/c.pdn"]
    );
    // a glob that does not parse is a usage error
    pdnkit(d)
        .args(["lint", "games", "--exclude", "a["])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--exclude"));
}

#[test]
fn no_pdn_files_found_is_an_error_not_a_clean_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, &[("notes/a.txt", "hello"), ("notes/.git/b.pdn", GAMES)]);
    std::fs::create_dir(d.join("empty")).unwrap();
    for command in [&["lint"][..], &["stats"], &["convert", "--to", "csv"]] {
        pdnkit(d)
            .args(command)
            .args(["notes", "empty"])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(
                "no PDN files found under `notes`, `empty` (looked for *.pdn",
            ));
    }
    // everything excluded is nothing found, too
    write(d, &[("games/a.pdn", GAMES)]);
    pdnkit(d)
        .args(["lint", "games", "--exclude", "*.pdn"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no PDN files found under `games`"));
}

/// The output of `pdnkit ARGS` run in `dir` with its standard input (and output) a
/// pseudo-terminal, and its exit code; a command that waits for input fails the test
/// after 30 s instead of hanging it.
#[cfg(unix)]
fn on_a_terminal(dir: &Path, args: &[&str]) -> (String, i32) {
    use expectrl::Expect;
    use expectrl::process::unix::WaitStatus;
    // (expectrl splits the command line at spaces: `env` sets the folder and NO_COLOR)
    let bin = env!("CARGO_BIN_EXE_pdnkit");
    let line = format!(
        "env -C {} NO_COLOR=1 {bin} {}",
        dir.display(),
        args.join(" ")
    );
    assert!(
        !line.contains(['"', '\'']) && line.split(' ').count() == 5 + args.len(),
        "a path with a space or a quote: {line}"
    );
    let mut terminal = expectrl::spawn(&line).unwrap();
    terminal.set_expect_timeout(Some(std::time::Duration::from_secs(30)));
    let out = terminal
        .expect(expectrl::Eof)
        .unwrap_or_else(|e| panic!("pdnkit {args:?} on a terminal: {e}"));
    let text = String::from_utf8_lossy(out.as_bytes()).replace('\r', "");
    match terminal.get_process().wait().unwrap() {
        WaitStatus::Exited(_, code) => (text, code),
        other => panic!("pdnkit {args:?}: {other:?}"),
    }
}

#[cfg(unix)]
#[test]
fn no_path_and_a_terminal_reads_the_current_folder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        &[
            ("a.pdn", GAMES),
            ("sub/b.pdn", GAMES),
            (".hidden/c.pdn", GAMES),
        ],
    );
    let (text, code) = on_a_terminal(d, &["lint", "--format", "concise"]);
    assert_eq!(code, 1, "{text}");
    // named below the current folder, as ruff and ripgrep name them
    assert!(text.contains("a.pdn:15:19: M101"), "{text}");
    assert!(text.contains("sub/b.pdn:15:19: M101"), "{text}");
    assert!(!text.contains("./"), "{text}");
    assert!(!text.contains("c.pdn"), "{text}");
    assert!(text.contains("2 files, 4 games"), "{text}");

    let (text, code) = on_a_terminal(d, &["stats", "--format", "json"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("2 files, 4 games"), "{text}");
    let (text, code) = on_a_terminal(d, &["convert", "--to", "csv"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("4 games from 2 files"), "{text}");

    // a terminal and nothing to read is said as for a folder given
    let empty = tempfile::tempdir().unwrap();
    let (text, code) = on_a_terminal(empty.path(), &["lint"]);
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("no PDN files found under the current folder"),
        "{text}"
    );
}

#[test]
fn no_path_and_piped_input_reads_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, &[("a.pdn", "not read")]);
    pdnkit(d)
        .args(["lint", "--format", "concise"])
        .write_stdin(GAMES)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("\n-:15:19: M101"))
        .stderr(predicate::str::contains("1 file, 2 games"));
    pdnkit(d)
        .args(["stats", "-"])
        .write_stdin(GAMES)
        .assert()
        .success()
        .stderr(predicate::str::contains("1 file, 2 games"));
}

// --- The config file --------------------------------------------------------------------

#[test]
fn the_config_file_is_found_upward_and_selects() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, &[("games/deep/a.pdn", GAMES)]);
    let deep = d.join("games/deep");
    let every = codes(&deep, &["a.pdn"]);
    assert!(every.contains(&"M101".to_string()), "{every:?}");
    assert!(every.len() > 1, "{every:?}");

    write(d, &[("pdnkit.toml", "select = [\"M\"]\n")]);
    assert_eq!(codes(&deep, &["a.pdn"]), ["M101"]);
    // the nearest wins, .pdnkit.toml before pdnkit.toml
    write(d, &[("games/pdnkit.toml", "select = [\"T\"]\n")]);
    write(d, &[("games/.pdnkit.toml", "ignore = [\"M\"]\n")]);
    let nearest = codes(&deep, &["a.pdn"]);
    assert!(
        !nearest.is_empty() && !nearest.contains(&"M101".to_string()),
        "{nearest:?}"
    );
    // --select and --ignore replace the file's; --isolated reads none; --config reads
    // that one
    assert_eq!(
        codes(&deep, &["a.pdn", "--select", "M"]),
        Vec::<String>::new()
    );
    assert_eq!(
        codes(&deep, &["a.pdn", "--select", "M", "--ignore", "D"]),
        ["M101"]
    );
    assert_eq!(codes(&deep, &["a.pdn", "--isolated"]), every);
    assert_eq!(
        codes(&deep, &["a.pdn", "--config", "../../pdnkit.toml"]),
        ["M101"]
    );
    pdnkit(&deep)
        .args([
            "lint",
            "a.pdn",
            "--config",
            "../../pdnkit.toml",
            "--isolated",
        ])
        .assert()
        .code(2);
    pdnkit(&deep)
        .args(["lint", "a.pdn", "--config", "missing.toml"])
        .assert()
        .code(2)
        .stderr("error: missing.toml: No such file or directory (os error 2)\n");
}

#[test]
fn config_mistakes_are_usage_errors_naming_file_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, &[("a.pdn", GAMES)]);
    for (text, said) in [
        (
            "select = [\"M\"]\nselekt = [\"M\"]\n",
            "pdnkit.toml:2:1: unknown field `selekt`, expected one of `select`",
        ),
        (
            "ignore = [\"illegal-mov\"]\n",
            "pdnkit.toml:1:11: ignore: no rule has the code, name or code prefix \
             `illegal-mov`; did you mean illegal-move?",
        ),
        (
            "rules = \"usa\"\n",
            "pdnkit.toml:1:9: unknown variant `usa`",
        ),
        (
            "[per-file-ignores]\n\"x/*\" = [\"Z9\"]\n",
            "pdnkit.toml:2:10: per-file-ignores: `x/*`: no rule",
        ),
        ("exclude = [\"[\"]\n", "pdnkit.toml:1:12: exclude: "),
    ] {
        write(d, &[("pdnkit.toml", text)]);
        for command in ["lint", "stats"] {
            pdnkit(d)
                .args([command, "a.pdn"])
                .assert()
                .code(2)
                .stdout("")
                .stderr(predicate::str::contains(said));
        }
    }
}

#[test]
fn per_file_ignores_drop_findings_of_the_files_they_match() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        &[
            (
                "pdnkit.toml",
                "[per-file-ignores]\n\"studies/*.pdn\" = [\"illegal-move\"]\n",
            ),
            ("studies/a.pdn", GAMES),
            ("games/a.pdn", GAMES),
        ],
    );
    let found = |args: &[&str]| {
        let out = pdnkit(d)
            .args(["lint", "--format", "concise", "-q", "--select", "M"])
            .args(args)
            .output()
            .unwrap();
        (String::from_utf8(out.stdout).unwrap(), out.status.code())
    };
    let (text, code) = found(&["."]);
    assert_eq!(code, Some(1));
    assert!(
        text.contains("./games/a.pdn:15:") && !text.contains("studies"),
        "{text}"
    );
    // the file's only error dropped: a clean run
    assert_eq!(found(&["studies"]), (String::new(), Some(0)));
    // matched below the config file's folder, wherever lint runs
    pdnkit(&d.join("studies"))
        .args(["lint", "--select", "M", "a.pdn"])
        .assert()
        .success();
}

#[test]
fn config_rules_encoding_and_exclude_apply_to_every_reading_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // a draw agreed at move 2: too early in the russia edition, an agreement in fmjd;
    // in KOI8-R, which detection would take for another Cyrillic code page
    let cyrillic = "[Event \"Кубок\"]\n[Result \"1-1\"]\n\n1. c3-d4 f6-g5 2. b2-c3 g7-f6 1-1\n";
    let (koi8, _, _) = encoding_rs::KOI8_R.encode(cyrillic);
    std::fs::create_dir_all(d.join("games/old")).unwrap();
    std::fs::write(d.join("games/a.pdn"), &koi8).unwrap();
    std::fs::write(d.join("games/old/b.pdn"), &koi8).unwrap();
    write(
        d,
        &[(
            "pdnkit.toml",
            "rules = \"fmjd\"\nencoding = \"koi8-r\"\nexclude = [\"old\"]\n\
             severity = \"info\"\n",
        )],
    );
    // (D103, the draw by agreement, is an info: shown by the file's severity)
    assert_eq!(codes(d, &["games", "--select", "D"]), ["D103"]);
    let warnings = ["games", "--select", "D", "--severity", "warning"];
    assert_eq!(codes(d, &warnings), Vec::<String>::new());
    pdnkit(d)
        .args(["convert", "--to", "jsonl", "games"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Кубок"))
        .stderr(predicate::str::contains("1 game from 1 file"));
    let out = pdnkit(d)
        .args(["stats", "--format", "json", "games"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["draws"]["agreement"], 1, "{json}");
    assert_eq!(json["totals"]["files"], 1, "{json}");
    // the command line overrides the file
    let out = pdnkit(d)
        .args([
            "stats",
            "--format",
            "json",
            "--rules",
            "russia",
            "--exclude",
            "x",
        ])
        .arg("games")
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["draws"]["early_agreement"], 2, "{json}");
    assert_eq!(json["totals"]["files"], 2, "{json}");
    let isolated = ["games", "--select", "D", "--isolated", "--severity", "info"];
    assert_eq!(codes(d, &isolated).len(), 4);
}
