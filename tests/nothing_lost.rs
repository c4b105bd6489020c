//! Nothing lost, nothing garbled without a word: each test is named after what once went
//! wrong, and runs the real binary.

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

fn pdnkit() -> Command {
    Command::cargo_bin("pdnkit").expect("the pdnkit binary is built")
}

/// `(exit code, stdout, stderr)` of `pdnkit ARGS PATH`.
fn run(args: &[&str], path: &Path) -> (Option<i32>, String, String) {
    let out = pdnkit().args(args).arg(path).output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The diagnostics of `lint --format jsonl` on `path`, of every severity.
fn lint(path: &Path, more: &[&str]) -> Vec<Value> {
    let (_, out, _) = run(
        &[
            &["lint", "--format", "jsonl", "--severity", "info", "-q"],
            more,
        ]
        .concat(),
        path,
    );
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn codes(diags: &[Value]) -> Vec<&str> {
    diags.iter().map(|d| d["code"].as_str().unwrap()).collect()
}

fn write(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn one_bad_byte_near_the_start_of_a_utf8_file_does_not_garble_every_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        &dir,
        "m.pdn",
        b"[Event \"\xd0\xa2\xd1\x83\xd1\x80\xd0\xbd\xd0\xb8\xd1\x80\"]\n[White \"\xd0\x98\xd0\xb2\xd0\xb0\xd0\xbd\xd0\xbe\xd0\xb2\xff\"]\n\n1. c3-d4 *\n",
    );
    let (code, csv, stderr) = run(&["convert", "--to", "csv"], &path);
    assert_eq!(code, Some(0));
    assert!(csv.contains(",Турнир,"), "{csv}");
    assert!(csv.contains(",Иванов\u{fffd},"), "{csv}");
    // the one replaced byte is said, where it was
    assert!(stderr.contains("m.pdn:2:15:"), "{stderr}");
    assert!(stderr.contains("decoding-replaced"), "{stderr}");
    let diags = lint(&path, &[]);
    let e101: Vec<_> = diags.iter().filter(|d| d["code"] == "E101").collect();
    assert_eq!(e101.len(), 1, "{diags:?}");
    assert_eq!(
        (e101[0]["line"].as_u64(), e101[0]["column"].as_u64()),
        (Some(2), Some(15))
    );
}

#[test]
fn every_bad_byte_of_a_game_is_an_e101() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = "[Event \"Турнир\"]\n[White \"Иванов Петров Сидоров\"]\n"
        .as_bytes()
        .to_vec();
    text.extend_from_slice(b"[Black \"a\xffb\xfe\"]\n1. c3-d4 {\xc0x} *\n");
    let path = write(&dir, "m.pdn", &text);
    let diags = lint(&path, &[]);
    let places: Vec<_> = (diags.iter())
        .filter(|d| d["code"] == "E101")
        .map(|d| (d["line"].as_u64().unwrap(), d["column"].as_u64().unwrap()))
        .collect();
    assert_eq!(places, [(3, 10), (3, 12), (4, 11)], "{diags:?}");
}

#[test]
fn a_guessed_legacy_encoding_is_named_and_how_sure_the_guess_is() {
    let dir = tempfile::tempdir().unwrap();
    let text = "[Event \"Чемпионат СССР\"]\n[White \"Иванов\"]\n[Black \"Петров\"]\n1. c3-d4 *\n";
    let (cp1251, _, _) = encoding_rs::WINDOWS_1251.encode(text);
    let path = write(&dir, "cp.pdn", &cp1251);
    let (code, csv, stderr) = run(&["convert", "--to", "csv"], &path);
    assert_eq!(code, Some(0));
    assert!(csv.contains(",Чемпионат СССР,"), "{csv}");
    assert!(stderr.contains("read as windows-1251"), "{stderr}");
    let diags = lint(&path, &[]);
    let guess = diags.iter().find(|d| d["code"] == "E103").expect("E103");
    assert_eq!(guess["severity"], "info");
    // a few letters tell little: the guess is said as uncertain, a warning
    let (short, _, _) = encoding_rs::WINDOWS_1251.encode("[White \"Ив\"]\n1. c3-d4 *\n");
    let path = write(&dir, "short.pdn", &short);
    let diags = lint(&path, &[]);
    let guess = diags.iter().find(|d| d["code"] == "E104").expect("E104");
    assert_eq!(guess["severity"], "warning");
    assert!(guess["message"].as_str().unwrap().contains("--encoding"));
    // the same with --encoding: nothing to say, and the names right
    let diags = lint(&path, &["--encoding", "windows-1251"]);
    assert!(
        !codes(&diags).iter().any(|c| c.starts_with("E10")),
        "{diags:?}"
    );
}

#[test]
fn one_nul_byte_does_not_make_a_file_of_good_games_binary() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = b"\0".to_vec();
    for i in 0..1000 {
        text.extend_from_slice(format!("[Event \"e{i}\"]\n1. c3-d4 f6-g5 *\n\n").as_bytes());
    }
    let path = write(&dir, "nul.pdn", &text);
    let (_, csv, stderr) = run(&["convert", "--to", "csv"], &path);
    assert_eq!(csv.lines().count(), 1001, "{stderr}");
    assert!(csv.contains(",e999,"));
    assert!(!stderr.contains("binary"), "{stderr}");
}

#[test]
fn a_file_dense_with_nul_bytes_is_binary_unless_text_is_asked() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        &dir,
        "d.pdn",
        b"[Event \"a\"]\n1. c3-d4\0\0\0\0\0\0 f6-g5 *\n",
    );
    assert_eq!(codes(&lint(&path, &[])), ["P108"]);
    let diags = lint(&path, &["--text"]);
    assert!(!codes(&diags).contains(&"P108"), "{diags:?}");
    assert!(diags.iter().any(|d| d["game"] == 1), "{diags:?}");
}

#[test]
fn a_utf16_file_with_an_odd_byte_count_gets_e101_not_p111() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = vec![0xff, 0xfe];
    for unit in "[Event \"a\"]\n1. c3-d4 *\n".encode_utf16() {
        bytes.extend_from_slice(&unit.to_le_bytes());
    }
    bytes.push(b'x');
    let path = write(&dir, "odd.pdn", &bytes);
    let diags = lint(&path, &[]);
    assert!(codes(&diags).contains(&"E101"), "{diags:?}");
    assert!(!codes(&diags).contains(&"P111"), "{diags:?}");
}

#[test]
fn text_between_games_is_not_dropped_from_pdn_output() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        &dir,
        "s.pdn",
        b"[Event \"a\"]\n1. c3-d4 *\n\nRound two, played in Moscow\n\n[Event \"b\"]\n1. c3-d4 *\n\nthe end of the collection\n",
    );
    let (code, pdn, _) = run(&["convert", "--to", "pdn"], &path);
    assert_eq!(code, Some(0));
    let b = pdn.find("[Event \"b\"]").unwrap();
    let between = pdn.find("Round two, played in Moscow").expect("kept");
    assert!(between < b, "{pdn}");
    assert!(
        pdn.trim_end().ends_with("the end of the collection"),
        "{pdn}"
    );
    // and it stays so: the output read again gives the same output
    let again = write(&dir, "again.pdn", pdn.as_bytes());
    assert_eq!(run(&["convert", "--to", "pdn"], &again).1, pdn);
}

#[cfg(target_os = "linux")]
#[test]
fn a_file_cut_while_it_is_read_is_said_and_exits_2() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let game = "[Event \"x\"]\n1. c3-d4 f6-g5 2. g3-h4 g7-f6 *\n\n";
    let path = write(&dir, "cut.pdn", game.repeat(2_000_000).as_bytes());
    let size = std::fs::metadata(&path).unwrap().len();
    // (standard output is a pipe read by no one: the run waits at its first lines, and is
    // cut once it has read a little of the file)
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("pdnkit"))
        .args(["convert", "--to", "jsonl", "-j1", "-q"])
        .arg(&path)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let fdinfo = format!("/proc/{}/fdinfo", child.id());
    let fd = format!("/proc/{}/fd", child.id());
    let started = Instant::now();
    let read_some = || -> bool {
        let Ok(entries) = std::fs::read_dir(&fd) else {
            return false;
        };
        entries.flatten().any(|e| {
            std::fs::read_link(e.path()).is_ok_and(|l| l == path)
                && std::fs::read_to_string(Path::new(&fdinfo).join(e.file_name())).is_ok_and(
                    |info| {
                        info.lines()
                            .find_map(|l| l.strip_prefix("pos:"))
                            .and_then(|p| p.trim().parse::<u64>().ok())
                            .is_some_and(|p| p > 0 && p < size)
                    },
                )
        })
    };
    while !read_some() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the file was never read"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(1 << 20)
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("was cut while it was read"), "{stderr}");
}
