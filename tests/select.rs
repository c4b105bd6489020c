//! `pdnkit select`: every criterion on the games of `fixtures/select/archive.pdn`, the
//! outputs against `convert`'s and the input's bytes, the places of games in every
//! encoding and with two threads, and `--position` against a brute-force replay of
//! generated games.

use assert_cmd::Command;
use pdnkit::pdn::Game;
use pdnkit::rules::notation::{Resolution, resolve_token};
use pdnkit::rules::{FenStyle, Position};
use pdnkit_gen::{Generator, SplitMix64};
use proptest::prelude::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

const ARCHIVE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/select/archive.pdn");

fn pdnkit() -> Command {
    Command::cargo_bin("pdnkit").expect("the pdnkit binary is built")
}

/// What `pdnkit select ARGS -q` writes, and its exit status.
fn select(args: &[&str]) -> (String, i32) {
    let out = pdnkit()
        .arg("select")
        .args(args)
        .arg("-q")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code().unwrap();
    assert!(code != 2, "{args:?}: {stderr}");
    (String::from_utf8(out.stdout).unwrap(), code)
}

/// The matches of `criteria` over `input`: each game's number and ply.
fn matches_in(input: &str, criteria: &[&str]) -> Vec<(u64, Option<u64>)> {
    let mut args = vec![input, "--format", "matches"];
    args.extend(criteria);
    let (out, code) = select(&args);
    let found: Vec<(u64, Option<u64>)> = (out.lines())
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|v| (v["game"].as_u64().unwrap(), v["ply"].as_u64()))
        .collect();
    assert_eq!(code, if found.is_empty() { 1 } else { 0 }, "{criteria:?}");
    found
}

/// The numbers of the games of the archive that `criteria` select.
fn games(criteria: &[&str]) -> Vec<u64> {
    matches_in(ARCHIVE, criteria)
        .into_iter()
        .map(|m| m.0)
        .collect()
}

fn usage_error(args: &[&str]) -> String {
    let out = pdnkit()
        .arg("select")
        .arg(ARCHIVE)
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn tag_tests() {
    assert_eq!(games(&["--tag", "Event = Кубок Москвы"]), [1, 5, 8]);
    assert_eq!(games(&["--tag", "Event != Кубок Москвы"]), [2, 3, 4, 6, 7]);
    assert_eq!(games(&["--tag", "Event ~ ^Leningrad"]), [2, 3]);
    assert_eq!(games(&["--tag", "Site ~ (?i)^москва$"]), [1, 5, 7, 8]);
    // numbers as numbers: Round "03" is 3
    assert_eq!(games(&["--tag", "Round = 3"]), [1, 2]);
    assert_eq!(
        games(&["--tag", "Round >= 4", "--tag", "Round < 10"]),
        [3, 8]
    );
    // a value that is no number is on neither side of one
    assert_eq!(games(&["--tag", "Round > 0"]), [1, 2, 3, 5, 6, 7, 8]);
    // dates as dates; ????.??.?? and 1971.05.?? are on neither side of 1971.05.15
    assert_eq!(games(&["--tag", "Date < 1967"]), [1, 5]);
    assert_eq!(games(&["--tag", "Date < 1971.05.15"]), [1, 5, 8]);
    assert_eq!(games(&["--tag", "Date >= 1971.05.15"]), [3, 6, 7]);
    assert_eq!(games(&["--tag", "Date = 1971"]), [2, 3]);
    assert_eq!(games(&["--tag", "FEN"]), [4, 7]);
    assert_eq!(games(&["--tag", "!FEN", "--tag", "GameType = 41"]), [6]);
    assert!(usage_error(&["--tag", "Event ~ ("]).contains("regular expression"));
    assert!(usage_error(&["--tag", "Date < soon"]).contains("not a date"));
}

#[test]
fn players_events_results_and_dates() {
    assert_eq!(games(&["--white", "иванов"]), [1, 8]);
    assert_eq!(games(&["--black", "ИВАНОВ"]), [2, 5]);
    assert_eq!(games(&["--player", "Иванов"]), [1, 2, 5, 8]);
    assert_eq!(games(&["--player", "ivanov"]), Vec::<u64>::new());
    assert_eq!(games(&["--player", "Petrov", "--player", "Иванов"]), [1]);
    assert_eq!(games(&["--event", "кубок"]), [1, 5, 8]);
    // either scale: 1-0 is 2-0, 1-1 is 1/2-1/2; a list is any of its results
    assert_eq!(games(&["--result", "1-0"]), [1, 7, 8]);
    assert_eq!(games(&["--result", "2-0"]), [1, 7, 8]);
    assert_eq!(games(&["--result", "1-1"]), [2]);
    assert_eq!(games(&["--result", "0-2,1/2-1/2"]), [2, 3]);
    assert_eq!(games(&["--result", "*"]), [4, 5, 6]);
    assert_eq!(games(&["--date", "1965..1967"]), [1, 5, 8]);
    assert_eq!(games(&["--date", "1971.05.."]), [2, 3, 6, 7]);
    assert_eq!(games(&["--date", "..1966"]), [1, 5]);
    assert!(usage_error(&["--result", "3-0"]).contains("a result"));
    assert!(usage_error(&["--date", "1970..1960"]).contains("ends before"));
}

#[test]
fn the_shape_of_the_game() {
    // plies written in the main line, played or not
    assert_eq!(games(&["--plies", "8.."]), [1]);
    assert_eq!(games(&["--plies", "..2"]), [4, 6, 7]);
    assert_eq!(games(&["--plies", "4"]), [3, 5, 8]);
    assert_eq!(games(&["--plies", "5..6"]), [2]);
    for (status, want) in [
        ("clean", vec![1, 7]),
        ("flawed", vec![2, 8]),
        ("illegal", vec![3]),
        ("ambiguous", vec![4]),
        ("incomplete", vec![5]),
        ("unparsed", vec![6]),
    ] {
        assert_eq!(games(&["--status", status]), want, "{status}");
    }
    assert_eq!(games(&["--status", "illegal,ambiguous"]), [3, 4]);
    assert_eq!(games(&["--code", "M101"]), [2, 3]);
    assert_eq!(games(&["--code", "ambiguous-move"]), [4]);
    assert_eq!(games(&["--code", "R"]), [8]);
    assert_eq!(games(&["--code", "M107,V101"]), [5, 6]);
    assert_eq!(games(&["--code", "M101", "--status", "flawed"]), [2]);
    let e = usage_error(&["--code", "illegal-mov"]);
    assert!(
        e.contains("did you mean") && e.contains("illegal-move"),
        "{e}"
    );
}

#[test]
fn openings_are_moves_in_any_notation() {
    // game 2 is written in numbers, with `x`
    let algebraic = games(&["--opening", "c3-d4 f6-e5 d4:f6 g7:e5"]);
    assert_eq!(algebraic, [1, 2, 8]);
    assert_eq!(games(&["--opening", "1. 22-18 11-15 2. 18x11"]), algebraic);
    assert_eq!(games(&["--opening", "c3-d4 f6-e5"]), [1, 2, 3, 8]);
    assert_eq!(
        matches_in(ARCHIVE, &["--opening", "c3-d4"])[0],
        (1, Some(1))
    );
    // game 5 from its third ply is unknown; game 4 starts from a FEN
    assert_eq!(games(&["--opening", "c3-d4 f6-g5"]), [5]);
    assert!(usage_error(&["--opening", "c3-e5"]).contains("illegal"));
}

/// The FEN of the archive's game `game` after `ply` plies, as `pdnkit show` gives it.
fn fen_at(game: u32, ply: u32) -> String {
    let out = pdnkit()
        .args(["show", ARCHIVE, "--format", "fen"])
        .args(["--game", &game.to_string(), "--ply", &ply.to_string()])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

#[test]
fn positions_patterns_and_material() {
    let after_two = fen_at(1, 2);
    assert_eq!(
        matches_in(ARCHIVE, &["--position", &after_two]),
        [(1, Some(2)), (2, Some(2)), (3, Some(2)), (8, Some(2))]
    );
    // the side to move counts
    let other_side = format!("B{}", &after_two[1..]);
    assert_eq!(games(&["--position", &other_side]), Vec::<u64>::new());
    // the start position is ply 0; a game from a FEN reaches it or not
    let start = matches_in(ARCHIVE, &["--position", "W:W21-32:B1-12"]);
    assert_eq!(start.len(), 5, "{start:?}");
    assert!(start.iter().all(|m| m.1 == Some(0)));
    // the end: of a main line that replays to its end
    let end = fen_at(1, 8);
    assert_eq!(games(&["--position", &end, "--at", "end"]), [1]);
    assert_eq!(
        games(&["--position", &after_two, "--at", "end"]),
        Vec::<u64>::new()
    );
    // a pattern: e5 Black, d4 empty, f6 empty; a man is no king; either side to move
    assert_eq!(
        matches_in(ARCHIVE, &["--pattern", "W:Be5:Ed4,f6"]),
        [(1, Some(4)), (2, Some(4)), (8, Some(4))]
    );
    assert_eq!(games(&["--pattern", "Wd4:Be5"]), [1, 2, 3, 8]);
    assert_eq!(games(&["--pattern", "W:WKd8"]), [7]);
    assert_eq!(games(&["--pattern", "W:Wd8"]), Vec::<u64>::new());
    assert!(usage_error(&["--pattern", "W:Wc3:Ec3"]).contains("twice"));
    // material: at any ply, or at the end
    assert_eq!(
        matches_in(ARCHIVE, &["--material", "3K v K"]),
        [(7, Some(1))]
    );
    assert_eq!(
        matches_in(ARCHIVE, &["--material", "3K v K", "--at", "end"]),
        [(7, Some(2))]
    );
    assert_eq!(games(&["--material", "2KM v K"]), [7]);
    assert_eq!(games(&["--material", "11M v 11M"]), [1, 2, 8]);
    // the board criteria together: the latest of their first plies
    assert_eq!(
        matches_in(ARCHIVE, &["--material", "11M v 11M", "--opening", "c3-d4"]),
        [(1, Some(4)), (2, Some(4)), (8, Some(4))]
    );
    assert!(usage_error(&["--material", "3K"]).contains("two sides"));
    assert!(usage_error(&["--position", "?:W21"]).contains("unknown"));
}

/// The archive's text of each game, as its lines cut at each `[Event`.
fn texts(archive: &str) -> Vec<String> {
    let mut games: Vec<String> = Vec::new();
    for line in archive.split_inclusive('\n') {
        if line.starts_with("[Event") {
            games.push(String::new());
        }
        games.last_mut().unwrap().push_str(line);
    }
    games
        .iter()
        .map(|g| g.trim_end().to_string() + "\n")
        .collect()
}

#[test]
fn the_original_text_of_each_game_whatever_the_encoding() {
    let archive = std::fs::read_to_string(ARCHIVE).unwrap();
    let texts = texts(&archive);
    let (out, code) = select(&[ARCHIVE, "--player", "Иванов"]);
    assert_eq!(code, 0);
    let want = [0, 1, 4, 7].map(|i| texts[i].as_str()).join("\n");
    assert_eq!(out, want);
    // every game: the input as it is, but for the blank lines between games
    let (all, _) = select(&[ARCHIVE]);
    assert_eq!(all, texts.join("\n"));
    // the same games in Windows-1251 and in UTF-16: the same text
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in encodings(&archive) {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let (out, _) = select(&[path.to_str().unwrap(), "--player", "Иванов"]);
        match name {
            // (the text's own line ends)
            "crlf.pdn" => assert_eq!(out, want.replace('\n', "\r\n")),
            _ => assert_eq!(out, want, "{name}"),
        }
    }
}

/// The archive in other encodings: Windows-1251, UTF-16LE and UTF-8 with byte order
/// marks, and UTF-8 with CR LF line ends.
fn encodings(text: &str) -> Vec<(&'static str, Vec<u8>)> {
    let (cp1251, _, lost) = encoding_rs::WINDOWS_1251.encode(text);
    assert!(!lost);
    let mut utf16 = vec![0xff, 0xfe];
    utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let bom = [&b"\xef\xbb\xbf"[..], text.as_bytes()].concat();
    let crlf = text.replace('\n', "\r\n").into_bytes();
    vec![
        ("cp1251.pdn", cp1251.into_owned()),
        ("utf16.pdn", utf16),
        ("bom.pdn", bom),
        ("crlf.pdn", crlf),
    ]
}

/// Each match's offset and line in `path`: where its game starts in the input's bytes.
fn places(path: &Path, args: &[&str]) -> Vec<(u64, u64, u64)> {
    let mut all = vec![path.to_str().unwrap(), "--format", "matches"];
    all.extend(args);
    let (out, _) = select(&all);
    (out.lines())
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|v| {
            let n = |k: &str| v[k].as_u64().unwrap();
            (n("game"), n("line"), n("offset"))
        })
        .collect()
}

#[test]
fn offsets_and_lines_are_the_inputs_whatever_the_encoding() {
    let archive = std::fs::read_to_string(ARCHIVE).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let utf8 = places(Path::new(ARCHIVE), &[]);
    assert_eq!(utf8.len(), 8);
    for (name, bytes) in encodings(&archive) {
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        let found = places(&path, &[]);
        assert_eq!(found.len(), 8, "{name}");
        for ((game, line, offset), (_, utf8_line, _)) in found.iter().zip(&utf8) {
            assert_eq!(line, utf8_line, "{name}: game {game}");
            let at = &bytes[*offset as usize..];
            let event: &[u8] = match name {
                "utf16.pdn" => &[b'[', 0, b'E', 0],
                _ => b"[Event",
            };
            assert!(at.starts_with(event), "{name}: game {game} at {offset}");
        }
    }
}

/// A generated archive of about `bytes` bytes, in a file of `dir`.
fn generated(dir: &Path, name: &str, seed: u64, bytes: u64) -> PathBuf {
    let path = dir.join(name);
    let mut out = Vec::new();
    Generator::new(seed).write_bytes(&mut out, bytes).unwrap();
    std::fs::write(&path, out).unwrap();
    path
}

#[test]
fn two_threads_select_and_place_the_games_one_does() {
    // larger than one job: cut into blocks, each read apart
    let dir = tempfile::tempdir().unwrap();
    let path = generated(dir.path(), "big.pdn", 7, 3 << 20);
    let text = std::fs::read_to_string(&path).unwrap();
    let (cp1251, _, _) = encoding_rs::WINDOWS_1251.encode(&text);
    let legacy = dir.path().join("big-cp1251.pdn");
    std::fs::write(&legacy, &cp1251).unwrap();
    for input in [&path, &legacy] {
        let input = input.to_str().unwrap();
        for criteria in [&["--result", "1-0"][..], &["--material", "10M v 10M"][..]] {
            let run = |jobs: &str| {
                let mut args = vec![input, "--format", "matches", "-j", jobs];
                args.extend(criteria);
                select(&args).0
            };
            let one = run("1");
            assert!(one.lines().count() > 5, "{criteria:?}");
            assert_eq!(one, run("2"), "{input} {criteria:?}");
        }
        // and the offsets are where the games start
        let bytes = std::fs::read(input).unwrap();
        for (game, _, offset) in places(Path::new(input), &["--result", "0-1"]) {
            let at = &bytes[offset as usize..];
            assert!(
                at.starts_with(b"[Event"),
                "{input}: game {game} at {offset}"
            );
        }
    }
}

#[test]
fn converted_formats_are_what_convert_writes() {
    let criteria = ["--player", "Иванов"];
    for format in ["csv", "jsonl", "pdn"] {
        let (selected, _) = select(&[&[ARCHIVE, "--format", format][..], &criteria].concat());
        let out = pdnkit()
            .args(["convert", ARCHIVE, "--to", format, "-q"])
            .output()
            .unwrap();
        let converted = String::from_utf8(out.stdout).unwrap();
        match format {
            // the header, and the rows of games 1, 2, 5 and 8
            "csv" => {
                let rows: Vec<&str> = converted.lines().collect();
                let want: Vec<&str> = [0, 1, 2, 5, 8].iter().map(|&i| rows[i]).collect();
                assert_eq!(selected.lines().collect::<Vec<_>>(), want);
            }
            "jsonl" => {
                let rows: Vec<&str> = converted.lines().collect();
                let want: Vec<&str> = [0, 1, 4, 7].iter().map(|&i| rows[i]).collect();
                assert_eq!(selected.lines().collect::<Vec<_>>(), want);
            }
            _ => {
                let games: Vec<&str> = converted.split("\n\n[").collect();
                assert_eq!(games.len(), 8);
                let want = [0, 1, 4, 7].map(|i| games[i]).join("\n\n[");
                assert_eq!(selected, want);
            }
        }
    }
}

#[test]
fn count_output_file_and_exit_status() {
    let (count, code) = select(&[ARCHIVE, "--count", "--event", "кубок"]);
    assert_eq!((count.as_str(), code), ("3\n", 0));
    let (count, code) = select(&[ARCHIVE, "-c", "--event", "no such event"]);
    assert_eq!((count.as_str(), code), ("0\n", 1));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ivanov.pdn");
    pdnkit()
        .args(["select", ARCHIVE, "--white", "Иванов", "-o"])
        .arg(&out)
        .assert()
        .success()
        .stdout("")
        .stderr(predicates::str::contains("2 of 8 games selected"));
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.starts_with("[Event \"Кубок Москвы\"]") && written.contains("0-2\n"));
    // what cannot be read is exit 2, and the -o file is not written
    let missing = dir.path().join("missing.pdn");
    let partial = dir.path().join("partial.pdn");
    pdnkit()
        .args(["select", ARCHIVE])
        .arg(&missing)
        .arg("-o")
        .arg(&partial)
        .assert()
        .code(2);
    assert!(!partial.exists());
    // so is an input that is no PDN (binary), said on stderr; the others are still read
    let binary = dir.path().join("binary.pdn");
    std::fs::write(&binary, [0u8, 1, 2, 3, 0, 0, 0xff, 0xfe].repeat(64)).unwrap();
    pdnkit()
        .args(["select", ARCHIVE, "--count", "--event", "кубок"])
        .arg(&binary)
        .assert()
        .code(2)
        .stdout("3\n")
        .stderr(predicates::str::contains("not-pdn"));
    // the selected games of a pipe, and a game number counted in its input
    pdnkit()
        .args(["select", "-", "--format", "matches", "--result", "0-1"])
        .write_stdin(std::fs::read(ARCHIVE).unwrap())
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "\"path\":\"-\",\"game\":3,\"line\":23",
        ));
}

/// Every position the main line of the generated game `text` reaches (the start, then
/// after each ply), replayed by hand from its moves as written: `None` when a move is
/// ambiguous written alone (the rest of the game would decide it).
fn replayed(text: &str) -> Option<Vec<Position>> {
    let game = Game::parse(text);
    let mut pos = Position::start();
    let mut reached = vec![pos];
    for mv in &game.moves.moves {
        match resolve_token(&pos, &mv.text, None, None).ok()?.resolution {
            Resolution::Unique { mv, .. } => pos.play_unchecked(&mv),
            _ => return None,
        }
        reached.push(pos);
    }
    Some(reached)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// `--position` selects exactly the games whose main line reaches the position, at
    /// the first ply it does, as a replay by hand of the moves finds.
    #[test]
    fn position_agrees_with_a_replay_by_hand(seed in any::<u64>(), pick in any::<u64>()) {
        let mut generator = Generator::new(seed);
        let texts: Vec<String> = (0..4).map(|_| generator.next_game()).collect();
        let reached: Vec<Option<Vec<Position>>> = texts.iter().map(|t| replayed(t)).collect();
        prop_assume!(reached.iter().all(Option::is_some));
        let reached: Vec<Vec<Position>> = reached.into_iter().flatten().collect();
        // a position of one of the games (often shared: the first plies), or of no game
        let mut rng = SplitMix64::new(pick);
        let target = if rng.chance(80) {
            let game = rng.pick(&reached);
            *rng.pick(game)
        } else {
            let other = Generator::new(pick).next_game();
            let positions = replayed(&other).unwrap_or_else(|| vec![Position::start()]);
            *rng.pick(&positions)
        };
        let want: Vec<(u64, Option<u64>)> = (reached.iter().enumerate())
            .filter_map(|(i, r)| {
                let ply = r.iter().position(|p| *p == target)?;
                Some((i as u64 + 1, Some(ply as u64)))
            })
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.pdn");
        std::fs::write(&path, texts.join("\n")).unwrap();
        let fen = target.to_fen(FenStyle::Numeric);
        let got = matches_in(path.to_str().unwrap(), &["--position", &fen]);
        prop_assert_eq!(got, want, "{}", fen);
    }
}

/// `--pattern` and `--material` look at the games of every variant, a pattern's squares
/// read on each game's board in its numbering: `W46` is International's a1, `W:W1` a
/// White man on square 1 of a game numbered from White's side.
#[test]
fn patterns_and_material_of_other_variants() {
    let text = "[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n\
                [GameType \"25\"]\n1. c3-d4 f6-g5 *\n\n\
                [GameType \"20,W,10,10,N1,0\"]\n1. 19-23 33-28 *\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("variants.pdn");
    std::fs::write(&path, text).unwrap();
    let input = path.to_str().unwrap();
    // both sides lose a man at ply 4 of the first game
    assert_eq!(
        matches_in(input, &["--material", "19M v 19M"]),
        [(1, Some(4))]
    );
    assert_eq!(
        matches_in(input, &["--material", "20M v 20M"]),
        [(1, Some(0)), (3, Some(0))]
    );
    assert_eq!(
        matches_in(input, &["--material", "12M v 12M"]),
        [(2, Some(0))]
    );
    // 46 is a White man's square in International's numbering, a Black one's from
    // White's side, and beyond the Russian board
    assert_eq!(matches_in(input, &["--pattern", "W:W46"]), [(1, Some(0))]);
    assert_eq!(matches_in(input, &["--pattern", "W:W1"]), [(3, Some(0))]);
    // the first move of the third game, 32-28 as it numbers it
    assert_eq!(
        matches_in(input, &["--pattern", "B:W23:E19"]),
        [(2, Some(1)), (3, Some(1))]
    );
}

/// `--opening` and `--position` read their squares on each game's board, in its
/// numbering, as `--pattern` does.
#[test]
fn openings_and_positions_of_other_variants() {
    let text = "[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n\
                [GameType \"25\"]\n1. c3-d4 f6-g5 *\n\n\
                [GameType \"20,W,10,10,N1,0\"]\n1. 19-23 32-28 2. 23x32 *\n\n\
                [GameType \"21\"]\n1. 11-15 23-19 *\n\n\
                [GameType \"23\"]\n1. 11-15 23-19 *\n\n\
                [GameType \"21\"]\n1. 11-15 24-19 *\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("variants.pdn");
    std::fs::write(&path, text).unwrap();
    let input = path.to_str().unwrap();
    let games = |args: &[&str]| -> Vec<(u64, Option<u64>)> { matches_in(input, args) };
    // International's first move, numbered from White's side in the third game
    assert_eq!(games(&["--opening", "32-28"]), [(1, Some(1))]);
    assert_eq!(games(&["--opening", "19-23"]), [(3, Some(1))]);
    assert_eq!(
        games(&["--opening", "1. 32-28 19-23 2. 28x19"]),
        [(1, Some(3))]
    );
    assert_eq!(games(&["--opening", "22-18"]), [(2, Some(1))]);
    // English and pool open alike; 24-19 is the sixth game's
    assert_eq!(
        games(&["--opening", "11-15 23-19"]),
        [(4, Some(2)), (5, Some(2))]
    );
    assert_eq!(games(&["--opening", "11-15 24-19"]), [(6, Some(2))]);
    // the position after International's 32-28 19-23: in the N1 game it is written
    // 19-23 32-28, the same squares as the players see them
    let after = "W:W28,31,33-50:B1-18,20,23";
    assert_eq!(games(&["--position", after]), [(1, Some(2))]);
    let n1 = "W:W1-18,20,23:B28,31,33-50";
    assert_eq!(games(&["--position", n1]), [(3, Some(2))]);
    // English after 11-15: Black moved first, White to move
    let english = "W:W21-32:B1-10,12,15";
    assert_eq!(
        games(&["--position", english]),
        [(4, Some(1)), (5, Some(1)), (6, Some(1))]
    );
    // Spanish men start on 1-12 (a Russian crowning row): a position all the same
    let spanish = "[GameType \"24\"]\n1. 9-13 *\n";
    let path2 = dir.path().join("spanish.pdn");
    std::fs::write(&path2, spanish).unwrap();
    let spanish = path2.to_str().unwrap();
    let start = ["--position", "W:W1-12:B21-32"];
    assert_eq!(matches_in(spanish, &start), [(1, Some(0))]);
    let after = ["--position", "B:W1-8,10-13:B21-32", "--at", "end"];
    assert_eq!(matches_in(spanish, &after), [(1, Some(1))]);
    // an opening legal in no variant is a usage error, with the reason
    let out = pdnkit()
        .args(["select", input, "--opening", "c3-e5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("illegal"));
}
