//! `pdnkit convert` and `pdnkit show`: CSV, JSONL and PDN output, round trips on our
//! fixtures and on ../shared/corpus (skipped when absent), atomic -o, and positions.

#[path = "../fuzz/src/annotations.rs"]
mod annotations;
mod common;
#[path = "../fuzz/src/records.rs"]
mod records;

use annotations::{GameItems, Item};
use assert_cmd::Command;
use pdnkit::check::CheckOptions;
use pdnkit::convert::csv::GAME_COLUMNS;
use pdnkit::convert::pdn::PdnOptions;
use pdnkit::convert::{CANONICAL, Converter, Format, convert_reader};
use pdnkit::pdn::{Annotation, CommentKind, Line, MoveCount, ReaderOptions};
use pdnkit::rules::notation::{CaptureSeparator, CaptureStyle, SquareStyle, Style};
use records::GameRecord;
use std::path::{Path, PathBuf};

const RICH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/convert/rich.pdn");
const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/example.pdn");
const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus");

fn pdnkit() -> Command {
    Command::cargo_bin("pdnkit").unwrap()
}

/// The output of a command that converts what it reads (exit 0, or 1 when some game is
/// unparsed or skipped: the fixtures have such games on purpose).
fn run_ok(args: &[&str]) -> String {
    let out = pdnkit().args(args).arg("-q").output().unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn csv_rows(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r
        .records()
        .map(|rec| rec.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

fn cell<'a>(header: &[String], row: &'a [String], name: &str) -> &'a str {
    let i = header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name}"));
    &row[i]
}

#[test]
fn csv_columns_quoting_dates_and_status() {
    let out = run_ok(&["convert", RICH, "--to", "csv", "--tags", "Opening"]);
    // RFC 4180: a value with quotes and commas is quoted, quotes doubled; CRLF rows
    assert!(
        out.contains(r#","Cup ""Autumn"", final","Kazan, RU","#),
        "{out}"
    );
    assert!(out.contains("\r\n"));
    let (header, rows) = csv_rows(&out);
    let want = [
        "path",
        "game",
        "event",
        "site",
        "date",
        "date_raw",
        "round",
        "white",
        "black",
        "result",
        "score",
        "gametype",
        "variant",
        "fen",
        "plies",
        "moves",
        "final_fen",
        "status",
        "first_error",
        "draw_basis",
        "tag:Opening",
    ];
    assert_eq!(header, want);
    assert_eq!(rows.len(), 5);
    let g1 = &rows[0];
    assert_eq!(cell(&header, g1, "event"), "Cup \"Autumn\", final");
    assert_eq!(cell(&header, g1, "date"), "1965-01-01");
    assert_eq!(cell(&header, g1, "date_raw"), "1.1.1965");
    assert_eq!(cell(&header, g1, "plies"), "9");
    // White's score as a number: 1, 0.5, 0, or empty when the result is unknown
    let scores: Vec<&str> = rows.iter().map(|r| cell(&header, r, "score")).collect();
    assert!(
        scores.iter().all(|s| ["1", "0.5", "0", ""].contains(s)),
        "{scores:?}"
    );
    assert_eq!(scores[0], "1");
    assert_eq!(
        cell(&header, g1, "moves"),
        "c3-d4 f6-g5 b2-c3 g5-h4 c3-b4 g7-f6 d4-c5 b6:d4 e3:c5"
    );
    assert_eq!(cell(&header, g1, "status"), "ok");
    // a tag written twice: both values, one per line (a newline inside a quoted cell)
    assert_eq!(cell(&header, g1, "tag:Opening"), "Kol\nKol, \"main\" line");
    assert_eq!(
        cell(&header, &rows[1], "date"),
        "2004-10-27/2004-11-01",
        "a range is an ISO interval"
    );
    assert_eq!(cell(&header, &rows[2], "date"), "2024-12-14");
    assert_eq!(
        cell(&header, &rows[2], "moves"),
        "c3-d4 f6-e5 d4:f6 g7:e5",
        "numeric moves in canonical notation"
    );
    assert_eq!(cell(&header, &rows[3], "date"), "");
    assert_eq!(cell(&header, &rows[3], "date_raw"), "?");
    assert_eq!(cell(&header, &rows[3], "status"), "illegal");
    assert_eq!(cell(&header, &rows[3], "first_error"), "M101@3");
    assert_eq!(cell(&header, &rows[4], "status"), "unparsed");
    assert_eq!(cell(&header, &rows[4], "first_error"), "P102");

    // draw basis
    let out = run_ok(&["convert", EXAMPLE, "--to", "csv"]);
    let (header, rows) = csv_rows(&out);
    assert_eq!(
        cell(&header, &rows[2], "draw_basis"),
        "rule 6.1.8.6 at ply 10"
    );
    assert_eq!(
        cell(&header, &rows[0], "final_fen"),
        "B:W14,17,21,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,10,11,12,20"
    );
}

#[test]
fn csv_tags_all_is_the_union_in_first_seen_order() {
    let want = [
        "tag:Event",
        "tag:Site",
        "tag:Date",
        "tag:Round",
        "tag:White",
        "tag:Black",
        "tag:Result",
        "tag:Opening",
        "tag:FEN",
        "tag:WhiteElo",
        "tag:GameType",
    ];
    let out = run_ok(&["convert", RICH, EXAMPLE, "--to", "csv", "--tags", "all"]);
    let (header, rows) = csv_rows(&out);
    assert_eq!(&header[GAME_COLUMNS.len()..], want);
    assert_eq!(rows.len(), 8);
    assert_eq!(cell(&header, &rows[2], "tag:WhiteElo"), "2400");
    assert_eq!(cell(&header, &rows[0], "tag:WhiteElo"), "");
    // the same from standard input (read twice through a temporary file)
    let out = pdnkit()
        .args(["convert", "--to", "csv", "--tags", "all", "-q"])
        .write_stdin(std::fs::read(RICH).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "rich.pdn has unparsed games");
    let (header, rows) = csv_rows(std::str::from_utf8(&out.stdout).unwrap());
    assert_eq!(&header[GAME_COLUMNS.len()..], want);
    assert_eq!(cell(&header, &rows[0], "path"), "-");
}

#[test]
fn tags_all_does_not_write_nothing_when_one_game_or_file_is_unreadable() {
    // a game over --max-game-bytes, a binary file and an oversized stretch of text between
    // games: the pass that gathers tag names goes on past each, with the same limits, and
    // the game after the stretch is read (the stretch is too large to be its prefix)
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.pdn");
    let big = format!("{{{}}}", "x".repeat(3000));
    std::fs::write(
        &a,
        format!(
            "[Event \"one\"]\n1. c3-d4 *\n\n[Event \"big\"][Opening \"x\"]\n1. c3-d4 {big} *\n\n\
             {big}\n\n[Event \"two\"][Annotator \"y\"]\n1. c3-d4 *\n"
        ),
    )
    .unwrap();
    let b = dir.path().join("b.pdn");
    std::fs::write(&b, [0u8, 1, 2, 3, 0, 0, 0, 7, 8, 0, 0, 0, 0, 1, 2, 3]).unwrap();
    let out = pdnkit()
        .args([
            "convert",
            "--to",
            "csv",
            "--tags",
            "all",
            "--max-game-bytes",
            "2000",
        ])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let (header, rows) = csv_rows(std::str::from_utf8(&out.stdout).unwrap());
    // (the tags of the game skipped are read before it is found too large: their column
    // is there, empty in its row, which says only that it was skipped)
    assert_eq!(
        &header[GAME_COLUMNS.len()..],
        ["tag:Event", "tag:Opening", "tag:Annotator"]
    );
    let events: Vec<_> = rows.iter().map(|r| cell(&header, r, "event")).collect();
    assert_eq!(events, ["one", "", "two"]);
    assert_eq!(cell(&header, &rows[1], "status"), "skipped");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("b.pdn:1:1: binary data"), "{stderr}");
    assert!(stderr.contains("1 skipped, 1 not read"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn tags_all_reads_a_fifo_or_a_pipe_only_once() {
    // `convert <(cat a.pdn) --tags all` wrote only the header, and a named FIFO hung: what
    // cannot be read twice is spooled
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("games.pdn");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("note: mkfifo is not available; the FIFO case is not tested");
        return;
    }
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, std::fs::read(EXAMPLE).unwrap()))
    };
    let out = pdnkit()
        .args(["convert", "--to", "csv", "--tags", "all", "-q"])
        .arg(&fifo)
        .timeout(std::time::Duration::from_secs(30))
        .output()
        .unwrap();
    writer.join().unwrap().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (header, rows) = csv_rows(std::str::from_utf8(&out.stdout).unwrap());
    let whole = run_ok(&["convert", EXAMPLE, "--to", "csv", "--tags", "all"]);
    let (want_header, want_rows) = csv_rows(&whole);
    assert_eq!(header, want_header);
    assert_eq!(rows.len(), want_rows.len());
    assert!(!rows.is_empty());
    // named as given, not as the temporary copy
    assert_eq!(cell(&header, &rows[0], "path"), fifo.to_str().unwrap());
}

#[test]
fn csv_per_move_capture_and_promotion() {
    let out = run_ok(&["convert", RICH, "--to", "csv", "--per-move"]);
    let (header, rows) = csv_rows(&out);
    assert_eq!(
        header,
        [
            "path",
            "game",
            "ply",
            "move_number",
            "side",
            "written",
            "move",
            "from",
            "to",
            "captured",
            "captures",
            "promotes",
            "fen_after"
        ]
    );
    let g2: Vec<_> = rows.iter().filter(|r| r[1] == "2").collect();
    assert_eq!(g2.len(), 3);
    assert_eq!(
        &g2[0][2..],
        [
            "1",
            "1",
            "white",
            "d6:f8",
            "d6:f8",
            "d6",
            "f8",
            "e7",
            "1",
            "true",
            "B:WK3,32:B21"
        ]
    );
    assert_eq!(g2[1][6], "a3-b2");
    assert_eq!(g2[1][11], "false");
    // per-move rows of the numeric game, in numeric notation
    let out = run_ok(&[
        "convert",
        RICH,
        "--to",
        "csv",
        "--per-move",
        "--notation",
        "numeric",
        "--separator",
        "x",
    ]);
    let (_, rows) = csv_rows(&out);
    let g3: Vec<_> = rows.iter().filter(|r| r[1] == "3").collect();
    assert_eq!(g3[2][5..10], ["18x11", "18x11", "18", "11", "15"]);
    // an illegal game: only the plies before the illegal move
    assert_eq!(rows.iter().filter(|r| r[1] == "4").count(), 2);
}

/// Every comment, variation, NAG and setup command of a line, counted.
fn census(line: &Line, c: &mut [usize; 4]) {
    let annotations = (line.moves.iter())
        .flat_map(|m| m.before().iter().chain(m.after()))
        .chain(&line.trailing);
    annotations.for_each(|a| census_of(a, c));
}

fn census_of(a: &Annotation, c: &mut [usize; 4]) {
    match a {
        Annotation::Comment(_) => c[0] += 1,
        Annotation::Variation(v) => {
            c[1] += 1;
            census(v, c);
        }
        Annotation::Nag(_) => c[2] += 1,
        Annotation::Setup(_) => c[3] += 1,
    }
}

/// JSONL keeps the whole tree: rebuilt games equal the parsed ones.
fn check_jsonl_keeps_everything(pdn: &str, jsonl: &str) -> [usize; 4] {
    let games = common::games(pdn);
    let records: Vec<GameRecord> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), games.len());
    let mut total = [0; 4];
    for (rec, mut game) in records.iter().zip(games) {
        game.normalize();
        let rebuilt = rec.to_game();
        // (the object holds a name's values together, in the order its name was first
        // written)
        let mut grouped: Vec<_> = game.tags.clone();
        let first = |name: &str| game.tags.iter().position(|t| t.name == name);
        grouped.sort_by_key(|t| first(&t.name));
        assert_eq!(rebuilt.tags, grouped, "game {}", rec.game);
        assert_eq!(rebuilt.moves, game.moves, "game {}", rec.game);
        assert_eq!(
            rebuilt.result.map(|r| r.raw),
            game.result.map(|r| r.raw),
            "game {}",
            rec.game
        );
        assert_eq!(rebuilt.before_tags, game.before_tags, "game {}", rec.game);
        game.before_tags
            .iter()
            .for_each(|a| census_of(a, &mut total));
        census(&game.moves, &mut total);
    }
    total
}

#[test]
fn jsonl_keeps_every_tag_comment_variation_and_nag() {
    let out = run_ok(&["convert", RICH, "--to", "jsonl"]);
    let pdn = std::fs::read_to_string(RICH).unwrap();
    let [comments, variations, nags, _] = check_jsonl_keeps_everything(&pdn, &out);
    assert_eq!((comments, variations, nags), (5, 2, 3));
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    // nine tags, Opening written twice: its two values in a list
    assert_eq!(first["tags"].as_object().unwrap().len(), 8);
    assert_eq!(
        first["tags"]["Opening"],
        serde_json::json!(["Kol", "Kol, \"main\" line"])
    );
    assert_eq!(first["score"], 1);
    assert_eq!(first["schema"], "pdnkit-game/1");
    assert_eq!(first["status"], "ok");
    assert_eq!(first["date"], "1965-01-01");
    // what follows a move, in the order written: `$1 {A quiet start} (1... f6-e5 …)`
    let after = &first["moves"][1]["after"];
    assert_eq!(after[0], serde_json::json!({"type": "nag", "nag": 1}));
    assert_eq!(
        after[1],
        serde_json::json!({"type": "comment", "kind": "brace", "text": "A quiet start"})
    );
    assert_eq!(after[2]["type"], "variation");
    // a variation's moves are resolved too: 1... f6-e5 2. d4:f6 g7:e5
    let v = &after[2]["moves"];
    assert_eq!(v[1]["resolved"]["move"], "d4:f6");
    assert_eq!(v[1]["resolved"]["captured"], serde_json::json!(["e5"]));
    assert_eq!(v[1]["resolved"]["move_number"], 2);
    assert!(v[1]["resolved"].get("ply").is_none());
    assert_eq!(
        v[2]["after"][0],
        serde_json::json!({"type": "nag", "nag": 2})
    );
    // the nested variation (2... e7:g5) replaces g7:e5
    let nested = &v[2]["after"][1]["moves"][0];
    assert_eq!(nested["text"], "e7:g5");
    assert_eq!(nested["resolved"]["captured"], serde_json::json!(["f6"]));
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let promo = &lines[1]["moves"][0]["resolved"];
    assert_eq!(promo["promotes"], true);
    assert_eq!(promo["fen_after"], "B:WK3,32:B21");
    assert_eq!(lines[3]["status"], "illegal");
    assert_eq!(lines[3]["first_error"], "M101@3");
    assert!(
        lines[3]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "M101" && d["ply"] == 3 && d["move"] == "b2-c3")
    );
    assert!(lines[3]["moves"][2].get("resolved").is_none());
    let ex = run_ok(&["convert", EXAMPLE, "--to", "jsonl"]);
    let third: serde_json::Value = serde_json::from_str(ex.lines().nth(2).unwrap()).unwrap();
    assert_eq!(
        third["draw_basis"],
        serde_json::json!({"kind": "rule", "rule": "6.1.8.6", "ply": 10})
    );
}

fn fixture_files() -> Vec<PathBuf> {
    pdn_files_under(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"))
}

/// The `*.pdn` files (any case) below `root`, sorted.
fn pdn_files_under(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pdn")) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// `text` converted as `convert` converts it.
fn convert_with(name: &str, text: &[u8], format: Format, style: Style) -> String {
    let converter = Converter::new(format, style);
    let mut out = Vec::new();
    convert_reader(name, text, &converter, &CheckOptions::default(), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn convert_text(text: &str, style: Style) -> String {
    convert_with(
        "t.pdn",
        text.as_bytes(),
        Format::Pdn(PdnOptions::default()),
        style,
    )
}

fn numeric_full_cross() -> Style {
    Style {
        squares: SquareStyle::Numeric,
        captures: CaptureStyle::Full,
        separator: CaptureSeparator::Cross,
    }
}

/// PDN → PDN → PDN is a fixed point; algebraic → numeric → algebraic gives the same text.
fn check_round_trips(name: &str, text: &str) {
    let canonical = CANONICAL;
    let a = convert_text(text, canonical);
    assert_eq!(convert_text(&a, canonical), a, "{name}: not a fixed point");
    let n = convert_text(&a, numeric_full_cross());
    assert_eq!(
        convert_text(&n, canonical),
        a,
        "{name}: numeric -> algebraic differs"
    );
    assert_eq!(
        convert_text(&convert_text(&n, canonical), numeric_full_cross()),
        n,
        "{name}: algebraic -> numeric differs"
    );
}

#[test]
fn round_trips_on_fixtures_through_the_cli() {
    for f in fixture_files() {
        let f = f.to_str().unwrap();
        let a = run_ok(&["convert", f, "--to", "pdn"]);
        let again = pdnkit()
            .args(["convert", "--to", "pdn", "-q"])
            .write_stdin(a.clone())
            .output()
            .unwrap();
        assert_eq!(String::from_utf8(again.stdout).unwrap(), a, "{f}");
        let n = pdnkit()
            .args([
                "convert",
                "--to",
                "pdn",
                "-q",
                "--notation",
                "numeric",
                "--captures",
                "full",
                "--separator",
                "x",
            ])
            .write_stdin(a.clone())
            .output()
            .unwrap();
        let back = pdnkit()
            .args(["convert", "--to", "pdn", "-q"])
            .write_stdin(n.stdout)
            .output()
            .unwrap();
        assert_eq!(String::from_utf8(back.stdout).unwrap(), a, "{f}");
        // (a fixture in CP1251: its games decoded as lint decodes them)
        let text = String::from_utf8(std::fs::read(f).unwrap()).unwrap_or_else(|e| {
            common::games_with_text(e.as_bytes())
                .into_iter()
                .map(|(_, text)| text + "\n\n")
                .collect()
        });
        check_round_trips(f, &text);
        check_jsonl_keeps_everything(&text, &run_ok(&["convert", f, "--to", "jsonl"]));
    }
}

#[test]
fn pdn_output_options() {
    let full = run_ok(&[
        "convert",
        RICH,
        "--to",
        "pdn",
        "--notation",
        "numeric",
        "--captures",
        "full",
        "--separator",
        "x",
    ]);
    assert!(
        full.contains("[Event \"Cup \\\"Autumn\\\", final\"]"),
        "{full}"
    );
    assert!(full.contains(
        "1. 22-18 11-16 $1 {A quiet start} ( 1... 11-15 2. 18x11 8x15\n$2 ( 2... 7x16 )"
    ));
    assert!(full.contains("1. 10x3 21-25 2. 3-21 1-0"), "{full}");
    // an illegal game is written with its moves as written
    assert!(full.contains("1. c3-d4 f6-e5 2. b2-c3 {overlooks d4:f6} 2... e5:c3 0-1"));
    // a game with syntax errors is written through verbatim
    assert!(full.contains("1. c3-d4 f6-g5 ) 2. b2-c3 @@ *"));
    let stripped = run_ok(&[
        "convert",
        RICH,
        "--to",
        "pdn",
        "--strip",
        "comments,variations",
        "--strip",
        "nags",
    ]);
    let first = stripped.split("\n\n").nth(1).unwrap();
    assert_eq!(
        first,
        "1. c3-d4 f6-g5 2. b2-c3?! g5-h4 3. c3-b4 g7-f6 4. d4-c5 b6:d4 5. e3:c5 1-0"
    );
    // short captures: intermediate squares only where needed (PDN 3.0)
    let amb = "[FEN \"W:We1:Bd2,f2,d4,f4,f6,a7\"]\n1. e1:c3:e5:g7 *\n";
    for (captures, want) in [("short", "1. e1:c3:g7 *"), ("full", "1. e1:c3:e5:g7 *")] {
        pdnkit()
            .args(["convert", "--to", "pdn", "-q", "--captures", captures])
            .write_stdin(amb)
            .assert()
            .success()
            .stdout(predicates::str::contains(want));
    }
    // usage errors
    pdnkit()
        .args(["convert", RICH, "--to", "jsonl", "--per-move"])
        .assert()
        .code(2);
    pdnkit()
        .args(["convert", RICH, "--to", "csv", "--strip", "nags"])
        .assert()
        .code(2);
}

#[test]
fn exit_codes() {
    let code = |args: &[&str]| {
        pdnkit()
            .args(args)
            .arg("-q")
            .output()
            .unwrap()
            .status
            .code()
    };
    // the example's illegal game is converted as far as it replays: in full
    assert_eq!(code(&["convert", EXAMPLE, "--to", "csv"]), Some(0));
    assert_eq!(
        code(&["convert", EXAMPLE, "--to", "csv", "--strict"]),
        Some(1)
    );
    // rich.pdn has unparsed games: not converted in full, which a script must notice
    assert_eq!(code(&["convert", RICH, "--to", "csv"]), Some(1));
    assert_eq!(
        code(&["convert", RICH, "--to", "csv", "--exit-zero"]),
        Some(0)
    );
    assert_eq!(
        code(&["convert", RICH, "--to", "csv", "--exit-zero", "--strict"]),
        Some(2)
    );
    assert_eq!(
        code(&[
            "convert",
            "--to",
            "csv",
            "--exit-zero",
            "/nonexistent/x.pdn"
        ]),
        Some(2)
    );
}

#[test]
fn a_game_too_large_to_read_is_not_dropped_while_convert_exits_0() {
    // a game over the size limit is skipped with an error; it still has its record (status
    // `skipped`, the reason), the run exits 1, and the games after it are converted
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.pdn");
    let mut text = common::game_too_large_to_read();
    text.push_str("[Event \"small\"]\n1. c3-d4 *\n");
    std::fs::write(&input, text).unwrap();
    let convert = |to: &str, more: &[&str]| {
        let mut cmd = pdnkit();
        cmd.args(["convert", "--to", to]).args(more).arg(&input);
        cmd.output().unwrap()
    };
    for strict in [&[][..], &["--strict"]] {
        let out = convert("csv", strict);
        assert_eq!(out.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(":1:1: game larger than"), "{stderr}");
        assert!(
            stderr.contains("(1 ok, 0 illegal, 0 unparsed, 1 skipped)"),
            "{stderr}"
        );
        let (header, rows) = csv_rows(&String::from_utf8(out.stdout).unwrap());
        assert_eq!(rows.len(), 2);
        assert_eq!(cell(&header, &rows[0], "game"), "1");
        assert_eq!(cell(&header, &rows[0], "status"), "skipped");
        assert_eq!(cell(&header, &rows[0], "first_error"), "P107");
        assert_eq!(cell(&header, &rows[1], "event"), "small");
    }
    let out = convert("jsonl", &[]);
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["game"], 1);
    assert_eq!(lines[0]["status"], "skipped");
    assert!(lines[0]["reason"].as_str().unwrap().contains("larger than"));
    assert_eq!(convert("jsonl", &["--exit-zero"]).status.code(), Some(0));
    // text outside any game is a warning: nothing of a game is left out
    std::fs::write(&input, "{ never closed\n[Event \"x\"]\n1. c3-d4 *\n").unwrap();
    let out = convert("csv", &["--strict"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[cfg(unix)]
#[test]
fn output_to_a_link_or_a_fifo_writes_through_it() {
    // renaming a finished file over the target would replace a link, a FIFO or a device
    // (as root, /dev/null itself); they are written through
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.csv");
    std::fs::write(&real, "old\n").unwrap();
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    pdnkit()
        .args(["convert", "--to", "csv", "-q", "-o"])
        .arg(&link)
        .arg(EXAMPLE)
        .assert()
        .success();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&real)
            .unwrap()
            .starts_with("path,game,")
    );

    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("note: mkfifo is not available; the FIFO case is not checked");
        return;
    }
    // the reader is `cat` under a time limit, so that a FIFO replaced by a file (nothing
    // ever written to it) fails the test instead of hanging it
    let reader = std::process::Command::new("timeout")
        .arg("20")
        .arg("cat")
        .arg(&fifo)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    pdnkit()
        .args(["convert", "--to", "csv", "-q", "-o"])
        .arg(&fifo)
        .arg(EXAMPLE)
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .success();
    let read = String::from_utf8(reader.wait_with_output().unwrap().stdout).unwrap();
    assert_eq!(read.lines().count(), 4, "{read}");
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 3, "no temporary file left");
}

#[test]
fn output_file_is_atomic_and_never_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.pdn");
    std::fs::copy(EXAMPLE, &input).unwrap();
    let out = dir.path().join("out.csv");
    pdnkit()
        .args(["convert", "--to", "csv", "-q", "-o"])
        .arg(&out)
        .arg(&input)
        .assert()
        .success()
        .stdout("");
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.starts_with("path,game,"));
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "no temporary file left: {names:?}");

    // overwriting an input (also found through a directory) is refused
    let before = std::fs::read(&input).unwrap();
    for target in [input.clone(), dir.path().join(".").join("in.pdn")] {
        pdnkit()
            .args(["convert", "--to", "pdn", "-q", "-o"])
            .arg(&target)
            .arg(dir.path())
            .assert()
            .code(2)
            .stderr(predicates::str::contains("refusing to overwrite"));
    }
    assert_eq!(std::fs::read(&input).unwrap(), before);

    // an unreadable input: exit 2 and the old output is left as it was
    pdnkit()
        .args(["convert", "--to", "jsonl", "-q", "-o"])
        .arg(&out)
        .arg(&input)
        .arg(dir.path().join("missing.pdn"))
        .assert()
        .code(2);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), written);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

/// `convert --to csv -q -o OUT EXAMPLE`, which must succeed.
fn convert_to(out: &Path) {
    pdnkit()
        .args(["convert", "--to", "csv", "-q", "-o"])
        .arg(out)
        .arg(EXAMPLE)
        .assert()
        .success();
}

#[cfg(unix)]
#[test]
fn output_file_keeps_the_mode_and_owner_of_the_file_it_replaces() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = tempfile::tempdir().unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
    let set_mode =
        |p: &Path, m: u32| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
    // a private file stays private, a read-only one read-only (the folder is writable:
    // the file is replaced, not written into)
    for m in [0o600, 0o444, 0o640, 0o755] {
        let out = dir.path().join(format!("out-{m:o}.csv"));
        std::fs::write(&out, "old\n").unwrap();
        set_mode(&out, m);
        convert_to(&out);
        assert!(
            std::fs::read_to_string(&out)
                .unwrap()
                .starts_with("path,game,")
        );
        assert_eq!(mode(&out), m, "{m:o}");
    }
    // through a link: the file it names is replaced, with its mode, and the link stays
    let real = dir.path().join("real.csv");
    std::fs::write(&real, "old\n").unwrap();
    set_mode(&real, 0o600);
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink("real.csv", &link).unwrap();
    convert_to(&link);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&real)
            .unwrap()
            .starts_with("path,game,")
    );
    assert_eq!(mode(&real), 0o600);
    // a link to a file not there yet: the file is made where it points, as `>` does
    let dangling = dir.path().join("dangling.csv");
    std::os::unix::fs::symlink("made.csv", &dangling).unwrap();
    convert_to(&dangling);
    assert!(
        std::fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(dir.path().join("made.csv"))
            .unwrap()
            .starts_with("path,game,")
    );
    // the owner, where the system allows it (root may give a file away)
    let owned = dir.path().join("owned.csv");
    std::fs::write(&owned, "old\n").unwrap();
    if std::os::unix::fs::chown(&owned, Some(4321), Some(4321)).is_ok() {
        convert_to(&owned);
        let m = std::fs::metadata(&owned).unwrap();
        assert_eq!((m.uid(), m.gid()), (4321, 4321));
    }
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
    assert!(
        names
            .iter()
            .all(|e| !e.file_name().to_string_lossy().ends_with(".tmp")),
        "a temporary file was left"
    );
}

#[test]
fn output_file_with_a_255_byte_name_is_written() {
    // the longest name a file may have: the temporary file beside it has a short name
    let dir = tempfile::tempdir().unwrap();
    let name = format!("{}.csv", "é".repeat(125) + "n");
    assert_eq!(name.len(), 255);
    let out = dir.path().join(&name);
    convert_to(&out);
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .starts_with("path,game,")
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn output_errors_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    // a folder that is not there, and a name longer than a file's may be
    for out in [
        dir.path().join("missing").join("out.csv"),
        dir.path().join("x".repeat(300)),
    ] {
        let shown = out.display().to_string();
        pdnkit()
            .args(["convert", "--to", "csv", "-q", "-o"])
            .arg(&out)
            .arg(EXAMPLE)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(format!("cannot write {shown}")));
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn show_formats_plies_and_defaults() {
    // default: the last position of the first game
    let ascii = run_show(&[EXAMPLE]);
    assert!(
        ascii.starts_with("game 1, after ply 9: 5. e3:c5\n"),
        "{ascii}"
    );
    assert!(ascii.contains(" 5 | .    [w]"), "{ascii}");
    assert!(ascii.contains(" 3 | w     .    [.]"), "{ascii}");
    assert!(ascii.contains("black to move"));
    let fen = run_show(&[EXAMPLE, "--format", "fen"]);
    assert_eq!(
        fen,
        "B:W14,17,21,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,10,11,12,20\n"
    );
    // a given ply; 0 is the start
    assert_eq!(
        run_show(&[EXAMPLE, "--ply", "1", "--format", "fen"]),
        "B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n"
    );
    assert_eq!(
        run_show(&[EXAMPLE, "--game", "3", "--ply", "0", "--format", "fen"]),
        "W:WK30,K31:BK4\n"
    );
    let svg = run_show(&[RICH, "--game", "2", "--ply", "1", "--format", "svg"]);
    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(svg.contains("arrowhead"));
    assert!(svg.trim_end().ends_with("</svg>"));
    // out of range
    pdnkit()
        .args(["show", EXAMPLE, "--ply", "10"])
        .assert()
        .code(2);
    pdnkit()
        .args(["show", EXAMPLE, "--game", "4"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("has 3 games"));
}

#[test]
fn show_the_position_before_an_illegal_move() {
    // game 2 of example.pdn: 2. b2-c3 is illegal (d4:f6 is forced)
    let ascii = run_show(&[EXAMPLE, "--game", "2"]);
    assert!(
        ascii.starts_with("game 2, after ply 2: 1... f6-e5\n"),
        "{ascii}"
    );
    assert!(ascii.contains("white to move"));
    assert!(ascii.contains("next: M101 illegal-move"), "{ascii}");
    let fen = run_show(&[EXAMPLE, "--game", "2", "--format", "fen"]);
    assert_eq!(
        fen,
        "W:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15\n"
    );
    pdnkit()
        .args(["show", EXAMPLE, "--game", "2", "--ply", "3"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("M101"));
    // lint --format full points to that command
    pdnkit()
        .args(["lint", EXAMPLE, "--format", "full", "--color", "never"])
        .assert()
        .code(1)
        .stdout(predicates::str::contains("--game 2 --ply 2"));
}

fn run_show(args: &[&str]) -> String {
    let out = pdnkit().arg("show").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The corpus: round trips and JSONL, in process (800 files). Skipped without it.
#[test]
fn round_trips_on_the_corpus() {
    let root = Path::new(CORPUS);
    if !root.is_dir() {
        eprintln!("note: {CORPUS} not found; corpus round trips skipped");
        return;
    }
    let files = pdn_files_under(root);
    let mut games = 0;
    for f in &files {
        // decoded as lint decodes it (cp1251 and friends detected)
        let bytes = std::fs::read(f).unwrap();
        let text: String = common::games_with_text(&bytes)
            .into_iter()
            .map(|(_, text)| text + "\n\n")
            .collect();
        let name = f.display().to_string();
        check_round_trips(&name, &text);
        let jsonl = convert_with(
            &name,
            text.as_bytes(),
            Format::Jsonl,
            pdnkit::convert::CANONICAL,
        );
        check_jsonl_keeps_everything(&text, &jsonl);
        games += jsonl.lines().count();
    }
    assert!(games > 100, "{games} games");
}

/// `text` through `pdnkit convert --to pdn`.
fn pdn_of(text: &str) -> String {
    let out = pdnkit()
        .args(["convert", "--to", "pdn", "-q", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// PDN output wrote a move's comments before its variations and its NAGs before its
/// comments, whatever order they were written in.
#[test]
fn comments_nags_and_variations_are_not_regrouped() {
    assert_eq!(
        pdn_of("1. c3-d4 (1. c3-b4 b6-a5) {after var} f6-g5 $1 {c} $2 *"),
        "1. c3-d4 ( 1. c3-b4 b6-a5 ) {after var} 1... f6-g5 $1 {c} $2 *\n"
    );
    // a variation after a setup command, a move number and a comment: all before it
    assert_eq!(
        pdn_of("1. c3-d4 f6-g5 /FEN \"W:Wc3:Bd6\"/ 2. {n} (1... f6-e5) c3-b4 *"),
        "1. c3-d4 f6-g5 /FEN \"W:Wc3:Bd6\"/ {n} ( 1... f6-e5 ) 2. c3-b4 *\n"
    );
}

/// PDN output wrote a `%` escape line before a game's tags after them.
#[test]
fn an_escape_line_before_the_tags_stays_before_them() {
    assert_eq!(
        pdn_of("% written by X\n[Event \"E\"]\n% between\n[Date \"2012.02.01\"]\n1. c3-d4 *\n"),
        "% written by X\n[Event \"E\"]\n[Date \"2012.02.01\"]\n\n% between\n1. c3-d4 *\n"
    );
}

/// The items of every game of `bytes` that PDN output must keep.
fn items_of(bytes: &[u8]) -> Vec<GameItems> {
    annotations::read_items(bytes, ReaderOptions::default(), MoveCount(0))
        .into_iter()
        .map(|(_, items)| items)
        .collect()
}

/// `want` and `got` equal, or a panic that shows where they part.
fn same_items(want: &[Item], got: &[Item], what: &str) {
    if want != got {
        let k = (want.iter().zip(got))
            .position(|(a, b)| a != b)
            .unwrap_or(want.len().min(got.len()));
        let around = |items: &[Item]| items[k.saturating_sub(3)..(k + 3).min(items.len())].to_vec();
        panic!(
            "{what}: item {k} differs ({} items read, {} written):\n{:?}\n{:?}",
            want.len(),
            got.len(),
            around(want),
            around(got)
        );
    }
}

/// Every corpus file through `convert --to pdn` (in process): the output has every game's
/// tags, and its comments (escape lines too), NAGs, setup commands, variations and moves
/// in the order the file has them, as the reader's events show them; and converting the
/// output again changes nothing. Skipped without the corpus.
#[test]
fn pdn_output_keeps_the_order_of_annotations_on_the_corpus() {
    let root = Path::new(CORPUS);
    if !root.is_dir() {
        eprintln!("note: {CORPUS} not found; the order of annotations is not checked on it");
        return;
    }
    let canonical = PdnOptions::default();
    let (mut files, mut games) = (0, 0);
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for f in pdn_files_under(root) {
        let bytes = std::fs::read(&f).unwrap();
        let name = f.display().to_string();
        let out = convert_with(&name, &bytes, Format::Pdn(canonical), CANONICAL);
        let (read, written) = (items_of(&bytes), items_of(out.as_bytes()));
        assert_eq!(written.len(), read.len(), "{name}: games read and written");
        for (k, (want, got)) in read.iter().zip(&written).enumerate() {
            assert_eq!(got.tags, want.tags, "{name}, game {}: tags", k + 1);
            same_items(&want.items, &got.items, &format!("{name}, game {}", k + 1));
            for (i, item) in want.items.iter().enumerate() {
                let kind = match item {
                    Item::Comment(CommentKind::Percent, _)
                        if want.items.get(i + 1) == Some(&Item::Tags) =>
                    {
                        "escape line before the tags"
                    }
                    Item::Comment(CommentKind::Percent, _) => "escape line",
                    Item::Comment(..) => "comment",
                    Item::Nag(_) => "NAG",
                    Item::VariationStart => "variation",
                    Item::Setup(_) => "setup",
                    Item::Move(marks) if !marks.is_empty() => "strength mark",
                    _ => continue,
                };
                *seen.entry(kind).or_default() += 1;
            }
        }
        assert_eq!(
            convert_with(&name, out.as_bytes(), Format::Pdn(canonical), CANONICAL),
            out,
            "{name}: not a fixed point"
        );
        files += 1;
        games += read.len();
    }
    eprintln!("{files} files, {games} games: {seen:?}");
    // (the corpus has every kind: else the test would not show that it is kept)
    for kind in [
        "comment",
        "escape line before the tags",
        "NAG",
        "variation",
        "strength mark",
    ] {
        assert!(
            seen.get(kind).is_some_and(|&n| n > 0),
            "no {kind} in the corpus: {seen:?}"
        );
    }
    assert!(games > 1000, "{games} games");
}

/// JSON escapes text wherever text goes, and writes every shape of annotation.
#[test]
fn jsonl_escapes_text_and_writes_every_annotation() {
    let text = b"% before the tags\n[Event \"back\\\\slash \\\"q\\\" \t tab \x01\"]\n[Site \"\xd0\x9a\xd0\xb0\xd0\xb7\xd0\xb0\xd0\xbd\x7f\"]\n\n\
          {pre \"quoted\" \\ \x02} (1. e3-f4 {lead}) 1. c3-d4! $1 {line\nbreak\r\n} \
          (1. c3-b4 /FEN \"W:Wc3:Bd6\"/ f6-g5 $2) f6-g5 ; semi \"colon\"\n\
          % percent \\ line\n2. b2-c3 {end} $3 /FEN \"W:Wa1:Bh8\"/ {tail} *\n";
    let name = "escapes \"q\" \\ \t.pdn";
    let json = convert_with(name, text, Format::Jsonl, pdnkit::convert::CANONICAL);
    for shape in [
        r#"{"schema":"pdnkit-game/1","path":"escapes \"q\" \\ \t.pdn","game":1,"#,
        r#"back\\slash \"q\" \t tab \u0001"#,
        r#"line\nbreak\r\n"#,
        r#""before_tags":[{"type":"comment","kind":"percent","text":" before the tags"}]"#,
        r#""before":[{"type":"comment","kind":"brace","text":"pre \"quoted\" \\ \u0002"},{"type":"variation","moves":"#,
        r#""type":"nag","nag":1"#,
        r#""type":"setup""#,
        r#""kind":"percent""#,
        r#""strength":"!""#,
        r#""trailing""#,
    ] {
        assert!(json.contains(shape), "{shape} in {json}");
    }
    let record: GameRecord = serde_json::from_str(json.trim_end()).unwrap();
    assert_eq!(record.to_game().tags[1].value, "Казан\x7f");
}

/// `convert -j1` (one thread) and `convert -j2` (blocks read on two threads) write the same
/// bytes, in every format.
#[test]
fn convert_is_the_same_on_one_thread_and_on_several() {
    let dir = tempfile::tempdir().unwrap();
    let mut games = Vec::new();
    pdnkit_gen::Generator::new(5)
        .write_games(&mut games, 600)
        .unwrap();
    let path = dir.path().join("games.pdn");
    std::fs::write(&path, &games).unwrap();
    let path = path.to_str().unwrap();
    for to in ["csv", "jsonl", "pdn"] {
        let one = run_ok(&["convert", "--to", to, "-j", "1", path]);
        let two = run_ok(&["convert", "--to", to, "-j", "2", path]);
        assert!(one.len() > 100_000, "{to}: {} bytes", one.len());
        assert_eq!(one, two, "{to}");
    }
}

/// A game whose main line stops at a placeholder for an unknown move (`M107`, a warning)
/// is `incomplete`, not `illegal`: lint finds no error in it, and convert says so.
#[test]
fn a_game_stopped_by_a_placeholder_is_incomplete() {
    let pdn = "[Event \"e\"]\n[Result \"1-0\"]\n1. c3-d4 f6-g5 2. - - g5-h4 1-0\n";
    let out = pdnkit()
        .args(["convert", "--to", "jsonl", "-q", "-"])
        .write_stdin(pdn)
        .output()
        .unwrap();
    let game: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(game["status"], "incomplete");
    assert_eq!(game["plies"], 2);
    assert!(
        game.get("first_error").is_none_or(|e| e.is_null()),
        "{game}"
    );
    let codes: Vec<&str> = game["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(
        codes.contains(&"M107") && !codes.contains(&"M101"),
        "{codes:?}"
    );
    // --strict: a game that is not ok
    let strict = pdnkit()
        .args(["convert", "--to", "csv", "--strict", "-q", "-"])
        .write_stdin(pdn)
        .output()
        .unwrap();
    assert_eq!(strict.status.code(), Some(1));
    let csv = String::from_utf8(strict.stdout).unwrap();
    assert!(
        csv.lines().nth(1).unwrap().contains(",incomplete,"),
        "{csv}"
    );
}

#[test]
fn impossible_dates_are_t102_and_reach_no_csv_or_json_date() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dates.pdn");
    let games: String = [
        "1965.02.30",
        "2023.02.29",
        "2024.02.29",
        "1965.04.31 - 1965.05.02",
    ]
    .iter()
    .map(|d| format!("[Date \"{d}\"]\n1. c3-d4 *\n\n"))
    .collect();
    std::fs::write(&path, games).unwrap();
    let path = path.to_str().unwrap();
    let (header, rows) = csv_rows(&run_ok(&["convert", path, "--to", "csv"]));
    let dates: Vec<&str> = rows.iter().map(|r| cell(&header, r, "date")).collect();
    assert_eq!(dates, ["", "", "2024-02-29", ""]);
    let jsonl = run_ok(&["convert", path, "--to", "jsonl"]);
    let json_dates: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["date"].clone())
        .collect();
    assert_eq!(json_dates[2], "2024-02-29");
    assert!(
        json_dates
            .iter()
            .enumerate()
            .all(|(k, d)| k == 2 || d.is_null()),
        "{json_dates:?}"
    );
    let lint = pdnkit()
        .args(["lint", path, "--format", "jsonl", "--select", "T102"])
        .output()
        .unwrap();
    let found: Vec<serde_json::Value> = String::from_utf8(lint.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let games: Vec<u64> = found.iter().map(|d| d["game"].as_u64().unwrap()).collect();
    assert_eq!(games, [1, 2, 4]);
    assert_eq!(
        found[0]["message"],
        "Date \"1965.02.30\" is not a day of the calendar"
    );
}

/// `--delimiter` writes every record with it (the path field and the header too), `tab`
/// makes TSV, and `--bom` starts the output with the byte order mark Excel needs; both
/// are csv's alone.
#[test]
fn csv_delimiter_and_byte_order_mark() {
    let out = pdnkit()
        .args([
            "convert",
            RICH,
            "--format",
            "csv",
            "--delimiter",
            ";",
            "--bom",
            "-q",
        ])
        .output()
        .unwrap();
    assert!(out.stdout.starts_with("\u{feff}path;game;".as_bytes()));
    let text = std::str::from_utf8(&out.stdout[3..]).unwrap();
    let mut r = csv::ReaderBuilder::new()
        .delimiter(b';')
        .from_reader(text.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    let comma = run_ok(&["convert", RICH, "--format", "csv"]);
    let (comma_header, comma_rows) = csv_rows(&comma);
    assert_eq!(header, comma_header);
    assert_eq!(rows.len(), comma_rows.len());
    for (a, b) in rows.iter().zip(&comma_rows) {
        assert_eq!(
            a.iter().collect::<Vec<_>>(),
            b.iter().map(String::as_str).collect::<Vec<_>>()
        );
    }
    let tsv = run_ok(&[
        "convert",
        RICH,
        "--format",
        "csv",
        "--per-move",
        "--delimiter",
        "tab",
    ]);
    assert!(tsv.starts_with("path\tgame\tply\t"), "{tsv}");
    pdnkit()
        .args(["convert", RICH, "--format", "jsonl", "--bom"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("need --format csv"));
}
