//! `pdnkit stats`: expected numbers on our fixtures, merge = concatenation, folder = merge
//! of files through the binary, deterministic output, the JSON schema, CSV, and the shared
//! corpus against lint.

mod common;

use assert_cmd::Command;
use pdnkit::check::CheckOptions;
use pdnkit::run::check_reader;
use pdnkit::stats::{GroupBy, Stats, StatsOptions, stats_reader};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/stats");
const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus");

fn pdnkit() -> Command {
    Command::cargo_bin("pdnkit").unwrap()
}

fn fixture(name: &str) -> PathBuf {
    Path::new(FIXTURES).join(name)
}

const FILES: [&str; 3] = ["club/round1.pdn", "club/round2.pdn", "cup/final.pdn"];

/// Runs `pdnkit stats` in the fixtures folder and returns stdout (asserting success).
fn run(args: &[&str]) -> String {
    let out = pdnkit()
        .current_dir(FIXTURES)
        .arg("stats")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn json_of(args: &[&str]) -> Value {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    serde_json::from_str(&run(&all)).unwrap()
}

#[test]
fn fixture_numbers() {
    let v = json_of(&["club", "cup"]);
    assert_eq!(v["schema"], "pdnkit-stats/1");
    assert_eq!(v["depth"], 6);
    assert_eq!(v["by"], Value::Null);
    assert_eq!(v["top"], 20);

    let t = &v["totals"];
    assert_eq!(t["files"], 3);
    assert_eq!(t["unreadable_files"], 0);
    let bytes: u64 = FILES
        .iter()
        .map(|f| std::fs::metadata(fixture(f)).unwrap().len())
        .sum();
    assert_eq!(t["bytes"], bytes);
    assert_eq!(t["games"], 9);
    // 9 + 4 + 4 | 10 + 8 + 2 (illegal at ply 3) | 6 + 0 (GameType 20) + 3
    assert_eq!(t["plies"], 46);
    assert_eq!(t["encodings"], json!({"UTF-8": 3}));
    assert_eq!(t["variants"], json!({"41": 1, "none": 8}));
    assert_eq!(t["not_replayed"], 2);
    assert_eq!(t["with_errors"], 1);

    assert_eq!(
        v["results"],
        json!({"key": "all", "games": 9, "white_wins": 3, "black_wins": 1, "draws": 3,
               "both_lose": 1, "unknown": 1, "white_score": 56.25})
    );
    assert_eq!(
        v["draws"],
        json!({"6.1.8.6": 1, "early_agreement": 1, "repetition": 1})
    );

    // replayed lengths: 3 4 4 6 8 9 10
    assert_eq!(
        v["length"],
        json!({
            "games": 7, "min": 3, "max": 10, "mean": 6.29, "median": 6.0,
            "percentiles": {"p10": 3, "p25": 4, "p50": 6, "p75": 9, "p90": 10, "p99": 10},
            "histogram": [{"from": 0, "to": 9, "games": 6}, {"from": 10, "to": 19, "games": 1}]
        })
    );

    assert_eq!(v["openings"]["games"], 4);
    assert_eq!(v["openings"]["distinct"], 3);
    let openings: Vec<(String, u64, Value)> = v["openings"]["top"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["key"].as_str().unwrap().to_string(),
                o["games"].as_u64().unwrap(),
                o["white_score"].clone(),
            )
        })
        .collect();
    assert_eq!(
        openings,
        [
            (
                "1. c3-d4 f6-g5 2. b2-c3 g5-h4 3. c3-b4 g7-f6".to_string(),
                2,
                json!(50.0)
            ),
            // written `1. 22-18 11-15 2. 18x11 8x15`: canonical algebraic text
            ("1. c3-d4 f6-e5 2. d4:f6 g7:e5".to_string(), 1, json!(0.0)),
            ("1. c3-d4 f6-g5 2. b2-c3 g5-h4".to_string(), 1, json!(50.0)),
        ]
    );

    assert_eq!(
        v["players"],
        json!([
            {"name": "Orlov A.", "games": 6, "wins": 2, "draws": 2, "losses": 2, "unknown": 0, "score": 50.0},
            {"name": "Smirnov B.", "games": 5, "wins": 0, "draws": 1, "losses": 4, "unknown": 0, "score": 10.0},
            {"name": "Petrov P.", "games": 4, "wins": 0, "draws": 3, "losses": 0, "unknown": 1, "score": 50.0},
            {"name": "Volkov V.", "games": 2, "wins": 2, "draws": 0, "losses": 0, "unknown": 0, "score": 100.0},
        ])
    );

    let material: Vec<(String, u64)> = v["material"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["key"].as_str().unwrap().to_string(),
                m["games"].as_u64().unwrap(),
            )
        })
        .collect();
    let expected = [
        ("11M v 11M", 2),
        ("12M v 12M", 2),
        ("2K v K", 1),
        ("3K v 0", 1),
        ("K+M v K+M", 1),
    ];
    assert_eq!(
        material,
        expected.map(|(k, n)| (k.to_string(), n)).to_vec(),
        "{}",
        v["material"]
    );
    assert_eq!(v["material"][2]["draws"], 1);
    assert_eq!(v["material"][3]["white_wins"], 1);

    let diags: BTreeMap<String, u64> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["name"].as_str().unwrap().to_string(),
                d["count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(diags.get("illegal-move"), Some(&1));
    assert_eq!(diags.get("unsupported-variant"), Some(&1));
    assert_eq!(diags.get("early-draw-agreement"), Some(&1));
    assert_eq!(v["groups"], Value::Null);
}

#[test]
fn groups_by_event_year_file_player_opening() {
    let rows = |by: &str| -> Vec<(String, u64)> {
        let v = json_of(&["--by", by, "club", "cup"]);
        assert_eq!(v["by"], by);
        v["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                let key = g.get("key").or_else(|| g.get("name")).unwrap();
                (
                    key.as_str().unwrap().to_string(),
                    g["games"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    let owned = |v: &[(&str, u64)]| -> Vec<(String, u64)> {
        v.iter().map(|(k, n)| (k.to_string(), *n)).collect()
    };
    assert_eq!(
        rows("event"),
        owned(&[("?", 1), ("Club championship", 6), ("Cup", 2)])
    );
    assert_eq!(rows("year"), owned(&[("1998", 6), ("2001", 2), ("?", 1)]));
    assert_eq!(
        rows("file"),
        owned(&[
            ("club/round1.pdn", 3),
            ("club/round2.pdn", 3),
            ("cup/final.pdn", 3)
        ])
    );
    assert_eq!(
        rows("player"),
        owned(&[
            ("Orlov A.", 6),
            ("Smirnov B.", 5),
            ("Petrov P.", 4),
            ("Volkov V.", 2)
        ])
    );
    assert_eq!(
        rows("opening"),
        owned(&[
            ("?", 5),
            ("1. c3-d4 f6-g5 2. b2-c3 g5-h4 3. c3-b4 g7-f6", 2),
            ("1. c3-d4 f6-e5 2. d4:f6 g7:e5", 1),
            ("1. c3-d4 f6-g5 2. b2-c3 g5-h4", 1),
        ])
    );
    // a group row carries results, games not replayed and the mean length
    let v = json_of(&["--by", "event", "club", "cup"]);
    assert_eq!(
        v["groups"][2],
        json!({"key": "Cup", "games": 2, "white_wins": 1, "black_wins": 0, "draws": 0,
               "both_lose": 1, "unknown": 0, "white_score": 50.0,
               "not_replayed": 1, "mean_plies": 6.0})
    );
}

#[test]
fn depth_changes_openings() {
    let v = json_of(&["--depth", "2", "club", "cup"]);
    assert_eq!(v["depth"], 2);
    // every game from the initial position with 2 plies replayed (the illegal one too)
    assert_eq!(v["openings"]["games"], 5);
    assert_eq!(v["openings"]["top"][0]["key"], "1. c3-d4 f6-g5");
    assert_eq!(v["openings"]["top"][0]["games"], 4);
    let v = json_of(&["--depth", "0", "club", "cup"]);
    assert_eq!(v["openings"]["games"], 0);
}

#[test]
fn fmjd_rules_have_no_early_agreement() {
    let v = json_of(&["--rules", "fmjd", "club", "cup"]);
    // 2K v K is no 7.2.x draw within 5 moves; the repetition is 7.2.3, still `repetition`
    let draws = v["draws"].as_object().unwrap();
    assert_eq!(draws.get("early_agreement"), None);
    assert_eq!(draws.get("repetition"), Some(&json!(1)));
    assert_eq!(draws.values().map(|n| n.as_u64().unwrap()).sum::<u64>(), 3);
}

#[test]
fn folder_equals_its_files_in_any_order() {
    let folder = run(&["--format", "json", "--by", "year", "."]);
    let files = run(&[
        "--format",
        "json",
        "--by",
        "year",
        "cup/final.pdn",
        "club/round2.pdn",
        "club/round1.pdn",
    ]);
    assert_eq!(folder, files);
    // and through the library: merge of per-file stats = stats of the folder
    let options = StatsOptions {
        depth: 6,
        by: Some(GroupBy::Year),
    };
    let mut merged = Stats::new(options);
    for f in FILES.iter().rev() {
        let text = std::fs::read(fixture(f)).unwrap();
        let file = stats_reader(f, &text[..], &CheckOptions::default(), options);
        assert!(file.error.is_none());
        merged.merge(file.stats);
    }
    let v: Value = serde_json::from_str(&folder).unwrap();
    assert_eq!(serde_json::to_value(merged.report(20)).unwrap(), v);
}

/// Games of the fixtures as separate texts.
fn fixture_games() -> Vec<String> {
    let mut games = Vec::new();
    for f in FILES {
        let text = std::fs::read_to_string(fixture(f)).unwrap();
        for g in text.split("\n\n[").filter(|s| !s.trim().is_empty()) {
            let g = if g.starts_with('[') {
                g.to_string()
            } else {
                format!("[{g}")
            };
            games.push(format!("{}\n\n", g.trim_end()));
        }
    }
    assert_eq!(games.len(), 9);
    games
}

#[test]
fn merge_equals_stats_of_the_concatenation() {
    let games = fixture_games();
    let check = CheckOptions::default();
    for by in [None, Some(GroupBy::Event), Some(GroupBy::Opening)] {
        let options = StatsOptions { depth: 4, by };
        let of = |text: &str| stats_reader("x.pdn", text.as_bytes(), &check, options).stats;
        let all = of(&games.concat());
        // every split into two parts, merged either way round
        for k in 0..=games.len() {
            let mut a = of(&games[..k].concat());
            let b = of(&games[k..].concat());
            let mut b2 = b.clone();
            a.merge(b);
            b2.merge(of(&games[..k].concat()));
            // two inputs were counted instead of one: only files and bytes differ
            let mut want = all.clone();
            want.merge(Stats::new(options));
            assert_eq!(a.report(0).totals.games, 9);
            let strip = |s: &Stats| {
                let mut r = s.report(0);
                r.totals.files = 0;
                r.totals.bytes = 0;
                r.totals.encodings.clear();
                serde_json::to_value(r).unwrap()
            };
            assert_eq!(strip(&a), strip(&all), "split at {k}");
            assert_eq!(strip(&b2), strip(&all), "split at {k}, reversed");
        }
        // one game at a time
        let mut one_by_one = Stats::new(options);
        for g in &games {
            one_by_one.merge(of(g));
        }
        assert_eq!(one_by_one.report(0).totals.files, 9);
        assert_eq!(one_by_one.report(0).results, all.report(0).results);
        assert_eq!(one_by_one.report(0).length, all.report(0).length);
        assert_eq!(one_by_one.report(0).openings, all.report(0).openings);
        assert_eq!(one_by_one.report(0).groups, all.report(0).groups);
    }
}

#[test]
fn a_file_larger_than_a_batch() {
    // 1300 games, more than a block read apart, counted exactly
    let games = fixture_games();
    let text: String = (0..1300).map(|i| games[i % games.len()].as_str()).collect();
    let options = StatsOptions::default();
    let file = stats_reader(
        "big.pdn",
        text.as_bytes(),
        &CheckOptions::default(),
        options,
    );
    let r = file.stats.report(0);
    assert_eq!(r.totals.games, 1300);
    assert_eq!(r.totals.bytes, text.len() as u64);
    assert_eq!(r.totals.files, 1);
    // 1300 = 144 * 9 + 4: the first four games once more
    assert_eq!(r.results.counts.white_wins, 144 * 3 + 1);
    assert_eq!(r.results.counts.black_wins, 144 + 1);
    assert_eq!(r.results.counts.draws, 144 * 3 + 2);
    let report = check_reader("big.pdn", text.as_bytes(), &CheckOptions::default());
    assert_eq!(r.totals.games as usize, report.games);
    assert_eq!(r.totals.with_errors as usize, report.games_with_errors);
}

#[test]
fn a_file_of_many_blocks_counts_alike_on_any_number_of_threads() {
    // blocks of a long file are counted on whichever thread is free: the counts may not
    // depend on it (3 MB: blocks of 512 KiB)
    let games = fixture_games();
    let text: String = (0..12_000)
        .map(|i| games[i % games.len()].as_str())
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.pdn");
    std::fs::write(&path, &text).unwrap();
    let path = path.to_str().unwrap();
    let one = run(&[
        "--format", "json", "--by", "opening", "--top", "1000", "-j", "1", path,
    ]);
    let json: Value = serde_json::from_str(&one).unwrap();
    assert_eq!(json["totals"]["games"], 12_000);
    for threads in ["2", "3", "8"] {
        let other = run(&[
            "--format", "json", "--by", "opening", "--top", "1000", "-j", threads, path,
        ]);
        assert_eq!(other, one, "{threads} threads");
    }
    // and the library, on one thread
    let options = StatsOptions {
        by: Some(GroupBy::Opening),
        ..StatsOptions::default()
    };
    let file = stats_reader(
        "big.pdn",
        text.as_bytes(),
        &CheckOptions::default(),
        options,
    );
    assert_eq!(serde_json::to_value(file.stats.report(1000)).unwrap(), json);
}

#[test]
fn problems_outside_games_are_counted_and_the_rest_of_the_file_is_read() {
    // an unclosed comment before the first game, a game too large to read (over 16 MiB),
    // text after the last game: `lint` reports each and reads on, and so must `stats`
    let games = fixture_games();
    let mut text = String::from("{ a header never closed\n");
    text.push_str(&games[0]);
    text.push_str(&common::game_too_large_to_read());
    for g in &games[1..4] {
        text.push_str(g);
    }
    text.push_str("trailing words\n");
    let file = stats_reader(
        "x.pdn",
        text.as_bytes(),
        &CheckOptions::default(),
        StatsOptions::default(),
    );
    assert!(file.error.is_none(), "{:?}", file.error);
    let r = file.stats.report(0);
    assert_eq!((r.totals.games, r.totals.unreadable_files), (4, 0));
    let count = |code: &str| {
        r.diagnostics
            .iter()
            .find(|d| d.code == code)
            .map_or(0, |d| d.count)
    };
    assert_eq!((count("P111"), count("P107")), (2, 1));
    // as lint counts them
    let report = check_reader("x.pdn", text.as_bytes(), &CheckOptions::default());
    assert_eq!(report.games, 4);
    for code in ["P107", "P111"] {
        let linted = report
            .diagnostics
            .iter()
            .filter(|d| d.rule.code == code)
            .count();
        assert_eq!(count(code), linted as u64, "{code}");
    }
    // and through the binary: exit 0, the file counted as read
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.pdn");
    std::fs::write(&path, &text).unwrap();
    let out = run(&["--format", "json", path.to_str().unwrap()]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["totals"]["games"], 4);
    assert_eq!(json["totals"]["unreadable_files"], 0);
}

#[test]
fn output_is_deterministic() {
    for format in ["table", "json", "csv"] {
        let a = run(&["--format", format, "--by", "player", "-j", "1", "."]);
        let b = run(&["--format", format, "--by", "player", "-j", "2", "."]);
        assert_eq!(a, b, "{format}");
    }
}

#[test]
fn csv_is_the_grouped_table() {
    assert_eq!(
        run(&["--format", "csv", "--by", "year", "."]),
        "year,games,white_wins,black_wins,draws,both_lose,unknown,white_score,not_replayed,mean_plies\n\
         1998,6,1,1,3,0,1,50,1,7\n\
         2001,2,1,0,0,1,0,50,1,6\n\
         ?,1,1,0,0,0,0,100,0,3\n"
    );
    assert_eq!(
        run(&["--format", "csv", "--by", "player", "."]),
        "player,games,wins,draws,losses,unknown,score\n\
         Orlov A.,6,2,2,2,0,50\n\
         Smirnov B.,5,0,1,4,0,10\n\
         Petrov P.,4,0,3,0,1,50\n\
         Volkov V.,2,2,0,0,0,100\n"
    );
    // without --by: one row for everything
    assert_eq!(
        run(&["--format", "csv", "."]),
        "group,games,white_wins,black_wins,draws,both_lose,unknown,white_score,not_replayed,mean_plies\n\
         all,9,3,1,3,1,1,56.25,2,6.29\n"
    );
}

#[test]
fn table_for_people() {
    let out = run(&["--by", "event", "."]);
    for want in [
        "Totals\n  files                3\n  unreadable files     0\n",
        "  games                9\n  plies               46\n  not replayed         2\n  with errors          1\n",
        "  encodings: UTF-8 3\n  variants (GameType): 41 1, none 8\n",
        "Results\n       games  1-0  0-1  draw  0-0  *  White score\n  all      9    3    1     3    1  1        56.2%\n",
        "Draws by basis\n  6.1.8.6          1\n  early_agreement  1\n  repetition       1\n",
        "Game length (plies, 7 games replayed)\n    mean  median  min  max  p10  p25  p50  p75  p90  p99\n     6.3     6.0    3   10    3    4    6    9   10   10\n",
        "  0-9    6  |########################################\n  10-19  1  |#######\n",
        "Openings (first 6 plies; 4 games, 3 distinct)\n",
        "  1. c3-d4 f6-e5 2. d4:f6 g7:e5                     1    0    1     0    0  0         0.0%\n",
        "  player      games  wins  draws  losses  *   score\n  Orlov A.        6     2      2       2  0   50.0%\n",
        "  3K v 0         1    1    0     0    0  0       100.0%\n",
        "  M101 illegal-move            error  1\n",
        "By event\n  event              games  1-0  0-1  draw  0-0  *  White score  not replayed  mean plies\n",
        "  Cup                    2    1    0     0    1  0        50.0%             1         6.0\n",
    ] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
}

#[test]
fn a_missing_file_is_reported_and_the_others_counted() {
    let out = pdnkit()
        .current_dir(FIXTURES)
        .args(["stats", "--format", "json", "club", "missing.pdn"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.pdn"));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["totals"]["games"], 6);
}

#[test]
fn standard_input() {
    let text = std::fs::read(fixture("club/round1.pdn")).unwrap();
    let out = pdnkit()
        .args(["stats", "--format", "json", "--by", "file", "-q"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(out.stderr.is_empty());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["totals"]["games"], 3);
    assert_eq!(v["groups"][0]["key"], "-");
}

/// Every file of the shared corpus: stats count the games, the games with errors and
/// every diagnostic exactly as lint does; and the binary's totals match lint's summary.
#[test]
fn corpus_totals_match_lint() {
    let corpus = Path::new(CORPUS);
    if !corpus.is_dir() {
        eprintln!("note: {CORPUS} is absent; corpus test skipped");
        return;
    }
    let mut files = Vec::new();
    let mut stack = vec![corpus.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("pdn")) {
                files.push(p);
            }
        }
    }
    files.sort();
    let check = CheckOptions::default();
    let options = StatsOptions::default();
    let (mut games, mut with_errors) = (0u64, 0u64);
    for f in &files {
        let name = f.display().to_string();
        let text = std::fs::read(f).unwrap();
        let lint = check_reader(&name, &text[..], &check);
        let stats = stats_reader(&name, &text[..], &check, options);
        let r = stats.stats.report(0);
        assert_eq!(r.totals.games as usize, lint.games, "{name}");
        assert_eq!(
            r.totals.with_errors as usize, lint.games_with_errors,
            "{name}"
        );
        assert_eq!(
            r.totals.encodings.keys().next().map(String::as_str),
            lint.encoding
        );
        let mut by_code: BTreeMap<&str, u64> = BTreeMap::new();
        for d in &lint.diagnostics {
            *by_code.entry(d.rule.code).or_default() += 1;
        }
        let mine: BTreeMap<&str, u64> = r.diagnostics.iter().fold(BTreeMap::new(), |mut m, d| {
            *m.entry(d.code).or_default() += d.count;
            m
        });
        assert_eq!(mine, by_code, "{name}");
        games += r.totals.games;
        with_errors += r.totals.with_errors;
    }

    // the binary over the russian folder against lint's own summary line
    let russian = corpus.join("russian");
    let lint = pdnkit()
        .args(["lint", "--format", "concise"])
        .arg(&russian)
        .output()
        .unwrap();
    let summary = String::from_utf8_lossy(&lint.stderr).to_string();
    let stats = pdnkit()
        .args(["stats", "--format", "json", "-q"])
        .arg(&russian)
        .output()
        .unwrap();
    assert!(stats.status.success());
    let v: Value = serde_json::from_slice(&stats.stdout).unwrap();
    let t = &v["totals"];
    let want = format!(
        "{} files, {} games, {} with errors",
        t["files"], t["games"], t["with_errors"]
    );
    assert!(
        summary.contains(&want),
        "lint said {summary:?}, stats {want:?}"
    );
    eprintln!(
        "corpus: {} files, {games} games, {with_errors} with errors; russian: {want}",
        files.len()
    );
}

/// The documented schema: exactly these fields (adding one is fine within
/// `pdnkit-stats/1` but must update the README (stats JSON schema) and this test).
#[test]
fn json_schema_fields() {
    fn keys(v: &Value) -> Vec<&str> {
        let mut k: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        k.sort();
        k
    }
    let v = json_of(&["--by", "event", "."]);
    assert_eq!(
        keys(&v),
        [
            "by",
            "depth",
            "diagnostics",
            "draws",
            "groups",
            "length",
            "material",
            "openings",
            "players",
            "results",
            "schema",
            "top",
            "totals"
        ]
    );
    assert_eq!(
        keys(&v["totals"]),
        [
            "bytes",
            "encodings",
            "files",
            "games",
            "not_replayed",
            "plies",
            "unreadable_files",
            "variants",
            "with_errors"
        ]
    );
    let result_row = [
        "black_wins",
        "both_lose",
        "draws",
        "games",
        "key",
        "unknown",
        "white_score",
        "white_wins",
    ];
    assert_eq!(keys(&v["results"]), result_row);
    assert_eq!(keys(&v["openings"]["top"][0]), result_row);
    assert_eq!(keys(&v["material"][0]), result_row);
    assert_eq!(keys(&v["openings"]), ["distinct", "games", "top"]);
    assert_eq!(
        keys(&v["length"]),
        [
            "games",
            "histogram",
            "max",
            "mean",
            "median",
            "min",
            "percentiles"
        ]
    );
    assert_eq!(keys(&v["length"]["histogram"][0]), ["from", "games", "to"]);
    assert_eq!(
        keys(&v["diagnostics"][0]),
        ["code", "count", "name", "severity"]
    );
    assert_eq!(
        keys(&v["players"][0]),
        [
            "draws", "games", "losses", "name", "score", "unknown", "wins"
        ]
    );
    let mut group_row = result_row.to_vec();
    group_row.extend(["mean_plies", "not_replayed"]);
    group_row.sort();
    assert_eq!(keys(&v["groups"][0]), group_row);
    // --top cuts the lists, not the groups
    let v = json_of(&["--top", "1", "--by", "player", "."]);
    assert_eq!(v["players"].as_array().unwrap().len(), 1);
    assert_eq!(v["material"].as_array().unwrap().len(), 1);
    assert_eq!(v["openings"]["top"].as_array().unwrap().len(), 1);
    assert_eq!(v["groups"].as_array().unwrap().len(), 4);
    // an empty input: nulls, not zeros, where nothing is defined
    let out = pdnkit()
        .args(["stats", "--format", "json", "-q"])
        .write_stdin("")
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["results"]["white_score"], Value::Null);
    assert_eq!(v["length"]["mean"], Value::Null);
    assert_eq!(v["length"]["histogram"], json!([]));
}

/// Games of other variants have openings, written as their players write moves after the
/// variant's name, and final material, as Russian games have.
#[test]
fn openings_and_material_of_every_variant() {
    let pdn = "\
[GameType \"20\"][Result \"1-0\"]
1. 32-28 19-23 2. 28x19 14x23 1-0

[GameType \"21\"][Result \"0-1\"]
1. 11-15 23-19 2. 8-11 22-17 0-1

[GameType \"23\"][Result \"0-1\"]
1. 11-15 23-19 2. 8-11 22-17 0-1

[GameType \"20,W,10,10,N1,0\"][Result \"1/2-1/2\"]
1. 19-23 32-28 2. 23x32 37x28 1/2-1/2

[Result \"1-0\"]
1. c3-d4 f6-g5 2. b2-c3 g5-h4 1-0

[GameType \"21\"][FEN \"B:W21:BK1\"][Result \"0-1\"]
1. 1-6 0-1
";
    let out = pdnkit()
        .args(["stats", "--format", "json", "--depth", "3", "-q"])
        .write_stdin(pdn)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = |v: &Value| -> BTreeMap<String, u64> {
        (v.as_array().unwrap().iter())
            .map(|r| {
                (
                    r["key"].as_str().unwrap().to_string(),
                    r["games"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    // English and pool play the same first moves: their openings are two keys; the game
    // set up by a FEN has none; the game numbered from White's side (N1) plays the first
    // game's opening, written in International's own numbering
    let want: BTreeMap<String, u64> = [
        ("international: 1. 32-28 19-23 2. 28x19", 2),
        ("english: 1. 11-15 23-19 2. 8-11", 1),
        ("pool: 1. 11-15 23-19 2. 8-11", 1),
        ("1. c3-d4 f6-g5 2. b2-c3", 1),
    ]
    .into_iter()
    .map(|(k, n)| (k.to_string(), n))
    .collect();
    assert_eq!(rows(&v["openings"]["top"]), want);
    assert_eq!(v["openings"]["games"], 5);
    let want: BTreeMap<String, u64> = [("19M v 19M", 2), ("12M v 12M", 3), ("M v K", 1)]
        .into_iter()
        .map(|(k, n)| (k.to_string(), n))
        .collect();
    assert_eq!(rows(&v["material"]), want);
    assert_eq!(v["length"]["games"], 6);
}
