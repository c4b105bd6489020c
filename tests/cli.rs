//! Integration tests: the real `pdnkit` binary, one temp dir per test where files are needed.

mod common;

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
    let lines = jsonl(&out.stdout);
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

fn fixture(name: &str) -> String {
    format!("{}/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The standard output of `pdnkit ARGS PATH`, whatever its exit status.
fn stdout_of(args: &[&str], path: &std::path::Path) -> String {
    let out = pdnkit().args(args).arg(path).output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

fn jsonl(stdout: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is a JSON object"))
        .collect()
}

type Expected = (
    u64,
    &'static str,
    u64,
    u64,
    Option<u64>,
    Option<&'static str>,
);

#[test]
fn lint_reports_each_diagnostic_at_its_game_line_column_and_ply() {
    let out = pdnkit()
        .args(["lint", "--format", "jsonl", "--severity", "info"])
        .arg(fixture("lint/diagnostics.pdn"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "errors were found");
    let got: Vec<Expected> = jsonl(&out.stdout)
        .iter()
        .map(|d| {
            (
                d["game"].as_u64().unwrap(),
                // leak: the test compares against static names
                &*String::from(d["name"].as_str().unwrap()).leak(),
                d["line"].as_u64().unwrap(),
                d["column"].as_u64().unwrap(),
                d["ply"].as_u64(),
                d["move"].as_str().map(|m| &*String::from(m).leak()),
            )
        })
        .collect();
    // Each game of the fixture is built to trigger these and nothing else; game 1 is clean.
    let expected: Vec<Expected> = vec![
        (2, "illegal-move", 19, 19, Some(3), Some("b2-c3")),
        (3, "ambiguous-move", 30, 4, Some(1), Some("f4:h2")),
        (4, "ambiguous-move-resolved", 41, 4, Some(1), Some("f4:h2")),
        (5, "result-mismatch", 51, 16, None, None),
        (6, "result-contradicts-position", 62, 10, None, None),
        (7, "invalid-fen", 71, 1, None, None),
        (8, "wrong-move-number", 83, 16, Some(3), Some("b2-c3")),
        (9, "unsupported-variant", 92, 1, None, None),
        (10, "invalid-date", 98, 1, None, None),
        (10, "invalid-result-tag", 102, 1, None, None),
        (10, "duplicate-tag", 103, 1, None, None),
        (11, "missing-tag", 107, 1, None, None),
        (12, "unexpected-token", 119, 10, None, None),
        (13, "unbalanced-variation", 129, 10, None, None),
        (13, "result-in-variation", 129, 35, None, None),
        (13, "missing-terminator", 129, 36, None, None),
        (14, "malformed-tag", 138, 1, None, None),
        (
            15,
            "play-after-automatic-draw",
            151,
            79,
            Some(11),
            Some("d2-c1"),
        ),
        (
            16,
            "repetition-not-claimed",
            162,
            55,
            Some(8),
            Some("g7-h8"),
        ),
        (16, "result-contradicts-draw-rule", 162, 76, None, None),
        (17, "draw-without-basis", 172, 25, Some(4), Some("g5-h4")),
        (17, "early-draw-agreement", 172, 25, Some(4), Some("g5-h4")),
        (18, "unterminated-comment", 182, 10, None, None),
        (18, "missing-terminator", 182, 40, None, None),
    ];
    assert_eq!(got, expected);
}

#[test]
fn lint_clean_file_exits_zero_with_no_output() {
    pdnkit()
        .args(["lint", "--format", "concise"])
        .arg(fixture("lint/clean.pdn"))
        .assert()
        .success()
        .stdout("")
        .stderr(predicate::str::contains("1 file, 2 games, 0 with errors"));
}

#[test]
fn lint_full_format_points_at_the_move_and_draws_the_board() {
    pdnkit()
        .arg("lint")
        .arg(fixture("example.pdn"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "error[M101]: `b2-c3` is illegal: a capture is mandatory; available: d4:f6 (illegal-move)",
        ))
        .stdout(predicate::str::contains("19 | 1. c3-d4 f6-e5 2. b2-c3"))
        .stdout(predicate::str::contains("   |                   ^^^^^"))
        .stdout(predicate::str::contains(" 5 | .     .     b     .    |"))
        .stdout(predicate::str::contains("white to move"));
}

#[test]
fn lint_select_and_ignore_by_code_name_and_prefix() {
    let run = |args: &[&str]| {
        let out = pdnkit()
            .args(["lint", "--format", "jsonl"])
            .args(args)
            .arg(fixture("lint/diagnostics.pdn"))
            .output()
            .unwrap();
        let mut names: Vec<String> = jsonl(&out.stdout)
            .iter()
            .map(|d| d["name"].as_str().unwrap().to_string())
            .collect();
        names.dedup();
        names
    };
    assert_eq!(run(&["--select", "M101"]), ["illegal-move"]);
    assert_eq!(
        run(&["--select", "T"]),
        [
            "invalid-date",
            "invalid-result-tag",
            "duplicate-tag",
            "missing-tag"
        ]
    );
    assert_eq!(
        run(&["--select", "D", "--ignore", "D10"]),
        Vec::<String>::new()
    );
    assert_eq!(
        run(&["--select", "illegal-move,ambiguous-move"]),
        ["illegal-move", "ambiguous-move"]
    );
}

/// A selection is made before the limit of findings a game reports: the illegal move of
/// a game with 1,500 duplicate tags is still reported to `--select M`, and counted as an
/// error, with one thread and two.
#[test]
fn lint_select_reports_an_illegal_move_past_a_thousand_other_findings() {
    let dir = tempfile::tempdir().unwrap();
    let mut text: String = (0..1500).map(|i| format!("[Event \"{i}\"]\n")).collect();
    text.push_str("\n1. c3-d4 f6-g5 2. c3-b4 *\n");
    let path = dir.path().join("dups.pdn");
    std::fs::write(&path, text).unwrap();
    for jobs in ["1", "2"] {
        let out = pdnkit()
            .args(["lint", "--format", "jsonl", "--select", "M", "-j", jobs])
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "-j{jobs}");
        let found = jsonl(&out.stdout);
        assert_eq!(found.len(), 1, "-j{jobs}");
        assert_eq!(found[0]["code"], "M101");
        assert_eq!(found[0]["line"], 1502);
        let summary = String::from_utf8(out.stderr).unwrap();
        assert!(
            summary.contains("1 with errors; 1 error, 0 warnings"),
            "{summary}"
        );
    }
    // ignoring the move rules: the game still has errors, but none is reported
    let out = pdnkit()
        .args(["lint", "--format", "jsonl", "--ignore", "M,P118"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(jsonl(&out.stdout).len(), 1000);
    let summary = String::from_utf8(out.stderr).unwrap();
    assert!(
        summary.contains("1 with errors; 0 errors, 1000 warnings"),
        "{summary}"
    );
}

/// The messages of a draw by agreement, as the rule's article of each edition has them.
#[test]
fn lint_names_the_move_and_the_article_of_a_draw_by_agreement() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("agreed.pdn");
    let text = "[Event \"a\"]\n1. c3-d4 f6-g5 2. b2-c3 g7-f6 1-1\n\n\
                [Event \"b\"]\n[FEN \"W:W21,22:B9,10\"]\n1-1\n";
    std::fs::write(&path, text).unwrap();
    for (edition, article) in [("russia", "6.1.8.1"), ("fmjd", "7.2.1")] {
        let out = pdnkit()
            .args([
                "lint",
                "--format",
                "jsonl",
                "--severity",
                "info",
                "--select",
                "D103",
                "--rules",
                edition,
            ])
            .arg(&path)
            .output()
            .unwrap();
        let messages: Vec<String> = jsonl(&out.stdout)
            .iter()
            .map(|d| d["message"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(
            messages,
            [
                format!(
                    "drawn at move 2 although no draw rule was reached and no position \
                     repeated three times: a draw by agreement ({article})"
                ),
                format!("drawn before any move: a draw by agreement ({article})"),
            ]
        );
    }
}

#[test]
fn lint_exit_zero_and_json_array() {
    let out = pdnkit()
        .args(["lint", "--format", "json", "--exit-zero"])
        .arg(fixture("example.pdn"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 1);
    assert_eq!(v[0]["code"], "M101");
}

#[test]
fn lint_reads_stdin_and_reports_github_annotations() {
    pdnkit()
        .args(["lint", "--format", "github", "-"])
        .write_stdin("1. c3-d4 f6-e5 2. b2-c3 *\n")
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "::error file=-,line=1,col=19,title=M101 illegal-move::",
        ));
}

#[test]
fn lint_missing_file_is_exit_2_and_other_files_are_still_checked() {
    pdnkit()
        .args(["lint", "--format", "concise", "no/such/file.pdn"])
        .arg(fixture("example.pdn"))
        .assert()
        .code(2)
        .stdout(predicate::str::contains("no/such/file.pdn: E102"))
        .stdout(predicate::str::contains("example.pdn:19:19: M101"));
}

#[test]
fn lint_game_limits_are_options() {
    // six moves, a comment of 200,000 bytes and a NAG: over a limit of five moves, of
    // 100,000 bytes or of one item, skipped as too large (and said so); within the
    // limits, read and clean
    let game = format!(
        "1. c3-b4 {{{}}} f6-g5 $1 2. b2-c3 g7-f6 3. a1-b2 h8-g7 *\n",
        "x".repeat(200_000)
    );
    let lint = |args: &[&str]| {
        let out = pdnkit()
            .args(["lint", "--format", "concise", "--ignore", "T"])
            .args(args)
            .arg("-")
            .write_stdin(game.clone())
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    let (code, out) = lint(&["--max-game-moves", "5"]);
    assert_eq!(code, Some(1));
    assert!(
        out.contains("-:1:1: P107 [error] game with more than 5 moves; skipped"),
        "{out}"
    );
    let (code, out) = lint(&["--max-game-bytes", "100000"]);
    assert_eq!(code, Some(1));
    assert!(
        out.contains("-:1:1: P107 [error] game larger than 100000 bytes; skipped"),
        "{out}"
    );
    let (code, out) = lint(&["--max-game-items", "1"]);
    assert_eq!(code, Some(1));
    assert!(
        out.contains("-:1:1: P107 [error] game with more than 1 tags, comments, NAGs, setups and variations; skipped"),
        "{out}"
    );
    assert_eq!(lint(&["--max-game-moves", "6"]), (Some(0), String::new()));
    assert_eq!(lint(&["--max-game-items", "2"]), (Some(0), String::new()));
    assert_eq!(lint(&[]), (Some(0), String::new()));
}

#[test]
fn lint_walks_directories_in_a_stable_order() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("b")).unwrap();
    std::fs::write(dir.path().join("b/z.PDN"), "1. c3-d4 f6-e5 2. b2-c3 *\n").unwrap();
    std::fs::write(dir.path().join("a.pdn"), "1. a3-a5 *\n").unwrap();
    std::fs::write(dir.path().join("notes.txt"), "1. a3-a5 *\n").unwrap();
    let args = ["lint", "--format", "concise", "--select", "M101", "-j", "2"];
    let text = stdout_of(&args, dir.path());
    let files: Vec<&str> = text
        .lines()
        .map(|l| l.split(':').next().unwrap())
        .map(|p| p.rsplit('/').next().unwrap())
        .collect();
    assert_eq!(files, ["a.pdn", "z.PDN"]);
}

/// Runs `lint ARGS -` on 20,000 bad games with a stdout nobody reads after the first
/// bytes, and returns the exit code.
fn lint_into_a_closed_pipe(args: &[&str]) -> Option<i32> {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("pdnkit"))
        .arg("lint")
        .args(args)
        .arg("-")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        let game = "1. a3-a5 *\n".repeat(20_000);
        let _ = stdin.write_all(game.as_bytes());
    }
    drop(child.stdout.take());
    child.wait().unwrap().code()
}

#[test]
fn lint_broken_pipe_is_not_an_error() {
    // 20,000 diagnostics overflow the pipe buffer, so the write fails with EPIPE
    assert_eq!(
        lint_into_a_closed_pipe(&["--format", "concise"]),
        Some(0),
        "a closed pipe is not an error"
    );
}

#[test]
fn readme_lists_every_diagnostic() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    for r in pdnkit::diag::codes::ALL {
        let row = format!("| {} | {} | {} |", r.code, r.name, r.severity);
        assert!(readme.contains(&row), "README lacks the row `{row}`");
    }
}

/// `-j1` runs reading, checking and output on one thread; with more, a file over 1 MiB is
/// cut into blocks by the reader thread and smaller ones are read and checked whole by a
/// worker each. All must give the same
/// report, in the same order, and the same exit code, on small files and on one file of
/// many games.
/// `lint` and `convert --to csv` (whose game rows are made in one pass, as `lint` reads)
/// give the same bytes whatever the number of threads: a big file read in blocks, a
/// middling one read whole by a worker, many small ones.
#[test]
fn lint_csv_rows_and_stats_are_the_same_on_one_thread_and_on_several() {
    let dir = tempfile::tempdir().unwrap();
    let mut big = Vec::new();
    pdnkit_gen::Generator::new(21)
        .write_games(&mut big, 1800)
        .unwrap();
    let broken = String::from_utf8(big.clone())
        .unwrap()
        .replacen("2. ", "2. a1-a5 ", 40);
    assert!(broken.len() > 1 << 20, "the big file takes the batched way");
    std::fs::write(dir.path().join("big.pdn"), &broken).unwrap();
    // and a smaller one with findings, read whole by a worker
    let cut = (0..=300_000)
        .rev()
        .find(|&k| broken.is_char_boundary(k))
        .unwrap();
    std::fs::write(dir.path().join("mid.pdn"), &broken[..cut]).unwrap();
    for (i, name) in ["lint/diagnostics.pdn", "lint/clean.pdn", "example.pdn"]
        .iter()
        .enumerate()
    {
        std::fs::copy(fixture(name), dir.path().join(format!("f{i}.pdn"))).unwrap();
    }
    // more small files than one worker takes at a time (64), each with findings
    for i in 0..70 {
        let name = ["lint/diagnostics.pdn", "example.pdn"][i % 2];
        std::fs::copy(fixture(name), dir.path().join(format!("g{i:02}.pdn"))).unwrap();
    }
    for command in [
        &["lint", "--format", "jsonl"][..],
        &["convert", "--to", "csv", "--tags", "Event,Round"][..],
        // (small files counted each on one thread, the big one on all, into each
        // thread's counts, merged at the end)
        &["stats", "--format", "json", "--by", "file"][..],
    ] {
        let run = |jobs: &str| {
            pdnkit()
                .args(command)
                .args(["-q", "-j", jobs])
                .arg(dir.path())
                .output()
                .unwrap()
        };
        let one = run("1");
        let lines = String::from_utf8_lossy(&one.stdout).lines().count();
        // (each small file has a game or more; 1,800 games in the big file)
        assert!(lines > 40, "{command:?}: {lines} lines");
        for jobs in ["2", "3"] {
            let several = run(jobs);
            assert_eq!(several.status.code(), one.status.code(), "{command:?}");
            assert_eq!(
                String::from_utf8_lossy(&one.stdout),
                String::from_utf8_lossy(&several.stdout),
                "{command:?} -j {jobs}"
            );
        }
    }
}

/// With several threads a big file (and standard input) is cut into blocks that workers
/// read and check apart, where one thread reads an input whole: both must give
/// the same report (and `convert --to csv` the same rows, `stats` the same counts), game numbers and `pdnkit show`
/// hints included, whatever the file holds
/// at the places it is cut (comments between games, which make a block end where the
/// next game's text starts, so that the rest is read again in order; a malformed byte
/// after the text the encoding is told from; CR LF and a BOM; CR alone; megabytes with no
/// tag line).
#[test]
fn lint_reads_a_big_file_in_blocks_as_it_reads_it_whole() {
    let dir = tempfile::tempdir().unwrap();
    let mut games = Vec::new();
    pdnkit_gen::Generator::new(23)
        .write_games(&mut games, 2500)
        .unwrap();
    let games = String::from_utf8(games)
        .unwrap()
        .replacen("3. ", "3. a1-a5 ", 60);
    assert!(games.len() > 1 << 20, "big enough to be read in blocks");
    // (every game followed by a comment of its own: a block ends inside the next game)
    let commented = games.replace("\n\n[Event", "\n{between games}\n\n[Event");
    let mut malformed = games.clone().into_bytes();
    let at = malformed.len() / 2
        + malformed[malformed.len() / 2..]
            .windows(4)
            .position(|w| w == b"[Eve")
            .unwrap();
    malformed.splice(at..at, b"{ \xff }\n".iter().copied());
    let at = malformed.len() - 20_000;
    let at = at + malformed[at..].windows(2).position(|w| w == b"1.").unwrap();
    malformed.splice(at..at, "{ \u{fffd} } ".bytes());
    let crlf = format!("\u{feff}{}", games.replace('\n', "\r\n"));
    let no_tag_line = format!(
        "{}\n{{{}}}\n\n{}",
        &games[..games.len() / 3],
        "no tag line here\n".repeat(600_000),
        &games[games.len() / 3..]
    );
    // games without tags: blocks cut at a first move after a result, one in every
    // hundred games without its result (the blocks there cannot be read apart)
    let mut no_tags = String::new();
    for (k, game) in games.split("\n\n[Event").enumerate() {
        let moves = game
            .split_inclusive('\n')
            .filter(|l| !l.starts_with(['[', ' ']));
        let moves: String = moves.collect();
        no_tags.push_str(&moves);
        if k % 100 == 99 {
            no_tags.truncate(no_tags.trim_end().rfind(' ').unwrap_or(0));
        }
        no_tags.push_str("\n\n");
    }
    // games without results: cut at the first tag line of a game
    let no_results = games
        .replace(" 1-0\n", "\n")
        .replace(" 0-1\n", "\n")
        .replace(" 1/2-1/2\n", "\n");
    // old Russian archives: legacy single-byte encodings, decoded block by block (the
    // blocks of the commented file do not end cleanly: read on in the file's encoding)
    let legacy = |encoding: &'static encoding_rs::Encoding, text: &str| {
        let (bytes, _, unmappable) = encoding.encode(text);
        assert!(
            !unmappable && bytes.len() < text.len(),
            "{}",
            encoding.name()
        );
        bytes.into_owned()
    };
    let files: [(&str, Vec<u8>); 11] = [
        ("cp1251.pdn", legacy(encoding_rs::WINDOWS_1251, &games)),
        (
            "koi8-commented.pdn",
            legacy(encoding_rs::KOI8_R, &commented),
        ),
        ("cp866-no-tags.pdn", legacy(encoding_rs::IBM866, &no_tags)),
        ("games.pdn", games.clone().into_bytes()),
        ("no-results.pdn", no_results.into_bytes()),
        ("no-tags.pdn", no_tags.into_bytes()),
        ("cr.pdn", games.replace('\n', "\r").into_bytes()),
        ("commented.pdn", commented.into_bytes()),
        ("malformed.pdn", malformed),
        ("crlf.pdn", crlf.into_bytes()),
        ("no-tag-line.pdn", no_tag_line.into_bytes()),
    ];
    for (name, bytes) in files {
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        for args in [
            &[
                "lint",
                "--format",
                "jsonl",
                "--severity",
                "info",
                "--color",
                "never",
                "-q",
                "-j",
                "2",
            ][..],
            &[
                "lint",
                "--format",
                "full",
                "--severity",
                "info",
                "--color",
                "never",
                "-q",
                "-j",
                "2",
            ],
            &["convert", "--to", "csv", "--tags", "Round", "-q", "-j", "2"],
            // (the bytes and encoding of the file as well as the counts of its games)
            &["stats", "--format", "json", "--depth", "4", "-q", "-j", "2"],
        ] {
            // (after bytes replaced by U+FFFD, input offsets count the replacement, as
            // GameSource::offset documents: a block read apart counts from its own exact
            // start; `pdnkit fix` refuses such an input)
            let exact = name != "malformed.pdn";
            let (blocks, whole) = in_blocks_and_whole(args, &path, &bytes, exact);
            assert!(whole.lines().count() > 50, "{name}: {whole}");
            assert_same_lines(&blocks, &whole, &format!("{name} ({args:?})"));
        }
    }
}

/// `lint --format jsonl` output without the input offsets of its fixes' edits.
fn without_offsets(jsonl: &str) -> String {
    let mut out = String::new();
    for line in jsonl.lines() {
        let mut d: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
        if let Some(edits) = d["fix"]["edits"].as_array_mut() {
            for e in edits {
                e["start"] = serde_json::Value::Null;
                e["end"] = serde_json::Value::Null;
            }
            out.push_str(&d.to_string());
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// Asserts that two long outputs are the same, showing the first line that differs.
fn assert_same_lines(got: &str, want: &str, what: &str) {
    if let Some((n, (a, b))) = got
        .lines()
        .zip(want.lines())
        .enumerate()
        .find(|(_, (a, b))| a != b)
    {
        panic!("{what}: line {} differs:\n{a}\n{b}", n + 1);
    }
    assert_eq!(got.lines().count(), want.lines().count(), "{what}: lines");
}

/// The output of `pdnkit ARGS` on the file at `path` (big enough to be read in blocks)
/// and on its `bytes` from standard input read whole (in one pass on one thread: ARGS
/// with `-j 1`), the file's name given as `-` in the first; their exit statuses are the
/// same. ARGS on the same bytes from standard input, cut into blocks too (which a pipe
/// can be read once only), must give what the input read whole gives.
fn in_blocks_and_whole(
    args: &[&str],
    path: &std::path::Path,
    bytes: &[u8],
    exact_offsets: bool,
) -> (String, String) {
    let blocks = pdnkit().args(args).arg(path).output().unwrap();
    let jobs = args.iter().position(|&a| a == "-j").expect("-j N") + 1;
    let mut one_thread = args.to_vec();
    one_thread[jobs] = "1";
    let from_stdin = |args: &[&str]| {
        let out = pdnkit()
            .args(args)
            .arg("-")
            .write_stdin(bytes.to_vec())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stdout = match exact_offsets {
            true => stdout,
            false => without_offsets(&stdout),
        };
        (out.status.code(), stdout)
    };
    let (status, whole) = from_stdin(&one_thread);
    assert_eq!(blocks.status.code(), status, "{args:?}");
    let (piped_status, piped) = from_stdin(args);
    assert_eq!(piped_status, status, "{args:?}: standard input");
    assert_same_lines(&piped, &whole, &format!("{args:?}: standard input"));
    let label = path.display().to_string();
    let blocks = String::from_utf8_lossy(&blocks.stdout).replace(&label, "-");
    let blocks = match exact_offsets {
        true => blocks,
        false => without_offsets(&blocks),
    };
    (blocks, whole)
}

/// Games without moves or results give blocks that cannot be read apart (where such a
/// game ends depends on the tag line after it): the rest of the file is read again from
/// the first such block, its games checked in batches on the threads, with the report of
/// the file read whole, game numbers and the problems between games included.
#[test]
fn the_rest_after_a_block_that_did_not_end_cleanly_is_read_as_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let mut games = Vec::new();
    pdnkit_gen::Generator::new(41)
        .write_games(&mut games, 1000)
        .unwrap();
    let games = String::from_utf8(games).unwrap();
    let mut text = String::new();
    for (k, game) in games.split("\n\n[Event").enumerate() {
        // after 600 games (blocks read apart: more than the first read, which the first
        // block is cut from), a hundred header-only games before each
        // game with moves (more tag lines than a cut is looked for among: one in seven
        // of those games with an illegal move, the longest over the move limit below)
        for h in 0..if k < 600 { 0 } else { 100 } {
            text.push_str(&format!("[Event \"header {k}.{h}\"]\n[Round \"{h}\"]\n\n"));
        }
        if k > 0 {
            text.push_str("[Event");
        }
        text.push_str(&game.replacen("5. ", "5. a1-a5 ", usize::from(k % 7 == 0)));
        text.push_str("\n\n");
    }
    // (files over 1 MiB are cut into blocks)
    assert!(text.len() > 3 << 19, "big enough to be read in blocks");
    let path = dir.path().join("header-only.pdn");
    std::fs::write(&path, &text).unwrap();
    for args in [
        [
            "lint",
            "--format",
            "jsonl",
            "-q",
            "-j",
            "2",
            "--max-game-moves",
            "90",
        ],
        [
            "convert",
            "--to",
            "csv",
            "-q",
            "-j",
            "3",
            "--max-game-moves",
            "90",
        ],
        [
            "stats",
            "--format",
            "json",
            "-q",
            "-j",
            "2",
            "--max-game-moves",
            "90",
        ],
    ] {
        let (blocks, whole) = in_blocks_and_whole(&args, &path, text.as_bytes(), true);
        assert_eq!(blocks, whole, "{args:?}");
        if args[0] == "lint" {
            // the problems of the games over the limit, numbered in the whole file
            let found = jsonl(whole.as_bytes());
            let too_large = found.iter().filter(|d| d["code"] == "P107").count();
            let last_game = found.iter().filter_map(|d| d["game"].as_u64()).max();
            assert!(too_large > 10, "{too_large}");
            assert!(last_game > Some(40_000), "{last_game:?}");
        }
    }
}

/// A game's syntax errors are reported up to a limit, then once more to say the rest are
/// not (what bounds the memory of a game with hundreds of thousands of them); the game
/// after it is checked as any.
#[test]
fn a_game_reports_a_thousand_syntax_errors_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("errors.pdn");
    let text = format!(
        "[Event \"x\"]\n1. c3-d4 {}*\n\n[Event \"y\"]\n1. c3-e5 *\n",
        "@@ ".repeat(1_500)
    );
    std::fs::write(&path, text).unwrap();
    let out = pdnkit()
        .args(["lint", "--format", "jsonl", "-q"])
        .arg(&path)
        .output()
        .unwrap();
    let found = jsonl(&out.stdout);
    let count = |code: &str, game: u64| {
        found
            .iter()
            .filter(|d| d["code"] == code && d["game"] == game)
            .count()
    };
    assert_eq!(count("P105", 1), pdnkit::pdn::MAX_GAME_ERRORS);
    assert_eq!(count("P118", 1), 1);
    assert_eq!(count("M101", 2), 1);
}

#[test]
fn lint_on_one_thread_stops_quietly_at_a_broken_pipe() {
    assert_eq!(
        lint_into_a_closed_pipe(&["--format", "concise", "-j", "1"]),
        Some(0)
    );
}

#[test]
fn moves_reads_every_line_of_any_input() {
    // a position, a line that is not UTF-8, a line far longer than a FEN can be, one that
    // is no FEN, and a position without a final line break: each line gives its object
    let mut input = b"W:W21,22,23:B1,2,3\n\xff\xfe\n".to_vec();
    input.extend(b"W:W".iter().chain(&b"21,".repeat(100_000)).chain(b":B1\n"));
    input.extend(b"nonsense\n\nB:WK1:BK32");
    let out = pdnkit().arg("moves").write_stdin(input).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let lines = jsonl(&out.stdout);
    assert_eq!(lines.len(), 5);
    // 21-17, 22-17, 22-18, 23-18, 23-19
    assert_eq!(lines[0]["moves"].as_array().unwrap().len(), 5);
    assert_eq!(lines[1]["fen"], "\u{fffd}\u{fffd}");
    assert!(lines[1]["error"].is_string());
    let long = &lines[2];
    assert!(
        long["error"]
            .as_str()
            .unwrap()
            .contains("longer than 65536 bytes")
    );
    assert_eq!(long["fen"].as_str().unwrap().len(), 80);
    assert!(lines[3]["error"].is_string());
    // the last line, without a line break, is read too
    assert_eq!(lines[4]["fen"], "B:WK1:BK32");
    assert!(!lines[4]["moves"].as_array().unwrap().is_empty());
}

#[test]
fn a_header_only_game_keeps_its_tags_to_itself() {
    // tags and no moves (PDN 3.0 allows it), then the next game: its moves are not
    // credited to the first game's players
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.pdn");
    std::fs::write(
        &path,
        "[Event \"a\"]\n[White \"X\"]\n[Black \"Z\"]\n\n\
         [Event \"b\"]\n[White \"Y\"]\n[Black \"W\"]\n\n1. c3-d4 *\n",
    )
    .unwrap();
    let games = jsonl(stdout_of(&["convert", "--to", "jsonl", "-q"], &path).as_bytes());
    assert_eq!(games.len(), 2);
    let tag = |g: &serde_json::Value, name: &str| g["tags"][name].as_str().map(String::from);
    assert_eq!(tag(&games[0], "White").as_deref(), Some("X"));
    assert_eq!(tag(&games[1], "White").as_deref(), Some("Y"));
    let lint = stdout_of(
        &["lint", "--format", "jsonl", "--severity", "info", "-q"],
        &path,
    );
    assert!(lint.contains("\"empty-game\""), "{lint}");
    assert!(!lint.contains("\"duplicate-tag\""), "{lint}");
}

#[test]
fn show_numbers_games_as_lint_and_convert_do() {
    // a game too large to read keeps its number: `show --game 2` is the game `lint` and
    // `convert` call game 2
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.pdn");
    let mut text = common::game_too_large_to_read();
    text.push_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/example.pdn"))
            .unwrap(),
    );
    std::fs::write(&path, text).unwrap();
    let csv = stdout_of(&["convert", "--to", "csv", "-q"], &path);
    let mut rows = csv.lines().skip(1);
    let first = rows.next().unwrap();
    assert!(
        first.contains(",1,") && first.contains(",skipped,P107,"),
        "{first}"
    );
    let second = rows.next().unwrap();
    assert!(second.contains(",2,"), "{second}");
    let fen = stdout_of(&["show", "--format", "fen", "--game", "2"], &path);
    assert!(second.contains(fen.trim()), "{fen} not in {second}");
    pdnkit()
        .args(["show", "--game", "1"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("P107 game-too-large"));
    // binary data says so, not "0 games"
    let bin = dir.path().join("bin.pdn");
    std::fs::write(&bin, b"\x00\x01\x02binary\x00").unwrap();
    pdnkit()
        .args(["show"])
        .arg(&bin)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("P108 not-pdn"));
}

/// Games of other variants, end to end: `lint` judges them by their own rules,
/// `convert` writes their moves and FENs as their players do, `show` draws their board.
#[test]
fn games_of_other_variants_are_linted_converted_and_shown_by_their_rules() {
    let games = fixture("variants/games.pdn");
    let out = pdnkit()
        .args(["lint", "--format", "jsonl", &games])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let found: Vec<(u64, String)> = jsonl(&out.stdout)
        .iter()
        .filter(|d| d["code"] != "T101")
        .map(|d| {
            (
                d["game"].as_u64().unwrap(),
                d["code"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(found, [(2, "M101".into()), (4, "V102".into())]);
    // International's majority: the one capture of two pieces, named with its precedence
    let message = stdout_of(&["lint", "--format", "concise"], games.as_ref());
    assert!(
        message.contains("28x19x8x17 (the capture of the most pieces is mandatory)"),
        "{message}"
    );
    let out = pdnkit()
        .args(["convert", "--to", "jsonl", "-q", &games])
        .output()
        .unwrap();
    let converted = jsonl(&out.stdout);
    let field = |g: usize, name: &str| converted[g][name].as_str().unwrap_or("").to_string();
    let variants: Vec<String> = (0..4).map(|g| field(g, "variant")).collect();
    assert_eq!(
        variants,
        ["international", "international", "english", "international"]
    );
    assert!(field(0, "final_fen").starts_with("B:W28,31,34,"));
    // English: Black's move is the first, numbered 1. (the tree's `side` is the one its
    // number names, `white` for `1.`; the resolved move's is who played it), and squares
    // are numbers
    assert_eq!(converted[2]["moves"][0]["side"], "white");
    let first = &converted[2]["moves"][0]["resolved"];
    assert_eq!(
        (
            &first["side"],
            &first["move_number"],
            &first["from"],
            &first["to"]
        ),
        (&"black".into(), &1.into(), &"11".into(), &"15".into())
    );
    let resolved: Vec<&str> = (converted[0]["moves"].as_array().unwrap().iter())
        .map(|m| m["resolved"]["move"].as_str().unwrap())
        .collect();
    assert_eq!(
        resolved,
        [
            "32-28", "19-23", "28x19", "14x23", "33-28", "23x32", "37x28"
        ]
    );
    // the same moves by their names, asked for
    let csv = stdout_of(
        &["convert", "--to", "csv", "-q", "--notation", "algebraic"],
        games.as_ref(),
    );
    assert!(csv.contains("d4-e5 g7-f6 e5xg7"), "{csv}");
    // show: the board after ply 1 of the English game, and the FEN at the end
    let shown = stdout_of(&["show", "--game", "3", "--ply", "1"], games.as_ref());
    assert!(
        shown.starts_with("game 3, after ply 1: 1. 11-15\n"),
        "{shown}"
    );
    let fen = stdout_of(&["show", "--game", "1", "--format", "fen"], games.as_ref());
    assert_eq!(fen.trim(), field(0, "final_fen"));
    let svg = stdout_of(&["show", "--game", "1", "--format", "svg"], games.as_ref());
    assert!(svg.contains("viewBox=\"0 0 ") && svg.matches("<circle").count() >= 36);
}

/// Games of other variants that do not say so by a GameType are told by their Variant
/// tag, or by a square beyond the Russian board (in a move, even after a move illegal in
/// Russian draughts, or in the FEN): replayed by that variant's rules, with V102 where it
/// was guessed from the board, no M101 or M106 of Russian rules, and the game's moves in
/// convert's output as replayed.
#[test]
fn games_of_other_variants_without_a_game_type_are_replayed_by_their_rules() {
    let dir = tempfile::tempdir().unwrap();
    // (the game, the words of V102 when the variant is guessed, and what it points at)
    let games = [
        ("[Variant \"International\"]\n1. 32-28 19-23 *\n", None),
        ("[Variant \"American/English\"]\n1. 11-15 23-19 *\n", None),
        (
            "[Event \"x\"]\n1. 32-28 19-24 2. 37-32 14-19 *\n",
            Some(("move `37-32` names square 37", "37-32")),
        ),
        (
            "[Event \"x\"]\n1. 33-28 18-23 *\n",
            Some(("as international draughts", "33-28")),
        ),
        (
            "[FEN \"W:W46,47:B5\"]\n1. 46-41 *\n",
            Some(("its FEN names square 46", "[FEN")),
        ),
        (
            "[Event \"x\"]\n1. j4-i5 g7-h6 *\n",
            Some(("square j4", "j4-i5")),
        ),
    ];
    for (k, (game, guess)) in games.iter().enumerate() {
        let path = dir.path().join(format!("v{k}.pdn"));
        std::fs::write(&path, game).unwrap();
        let out = pdnkit()
            .args(["lint", "--format", "jsonl"])
            .arg(&path)
            .output()
            .unwrap();
        let found = jsonl(&out.stdout);
        let codes: Vec<&str> = found.iter().map(|d| d["code"].as_str().unwrap()).collect();
        assert!(
            !codes.iter().any(|c| c.starts_with('M') || *c == "V101"),
            "{game}: {codes:?}"
        );
        match guess {
            None => assert!(!codes.contains(&"V102"), "{game}: {codes:?}"),
            Some((says, at)) => {
                let v102 = found.iter().find(|d| d["code"] == "V102").unwrap();
                let message = v102["message"].as_str().unwrap();
                assert!(message.contains(says), "{message}");
                let column = v102["column"].as_u64().unwrap() as usize;
                let line = game
                    .lines()
                    .nth(v102["line"].as_u64().unwrap() as usize - 1);
                assert!(
                    line.unwrap()[column - 1..].starts_with(at),
                    "{game}: {v102}"
                );
            }
        }
    }
    // the moves read as Russian before the square that tells are replayed as the game's
    let csv = pdnkit()
        .args(["convert", "--to", "csv", "-q"])
        .arg(dir.path().join("v2.pdn"))
        .output()
        .unwrap();
    let csv = String::from_utf8(csv.stdout).unwrap();
    assert!(csv.contains("32-28 19-24 37-32 14-19"), "{csv}");
    assert!(csv.contains(",ok,"), "{csv}");
    // a Variant tag that says Russian, or --variant russian, replays as Russian
    let path = dir.path().join("russian.pdn");
    std::fs::write(&path, "[Variant \"Russian draughts\"]\n1. c3-d4 f6-g5 *\n").unwrap();
    let out = pdnkit()
        .args(["lint", "--format", "jsonl"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(!jsonl(&out.stdout).iter().any(|d| d["code"] == "V101"));
    let out = pdnkit()
        .args(["lint", "--format", "jsonl", "--variant", "russian"])
        .arg(dir.path().join("v3.pdn"))
        .output()
        .unwrap();
    let codes: Vec<String> = jsonl(&out.stdout)
        .iter()
        .map(|d| d["code"].to_string())
        .collect();
    assert!(codes.iter().any(|c| c.contains("M10")), "{codes:?}");
}

/// A typo in `--select` or `--ignore` is a usage error that names the nearest rules, not a
/// clean run that reports nothing.
#[test]
fn select_of_no_rule_is_a_usage_error_with_the_nearest_names() {
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/example.pdn");
    pdnkit()
        .args(["lint", "--select", "illegal-mov", example])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("did you mean illegal-move?"));
    pdnkit()
        .args(["lint", "--ignore", "M101,Z9", example])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("`Z9`").and(predicate::str::contains("rule --all")));
    pdnkit()
        .args(["lint", "--select", "m1,T", "-q", example])
        .assert()
        .code(1);
}

/// By default lint shows errors and warnings, and says how many less serious findings it
/// did not show; `--severity info` shows everything, `--severity error` only errors;
/// `--statistics` prints the count of each rule instead of the findings.
#[test]
fn lint_shows_errors_and_warnings_by_default_and_counts_per_rule_on_request() {
    let file = fixture("lint/diagnostics.pdn");
    let lint = |args: &[&str]| {
        let out = pdnkit().arg("lint").args(args).arg(&file).output().unwrap();
        (jsonl(&out.stdout), String::from_utf8(out.stderr).unwrap())
    };
    let severities = |found: &[serde_json::Value]| {
        let mut s: Vec<String> = found
            .iter()
            .map(|d| d["severity"].as_str().unwrap().to_string())
            .collect();
        s.sort();
        s.dedup();
        s
    };
    let (default, summary) = lint(&["--format", "jsonl"]);
    assert_eq!(severities(&default), ["error", "warning"]);
    assert!(
        summary.contains("less serious not shown; --severity info shows them"),
        "{summary}"
    );
    let (all, summary_all) = lint(&["--format", "jsonl", "--severity", "info"]);
    assert_eq!(severities(&all), ["error", "info", "warning"]);
    assert!(!summary_all.contains("not shown"), "{summary_all}");
    // (the findings not shown are counted, not made in full: the same counts all the same)
    let hidden = all.len() - default.len();
    assert!(
        summary.contains(&format!("({hidden} less serious not shown")),
        "{summary}"
    );
    let counts =
        |s: &str| (s.split("; ").nth(1)).map(|c| c.split(" (").next().unwrap().to_string());
    assert_eq!(counts(&summary), counts(&summary_all));
    let (errors, _) = lint(&["--format", "jsonl", "--severity", "error"]);
    assert_eq!(severities(&errors), ["error"]);
    // the counts per rule, as JSON lines and as a table
    let (counts, _) = lint(&["--statistics", "--format", "jsonl", "--severity", "info"]);
    let total: u64 = counts.iter().map(|c| c["count"].as_u64().unwrap()).sum();
    assert_eq!(total as usize, all.len());
    assert!(
        counts
            .windows(2)
            .all(|w| w[0]["count"].as_u64() >= w[1]["count"].as_u64())
    );
    let table = pdnkit()
        .args(["lint", "--statistics", "-q"])
        .arg(&file)
        .output()
        .unwrap();
    let table = String::from_utf8(table.stdout).unwrap();
    assert!(
        table
            .lines()
            .any(|l| l.contains("M101  error    illegal-move")),
        "{table}"
    );
}

/// An input that cannot be read is said in one wording by every command, `error: PATH:
/// reason`, and lint's finding about it has no made-up place in the file.
#[test]
fn an_unreadable_input_is_said_the_same_way_by_every_command() {
    let missing = "no/such/file.pdn";
    for args in [
        &["convert", "--to", "csv", "-q"][..],
        &["stats", "-q"],
        &["show"],
    ] {
        let out = pdnkit().args(args).arg(missing).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(
            stderr.starts_with(&format!("error: {missing}: ")),
            "{args:?}: {stderr}"
        );
    }
    let out = pdnkit()
        .args(["lint", "--format", "jsonl", missing])
        .output()
        .unwrap();
    let found = jsonl(&out.stdout);
    assert_eq!(
        (found[0]["code"].as_str(), found[0]["line"].as_u64()),
        (Some("E102"), Some(0))
    );
    let full = pdnkit().args(["lint", missing]).output().unwrap();
    let full = String::from_utf8(full.stdout).unwrap();
    assert!(full.contains(&format!("--> {missing}\n")), "{full}");
}

/// What users of command-line tools install beside the binary: completions for every
/// shell clap knows, and manual pages; and every command's `--help` ends with examples and
/// its exit status.
#[test]
fn completions_manual_pages_and_help_with_examples_and_exit_status() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = pdnkit().args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        assert!(
            script.contains("lint") && script.contains("--select"),
            "{shell}"
        );
    }
    let page = pdnkit().arg("man").output().unwrap();
    assert!(String::from_utf8(page.stdout).unwrap().starts_with(".ie"));
    let dir = tempfile::tempdir().unwrap();
    pdnkit()
        .args(["man", "--dir"])
        .arg(dir.path())
        .assert()
        .success();
    let lint_page = std::fs::read_to_string(dir.path().join("pdnkit-lint.1")).unwrap();
    assert!(lint_page.contains("severity"));
    for command in ["lint", "convert", "stats", "show", "perft", "moves", "rule"] {
        let help = pdnkit().args([command, "--help"]).output().unwrap();
        let help = String::from_utf8(help.stdout).unwrap();
        assert!(
            help.contains("Examples:") && help.contains("Exit status:"),
            "{command}"
        );
    }
    // convert's format is --format, as every command's (--to is the same option)
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/example.pdn");
    let by = |option: &str| {
        let out = pdnkit()
            .args(["convert", example, "-q", option, "csv"])
            .output()
            .unwrap();
        out.stdout
    };
    assert_eq!(by("--format"), by("--to"));
}

/// On a terminal (a pseudo-terminal, by `script`), a run over one file shows its bytes
/// read against the file's size, the percent, the rate and the time left; `-q` shows no
/// bar. (A run shorter than a second shows none either: PDNKIT_PROGRESS_AFTER_MS sets
/// that second to nothing here.)
#[test]
fn one_big_file_shows_bytes_percent_rate_and_time_left_on_a_terminal() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("`script` (util-linux) is absent: the progress bar is not checked");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.pdn");
    let mut text = Vec::new();
    pdnkit_gen::Generator::new(5)
        .write_games(&mut text, 20_000)
        .unwrap();
    std::fs::write(&path, &text).unwrap();
    let on_terminal = |args: &str| {
        let command = format!(
            "{} lint -j1 --format jsonl {args} {} > /dev/null",
            env!("CARGO_BIN_EXE_pdnkit"),
            path.display()
        );
        let out = std::process::Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .env("PDNKIT_PROGRESS_AFTER_MS", "0")
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).replace('\r', "\n")
    };
    let shown = on_terminal("");
    assert!(
        shown.contains("ETA") && shown.contains("MiB") && shown.contains('%'),
        "{shown}"
    );
    assert!(!on_terminal("-q").contains("ETA"));
}

/// The published perft counts of the other variants (docs/VARIANTS.md), by the binary:
/// a variant by name, by alias or by GameType number.
#[test]
fn perft_of_every_variant_with_published_counts() {
    for (variant, depth, count) in [
        ("international", "7", "1049442"),
        ("20", "6", "167140"),
        ("english", "8", "845931"),
        ("american", "3", "302"),
        ("brazilian", "7", "187302"),
        ("26", "5", "7473"),
    ] {
        pdnkit()
            .args(["perft", "--variant", variant, depth])
            .assert()
            .success()
            .stdout(format!("{count}\n"));
    }
    // Frisian's published figures count every route; distinct moves are fewer
    pdnkit()
        .args(["perft", "--variant", "frisian", "--routes", "6"])
        .assert()
        .success()
        .stdout("103584\n");
    pdnkit()
        .args(["perft", "--variant", "40", "4"])
        .assert()
        .success()
        .stdout("3874\n");
    // a king that has made three quiet moves in a row rests while its side has men:
    // counts pydraughts agrees with (bench/variants.sh), and without the rule 12797,
    // 18166, 169687
    for (fen, count) in [
        ("W:WK46,37:B4,5", "10689"),
        ("W:WK46,37,36:B4,5", "17052"),
        ("W:WK46,45:B3,4", "73249"),
    ] {
        pdnkit()
            .args([
                "perft",
                "--variant",
                "frisian",
                "--routes",
                "7",
                "--fen",
                fen,
            ])
            .assert()
            .success()
            .stdout(format!("{count}\n"));
    }
    // Russian with every route: rules-cases/perft.json's keep_duplicates
    pdnkit()
        .args(["perft", "--routes", "8"])
        .assert()
        .success()
        .stdout("929905\n");
}

#[test]
#[ignore = "a few seconds in release builds; run with --ignored"]
fn perft_of_the_deepest_published_counts() {
    for (variant, depth, count) in [
        ("international", "9", "41022423"),
        ("english", "9", "3963680"),
    ] {
        pdnkit()
            .args(["perft", "--variant", variant, depth])
            .assert()
            .success()
            .stdout(format!("{count}\n"));
    }
}

#[test]
fn perft_divide_and_moves_of_a_variant_number_its_squares() {
    pdnkit()
        .args(["perft", "--variant", "international", "--divide", "1"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("31-26 1\n31-27 1\n"))
        .stdout(predicate::str::ends_with("\n9\n"));
    // International's majority rule: c3 takes two, not g3 one
    let out = pdnkit()
        .args([
            "moves",
            "--variant",
            "international",
            "--fen",
            "W:W37,39:B32,22,34",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let line = &jsonl(&out.stdout)[0];
    assert_eq!(line["fen"], "W:W37,39:B22,32,34");
    assert_eq!(line["moves"].as_array().unwrap().len(), 1);
    assert_eq!(line["moves"][0]["move"], "37x17");
    assert_eq!(line["moves"][0]["route"], serde_json::json!([37, 28, 17]));
    assert_eq!(line["moves"][0]["captured"], serde_json::json!([22, 32]));
    // Italian numbers its mirrored board: 21-17 and 21-18 from b3
    let out = pdnkit()
        .args([
            "moves",
            "--variant",
            "italian",
            "--notation",
            "algebraic",
            "--fen",
            "W:W21:B1",
        ])
        .output()
        .unwrap();
    let moves = &jsonl(&out.stdout)[0]["moves"];
    assert_eq!(moves[0]["from"], "b3");
    assert_eq!(moves.as_array().unwrap().len(), 2);
}

#[test]
fn a_variant_that_is_no_variant_is_a_usage_error() {
    pdnkit()
        .args(["perft", "--variant", "chess", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown variant `chess`"));
    pdnkit()
        .args([
            "perft",
            "--variant",
            "international",
            "--fen",
            "W:W51:B1",
            "1",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "square 51 is not on the international board",
        ));
    pdnkit()
        .args(["lint", "--variant", "chess", "x.pdn"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown variant `chess`"));
}

/// A game numbered as its GameType's fields say is written back in that numbering by
/// `convert` and `show`: International numbered from White's bottom right (`N1`).
#[test]
fn a_game_type_numbering_is_kept_in_what_is_written() {
    let game = "[GameType \"20,W,10,10,N1,0\"]\n1. 19-23 33-28 2. 18-22 28x19 3. 14x23 *\n";
    let out = pdnkit()
        .args(["convert", "--to", "pdn", "-"])
        .write_stdin(game)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("1. 19-23 33-28 2. 18-22 28x19 3. 14x23 *"),
        "{text}"
    );
    let out = pdnkit()
        .args(["show", "--format", "fen", "--ply", "0", "-"])
        .write_stdin(game)
        .output()
        .unwrap();
    let fen = String::from_utf8(out.stdout).unwrap();
    // White's men on 1-20 in this numbering, Black's on 31-50
    assert!(fen.starts_with("W:W1,2,3,"), "{fen}");
    assert!(fen.contains(":B31,"), "{fen}");
}
