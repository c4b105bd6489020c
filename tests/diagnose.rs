//! What the check reports, through the public API: options that leave parts of a report
//! out (snippets and boards, rules not selected) leave the rest as it is, the limit of
//! findings per game, and the moves of a report written in any notation.

use pdnkit::check::checker::Keep;
use pdnkit::check::{CheckOptions, MAX_GAME_FINDINGS};
use pdnkit::diag::codes::{self, RuleSet};
use pdnkit::diag::{Diagnostic, Severity};
use pdnkit::rules::notation::{CaptureStyle, SquareStyle, Style, format_move};
use pdnkit::run::{Checked, Event, RunOptions, Task, check_reader, run_reader};
use pdnkit_gen::Generator;
use std::path::{Path, PathBuf};

/// `games` generated games (seed `seed`) as text.
fn generated_text(seed: u64, games: u64) -> String {
    let mut text = Vec::new();
    Generator::new(seed).write_games(&mut text, games).unwrap();
    String::from_utf8(text).unwrap()
}

fn pdn_files(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect()
}

/// The fixtures, and the Russian files of the shared corpus when it is there.
fn fixtures_and_corpus() -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = pdn_files(&root.join("fixtures"));
    let corpus = root.join("../shared/corpus/russian");
    if corpus.is_dir() {
        files.extend(pdn_files(&corpus));
    } else {
        eprintln!(
            "note: {} is absent; fixtures and generated games only",
            corpus.display()
        );
    }
    files
        .iter()
        .map(|f| (f.display().to_string(), std::fs::read(f).unwrap()))
        .collect()
}

/// A report for machines leaves out the source lines and boards, and nothing else: the
/// fixtures and generated games with illegal moves.
#[test]
fn omitting_snippets_and_boards_leaves_the_rest_of_each_diagnostic() {
    let mut texts = fixtures_and_corpus();
    texts.push((
        "generated".into(),
        generated_text(9, 200)
            .replacen("5. ", "5. a1-a5 ", 50)
            .into_bytes(),
    ));
    let omit = CheckOptions {
        omit_snippets_and_boards: true,
        ..CheckOptions::default()
    };
    let (mut snippets, mut boards) = (0, 0);
    for (path, bytes) in &texts {
        let shown = check_reader(path, &bytes[..], &CheckOptions::default());
        let bare = check_reader(path, &bytes[..], &omit);
        let mut without = shown.diagnostics.clone();
        for d in &mut without {
            snippets += usize::from(d.snippet.take().is_some());
            boards += usize::from(d.board.take().is_some());
        }
        assert_eq!(
            format!("{:?}", bare.diagnostics),
            format!("{without:?}"),
            "{path}"
        );
        assert_eq!(
            format!("{:?}", bare.summaries),
            format!("{:?}", shown.summaries),
            "{path}"
        );
    }
    assert!(
        snippets > 80 && boards > 20,
        "{snippets} snippets, {boards} boards"
    );
}

/// The moves a report keeps (the main line's plies, every move of the tree) are written
/// as `format_move` writes them, though a writer skips asking whether a capture's first
/// and last squares name it when the resolution found it so.
#[test]
fn a_replayed_move_is_written_as_format_move_writes_it() {
    struct Moves;
    impl Task for Moves {
        type Output = (usize, usize);
        fn keep(&self) -> Keep {
            Keep {
                plies: usize::MAX,
                moves: true,
                tree: false,
                tags_only: false,
                positions: false,
            }
        }
        fn game(&self, g: Checked<'_>) -> (usize, usize) {
            let (mut captures, mut not_known) = (0, 0);
            for captures_style in [CaptureStyle::Minimal, CaptureStyle::Full] {
                for squares in [SquareStyle::Algebraic, SquareStyle::Numeric] {
                    let style = Style {
                        squares,
                        captures: captures_style,
                        ..Style::default()
                    };
                    for p in &g.report.mainline {
                        let want = format_move(&p.before, &p.mv, style);
                        assert_eq!(p.text(style), want, "game {} ply {}", g.source.index, p.ply);
                    }
                    for m in g.report.moves.iter().flatten() {
                        let mut text = String::new();
                        m.push_text(&mut text, style);
                        assert_eq!(text, format_move(&m.before, &m.mv, style));
                    }
                }
            }
            for p in &g.report.mainline {
                captures += usize::from(p.mv.is_capture());
                not_known += usize::from(p.mv.is_capture() && !p.short_names_it);
            }
            (captures, not_known)
        }
    }
    let mut inputs = fixtures_and_corpus();
    inputs.push(("generated".into(), generated_text(13, 200).into_bytes()));
    let (mut captures, mut not_known) = (0, 0);
    for (path, bytes) in &inputs {
        run_reader(path, &bytes[..], &RunOptions::default(), &Moves, |e| {
            if let Event::Game((c, n)) = e {
                captures += c;
                not_known += n;
            }
            Ok(())
        })
        .unwrap();
    }
    // (most captures are known to be named by their squares; some are not)
    assert!(
        captures > 1000 && not_known > 0,
        "{captures} captures, {not_known} not known"
    );
}

/// The diagnostics of each game, by game index (the problems of the input under 0).
fn by_game(diagnostics: &[Diagnostic]) -> std::collections::BTreeMap<usize, Vec<&Diagnostic>> {
    let mut out = std::collections::BTreeMap::<usize, Vec<&Diagnostic>>::new();
    for d in diagnostics {
        out.entry(d.game.unwrap_or(0)).or_default().push(d);
    }
    out
}

/// Reporting some rules only ([`CheckOptions::report`], what `lint --select` and
/// `--ignore` set) gives the full report's diagnostics of those rules, and the same
/// summaries: a game with an error among the others still has errors. On the fixtures,
/// the corpus and generated games with illegal moves, missing tags and draws.
#[test]
fn reporting_some_rules_is_the_full_report_filtered() {
    let mut texts = fixtures_and_corpus();
    let generated = generated_text(21, 300)
        .replacen("[Round", "[Roun", 60)
        .replacen("7. ", "7. a1-a5 ", 40);
    texts.push(("generated".into(), generated.into_bytes()));
    let selections = ["M", "T", "T101", "D", "D103", "P", "P109", "R", "E", "P118"];
    let sets = selections
        .iter()
        .map(|s| RuleSet::matching(|r| codes::selector_matches(s, r)))
        .chain([
            RuleSet::EMPTY,
            RuleSet::matching(|r| !r.code.starts_with('T')),
        ]);
    let everything: Vec<_> = texts
        .iter()
        .map(|(path, bytes)| check_reader(path, &bytes[..], &CheckOptions::default()))
        .collect();
    let (mut kept, mut left, mut hidden_errors) = (0, 0, 0);
    for report in sets {
        let options = CheckOptions {
            report,
            ..CheckOptions::default()
        };
        for ((path, bytes), all) in texts.iter().zip(&everything) {
            let selected = check_reader(path, &bytes[..], &options);
            let where_ = format!("{path} with {report:?}");
            assert_eq!(
                format!("{:?}", selected.summaries),
                format!("{:?}", all.summaries),
                "{where_}"
            );
            let chosen = by_game(&selected.diagnostics);
            for (game, found) in by_game(&all.diagnostics) {
                // (the limit counts the reported findings only: equal below it)
                assert!(found.len() <= MAX_GAME_FINDINGS, "{where_}, game {game}");
                // (the problems of an input, no game's, are the caller's to filter)
                let want: Vec<_> = found
                    .iter()
                    .filter(|d| game == 0 || report.contains(d.rule))
                    .collect();
                let got: Vec<_> = chosen.get(&game).map_or(Vec::new(), |v| v.iter().collect());
                assert_eq!(
                    format!("{got:?}"),
                    format!("{want:?}"),
                    "{where_}, game {game}"
                );
                kept += want.len();
                left += found.len() - want.len();
            }
            for (summary, game) in selected.summaries.iter().zip(1..) {
                let shown_error = chosen
                    .get(&game)
                    .is_some_and(|v| v.iter().any(|d| d.severity == Severity::Error));
                hidden_errors += usize::from(summary.has_errors && !shown_error);
            }
        }
    }
    // the selections keep some findings and leave others, errors among them
    assert!(
        kept > 300 && left > 1000 && hidden_errors > 100,
        "{kept} {left} {hidden_errors}"
    );
}

/// The limit of findings a game reports counts the reported ones only: an illegal move
/// after more than the limit of duplicate tags is still reported to `--select M`.
#[test]
fn the_limit_of_findings_counts_the_reported_ones() {
    let mut text = String::new();
    for i in 0..MAX_GAME_FINDINGS + 500 {
        text.push_str(&format!("[Event \"{i}\"]\n"));
    }
    text.push_str("\n1. c3-d4 f6-g5 2. c3-b4 *\n");
    let moves = RuleSet::matching(|r| r.code.starts_with('M'));
    let check = |report| {
        let options = CheckOptions {
            report,
            ..CheckOptions::default()
        };
        let file = check_reader("dups.pdn", text.as_bytes(), &options);
        assert_eq!(file.games, 1);
        file
    };
    let file = check(moves);
    let codes: Vec<&str> = file.diagnostics.iter().map(|d| d.rule.code).collect();
    assert_eq!(codes, ["M101"]);
    assert!(file.summaries[0].has_errors);
    // all of them: the first duplicates, then one P118 that counts the illegal move
    let file = check(RuleSet::ALL);
    let last = file.diagnostics.last().unwrap();
    assert_eq!(file.diagnostics.len(), MAX_GAME_FINDINGS + 1);
    assert_eq!(last.rule, &codes::TOO_MANY_ERRORS);
    assert!(
        last.message.contains("(1 of them errors)"),
        "{}",
        last.message
    );
    // the duplicates alone: the first ones, and the illegal move past them, not
    // reported (nor the P118 that says so), still makes the game one with errors
    let file = check(RuleSet::matching(|r| r.code == "T104"));
    assert_eq!(file.diagnostics.len(), MAX_GAME_FINDINGS);
    assert!(
        file.diagnostics
            .iter()
            .all(|d| d.rule == &codes::DUPLICATE_TAG)
    );
    assert!(file.summaries[0].has_errors);
}

/// An illegal move in Russian, then a square of a larger board: the game is of another
/// variant, its findings as Russian go, reported or not (an M101 not selected does not
/// make it a game with errors), and it is replayed as International.
#[test]
fn findings_as_russian_of_another_variant_go_whether_reported_or_not() {
    let text = "1. 32-28 19-23 2. 28x19 14x23 3. 33-28 *\n";
    for report in [RuleSet::ALL, RuleSet::matching(|r| r.code == "V102")] {
        let options = CheckOptions {
            report,
            ..CheckOptions::default()
        };
        let file = check_reader("v.pdn", text.as_bytes(), &options);
        assert!(!file.summaries[0].has_errors, "{:?}", file.diagnostics);
        let rules: Vec<&str> = file.diagnostics.iter().map(|d| d.rule.code).collect();
        assert!(rules.contains(&"V102"), "{rules:?}");
        assert!(!rules.iter().any(|r| r.starts_with('M')), "{rules:?}");
    }
}

/// A GameType's fields say how the game is written: who moves first and where square 1
/// is are followed; what cannot be (another board, fields that are not PDN's) is V103, and
/// the game is replayed by its number.
#[test]
fn game_type_fields_are_followed_or_said_not_to_be() {
    let codes = |text: &str| -> Vec<&'static str> {
        let file = check_reader("g.pdn", text.as_bytes(), &CheckOptions::default());
        // (the tags' own findings left out: these games have none but GameType)
        (file.diagnostics.iter())
            .map(|d| d.rule.code)
            .filter(|c| !c.starts_with('T'))
            .collect()
    };
    // pool as Zimbabwe writes it: White moves first (the table's pool has Black first)
    let pool = "1. 22-17 9-13 2. 17-14 10x17 3. 21x14 *\n";
    assert_eq!(
        codes(&format!("[GameType \"23,W,8,8,A0,0\"]\n{pool}")),
        [""; 0]
    );
    assert!(codes(&format!("[GameType \"23\"]\n{pool}")).contains(&"M101"));
    // International numbered from White's bottom right: 32-28 18-23 is 19-23 33-28
    let international = "1. 19-23 33-28 2. 18-22 28x19 3. 14x23 *\n";
    assert_eq!(
        codes(&format!("[GameType \"20,W,10,10,N1,0\"]\n{international}")),
        [""; 0]
    );
    // a FEN and a setup command are read in that numbering too (19 is 32, 33 is 18)
    let setup = "[FEN \"?:W19,20:B33\"]\n1. 19-23 33-28 2. /FEN \"W:W19:B33\"/ 19-24 *\n";
    assert_eq!(
        codes(&format!("[GameType \"20,W,10,10,N1,0\"]\n{setup}")),
        [""; 0]
    );
    // --variant naming the GameType's variant keeps its fields
    let forced = CheckOptions {
        variant: Some("international".parse().unwrap()),
        ..CheckOptions::default()
    };
    let text = format!("[GameType \"20,W,10,10,N1,0\"]\n{international}");
    let file = check_reader("g.pdn", text.as_bytes(), &forced);
    assert!(
        file.diagnostics
            .iter()
            .all(|d| !d.rule.code.starts_with('M'))
    );
    // another board: said, and replayed as International
    let standard = "1. 32-28 18-23 2. 33-29 23x32 3. 37x28 *\n";
    assert_eq!(
        codes(&format!("[GameType \"20,W,8,8,N2,0\"]\n{standard}")),
        ["V103"]
    );
    // fields that are not PDN's (a real file's), and Russian's table value before 2014
    assert_eq!(
        codes(&format!("[GameType \"20,W,0,0,N,0\"]\n{standard}")),
        ["V103"]
    );
    let russian = "1. c3-d4 f6-g5 2. b2-c3 *\n";
    assert_eq!(
        codes(&format!("[GameType \"25,W,8,8,A1,0\"]\n{russian}")),
        [""; 0]
    );
    assert_eq!(
        codes(&format!("[GameType \"25,B,8,8,A0,0\"]\n{russian}")),
        ["V103"]
    );
    // an empty GameType is Russian's, with no fields to speak of
    assert_eq!(codes(&format!("[GameType \"\"]\n{russian}")), [""; 0]);
}

/// Other variants' draws through the public API: each federation's counts end the game
/// (D101 on a move after the limit, D102 on a decisive result), Brazilian is judged by
/// the FMJD's draughts-64 rules whatever edition Russian games are judged by, and a
/// variant whose rules pdnkit does not know is not judged.
#[test]
fn other_variants_draws_are_judged_by_their_federations_rules() {
    use pdnkit::draw::Edition;
    let codes = |text: &str, edition: Edition| -> Vec<(&'static str, Option<u32>)> {
        let options = CheckOptions {
            edition,
            ..CheckOptions::default()
        };
        let file = check_reader("g.pdn", text.as_bytes(), &options);
        (file.diagnostics.iter())
            .filter(|d| d.rule.code.starts_with('D'))
            .map(|d| (d.rule.code, d.ply))
            .collect()
    };
    let shuttle = |game_type: &str, fen: &str, w: [&str; 2], b: [&str; 2], n, result: &str| {
        let moves: Vec<String> = (0..n)
            .map(|k| format!("{}. {} {}", k + 1, w[k % 2], b[k % 2]))
            .collect();
        format!(
            "[GameType \"{game_type}\"]\n[FEN \"{fen}\"]\n{} {result}\n",
            moves.join(" ")
        )
    };
    // Frisian: two kings against one draw after 7 moves each (ply 14); an 8th move and a
    // win contradict it
    let (w, b) = (["46-41", "41-46"], ["3-9", "9-3"]);
    let frisian = shuttle("40", "W:WK46,K47:BK3", w, b, 8, "2-0");
    assert_eq!(
        codes(&frisian, Edition::Russia),
        [("D101", Some(15)), ("D102", None)]
    );
    assert_eq!(
        codes(
            &shuttle("40", "W:WK46,K47:BK3", w, b, 7, "1-1"),
            Edition::Russia
        ),
        []
    );
    // Brazilian: three kings against a lone king on the main road, the stronger side's
    // 5th move (fmjd 7.2.7), under --rules russia too; the start stood a third time at
    // ply 8, a repetition the win leaves unclaimed
    let brazilian = "[GameType \"26\"]\n[FEN \"B:WKc1,Ke1,Kg1:BKh8\"]\n1... h8-g7 \
                     2. c1-d2 g7-h8 3. d2-c1 h8-g7 4. c1-d2 g7-h8 5. d2-c1 h8-g7 6. c1-d2 \
                     g7-h8 2-0";
    for edition in [Edition::Russia, Edition::Fmjd] {
        assert_eq!(
            codes(brazilian, edition),
            [("D105", Some(8)), ("D101", Some(11)), ("D102", None)]
        );
    }
    // English: a draw by agreement is noted (information), at move 1 of Black's first
    let english = "[GameType \"21\"]\n1. 11-15 23-19 1/2-1/2\n";
    let file = check_reader("g.pdn", english.as_bytes(), &CheckOptions::default());
    let d103 = (file.diagnostics.iter()).find(|d| d.rule.code == "D103");
    assert!(d103.is_some_and(|d| d.message.contains("drawn at move 1 ")));
    // Czech: no federation's draw rules known
    let czech = "[GameType \"29\"]\n1. c3-d4 f6-g5 1/2-1/2\n";
    assert_eq!(codes(czech, Edition::Russia), []);
}
