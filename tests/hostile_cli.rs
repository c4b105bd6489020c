//! Hostile inputs through the real binary: binary files, unreadable files and link loops
//! among good files (the good ones are still checked), an interrupted `convert -o`, and
//! memory bounds on huge inputs (the largest are `#[ignore]`d: see
//! the README, section Robustness).

use assert_cmd::Command;
use pdnkit_gen::{Amount, Generator};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

fn pdnkit() -> Command {
    Command::cargo_bin("pdnkit").expect("the pdnkit binary is built")
}

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("pdnkit")
}

const GOOD: &str = "[Event \"good\"]\n[Result \"*\"]\n1. c3-d4 f6-g5 *\n";
/// White overlooks the mandatory capture d4:f6: one M101.
const ILLEGAL: &str = "[Event \"bad\"]\n1. c3-d4 f6-e5 2. b2-c3 *\n";

/// `lint --format jsonl` over `args`: exit code and the diagnostics.
fn lint_jsonl(args: &[&Path]) -> (i32, Vec<Value>) {
    let out = pdnkit()
        .args(["lint", "--format", "jsonl", "-q", "--ignore", "T"])
        .args(args)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let diags = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (out.status.code().unwrap_or(-1), diags)
}

fn codes_for(diags: &[Value], file: &str) -> Vec<String> {
    diags
        .iter()
        .filter(|d| d["path"].as_str().unwrap().ends_with(file))
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_binary_file_among_good_files_is_not_pdn_and_the_others_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.pdn"), ILLEGAL).unwrap();
    // a binary file with a PDN name: NULs and every byte value
    let mut binary = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0".to_vec();
    binary.extend((0..20_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
    std::fs::write(dir.path().join("b.pdn"), &binary).unwrap();
    // text with NUL bytes in the middle of a game
    std::fs::write(
        dir.path().join("c.pdn"),
        "[Event \"nul\"]\n1. c3-d4\0\0\0\0 f6-g5 *\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("d.pdn"), GOOD).unwrap();

    let (code, diags) = lint_jsonl(&[dir.path()]);
    assert_eq!(code, 1, "{diags:#?}");
    assert_eq!(codes_for(&diags, "b.pdn"), ["P108"], "{diags:#?}");
    assert!(codes_for(&diags, "a.pdn").contains(&"M101".to_string()));
    assert!(
        codes_for(&diags, "c.pdn").contains(&"P108".to_string()),
        "{diags:#?}"
    );
    assert!(codes_for(&diags, "d.pdn").is_empty(), "{diags:#?}");
    let p108 = diags.iter().find(|d| d["code"] == "P108").unwrap();
    assert!(
        p108["message"].as_str().unwrap().contains("not a PDN file"),
        "{p108}"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn unreadable_files_are_io_errors_and_the_others_are_checked() {
    // As root, permission bits do not stop reads; these fail for everyone: a dangling
    // link, and /proc/self/mem, which opens but fails at the first read (EIO).
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.pdn"), ILLEGAL).unwrap();
    std::os::unix::fs::symlink(dir.path().join("gone.pdn"), dir.path().join("b.pdn")).unwrap();
    std::os::unix::fs::symlink("/proc/self/mem", dir.path().join("c.pdn")).unwrap();
    std::fs::write(dir.path().join("d.pdn"), GOOD).unwrap();

    let (code, diags) = lint_jsonl(&[dir.path()]);
    assert_eq!(code, 2, "{diags:#?}");
    assert_eq!(codes_for(&diags, "b.pdn"), ["E102"], "{diags:#?}");
    assert_eq!(codes_for(&diags, "c.pdn"), ["E102"], "{diags:#?}");
    assert_eq!(codes_for(&diags, "a.pdn"), ["M101"], "{diags:#?}");
    assert!(codes_for(&diags, "d.pdn").is_empty());

    // the same files named on the command line
    let (code, diags) = lint_jsonl(&[
        &dir.path().join("c.pdn"),
        &dir.path().join("missing.pdn"),
        &dir.path().join("a.pdn"),
    ]);
    assert_eq!(code, 2);
    assert_eq!(codes_for(&diags, "c.pdn"), ["E102"], "{diags:#?}");
    assert_eq!(codes_for(&diags, "missing.pdn"), ["E102"], "{diags:#?}");
    assert_eq!(codes_for(&diags, "a.pdn"), ["M101"]);
}

#[cfg(unix)]
#[test]
fn a_directory_symlink_loop_is_reported_and_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("x/y")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("x"), dir.path().join("x/y/back")).unwrap();
    std::fs::write(dir.path().join("x/a.pdn"), ILLEGAL).unwrap();
    std::fs::write(dir.path().join("x/y/b.pdn"), GOOD).unwrap();

    let started = Instant::now();
    let (code, diags) = lint_jsonl(&[dir.path()]);
    assert!(started.elapsed() < Duration::from_secs(30));
    assert_eq!(code, 2, "{diags:#?}");
    let e102: Vec<_> = diags.iter().filter(|d| d["code"] == "E102").collect();
    assert_eq!(e102.len(), 1, "{diags:#?}");
    assert!(e102[0]["message"].as_str().unwrap().contains("loop"));
    // each real file once, not once per trip round the loop
    assert_eq!(codes_for(&diags, "a.pdn"), ["M101"], "{diags:#?}");
}

/// Peak resident memory (VmHWM, KiB) of a running child, polled until it exits.
#[cfg(target_os = "linux")]
fn run_measuring(cmd: &mut std::process::Command) -> (std::process::ExitStatus, u64, String) {
    run_measuring_reading_after(cmd, Duration::ZERO)
}

/// [`run_measuring`] with a slow reader of the child's output: it starts reading after
/// `wait` (until then the child's writes block once the pipe is full).
#[cfg(target_os = "linux")]
fn run_measuring_reading_after(
    cmd: &mut std::process::Command,
    wait: Duration,
) -> (std::process::ExitStatus, u64, String) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    // drain stdout on a thread so the child never blocks on a full pipe for long
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        std::thread::sleep(wait);
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut s).unwrap();
        s
    });
    let mut peak = 0;
    loop {
        if let Ok(text) = std::fs::read_to_string(&status_file) {
            for line in text.lines() {
                if let Some(v) = line.strip_prefix("VmHWM:") {
                    let kib: u64 = v.trim().trim_end_matches("kB").trim().parse().unwrap();
                    peak = peak.max(kib);
                }
            }
        }
        if let Some(status) = child.try_wait().unwrap() {
            return (status, peak, reader.join().unwrap());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_million_empty_games_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.pdn");
    std::fs::write(&path, "*\n".repeat(1_000_000)).unwrap();
    let (games, peak_kib) = stats_games_measuring(&path, "1");
    assert_eq!(games, 1_000_000);
    assert!(peak_kib < 200 * 1024, "peak RSS {peak_kib} KiB");
}

#[cfg(target_os = "linux")]
#[test]
fn sarif_for_many_findings_in_bounded_memory() {
    // SARIF is one JSON document, about 9 KB a finding: it must be streamed, not held
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("illegal.pdn");
    std::fs::write(&path, "[Event \"x\"]\n1. c3-e5 *\n\n".repeat(60_000)).unwrap();
    let (status, peak_kib, out) = run_measuring(
        std::process::Command::new(bin())
            .args([
                "lint", "--format", "sarif", "--select", "M101", "-q", "-j", "1",
            ])
            .arg(&path),
    );
    assert_eq!(status.code(), Some(1));
    let sarif: Value = serde_json::from_str(&out).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 60_000);
    assert_eq!(results[59_999]["ruleId"], "M101");
    assert!(peak_kib < 64 * 1024, "peak RSS {peak_kib} KiB");
}

/// `lint --format jsonl -q` with `args` on `path`, measured: its status, the codes it
/// reported (but the tag roster's), and its peak RSS in KiB.
#[cfg(target_os = "linux")]
fn lint_codes_measuring(path: &Path, args: &[&str]) -> (Option<i32>, Vec<String>, u64) {
    let (status, peak_kib, out) = run_measuring(
        std::process::Command::new(bin())
            .args(["lint", "--format", "jsonl", "-q", "--ignore", "T"])
            .args(args)
            .arg(path),
    );
    let codes = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["code"].to_string())
        .collect();
    (status.code(), codes, peak_kib)
}

/// `convert -q` with `args` on `path`, measured: its status, its peak RSS in KiB and what
/// it wrote to standard output.
#[cfg(target_os = "linux")]
fn convert_measuring(path: &Path, args: &[&str]) -> (std::process::ExitStatus, u64, String) {
    run_measuring(
        std::process::Command::new(bin())
            .args(["convert", "-q"])
            .args(args)
            .arg(path),
    )
}

/// `stats --format json -q -j JOBS` on `path`, measured: the games it counted (it must
/// succeed) and its peak RSS in KiB.
#[cfg(target_os = "linux")]
fn stats_games_measuring(path: &Path, jobs: &str) -> (Value, u64) {
    let (status, peak_kib, out) = run_measuring(
        std::process::Command::new(bin())
            .args(["stats", "--format", "json", "-q", "-j", jobs])
            .arg(path),
    );
    assert!(status.success(), "{status:?}");
    let stats: Value = serde_json::from_str(&out).unwrap();
    (stats["totals"]["games"].clone(), peak_kib)
}

#[cfg(target_os = "linux")]
#[test]
fn a_game_of_300000_moves_is_skipped_in_bounded_memory() {
    // 3.5 MB (under the size limit) and 300,000 moves in one game, its first move
    // illegal: over the move limit, it is skipped as too large without being held as a
    // tree, and the game after it is checked
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.pdn");
    let tail = b"*\n\n[Event \"next\"]\n1. c3-e5 *\n";
    write_big(
        &path,
        b"[Event \"long\"]\n1. c3-e5 ",
        b"c3-d4 d6-c5 ",
        3_500_000,
        tail,
    );
    for jobs in ["1", "2"] {
        let (code, codes, peak_kib) = lint_codes_measuring(&path, &["-j", jobs]);
        assert_eq!(code, Some(1));
        assert_eq!(codes, ["\"P107\"", "\"M101\""], "-j {jobs}");
        assert!(peak_kib < 64 * 1024, "-j {jobs}: peak RSS {peak_kib} KiB");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn games_at_the_move_limit_in_bounded_memory_on_two_threads() {
    // 40 games of 20,000 moves, each with an illegal first move: each long main line is
    // built in the last one's memory, not in blocks the allocator keeps a while
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.pdn");
    let game = format!(
        "[Event \"x\"]\n1. c3-e5 {}*\n\n",
        "c3-d4 d6-c5 ".repeat(9_999)
    );
    std::fs::write(&path, game.repeat(40)).unwrap();
    let (code, codes, peak_kib) = lint_codes_measuring(&path, &["-j", "2"]);
    assert_eq!((code, codes.len()), (Some(1), 40), "{codes:?}");
    assert!(peak_kib < 24 * 1024, "peak RSS {peak_kib} KiB");
    let (games, peak_kib) = stats_games_measuring(&path, "2");
    assert_eq!(games, 40);
    assert!(peak_kib < 24 * 1024, "stats: peak RSS {peak_kib} KiB");
    // convert holds the tree (about 100 bytes a move) and each game's output
    for (to, limit_mib, lines) in [("jsonl", 40, 40), ("csv", 32, 41)] {
        let (status, peak_kib, out) = convert_measuring(&path, &["-j", "2", "--to", to]);
        assert!(status.success(), "{to}: {status:?}");
        assert_eq!(out.lines().count(), lines, "{to}");
        assert!(out.len() > 4_000_000, "{to}: {} bytes", out.len());
        assert!(peak_kib < limit_mib * 1024, "{to}: peak RSS {peak_kib} KiB");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn games_of_megabytes_in_bounded_memory_on_two_threads() {
    // the largest games read (4 MB of comment each, under the 4 MiB limit), one after
    // another, then games of 15 MB, over it: each game read is held a few times over while
    // it is read and checked, on each thread, so the limit is what bounds memory, and the
    // games over it are skipped as too large without being held
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("comments.pdn");
    let game = |words: usize| {
        let comment = "lorem ipsum ".repeat(words);
        format!("[Event \"x\"]\n1. c3-d4 {{{comment}}} *\n\n")
    };
    let text = game(340_000).repeat(12) + &game(1_250_000).repeat(4);
    std::fs::write(&path, text).unwrap();
    let (code, codes, peak_kib) = lint_codes_measuring(&path, &["-j", "2"]);
    assert_eq!((code, codes), (Some(1), vec!["\"P107\"".to_string(); 4]));
    assert!(peak_kib < 48 * 1024, "peak RSS {peak_kib} KiB");
    let (games, peak_kib) = stats_games_measuring(&path, "2");
    assert_eq!(games, 12);
    assert!(peak_kib < 48 * 1024, "stats: peak RSS {peak_kib} KiB");
    // `convert`: each 4 MB game, its tree and its JSON, one at a time a thread; the games
    // too large have a record that says they were skipped, and the run exits 1
    let out = dir.path().join("out.jsonl");
    let out_arg = out.to_str().unwrap();
    let (status, peak_kib, _) =
        convert_measuring(&path, &["--to", "jsonl", "-j", "2", "-o", out_arg]);
    assert_eq!(status.code(), Some(1), "{status:?}");
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(written.lines().count(), 16);
    assert_eq!(written.matches("\"status\":\"skipped\"").count(), 4);
    assert!(peak_kib < 64 * 1024, "convert: peak RSS {peak_kib} KiB");
}

#[cfg(target_os = "linux")]
#[test]
fn games_at_the_item_limit_in_bounded_memory_on_two_threads() {
    // 21 MB of games of 9,990 tags each (the reader's limit is 10,000 items a game), short
    // and long: checking such a game makes and drops megabytes of growing vectors, which
    // the allocator must give back soon, and the tag findings past the report's limit are
    // counted, not made
    let dir = tempfile::tempdir().unwrap();
    let tags = [
        ("tags", "[a \"\"]\n"),
        (
            "long-tags",
            "[abcdefghijklmnopqrstuvwxyz \"abcdefghijklmnopqrstuvwxyz\\\\\"]\n",
        ),
    ];
    for (name, tag) in tags {
        let path = dir.path().join(format!("{name}.pdn"));
        let game = tag.repeat(9_990) + "1. c3-d4 *\n\n";
        let games = 21_000_000 / game.len();
        std::fs::write(&path, game.repeat(games)).unwrap();
        let (counted, peak_kib) = stats_games_measuring(&path, "2");
        assert_eq!(counted, games);
        assert!(
            peak_kib < 48 * 1024,
            "{name}: stats: peak RSS {peak_kib} KiB"
        );
        let out = dir.path().join(format!("{name}.jsonl"));
        let out_arg = out.to_str().unwrap();
        let (status, peak_kib, _) =
            convert_measuring(&path, &["--to", "jsonl", "-j", "2", "-o", out_arg]);
        assert!(status.success(), "{status:?}");
        let written = std::fs::read_to_string(&out).unwrap();
        assert_eq!(written.lines().count(), games);
        // every game reports its first 1,000 findings, then how many more
        let first: Value = serde_json::from_str(written.lines().next().unwrap()).unwrap();
        let diagnostics = first["diagnostics"].as_array().unwrap();
        assert_eq!(diagnostics.len(), 1_001, "{name}");
        assert_eq!(diagnostics[1_000]["code"], "P118", "{name}");
        assert!(
            peak_kib < 48 * 1024,
            "{name}: convert: peak RSS {peak_kib} KiB"
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn json_lines_for_a_slow_reader_in_bounded_memory() {
    // JSON Lines are about twenty times the PDN of a game: what waits for a slow reader,
    // from one big file or from many small ones, must be bounded by the bytes of output,
    // not by the input's.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("archive.pdn");
    let files = dir.path().join("files");
    for (target, spread) in [(&file, None), (&files, Some(200))] {
        let (mut generator, amount) = (Generator::new(3), Amount::Bytes(8_000_000));
        match spread {
            Some(n) => generator.write_files(target, n, amount),
            None => generator.write(&mut std::fs::File::create(target).unwrap(), amount),
        }
        .unwrap();
        let (status, peak_kib, out) = run_measuring_reading_after(
            std::process::Command::new(bin())
                .args(["convert", "--to", "jsonl", "-q", "-j", "2"])
                .arg(target),
            Duration::from_millis(1500),
        );
        assert!(status.success(), "{status:?}");
        assert!(out.lines().count() > 10_000, "{target:?}");
        assert!(out.len() > 100_000_000, "{} bytes of JSON", out.len());
        assert!(peak_kib < 48 * 1024, "{target:?}: peak RSS {peak_kib} KiB");
    }
}

/// Writes `size` bytes made of `head` then `fill` repeated, then `tail`, without holding
/// it in memory.
fn write_big(path: &Path, head: &[u8], fill: &[u8], size: u64, tail: &[u8]) {
    use std::io::Write;
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    f.write_all(head).unwrap();
    let block = fill.repeat((1 << 20) / fill.len());
    let mut written = head.len() as u64;
    while written < size {
        f.write_all(&block).unwrap();
        written += block.len() as u64;
    }
    f.write_all(tail).unwrap();
    f.flush().unwrap();
}

/// `lint --format jsonl` on `path`: its status, peak RSS in KiB and stdout; the time and
/// memory are printed under `label`.
#[cfg(target_os = "linux")]
fn lint_measuring(path: &Path, label: &str) -> (std::process::ExitStatus, u64, String) {
    let started = Instant::now();
    let measured = run_measuring(
        std::process::Command::new(bin())
            .args(["lint", "--format", "jsonl", "-q"])
            .arg(path),
    );
    eprintln!(
        "{label}: {:?}, peak RSS {} MiB",
        started.elapsed(),
        measured.1 / 1024
    );
    measured
}

#[cfg(target_os = "linux")]
#[test]
#[ignore = "writes a 100 MB file; run with --ignored"]
fn a_100_mb_line_without_newline_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("line.pdn");
    write_big(
        &path,
        b"[Event \"long\"]\n1. ",
        b"c3-d4 d6-c5 ",
        100_000_000,
        b"*[Event \"after\"]\n1. c3-d4 f6-e5 2. b2-c3 *",
    );
    let (status, peak_kib, out) = lint_measuring(&path, "100 MB line");
    assert_eq!(status.code(), Some(1));
    assert!(out.contains("\"P107\""), "{out}");
    // the game after the long line is still read and checked
    assert!(out.contains("\"M101\""), "{out}");
    assert!(peak_kib < 64 * 1024, "peak RSS {peak_kib} KiB");
}

#[cfg(target_os = "linux")]
#[test]
#[ignore = "writes a 1 GB file; run with --ignored"]
fn an_unterminated_comment_at_the_start_of_a_1_gb_file_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("comment.pdn");
    write_big(
        &path,
        b"{ never closed ",
        b"lorem ipsum dolor sit amet, ",
        1_000_000_000,
        b"\n[Event \"after\"]\n1. c3-d4 f6-e5 2. b2-c3 *\n",
    );
    let (status, peak_kib, out) = lint_measuring(&path, "1 GB comment");
    assert_eq!(status.code(), Some(1));
    // the comment, cut at the next tag line, is larger than a game may be: skipped, and
    // said to be what it is (no game: the next one is the first)
    assert!(
        out.contains("\"P111\"")
            && out.contains("comments before the first game, larger than 4194304 bytes"),
        "{out}"
    );
    assert!(out.contains("\"game\":1,"), "{out}");
    assert!(
        out.contains("\"M101\""),
        "the game after it was lost: {out}"
    );
    assert!(peak_kib < 64 * 1024, "peak RSS {peak_kib} KiB");
}

#[test]
fn j_over_1024_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.pdn");
    std::fs::write(&good, GOOD).unwrap();
    for command in [&["lint"][..], &["convert", "--to", "csv"], &["stats"]] {
        for jobs in ["100000", "1025", "many"] {
            pdnkit()
                .args(command)
                .args(["-j", jobs])
                .arg(&good)
                .assert()
                .code(2)
                .stdout("")
                .stderr(predicates::str::contains("--jobs"));
        }
        // (0 is one per core, as no -j)
        pdnkit()
            .args(command)
            .args(["-q", "-j", "0"])
            .arg(&good)
            .assert()
            .success();
        pdnkit()
            .args(command)
            .args(["-q", "-j", "1024"])
            .arg(&good)
            .assert()
            .success();
    }
}

/// The threads of process `pid`, as /proc says.
#[cfg(target_os = "linux")]
fn threads_of(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .map_or(0, |n| n.trim().parse().unwrap())
}

#[cfg(target_os = "linux")]
#[test]
fn j_far_beyond_the_cores_starts_no_more_threads_than_useful() {
    // standard input, which may be cut into any number of blocks: at most four workers a
    // core, besides the reader's thread and the main one, however many -j asks for
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let mut child = std::process::Command::new(bin())
        .args(["lint", "-q", "--format", "jsonl", "-j", "1024", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, ILLEGAL.as_bytes()).unwrap();
    // (the threads start at once, and wait for the rest of the input)
    let started = Instant::now();
    let mut most = 0;
    while started.elapsed() < Duration::from_millis(1500) {
        most = most.max(threads_of(child.id()));
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("M101"));
    assert!(most > 1, "the threads were not seen");
    assert!(most <= 4 * cores + 2, "{most} threads on {cores} cores");

    // three games in one small file are one job: read on the main thread, in the memory
    // of -j 1 (a thousand threads would take tens of megabytes of stacks and buffers)
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("three.pdn");
    std::fs::write(&path, [GOOD, ILLEGAL, GOOD].join("\n")).unwrap();
    let (status, one, csv) = convert_measuring(&path, &["--to", "csv", "-j", "1"]);
    assert!(status.success());
    let (status, many, same) = convert_measuring(&path, &["--to", "csv", "-j", "1024"]);
    assert!(status.success());
    assert_eq!(same, csv);
    assert!(
        many < one + 4 * 1024,
        "-j 1024: {many} KiB, -j 1: {one} KiB"
    );
}

#[test]
fn a_thread_that_cannot_be_started_does_not_panic() {
    // a stack larger than the address space: no thread can start (as at the system's
    // limit of threads); the run goes on the main thread, with the same output
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pdn");
    let mut text = Vec::new();
    Generator::new(5).write_bytes(&mut text, 3_000_000).unwrap();
    std::fs::write(&path, &text).unwrap();
    for command in [
        &["lint", "--format", "jsonl"][..],
        &["convert", "--to", "csv"],
        &["stats", "--format", "json"],
    ] {
        let run = |jobs: &str, stack: Option<&str>, stdin: bool| {
            let mut cmd = pdnkit();
            cmd.args(command).args(["-q", "-j", jobs]);
            if let Some(bytes) = stack {
                cmd.env("RUST_MIN_STACK", bytes);
            }
            match stdin {
                true => cmd.arg("-").write_stdin(text.clone()),
                false => cmd.arg(&path),
            };
            let out = cmd.timeout(Duration::from_secs(120)).output().unwrap();
            let stdout = String::from_utf8(out.stdout).unwrap();
            (
                out.status.code(),
                stdout.replace(path.to_str().unwrap(), "-"),
            )
        };
        let (code, want) = run("1", None, false);
        for stdin in [false, true] {
            let got = run("2", Some("1152921504606846976"), stdin);
            assert_eq!(got.0, code, "{command:?} stdin {stdin}");
            assert!(
                got.1 == want,
                "{command:?} stdin {stdin}: not the output of -j 1"
            );
        }
    }
}

#[cfg(target_os = "linux")]
#[test]
fn stats_holds_each_of_many_distinct_players_in_tens_of_bytes() {
    // 200,000 games of 400,000 players, each named once: the players' table is the
    // memory stats needs, about 46 bytes a player (a name kept once, small counters)
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("players.pdn");
    let text: String = (0..200_000)
        .map(|n| format!("[White \"P{n}\"][Black \"Q{n}\"]\n1. c3-d4 *\n"))
        .collect();
    std::fs::write(&path, text).unwrap();
    // (about 24 MB with one thread; two add the counts of games waiting for their turn,
    // up to a budget of 16 MB, and the workers' own memory: about 46 MB)
    for (jobs, most_mib) in [("1", 40), ("2", 64)] {
        let (status, peak_kib, out) = run_measuring(
            std::process::Command::new(bin())
                .args(["stats", "--format", "json", "-q", "--top", "3", "-j", jobs])
                .arg(&path),
        );
        assert!(status.success());
        let stats: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(stats["totals"]["games"], 200_000);
        let names: Vec<&str> = (stats["players"].as_array().unwrap().iter())
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["P0", "P1", "P10"]);
        assert!(
            peak_kib < most_mib * 1024,
            "-j {jobs}: peak RSS {peak_kib} KiB"
        );
    }
}

fn temp_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

/// Starts `convert --to jsonl -q -o OUT INPUT` under `sh` with `setup` run first (`trap`
/// lines), and waits until its temporary file beside OUT holds some output.
#[cfg(unix)]
fn convert_started(setup: &str, out: &Path, input: &Path) -> std::process::Child {
    let dir = out.parent().unwrap();
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "{setup}\nexec \"$0\" convert --to jsonl -q -o \"$1\" \"$2\""
        ))
        .arg(bin())
        .arg(out)
        .arg(input)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        let tmp = temp_files(dir);
        if tmp
            .iter()
            .any(|t| std::fs::metadata(dir.join(t)).is_ok_and(|m| m.len() > 100_000))
        {
            return child;
        }
        assert!(child.try_wait().unwrap().is_none(), "finished too early");
        assert!(started.elapsed() < Duration::from_secs(60), "no temp file");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Whether this process ignores `signal` (then its children start ignoring it too, and
/// pdnkit leaves it so: a test run in the background of a script ignores SIGINT).
#[cfg(target_os = "linux")]
fn ignored(signal: u32) -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let mask = status
        .lines()
        .find_map(|l| l.strip_prefix("SigIgn:"))
        .map(|m| u64::from_str_radix(m.trim(), 16).unwrap())
        .unwrap();
    mask & (1 << (signal - 1)) != 0
}

/// A big input of games, converting which takes seconds, and an output file with old
/// contents.
#[cfg(unix)]
fn big_input_and_output(dir: &Path) -> (PathBuf, PathBuf) {
    let input = dir.join("big.pdn");
    let game = "[Event \"x\"]\n1. c3-d4 f6-g5 2. g3-f4 g7-f6 3. b2-c3 h8-g7 4. a1-b2 g5-h4 *\n\n";
    std::fs::write(&input, game.repeat(400_000)).unwrap();
    let out = dir.join("out.jsonl");
    std::fs::write(&out, "old contents\n").unwrap();
    (input, out)
}

#[cfg(target_os = "linux")]
#[test]
fn convert_interrupted_exits_128_plus_the_signal_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = big_input_and_output(dir.path());
    for (signal, number) in [("INT", 2), ("TERM", 15), ("HUP", 1)] {
        if ignored(number) {
            eprintln!("note: SIG{signal} is ignored by the tests: not checked");
            continue;
        }
        let child = convert_started("", &out, &input);
        let kill = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(kill.success());
        let ended = child.wait_with_output().unwrap();
        assert_eq!(
            ended.status.code(),
            Some(128 + number as i32),
            "SIG{signal}"
        );
        let stderr = String::from_utf8_lossy(&ended.stderr);
        assert!(
            stderr.contains(&format!("interrupted by SIG{signal}")),
            "SIG{signal}: {stderr}"
        );
        assert_eq!(
            temp_files(dir.path()),
            Vec::<String>::new(),
            "SIG{signal} left a temporary file"
        );
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "old contents\n");
    }
}

#[cfg(unix)]
#[test]
fn a_signal_ignored_at_the_start_stays_ignored() {
    // `nohup pdnkit convert -o …` must outlive the terminal: SIGHUP, ignored when it
    // started, is not caught to end the run
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = big_input_and_output(dir.path());
    let child = convert_started("trap '' HUP", &out, &input);
    let kill = std::process::Command::new("kill")
        .args(["-HUP", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let ended = child.wait_with_output().unwrap();
    assert!(ended.status.success(), "{:?}", ended.status);
    assert_eq!(
        std::fs::read_to_string(&out).unwrap().lines().count(),
        400_000
    );
    assert_eq!(temp_files(dir.path()), Vec::<String>::new());
}

#[test]
fn convert_with_an_unreadable_input_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.pdn");
    std::fs::write(&good, GOOD).unwrap();
    let out = dir.path().join("out.pdn");
    pdnkit()
        .args(["convert", "--to", "pdn", "-q", "-o"])
        .arg(&out)
        .arg(&good)
        .arg(dir.path().join("missing.pdn"))
        .assert()
        .code(2);
    assert!(!out.exists());
    assert_eq!(temp_files(dir.path()), Vec::<String>::new());
}
