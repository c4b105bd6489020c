//! `pdnkit fix` and the fixes `lint` proposes, through the real binary: what each fix
//! writes, that nothing else changes (encoding, line ends, mode), that running it again
//! changes nothing, and how the repairs of illegal moves do on games with one slip.

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

fn pdnkit() -> Command {
    Command::cargo_bin("pdnkit").unwrap()
}

/// A full roster, so that the only findings are those of the movetext.
const ROSTER: &str = "[Event \"e\"]\n[Site \"s\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"w\"]\n[Black \"b\"]\n";

/// A wrong move number (M104) and a capture written with `-` (M105): safe; an illegal
/// move whose one legal alternative lets the rest replay (M101): unsafe.
fn slips() -> String {
    format!(
        "{ROSTER}[Result \"*\"]\n\n1. c3-d4 b6-a5 3. d4-c5 {{a comment}} d6:b4 4. a3-c5 *\n\n\
         {ROSTER}[Result \"*\"]\n\n1. c3-d4 f6-e5 2. d4-c5 g7:e5 3. b2-c3 h8-g7 *\n"
    )
}

fn fixed_slips(unsafe_too: bool) -> String {
    let second = match unsafe_too {
        true => "2. d4:f6",
        false => "2. d4-c5",
    };
    format!(
        "{ROSTER}[Result \"*\"]\n\n1. c3-d4 b6-a5 2. d4-c5 {{a comment}} d6:b4 3. a3:c5 *\n\n\
         {ROSTER}[Result \"*\"]\n\n1. c3-d4 f6-e5 {second} g7:e5 3. b2-c3 h8-g7 *\n"
    )
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn safe_fixes_in_place_and_unsafe_ones_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "slips.pdn", slips().as_bytes());
    // the safe fixes: the illegal move stays, and is left (exit 1)
    pdnkit().args(["fix", "-q"]).arg(&path).assert().code(1);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), fixed_slips(false));
    // and the unsafe one: nothing is left
    pdnkit()
        .args(["fix", "--unsafe-fixes"])
        .arg(&path)
        .assert()
        .code(0)
        .stderr(predicates::str::contains(
            "1 fix applied (0 safe, 1 unsafe) in 1 of 1 file; 0 findings left",
        ));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), fixed_slips(true));
    // run again, it changes nothing and does not write the file
    let before = std::fs::metadata(&path).unwrap().modified().unwrap();
    pdnkit()
        .args(["fix", "--unsafe-fixes", "-q"])
        .arg(&path)
        .assert()
        .code(0);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), fixed_slips(true));
    assert_eq!(
        std::fs::metadata(&path).unwrap().modified().unwrap(),
        before
    );
}

#[test]
fn the_encoding_line_ends_and_mode_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let text = slips()
        .replace("{a comment}", "{хороший ход}")
        .replace('\n', "\r\n");
    let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(&text);
    let path = write(dir.path(), "cp1251.pdn", &bytes);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    }
    pdnkit()
        .args(["fix", "--unsafe-fixes", "-q"])
        .arg(&path)
        .assert()
        .code(0);
    let want = fixed_slips(true)
        .replace("{a comment}", "{хороший ход}")
        .replace('\n', "\r\n");
    let (want, _, _) = encoding_rs::WINDOWS_1251.encode(&want);
    assert_eq!(std::fs::read(&path).unwrap(), want.into_owned());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }
}

#[test]
fn diff_writes_nothing_and_o_writes_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "slips.pdn", slips().as_bytes());
    let out = pdnkit()
        .args(["fix", "--diff", "-q"])
        .arg(&path)
        .output()
        .unwrap();
    let diff = String::from_utf8(out.stdout).unwrap();
    assert!(diff.contains("-1. c3-d4 b6-a5 3. d4-c5"), "{diff}");
    assert!(diff.contains("+1. c3-d4 b6-a5 2. d4-c5"), "{diff}");
    assert!(
        !diff.contains("d4:f6"),
        "unsafe fixes need --unsafe-fixes: {diff}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), slips());
    let mended = dir.path().join("mended.pdn");
    pdnkit()
        .args(["fix", "--unsafe-fixes", "-q", "-o"])
        .arg(&mended)
        .arg(&path)
        .assert()
        .code(0);
    assert_eq!(std::fs::read_to_string(&mended).unwrap(), fixed_slips(true));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), slips());
    // -o is never an input, and takes one input
    pdnkit()
        .args(["fix", "-q", "-o"])
        .arg(&path)
        .arg(&path)
        .assert()
        .code(2);
    pdnkit()
        .args(["fix", "-q", "-o"])
        .arg(&mended)
        .arg(&path)
        .arg(&mended)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("one input"));
    // standard input is fixed to standard output
    pdnkit()
        .args(["fix", "--unsafe-fixes", "-q", "-"])
        .write_stdin(slips())
        .assert()
        .code(0)
        .stdout(fixed_slips(true));
}

#[test]
fn result_tag_and_terminator_each_from_the_other() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "{ROSTER}\r\n1. c3-d4 f6-g5 0-2\r\n\r\n{ROSTER}[Result \"2-0\"]\r\n\r\n1. c3-d4 f6-g5 {{resigned}}\r\n"
    )
    .replace('\n', "\r\n")
    .replace("\r\r\n", "\r\n");
    let path = write(dir.path(), "results.pdn", text.as_bytes());
    pdnkit().args(["fix", "-q"]).arg(&path).assert().code(0);
    let want = text
        .replacen(
            "[Black \"b\"]\r\n\r\n",
            "[Black \"b\"]\r\n[Result \"0-2\"]\r\n\r\n",
            1,
        )
        .replace("{resigned}", "{resigned} 2-0");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), want);
}

#[test]
fn lint_shows_each_fix() {
    let out = pdnkit()
        .args(["lint", "--format", "jsonl", "--severity", "info", "-q", "-"])
        .write_stdin(slips())
        .output()
        .unwrap();
    let fixes: Vec<(String, String, String, Value)> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|d| !d["fix"].is_null())
        .map(|d| {
            let fix = &d["fix"];
            let edit = &fix["edits"][0];
            (
                d["code"].as_str().unwrap().to_string(),
                fix["applicability"].as_str().unwrap().to_string(),
                edit["content"].as_str().unwrap().to_string(),
                edit["start"].clone(),
            )
        })
        .collect();
    let text = slips();
    let at = |s: &str, nth: usize| Value::from(text.match_indices(s).nth(nth).unwrap().0);
    assert_eq!(
        fixes,
        [
            ("M104".into(), "safe".into(), "2.".into(), at("3. d4-c5", 0)),
            ("M104".into(), "safe".into(), "3.".into(), at("4. a3-c5", 0)),
            ("M105".into(), "safe".into(), "a3:c5".into(), at("a3-c5", 0)),
            (
                "M101".into(),
                "unsafe".into(),
                "d4:f6".into(),
                at("d4-c5", 1)
            ),
        ]
    );
    // and `full` says it under the finding
    pdnkit()
        .args(["lint", "--color", "never", "-"])
        .write_stdin(slips())
        .assert()
        .stdout(predicates::str::contains(
            "help: replace `d4-c5` with `d4:f6`: the rest of the game then replays (unsafe fix)",
        ));
}

#[test]
fn where_several_moves_fit_nothing_is_changed_and_they_are_listed() {
    // the illegal move is the last one: every legal move fits what follows
    let text = format!("{ROSTER}[Result \"*\"]\n\n1. c3-d4 f6-g5 2. d4-d5 *\n");
    let out = pdnkit()
        .args(["lint", "--color", "never", "-"])
        .write_stdin(text.clone())
        .output()
        .unwrap();
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(
        report.contains("legal moves here let the rest of the game replay (")
            && report.contains("no fix is proposed"),
        "{report}"
    );
    pdnkit()
        .args(["fix", "--unsafe-fixes", "-q", "-"])
        .write_stdin(text.clone())
        .assert()
        .code(1)
        .stdout(text);
}

#[test]
fn an_input_with_bytes_replaced_in_reading_is_not_fixed() {
    let dir = tempfile::tempdir().unwrap();
    // (UTF-8 by its Cyrillic comments, with a byte that is not)
    let text = slips().replace("{a comment}", "{хороший ход, очень хороший}");
    let mut bytes = text.into_bytes();
    let at = bytes
        .windows(6)
        .position(|w| w == "ход".as_bytes())
        .unwrap();
    bytes[at + 1] = 0xff;
    let path = write(dir.path(), "bad.pdn", &bytes);
    pdnkit()
        .args(["fix", "--unsafe-fixes"])
        .arg(&path)
        .assert()
        .code(1)
        .stderr(predicates::str::contains("not fixed"));
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

/// Games with one slip of the pen (generated): repairs find the move played or change
/// nothing, never another move.
#[test]
fn repairs_find_the_move_played_or_change_nothing() {
    for (kind, t) in pdnkit_gen::measure(3, 150) {
        assert_eq!(t.games, 150, "{kind:?}");
        assert_eq!((t.wrong, t.missed), (0, 0), "{kind:?}: {t:?}");
        assert!(t.repaired * 10 >= t.games * 9, "{kind:?}: {t:?}");
        assert_eq!(t.repaired + t.several + t.none, t.games, "{kind:?}: {t:?}");
    }
}

/// A fixed slipped game replays clean: the repair is applied through the binary.
#[test]
fn a_repaired_game_replays_to_its_end() {
    let slipped = (0..)
        .find_map(|i| pdnkit_gen::slipped(5, i, pdnkit_gen::SlipKind::StoppedShort))
        .unwrap();
    let out = pdnkit()
        .args(["fix", "--unsafe-fixes", "-q", "-"])
        .write_stdin(slipped.text.clone())
        .output()
        .unwrap();
    let fixed = String::from_utf8(out.stdout).unwrap();
    assert_ne!(fixed, slipped.text);
    pdnkit()
        .args(["lint", "--select", "M", "-q", "-"])
        .write_stdin(fixed)
        .assert()
        .code(0);
}

#[test]
fn fill_roster_writes_question_marks_for_the_roster_tags_missing() {
    let text = "[Event \"a\"]\n[Black \"b\"]\n\n1. c3-d4 f6-g5 2-0\n";
    let filled = "[Event \"a\"]\n[Black \"b\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Result \"2-0\"]\n\n1. c3-d4 f6-g5 2-0\n";
    pdnkit()
        .args(["fix", "--fill-roster", "-q", "-"])
        .write_stdin(text)
        .assert()
        .code(0)
        .stdout(filled);
    // without it, only the Result (from the terminator); the other tags stay missing
    let out = pdnkit()
        .args(["fix", "-q", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "[Event \"a\"]\n[Black \"b\"]\n[Result \"2-0\"]\n\n1. c3-d4 f6-g5 2-0\n"
    );
}

/// A big input is checked in blocks on several threads: the fixes are written in input
/// order all the same, as one thread writes them.
#[test]
fn fixes_of_a_big_file_are_the_same_whatever_the_threads() {
    let mut games = Vec::new();
    pdnkit_gen::Generator::new(11)
        .write_games(&mut games, 3000)
        .unwrap();
    // a wrong move number in a game of every ten
    let text = String::from_utf8(games).unwrap();
    let mut slipped = String::new();
    for (k, game) in text.split_inclusive("\n\n").enumerate() {
        match k % 10 {
            0 => slipped.push_str(&game.replacen(" 2. ", " 3. ", 1)),
            _ => slipped.push_str(game),
        }
    }
    assert!(slipped.len() > 1 << 20, "big enough to be read in blocks");
    let dir = tempfile::tempdir().unwrap();
    let fixed = |jobs: &str| {
        let path = write(dir.path(), &format!("j{jobs}.pdn"), slipped.as_bytes());
        pdnkit()
            .args(["fix", "-q", "--select", "M104", "-j", jobs])
            .arg(&path)
            .assert()
            .code(0);
        std::fs::read_to_string(&path).unwrap()
    };
    let one = fixed("1");
    assert_eq!(one, text);
    assert_eq!(fixed("2"), one);
}

/// The terminator is written from the Result tag only where nothing speaks against it:
/// the final position (whether or not its finding is reported) and the game's text (a tag
/// left open, no moves).
#[test]
fn no_terminator_against_the_board_or_after_broken_text() {
    let fix_of_p109 = |text: &str, select: &str| {
        let out = pdnkit()
            .args([
                "lint",
                "--format",
                "jsonl",
                "--severity",
                "info",
                "-q",
                "--select",
            ])
            .arg(select)
            .arg("-")
            .write_stdin(text.to_string())
            .output()
            .unwrap();
        let lines = String::from_utf8(out.stdout).unwrap();
        let d: Vec<Value> = (lines.lines())
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|d| d["code"] == "P109")
            .collect();
        assert_eq!(d.len(), 1, "{lines}");
        d[0]["fix"].clone()
    };
    // Black has no move at the end: White won, whatever the tag says
    let lost = "[FEN \"W:WKa1:Bc3\"]\n[Result \"0-1\"]\n\n1. a1:d4\n";
    for select in ["P109", "P109,R102", "P,R"] {
        assert!(fix_of_p109(lost, select).is_null(), "{select}");
    }
    let won = lost.replace("0-1", "1-0");
    assert_eq!(fix_of_p109(&won, "P109")["edits"][0]["content"], " 1-0");
    // a tag left open, no moves: nothing is written after it
    let broken = "[Result \"0-2\"]\n[FEN \"B:W18,24,\n";
    assert!(fix_of_p109(broken, "P").is_null());
}

#[test]
fn dates_are_written_in_pdn_form_where_the_reading_is_certain() {
    let game = |date: &str| {
        let roster = ROSTER.replace("[Date \"2024.01.01\"]\n", "");
        format!("{roster}[Date  \"{date}\" ]\n[Result \"*\"]\n1. c3-d4 f6-g5 *\n\n")
    };
    let dates = [
        "1.1.1965",
        "2024-12-14",
        "17 april 2009",
        "05.03.1965",
        "2004.10.27 - 2004.11.01",
        "1965.01.02",
    ];
    let text: String = dates.iter().map(|d| game(d)).collect();
    let fixed = |unsafe_too: bool| {
        let day_first = if unsafe_too {
            "1965.03.05"
        } else {
            "05.03.1965"
        };
        let want = [
            "1965.01.01",
            "2024.12.14",
            "2009.04.17",
            day_first,
            "2004.10.27 - 2004.11.01",
            "1965.01.02",
        ];
        want.iter().map(|d| game(d)).collect::<String>()
    };
    // (the spacing around the value, which no fix touches, stays)
    for (args, unsafe_too) in [
        (&["fix", "-q", "-"][..], false),
        (&["fix", "-q", "--unsafe-fixes", "-"][..], true),
    ] {
        let out = pdnkit()
            .args(args)
            .write_stdin(text.clone())
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            fixed(unsafe_too),
            "{args:?}"
        );
        // what is left is info (T106 of the reading not certain): exit 0
        assert_eq!(out.status.code(), Some(0));
    }
    // lint says each, with the fix's applicability
    let out = pdnkit()
        .args([
            "lint",
            "--format",
            "jsonl",
            "--select",
            "T106",
            "--severity",
            "info",
            "-q",
            "-",
        ])
        .write_stdin(text)
        .output()
        .unwrap();
    let found: Vec<(u64, String)> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|d| {
            (
                d["game"].as_u64().unwrap(),
                d["fix"]["applicability"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want: Vec<(u64, String)> = [(1, "safe"), (2, "safe"), (3, "safe"), (4, "unsafe")]
        .iter()
        .map(|(g, a)| (*g, a.to_string()))
        .collect();
    assert_eq!(found, want);
}

#[test]
fn captures_are_written_short_or_in_full_only_when_asked() {
    let game = |capture: &str| {
        format!("{ROSTER}[FEN \"W:W22:B4,18,19\"]\n[Result \"*\"]\n1. {capture} h8-g7 *\n\n")
    };
    let text = game("c3:g3") + &game("c3xe5xg3") + &game("22:24");
    let run = |args: &[&str], input: &str| {
        let out = pdnkit()
            .args(args)
            .write_stdin(input.to_string())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    // without --captures, nothing to fix: the input comes out as it went in
    assert_eq!(run(&["fix", "-q", "-"], &text), text);
    // the notation of each move (squares, separator) is kept; only the route changes
    let full = game("c3:e5:g3") + &game("c3xe5xg3") + &game("22:15:24");
    let short = game("c3:g3") + &game("c3xg3") + &game("22:24");
    assert_eq!(run(&["fix", "-q", "--captures", "full", "-"], &text), full);
    assert_eq!(
        run(&["fix", "-q", "--captures", "short", "-"], &text),
        short
    );
    assert_eq!(
        run(&["fix", "-q", "--captures", "short", "-"], &full),
        short
    );
    assert_eq!(run(&["fix", "-q", "--captures", "full", "-"], &full), full);
    // lint reports them only when asked
    let codes = |args: &[&str]| {
        let out = pdnkit()
            .args(args)
            .write_stdin(text.clone())
            .output()
            .unwrap();
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| {
                serde_json::from_str::<Value>(l).unwrap()["code"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect::<Vec<_>>()
    };
    let lint = ["lint", "--format", "jsonl", "--severity", "info", "-q", "-"];
    assert!(codes(&lint).is_empty());
    assert_eq!(
        codes(&[&lint[..], &["--captures", "full"]].concat()),
        ["M108", "M108"]
    );
}
