//! Hostile and damaged input: pdnkit must never panic, hang or lose the rest of a file.

use pdnkit::check::CheckOptions;
use pdnkit::run::{FileReport, check_reader};
use pdnkit_gen::SplitMix64;
use std::path::Path;
use std::time::{Duration, Instant};

fn check(bytes: &[u8]) -> FileReport {
    check_reader("input.pdn", bytes, &CheckOptions::default())
}

fn names(r: &FileReport) -> Vec<&'static str> {
    r.diagnostics.iter().map(|d| d.rule.name).collect()
}

fn mutate(rng: &mut SplitMix64, input: &[u8]) -> Vec<u8> {
    const INSERTS: &[&[u8]] = &[
        b"(",
        b")",
        b"{",
        b"}",
        b"[",
        b"]",
        b"\"",
        b"\0",
        b"\xff\xfe",
        b"\xc3",
        b"%",
        b";",
        b"/FEN \"",
        b"$",
        b"1-0",
        b"*",
        b"\n[Event \"",
        b"\\",
        b"x",
        b":",
        b"-",
        b"((((((((",
    ];
    let mut out = input.to_vec();
    for _ in 0..1 + rng.index(8) {
        let at = rng.index(out.len() + 1);
        match rng.index(5) {
            0 if !out.is_empty() => {
                let i = at.min(out.len() - 1);
                out[i] ^= 1 << rng.index(8);
            }
            1 => out.truncate(at),
            2 => {
                let ins = INSERTS[rng.index(INSERTS.len())];
                out.splice(at..at, ins.iter().copied());
            }
            3 if !out.is_empty() => {
                let end = (at + rng.index(16)).min(out.len());
                out.drain(at.min(end)..end);
            }
            _ => {
                let b = rng.next_u64() as u8;
                out.insert(at, b);
            }
        }
    }
    out
}

fn seeds() -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seeds = vec![
        std::fs::read(root.join("fixtures/example.pdn")).unwrap(),
        std::fs::read(root.join("fixtures/lint/diagnostics.pdn")).unwrap(),
        std::fs::read(root.join("fixtures/lint/clean.pdn")).unwrap(),
    ];
    // real files too, when the shared corpus is beside the checkout
    for name in [
        "russian/abatsiev.pdn",
        "russian/abatsiev.cp1251.pdn",
        "russian/shashkispark-fixtures/generated_here_1.pdn",
        "other-variants/international/nk ronde 01.pdn",
    ] {
        if let Ok(b) = std::fs::read(root.join("../shared/corpus").join(name)) {
            seeds.push(b);
        }
    }
    seeds
}

#[test]
fn mutated_inputs_never_panic_and_finish_quickly() {
    let seeds = seeds();
    let mut rng = SplitMix64::new(0x0005_eed0_f9d4_u64);
    for round in 0..400 {
        let seed = &seeds[round % seeds.len()];
        let input = mutate(&mut rng, seed);
        let started = Instant::now();
        let report = check(&input);
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "round {round} took {:?}",
            started.elapsed()
        );
        assert!(
            !report.io_failed,
            "round {round}: reading from memory cannot fail"
        );
    }
}

#[test]
fn deeply_nested_variations_are_cut_and_the_next_game_is_read() {
    let mut text = String::from("[Event \"deep\"]\n1. c3-d4 ");
    text.push_str(&"(".repeat(100_000));
    text.push_str(" *\n\n[Event \"next\"]\n1. c3-d4 f6-g5 *\n");
    let r = check(text.as_bytes());
    assert_eq!(r.games, 2);
    assert!(names(&r).contains(&"variation-too-deep"));
    assert!(!r.summaries[1].has_errors);
}

#[test]
fn a_very_long_line_without_newline_is_read_in_bounded_time() {
    // 20 MB of moves on one line: larger than the per-game limit, so it is skipped with a
    // diagnostic and the following game is still read.
    let mut text = String::from("1. ");
    while text.len() < 20_000_000 {
        text.push_str("c3-d4 d6-c5 ");
    }
    text.push_str("*\n[Event \"after\"]\n1. c3-d4 *\n");
    let started = Instant::now();
    let r = check(text.as_bytes());
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(names(&r).contains(&"game-too-large"));
    assert!(r.summaries.iter().any(|s| !s.has_errors && s.plies == 1));
}

#[test]
fn blanks_and_comments_between_games_longer_than_a_game_lose_no_game() {
    // more than the 16 MB a game may hold, between games: blank lines are no game's and
    // comments are stray text; neither may swallow the game after them
    let game = |i: usize| format!("[Event \"g{i}\"]\n1. c3-d4 f6-g5 *\n");
    let mut text = game(1);
    text.push_str(&"\n".repeat(17_000_000));
    text.push_str(&game(2));
    text.push_str(&format!("{{{}}}\n", "x".repeat(17_000_000)));
    text.push_str(&game(3));
    text.push_str(&"\r\n".repeat(9_000_000));
    let r = check(text.as_bytes());
    assert_eq!(r.games, 3, "{:?}", names(&r));
    assert!(r.summaries.iter().all(|s| s.plies == 2 && !s.has_errors));
    // (the games have only the Event tag of the roster)
    let found: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.rule.name != "missing-tag")
        .map(|d| (d.rule.name, d.line, d.column, d.game))
        .collect();
    // the comment, after the second game, which starts after the 17 million blank lines
    assert_eq!(found, [("stray-text", 17_000_005, 1, None)]);
}

#[test]
fn an_unterminated_comment_does_not_swallow_the_file() {
    // the comment opens inside the first game's movetext and is never closed
    let mut text = String::from("[Event \"first\"]\n1. c3-d4 { never closed\n");
    for i in 0..2_000 {
        text.push_str(&format!("[Event \"g{i}\"]\n1. c3-d4 f6-g5 *\n\n"));
    }
    let r = check(text.as_bytes());
    assert_eq!(r.games, 2_001);
    assert_eq!(
        r.diagnostics
            .iter()
            .filter(|d| d.rule.name == "unterminated-comment")
            .count(),
        1
    );
    assert!(r.summaries[1..].iter().all(|s| s.plies == 2));
}

#[test]
fn binary_data_is_not_pdn() {
    let mut bytes = b"[Event \"x\"]\n1. c3-d4 *\n".to_vec();
    bytes.extend((0..4096u32).map(|i| (i * 7 % 256) as u8));
    let r = check(&bytes);
    assert!(names(&r).contains(&"not-pdn"), "{:?}", names(&r));
    assert!(!r.io_failed);
}

#[test]
fn a_fen_with_forty_pieces_is_invalid() {
    let white: Vec<String> = (13..=32).map(|n| n.to_string()).collect();
    let black: Vec<String> = (1..=12).map(|n| n.to_string()).collect();
    let text = format!(
        "[FEN \"W:W{}:B{}\"]\n1. c3-d4 *\n",
        white.join(","),
        black.join(",")
    );
    let r = check(text.as_bytes());
    let fen: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.rule.name == "invalid-fen")
        .collect();
    assert_eq!(fen.len(), 1);
    assert!(
        fen[0].message.contains("more than the 12"),
        "{}",
        fen[0].message
    );
}

#[test]
fn a_game_of_100000_moves_replays_when_the_move_limit_allows_it() {
    // two kings shuffling off each other's diagonals: legal forever, drawn automatically
    // early on (6.1.8.6)
    let mut text = String::from("[FEN \"W:WK30:BK4\"]\n");
    for i in 0..25_000 {
        text.push_str(&format!(
            "{}. c1-d2 h8-g7 {}. d2-c1 g7-h8 ",
            2 * i + 1,
            2 * i + 2
        ));
    }
    text.push_str("1/2-1/2\n");
    // by default, over the reader's move limit: skipped as too large, and said so
    let r = check(text.as_bytes());
    assert_eq!((r.games, names(&r)), (0, vec!["game-too-large"]));
    assert!(r.diagnostics[0].message.contains("more than 20000 moves"));
    let options = CheckOptions {
        max_game_moves: Some(100_000),
        ..CheckOptions::default()
    };
    let started = Instant::now();
    let r = check_reader("input.pdn", text.as_bytes(), &options);
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(r.summaries[0].plies, 100_000);
    assert!(names(&r).contains(&"play-after-automatic-draw"));
}

#[test]
fn a_million_empty_games_are_counted() {
    let text = "*\n".repeat(1_000_000);
    let started = Instant::now();
    let r = check(text.as_bytes());
    assert!(started.elapsed() < Duration::from_secs(60));
    assert_eq!(r.games, 1_000_000);
}

#[test]
fn a_game_reports_its_first_thousand_findings_then_says_how_many_more() {
    use pdnkit::check::MAX_GAME_FINDINGS;
    use pdnkit::diag::Severity;
    // 1,500 copies of one tag: 1,499 duplicates after the roster's missing tags (the
    // game's start), then an illegal move at the end, past the limit
    let mut text = "[a \"\"]\n".repeat(1_500);
    text.push_str("1. c3-e5 *\n\n[Event \"next\"]\n1. c3-e5 *\n");
    let r = check(text.as_bytes());
    let first: Vec<_> = r.diagnostics.iter().filter(|d| d.game == Some(1)).collect();
    assert_eq!(first.len(), MAX_GAME_FINDINGS + 1);
    let (reported, last) = first.split_at(MAX_GAME_FINDINGS);
    assert_eq!(reported[0].rule.name, "missing-tag");
    assert!(reported[1..].iter().all(|d| d.rule.name == "duplicate-tag"));
    // in text order: the 1,000th finding is the 999th duplicate, on line 1,000
    assert_eq!(reported.last().unwrap().line, 1_000);
    let more = &last[0];
    assert_eq!(more.rule.code, "P118");
    assert_eq!(
        more.message,
        "501 more findings in this game are not reported (1 of them errors)"
    );
    // where the first finding not reported is, and an error since the illegal move is one
    assert_eq!((more.line, more.severity), (1_001, Severity::Error));
    assert_eq!(r.games_with_errors, 2);
    // the next game is checked as usual
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.game == Some(2) && d.rule.name == "illegal-move")
    );
}

#[test]
fn one_finding_past_the_limit_is_reported_itself() {
    use pdnkit::check::MAX_GAME_FINDINGS;
    // the missing roster tags and 1,000 duplicates: 1,001 findings, all shown
    let mut text = "[a \"\"]\n".repeat(1_001);
    text.push_str("1. c3-d4 *\n");
    let r = check(text.as_bytes());
    assert_eq!(r.diagnostics.len(), MAX_GAME_FINDINGS + 1);
    assert!(!names(&r).contains(&"too-many-errors"));
}

#[test]
fn a_game_of_many_tags_is_checked_in_linear_time() {
    // 100,000 distinct tags and their 100,000 repeats (the reader's item limit raised):
    // duplicates found by a map, not by comparing every pair (2·10^10 comparisons)
    let mut text = String::new();
    for round in 0..2 {
        for i in 0..100_000 {
            text.push_str(&format!("[T{i} \"{round}\"]\n"));
        }
    }
    text.push_str("1. c3-d4 *\n");
    let options = CheckOptions {
        max_game_items: Some(200_000),
        ..CheckOptions::default()
    };
    let started = Instant::now();
    let r = check_reader("input.pdn", text.as_bytes(), &options);
    assert!(started.elapsed() < Duration::from_secs(10));
    let first = r
        .diagnostics
        .iter()
        .find(|d| d.rule.name == "duplicate-tag")
        .unwrap();
    assert_eq!(first.line, 100_001);
    assert_eq!(
        first.message,
        "tag T0 appears again (first value \"0\", this one \"1\"); the first is used"
    );
}
