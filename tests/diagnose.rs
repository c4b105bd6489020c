//! `Diagnoser` (what `lint` runs) must report exactly what the full check reports, game by
//! game, while proving most clean games through its quick lane.

use pdnkit::check::{
    CheckOptions, CheckedGames, DiagnosedGames, Diagnoser, MAX_GAME_FINDINGS, check_game,
};
use pdnkit::diag::codes::{self, RuleSet};
use pdnkit::draw::Edition;
use pdnkit::generate::{Generator, SplitMix64};
use pdnkit::pdn::{GameSplitter, RawGame};
use pdnkit::replay::ReplayOptions;
use std::path::{Path, PathBuf};

fn games(bytes: &[u8]) -> Vec<RawGame> {
    GameSplitter::new(bytes, Default::default())
        .unwrap()
        .filter_map(Result::ok)
        .collect()
}

/// Checks every game both ways and compares; returns (games, games taking the quick lane).
fn compare(path: &str, bytes: &[u8], options: &ReplayOptions) -> (u64, u64) {
    let mut checker = Diagnoser::default();
    let mut n = 0;
    for raw in games(bytes) {
        n += 1;
        let full = check_game(path, raw.clone(), options);
        let quick = checker.diagnose(path, raw.clone(), options);
        let want = full.summary();
        let where_ = format!("{path}, game {} at line {}", raw.index, raw.start.line);
        assert_eq!(
            format!("{:?}", quick.summary),
            format!("{want:?}"),
            "summary of {where_}"
        );
        assert_eq!(
            format!("{:?}", quick.diagnostics),
            format!("{:?}", full.diagnostics),
            "diagnostics of {where_}"
        );
    }
    (n, checker.quick_games())
}

/// Diagnoses every game of `bytes` as read by `DiagnosedGames` (one pass over most games)
/// and as cut by the splitter then diagnosed, file-level problems included, and compares;
/// returns (items, games `DiagnosedGames` took in one pass or through the quick lane).
fn compare_one_pass(path: &str, bytes: &[u8], options: &ReplayOptions) -> (usize, u64) {
    let check = CheckOptions {
        edition: options.edition,
        force_russian: options.force_russian,
        omit_snippets_and_boards: options.omit_snippets_and_boards,
        report: options.report,
        ..CheckOptions::default()
    };
    let mut cut = CheckedGames::new(path, bytes, &check).unwrap();
    let mut checker = Diagnoser::default();
    let mut want = Vec::new();
    while let Some(item) = cut.next_raw() {
        want.push(format!(
            "{:?}",
            item.map(|raw| checker.diagnose(path, raw, options))
        ));
    }
    let mut one_pass = DiagnosedGames::new(path, bytes, &check).unwrap();
    let got: Vec<String> = one_pass.by_ref().map(|item| format!("{item:?}")).collect();
    assert_eq!(got.len(), want.len(), "{path}");
    for (got, want) in got.iter().zip(&want) {
        assert_eq!(got, want, "{path}");
    }
    (want.len(), one_pass.quick_games())
}

fn both_editions(path: &str, bytes: &[u8]) -> (u64, u64) {
    let mut total = (0, 0);
    for edition in [Edition::Russia, Edition::Fmjd] {
        for (force_russian, omit_snippets_and_boards) in
            [(false, false), (true, false), (false, true)]
        {
            let options = ReplayOptions {
                edition,
                force_russian,
                omit_snippets_and_boards,
                ..ReplayOptions::default()
            };
            let (n, quick) = compare(path, bytes, &options);
            compare_one_pass(path, bytes, &options);
            // (the games counted once for each edition and way of reading)
            if !omit_snippets_and_boards {
                total = (total.0 + n, total.1 + quick);
            }
        }
    }
    total
}

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

#[test]
fn fixtures_are_diagnosed_as_by_the_full_check() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut quick = 0;
    for file in pdn_files(&dir) {
        let bytes = std::fs::read(&file).unwrap();
        quick += both_editions(&file.display().to_string(), &bytes).1;
    }
    // the clean fixtures take the quick lane
    assert!(quick > 0);
}

/// A report for machines leaves out the source lines and boards, and nothing else: the
/// fixtures and generated games with illegal moves, both ways.
#[test]
fn omitting_snippets_and_boards_leaves_the_rest_of_each_diagnostic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut texts: Vec<Vec<u8>> = pdn_files(&dir)
        .iter()
        .map(|f| std::fs::read(f).unwrap())
        .collect();
    texts.push(
        generated_text(9, 200)
            .replacen("5. ", "5. a1-a5 ", 50)
            .into_bytes(),
    );
    let (mut snippets, mut boards) = (0, 0);
    for bytes in &texts {
        let (mut full, mut bare) = (Diagnoser::default(), Diagnoser::default());
        let omit = ReplayOptions {
            omit_snippets_and_boards: true,
            ..ReplayOptions::default()
        };
        for raw in games(bytes) {
            let shown = full.diagnose("t.pdn", raw.clone(), &ReplayOptions::default());
            let left = bare.diagnose("t.pdn", raw, &omit);
            let mut without = shown.diagnostics.clone();
            for d in &mut without {
                snippets += usize::from(d.snippet.take().is_some());
                boards += usize::from(d.board.take().is_some());
            }
            assert_eq!(format!("{:?}", left.diagnostics), format!("{without:?}"));
        }
    }
    assert!(
        snippets > 80 && boards > 20,
        "{snippets} snippets, {boards} boards"
    );
}

#[test]
fn corpus_is_diagnosed_as_by_the_full_check() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if !dir.is_dir() {
        eprintln!(
            "note: {} is absent; corpus comparison skipped",
            dir.display()
        );
        return;
    }
    let (mut n, mut quick) = (0, 0);
    for file in pdn_files(&dir) {
        let bytes = std::fs::read(&file).unwrap();
        let path = file.display().to_string();
        let (a, b) = compare(&path, &bytes, &ReplayOptions::default());
        compare_one_pass(&path, &bytes, &ReplayOptions::default());
        n += a;
        quick += b;
    }
    assert!(n > 1000, "{n} games");
    assert!(quick > 0);
}

#[test]
fn generated_games_mostly_take_the_quick_lane() {
    let mut text = Vec::new();
    Generator::new(7).write_games(&mut text, 300).unwrap();
    let (n, quick) = compare("gen.pdn", &text, &ReplayOptions::default());
    assert_eq!(n, 300);
    // and in one pass over their text, but for a few cut by the end of a read
    let (items, one_pass) = compare_one_pass("gen.pdn", &text, &ReplayOptions::default());
    assert_eq!((items, one_pass), (300, 300));
    // with their variations, comments, both notations and draws by agreement (an info
    // diagnostic from the draw verdict), every generated game takes the quick lane
    assert_eq!(quick, n);
}

/// Real files often lack a tag or have one the check reports (a date it cannot read, a
/// duplicate), and some have no tags at all: the quick lane replays the moves of such
/// games and makes their tag findings as the full check makes them.
#[test]
fn games_whose_tags_have_findings_take_the_quick_lane() {
    let text = generated_text(17, 120);
    let mut k = 0;
    let mut tags_spoiled = String::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with("[Round ") {
            // every other game without its Round tag, every third with its Date unreadable,
            // every fifth with its Event twice, every seventh with its Result tag invalid
            k += 1;
            if k % 2 == 0 {
                continue;
            }
            if k % 5 == 0 {
                tags_spoiled.push_str("[Event \"again\"]\n");
            }
        }
        if line.starts_with("[Date ") && k % 3 == 2 {
            tags_spoiled.push_str("[Date \"last tuesday\"]\n");
            continue;
        }
        if line.starts_with("[Result ") && k % 7 == 6 {
            tags_spoiled.push_str("[Result \"white\"]\n");
            continue;
        }
        tags_spoiled.push_str(line);
    }
    let no_tags: String = text
        .split_inclusive('\n')
        .filter(|line| !line.starts_with('['))
        .collect();
    for (path, pdn) in [("spoiled.pdn", &tags_spoiled), ("no-tags.pdn", &no_tags)] {
        let (n, quick) = both_editions(path, pdn.as_bytes());
        assert_eq!(n, 4 * 120, "{path}");
        assert_eq!(quick, n, "{path}");
        let mut checker = Diagnoser::default();
        let mut tag_findings = 0;
        for raw in games(pdn.as_bytes()) {
            let found = checker.diagnose(path, raw, &ReplayOptions::default());
            tag_findings += found
                .diagnostics
                .iter()
                .filter(|d| d.rule.code.starts_with('T'))
                .count();
        }
        // (the findings themselves are compared with the full check's above)
        assert!(tag_findings >= 120, "{path}: {tag_findings} tag findings");
    }
}

/// Some real files end no game with a result token: the reader reports it (an info),
/// and the quick lane takes such games, read whole in one pass where a game's tags follow.
#[test]
fn games_without_results_take_the_quick_lane() {
    let text = generated_text(19, 120);
    let mut no_results = String::new();
    for line in text.split_inclusive('\n') {
        // (the result ends a line of moves, or is a line of its own)
        let (moves, last) = line.rsplit_once(' ').unwrap_or(("", line));
        if !line.starts_with('[') && matches!(last, "1-0\n" | "0-1\n" | "1/2-1/2\n" | "*\n") {
            no_results.push_str(moves);
            no_results.push('\n');
        } else {
            no_results.push_str(line);
        }
    }
    let (n, quick) = both_editions("no-results.pdn", no_results.as_bytes());
    assert_eq!((n, quick), (4 * 120, 4 * 120));
    let mut checker = Diagnoser::default();
    let missing = games(no_results.as_bytes())
        .into_iter()
        .map(|raw| checker.diagnose("no-results.pdn", raw, &ReplayOptions::default()))
        .filter(|found| {
            found
                .diagnostics
                .iter()
                .any(|d| d.rule.name == "missing-terminator")
        })
        .count();
    assert_eq!(missing, 120);
}

/// Annotated games have strength marks (`!`, `?!`, glued to a move or apart) and NAGs:
/// the quick lane takes them, in one pass.
#[test]
fn annotated_games_take_the_quick_lane() {
    let text = generated_text(29, 120);
    let mut annotated = String::new();
    let mut k = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with('[') {
            annotated.push_str(line);
            continue;
        }
        // (moves written with squares, followed by a space)
        for word in line.split_inclusive(' ') {
            k += 1;
            annotated.push_str(word);
            let is_move =
                word.len() > 3 && word.ends_with(' ') && word.as_bytes()[0].is_ascii_lowercase();
            if is_move && k % 7 == 0 {
                annotated.insert_str(annotated.len() - 1, "!?");
            } else if is_move && k % 11 == 0 {
                annotated.push_str("$14 ");
            } else if is_move && k % 13 == 0 {
                annotated.push_str("?? ");
            }
        }
    }
    assert!(annotated.matches("!?").count() > 500);
    let (n, quick) = both_editions("annotated.pdn", annotated.as_bytes());
    assert_eq!((n, quick), (4 * 120, 4 * 120));
    let (items, one_pass) =
        compare_one_pass("annotated.pdn", annotated.as_bytes(), &Default::default());
    assert_eq!((items, one_pass), (120, 120));
}

#[test]
fn corrupted_games_are_diagnosed_as_by_the_full_check() {
    // One byte of a generated archive changed at a time: moves, numbers, tags, results,
    // variations and comments turn wrong in every way a copying error can make them.
    let mut text = Vec::new();
    Generator::new(11).write_games(&mut text, 60).unwrap();
    let mut rng = SplitMix64::new(5);
    let alphabet = b"abcdefgh12345678-:x.(){}*?!/ 0\n\"[]";
    for _ in 0..150 {
        let copy = rng.corrupted(&text, 3, alphabet);
        compare("mutated.pdn", &copy, &ReplayOptions::default());
        compare_one_pass("mutated.pdn", &copy, &ReplayOptions::default());
    }
}

#[test]
fn variations_of_both_styles_are_followed_by_the_quick_lane() {
    let pdn = "[Event \"x\"]\n[Site \"s\"]\n[Date \"2020.01.01\"]\n[Round \"1\"]\n\
               [White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n\
               1. c3-d4 (1. c3-b4 f6-g5 (1... b6-a5) 2. b4-c5) f6-g5 {c} 2. b2-c3 $1 \
               (2. d4-e5 (2. g3-h4) d6:f4) g7-f6 (2... g5-h4 3. c3-b4) 3. a3-b4! *\n";
    let mut checker = Diagnoser::default();
    let found = checker.diagnose(
        "v.pdn",
        games(pdn.as_bytes()).remove(0),
        &Default::default(),
    );
    assert_eq!(format!("{:?}", found.diagnostics), "[]");
    assert_eq!(found.summary.plies, 5);
    assert_eq!(checker.quick_games(), 1);
    // and an illegal move deep in a variation is found (by the full path)
    let bad = pdn.replace("(2. g3-h4)", "(2. g3-h4 a7-a6)");
    let found = checker.diagnose(
        "v.pdn",
        games(bad.as_bytes()).remove(0),
        &Default::default(),
    );
    assert_eq!(found.diagnostics.len(), 1, "{:?}", found.diagnostics);
    assert!(found.summary.has_errors);
    assert_eq!(checker.quick_games(), 1);
}

#[test]
fn placeholders_and_odd_tokens_are_diagnosed_as_by_the_full_check() {
    // tokens the quick lane must leave to the full check: `- -` for an unknown move (in
    // the main line and in a variation), a lone dash, a glued placeholder
    let game = |moves: &str| {
        format!(
            "[Event \"x\"]\n[Site \"s\"]\n[Date \"2020.01.01\"]\n[Round \"1\"]\n\
             [White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n{moves} *\n\n"
        )
    };
    let mut pdn = String::new();
    for moves in [
        "1. c3-d4 - - 2. b2-c3 f6-g5",
        "1. - - f6-g5 2. c3-d4",
        "1. c3-d4 (1. - -) f6-g5",
        "1. c3-d4 -- 2. b2-c3",
        "1. c3-d4 - 2. b2-c3",
        "1. c3-d4 f6-g5",
    ] {
        pdn.push_str(&game(moves));
    }
    let (n, quick) = both_editions("placeholders.pdn", pdn.as_bytes());
    assert_eq!(n, 24);
    // only the clean game (the last) goes the quick way, in each of the four settings
    assert_eq!(quick, 4);
}

/// `stats` counts each game read in one pass (on one thread, and on the reading thread
/// whenever the others are busy) or cut and checked on another thread: the counts must be
/// those of the full check of every game, on any number of threads, with games the quick
/// lane does not take among them.
#[test]
fn stats_from_the_quick_lane_equal_stats_from_the_full_check() {
    use pdnkit::check::{CheckOptions, CheckedGames};
    use pdnkit::stats::{GroupBy, Stats, StatsOptions, stats_reader};
    let mut text = Vec::new();
    Generator::new(3).write_games(&mut text, 400).unwrap();
    let mut few = Vec::new();
    Generator::new(4).write_games(&mut few, 40).unwrap();
    let mut rng = SplitMix64::new(6);
    text.extend(rng.corrupted(&few, 6, b"abcdefgh12345678-:x.(){}*?!/ 0\n\"[]"));
    let check = CheckOptions::default();
    for (depth, by) in [
        (0, None),
        (1, Some(GroupBy::Opening)),
        (3, Some(GroupBy::Player)),
        (200, Some(GroupBy::Year)),
    ] {
        let options = StatsOptions { depth, by };
        let mut full = Stats::new(options);
        let games = CheckedGames::new("gen.pdn", &text[..], &check).unwrap();
        let encoding = games.encoding().name();
        for g in games {
            full.add("gen.pdn", &g.unwrap());
        }
        full.add_file(Some(encoding), text.len() as u64, false);
        assert!(full.games() >= 430, "{} games", full.games());
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let counted = pool.install(|| stats_reader("gen.pdn", &text[..], &check, &options));
            assert_eq!(
                counted.stats, full,
                "depth {depth}, by {by:?}, {threads} threads"
            );
        }
    }
}

/// 200 generated games (seed 13), and the files of the shared corpus when it is there.
fn generated_and_corpus() -> Vec<(String, Vec<u8>)> {
    let mut text = Vec::new();
    Generator::new(13).write_games(&mut text, 200).unwrap();
    let mut inputs = vec![("gen.pdn".to_string(), text)];
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if corpus.is_dir() {
        for file in pdn_files(&corpus) {
            inputs.push((file.display().to_string(), std::fs::read(&file).unwrap()));
        }
    }
    inputs
}

#[test]
fn a_replayed_ply_is_written_as_format_move_writes_its_move() {
    // Ply::text skips asking whether a capture's first and last squares name it when
    // the resolution found it so; it must write what asking writes, in every style
    use pdnkit::rules::notation::{CaptureStyle, SquareStyle, Style, format_move};
    let options = ReplayOptions::default();
    let (mut captures, mut not_known) = (0, 0);
    for (path, bytes) in generated_and_corpus() {
        for raw in games(&bytes) {
            let full = check_game(&path, raw, &options);
            for p in &full.replay.mainline {
                for captures_style in [CaptureStyle::Minimal, CaptureStyle::Full] {
                    for squares in [SquareStyle::Algebraic, SquareStyle::Numeric] {
                        let style = Style {
                            squares,
                            captures: captures_style,
                            ..Style::default()
                        };
                        assert_eq!(
                            p.text(style),
                            format_move(&p.before, &p.mv, style),
                            "{path}, game {} ply {}",
                            full.raw.index,
                            p.ply
                        );
                    }
                }
                captures += usize::from(p.mv.is_capture());
                not_known += usize::from(p.mv.is_capture() && !p.short_names_it);
            }
        }
    }
    // (most captures are known to be named by their squares; some are not)
    assert!(
        captures > 1000 && not_known > 0,
        "{captures} captures, {not_known} not known"
    );
}

#[test]
fn csv_rows_from_the_quick_lane_equal_rows_from_the_full_check() {
    use pdnkit::check::Checked;
    use pdnkit::convert::table::{game_row, quick_game_row};
    use pdnkit::rules::notation::{CaptureStyle, SquareStyle, Style};
    let inputs = generated_and_corpus();
    let styles = [
        Style::default(),
        Style {
            squares: SquareStyle::Numeric,
            captures: CaptureStyle::Full,
            ..Style::default()
        },
        // (what `convert` writes by default: the quick lane tells which captures are named
        // by their squares alone, and the row does not ask again)
        Style {
            captures: CaptureStyle::Minimal,
            ..Style::default()
        },
    ];
    let options = ReplayOptions::default();
    let (mut compared, mut n) = (0, 0);
    for (path, bytes) in &inputs {
        let mut checker = Diagnoser::default();
        checker.keep_first_plies(usize::MAX);
        for raw in games(bytes) {
            n += 1;
            let full = check_game(path, raw.clone(), &options);
            let Checked::Quick(quick) = checker.check(path, raw, &options) else {
                continue;
            };
            // every tag name of the game, and one it does not have
            let mut columns: Vec<String> = full.game.tags.iter().map(|t| t.name.clone()).collect();
            columns.push("NoSuchTag".to_string());
            for style in styles {
                assert_eq!(
                    quick_game_row(path, &quick, style, &columns),
                    game_row(path, &full, style, &columns),
                    "{path}, game {}",
                    full.raw.index
                );
                compared += 1;
            }
        }
    }
    assert!(compared >= 400, "{compared} rows compared of {n} games");
}

/// `DiagnosedGames::next_checked` (what `convert --to csv` reads with) gives, game by game,
/// what `Diagnoser::check` gives for the games the splitter cuts: compared as CSV rows
/// (tags, every move, the final position, status, first error, draw basis, number) and
/// diagnostics, file-level problems included, on generated games, corrupted copies of them
/// and the corpus.
#[test]
fn checked_games_read_in_one_pass_equal_games_cut_then_checked() {
    use pdnkit::check::Checked;
    use pdnkit::convert::table::{game_row, quick_game_row};
    use pdnkit::rules::notation::Style;
    let mut inputs = generated_and_corpus();
    let mut text = Vec::new();
    Generator::new(17).write_games(&mut text, 40).unwrap();
    let mut rng = SplitMix64::new(9);
    let alphabet = b"abcdefgh12345678-:x.(){}*?!/ 0\n\"[]";
    for k in 0..40 {
        inputs.push((
            format!("mutated-{k}.pdn"),
            rng.corrupted(&text, 3, alphabet),
        ));
    }
    let columns = vec!["Round".to_string(), "NoSuchTag".to_string()];
    let row = |path: &str, checked: Checked<'_>| match checked {
        Checked::Quick(g) => (
            quick_game_row(path, &g, Style::default(), &columns),
            format!("{:?}", g.diagnosed.diagnostics),
            true,
        ),
        Checked::Full(g) => (
            game_row(path, &g, Style::default(), &columns),
            format!("{:?}", g.diagnostics),
            false,
        ),
    };
    let check = CheckOptions::default();
    let options = check.replay_options();
    let (mut games, mut quick) = (0, 0);
    for (path, bytes) in &inputs {
        let mut cut = CheckedGames::new(path, &bytes[..], &check).unwrap();
        let mut checker = Diagnoser::default();
        checker.keep_first_plies(usize::MAX);
        let mut want = Vec::new();
        while let Some(item) = cut.next_raw() {
            want.push(item.map(|raw| row(path, checker.check(path, raw, &options))));
        }
        let mut one_pass = DiagnosedGames::new(path, &bytes[..], &check).unwrap();
        one_pass.keep_first_plies(usize::MAX);
        let mut got = Vec::new();
        while let Some(item) = one_pass.next_checked(|c| row(path, c)) {
            got.push(item);
        }
        assert_eq!(got.len(), want.len(), "{path}");
        for (got, want) in got.iter().zip(&want) {
            assert_eq!(format!("{got:?}"), format!("{want:?}"), "{path}");
            if let Ok((_, _, took_quick)) = got {
                games += 1;
                quick += usize::from(*took_quick);
            }
        }
    }
    // (most games are proved by the quick lane, some are not)
    assert!(
        quick > 200 && quick < games,
        "{quick} of {games} games quick"
    );
}

/// Reporting some rules only ([`ReplayOptions::report`], what `lint --select` and
/// `--ignore` set) gives the full report's diagnostics of those rules, and the same
/// summary: a game with an error among the others still has errors. Both lanes, the
/// one-pass reading and the full check, on the fixtures, the corpus and generated games
/// with illegal moves, missing tags and draws.
#[test]
fn reporting_some_rules_is_the_full_report_filtered() {
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
    let mut texts: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|f| (f.display().to_string(), std::fs::read(f).unwrap()))
        .collect();
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
    let (mut kept, mut left, mut hidden_errors) = (0, 0, 0);
    for report in sets {
        let options = ReplayOptions {
            report,
            ..ReplayOptions::default()
        };
        for (path, bytes) in &texts {
            // the quick lane against the full check, both reporting these rules
            compare(path, bytes, &options);
            compare_one_pass(path, bytes, &options);
            let mut all = Diagnoser::default();
            let mut some = Diagnoser::default();
            for raw in games(bytes) {
                let everything = all.diagnose(path, raw.clone(), &ReplayOptions::default());
                let selected = some.diagnose(path, raw.clone(), &options);
                let others = everything.diagnostics.len();
                let want: Vec<_> = everything
                    .diagnostics
                    .into_iter()
                    .filter(|d| report.contains(d.rule))
                    .collect();
                let where_ = format!("{path}, game {} with {report:?}", raw.index);
                // (the limit counts the reported findings only: equal below it)
                assert!(others <= MAX_GAME_FINDINGS, "{where_}");
                assert_eq!(
                    format!("{:?}", selected.diagnostics),
                    format!("{want:?}"),
                    "{where_}"
                );
                assert_eq!(
                    format!("{:?}", selected.summary),
                    format!("{:?}", everything.summary),
                    "{where_}"
                );
                kept += want.len();
                left += others - want.len();
                let shown_error = want
                    .iter()
                    .any(|d| d.severity == pdnkit::diag::Severity::Error);
                hidden_errors += usize::from(selected.summary.has_errors && !shown_error);
            }
        }
    }
    // the selections keep some findings and leave others, errors among them (the
    // fixtures and generated games alone: 371, 1,693 and 340)
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
        let mut games = DiagnosedGames::new("dups.pdn", text.as_bytes(), &options).unwrap();
        let game = games.next().unwrap().unwrap();
        assert!(games.next().is_none());
        game
    };
    let game = check(moves);
    let codes: Vec<&str> = game.diagnostics.iter().map(|d| d.rule.code).collect();
    assert_eq!(codes, ["M101"]);
    assert!(game.summary.has_errors);
    // all of them: the first duplicates, then one P118 that counts the illegal move
    let game = check(RuleSet::ALL);
    let last = game.diagnostics.last().unwrap();
    assert_eq!(game.diagnostics.len(), MAX_GAME_FINDINGS + 1);
    assert_eq!(last.rule, &codes::TOO_MANY_ERRORS);
    assert!(
        last.message.contains("(1 of them errors)"),
        "{}",
        last.message
    );
    // the duplicates alone: the first ones, and the illegal move past them, not
    // reported (nor the P118 that says so), still makes the game one with errors
    let game = check(RuleSet::matching(|r| r.code == "T104"));
    assert_eq!(game.diagnostics.len(), MAX_GAME_FINDINGS);
    assert!(
        game.diagnostics
            .iter()
            .all(|d| d.rule == &codes::DUPLICATE_TAG)
    );
    assert!(game.summary.has_errors);
}
