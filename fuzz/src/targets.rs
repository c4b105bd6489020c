//! The fuzz targets' bodies. Each takes arbitrary bytes and panics only when pdnkit breaks
//! one of its promises (a panic inside pdnkit, or an invariant below that does not hold).
//!
//! This file uses nothing but `pdnkit`, so the main crate's regression test
//! (`tests/regressions.rs`) includes it with `#[path]` and replays the saved crashing
//! inputs of `fixtures/regressions/` through exactly these bodies.

use pdnkit::check::{
    CheckOptions, Checked, CheckedGames, DiagnosedGames, MAX_GAME_FINDINGS, check_reader,
};
use pdnkit::convert::json::{GameRecord, write_game_json};
use pdnkit::convert::repdn::{PdnOptions, write_pdn, write_pdn_renotating};
use pdnkit::convert::table::{game_row, quick_game_row};
use pdnkit::diag::codes::{self, RuleSet};
use pdnkit::diag::render::{Format, Renderer};
use pdnkit::pdn::blocks::find_cut;
use pdnkit::pdn::fen::Setup;
use pdnkit::pdn::input::{DETECT_PREFIX, read_as_utf8};
use pdnkit::pdn::{BlockStart, GameSplitter, RawGame, ReadError, ReaderOptions};
use pdnkit::replay::Status;
use pdnkit::rules::notation::{
    CaptureSeparator, CaptureStyle, MoveText, Resolution, SquareStyle, Style, format_move, resolve,
};
use pdnkit::rules::{FenStyle, Position};

/// A target body.
pub type Target = fn(&[u8]);

/// The targets by name, for drivers.
pub const TARGETS: &[(&str, Target)] = &[
    ("reader", reader),
    ("fen", fen),
    ("move_token", move_token),
    ("replay", replay),
];

/// The target called `name`.
pub fn by_name(name: &str) -> Option<Target> {
    TARGETS.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
}

/// Bytes → every game → `to_game`, and every located span maps to a line and column.
pub fn reader(data: &[u8]) {
    let Ok(games) = GameSplitter::new(data, ReaderOptions::default()) else {
        return;
    };
    for raw in games {
        let Ok(raw) = raw else { continue };
        let game = raw.to_game();
        for m in &game.moves.moves {
            let _ = raw.span_positions(m.span);
        }
        for e in &game.errors {
            let _ = raw.span_positions(e.span);
        }
        let _ = pdnkit::pdn::game_to_string(&game, &Default::default());
    }
    blocks_read_apart(data);
    // with small limits, every game read keeps within them (the rest are `P107`)
    let small = ReaderOptions {
        max_game_bytes: 300,
        max_game_moves: 6,
        max_game_items: 5,
        ..ReaderOptions::default()
    };
    let Ok(games) = GameSplitter::new(data, small) else {
        return;
    };
    for raw in games.flatten() {
        assert!(
            raw.text.len() <= 300,
            "a game of {} bytes was read",
            raw.text.len()
        );
        let game = raw.to_game();
        let (mut moves, mut items) = (0, game.tags.len());
        let mut lines = vec![&game.moves];
        while let Some(line) = lines.pop() {
            moves += line.moves.len();
            items += line.leading_variations.len() + line.trailing.len();
            for m in &line.moves {
                items += m.before().len() + m.nags().len() + m.after().len();
                items += m.variations().len();
            }
            lines.extend(&line.leading_variations);
            lines.extend(line.moves.iter().flat_map(|m| m.variations()));
        }
        assert!(moves <= 6, "a game of {moves} moves was read");
        assert!(
            items <= 5,
            "a game of {items} tags, comments, NAGs, setups and variations was read"
        );
    }
}

/// Cut as `lint` cuts a big file (at a tag line, or at a first move after a result), the
/// two blocks read apart give the items of the whole (game indices moved on) when the
/// first says it ended so that the second can be read apart: cleanly before a tag line,
/// between games before a move (as `cli::blocks` asks).
fn blocks_read_apart(data: &[u8]) {
    let prefix = &data[..data.len().min(DETECT_PREFIX)];
    let Some(cut) = find_cut(data, data.len() / 2) else {
        return;
    };
    if !read_as_utf8(prefix, prefix.len() == data.len(), None) {
        return;
    }
    // each item as text, its game index (if any) moved on by `games`
    let items = |splitter: &mut dyn Iterator<Item = Result<RawGame, ReadError>>, games: u64| {
        let moved = |item: Result<RawGame, ReadError>| {
            item.map(|mut g| {
                g.index += games;
                g
            })
            .map_err(|e| e.moved_on(games))
        };
        splitter
            .map(|item| format!("{:?}", moved(item)))
            .collect::<Vec<_>>()
    };
    let options = ReaderOptions::default();
    let (Ok(mut whole), Ok(mut first)) = (
        GameSplitter::new(data, options),
        GameSplitter::at(
            &data[..cut],
            options,
            BlockStart {
                line: 1,
                ..BlockStart::default()
            },
        ),
    ) else {
        return;
    };
    let whole = items(&mut whole, 0);
    let mut got = items(&mut first, 0);
    if !first.ended_before(&data[cut..]) {
        return;
    }
    let start = BlockStart::after_utf8(&data[..cut]);
    let Ok(mut second) = GameSplitter::at(&data[cut..], options, start) else {
        return;
    };
    got.extend(items(&mut second, first.games_indexed()));
    assert_eq!(got, whole, "the blocks read apart and the whole disagree");
}

/// FEN text → `Setup` → `Position` → FEN (both styles) → the same position.
pub fn fen(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(setup) = text.parse::<Setup>() else {
        return;
    };
    let Ok(pos) = Position::from_setup(&setup) else {
        return;
    };
    for style in [FenStyle::Numeric, FenStyle::Algebraic] {
        let out = pos.to_fen(style);
        let again: Setup = out
            .parse()
            .unwrap_or_else(|e| panic!("{text:?} -> {out:?} does not parse: {e}"));
        let back = Position::from_setup(&again)
            .unwrap_or_else(|e| panic!("{text:?} -> {out:?} is no position: {e}"));
        assert_eq!(back, pos, "{text:?} -> {out:?} is another position");
        assert_eq!(back.to_fen(style), out, "{out:?} is not a fixed point");
    }
    // and the position's moves are generated without panicking
    let _ = pos.legal_moves();
}

/// Positions the move-token target resolves against: the start, a king with a long
/// capture, the ambiguous short capture of RULES.md §3, a man crowning mid-capture, and
/// a Turkish-strike ring.
const POSITIONS: &[&str] = &[
    "W:W21-32:B1-12",
    "W:WKa1:Bc3,e5,f6,d6,b6,e3",
    "W:Wf4:Bg3,g5,e7,g7",
    "W:Wc5,a1:Bd6,f6,f4,b2",
    "B:BKh8:Wg7,e5,c5,c3,e3,g3,b6,d6",
];

/// Move text → `MoveText` → resolved against a few positions; a resolved move is legal,
/// and written back in full it resolves to itself.
pub fn move_token(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(mt) = text.parse::<MoveText>() else {
        return;
    };
    assert!(mt.squares.len() >= 2 && mt.separators.len() == mt.squares.len() - 1);
    for fen in POSITIONS {
        let pos = Position::from_setup(&fen.parse().unwrap()).unwrap();
        let legal = pos.legal_moves();
        match resolve(&pos, &mt) {
            Resolution::Unique { mv, .. } => {
                assert!(legal.contains(&mv), "{text:?} in {fen}: not legal");
                for squares in [SquareStyle::Algebraic, SquareStyle::Numeric] {
                    let style = Style {
                        squares,
                        captures: CaptureStyle::Full,
                        separator: CaptureSeparator::Cross,
                    };
                    let written = format_move(&pos, &mv, style);
                    let again: MoveText = written.parse().unwrap();
                    match resolve(&pos, &again) {
                        Resolution::Unique { mv: m2, .. } => {
                            assert_eq!(m2, mv, "{text:?} -> {written:?} in {fen}")
                        }
                        other => panic!("{text:?} -> {written:?} in {fen}: {other:?}"),
                    }
                }
            }
            Resolution::Ambiguous(c) => {
                assert!(c.len() >= 2, "{text:?} in {fen}: ambiguous among {c:?}");
                assert!(c.iter().all(|m| legal.contains(m)));
            }
            Resolution::Illegal(why) => {
                let _ = why.to_string();
            }
        }
    }
}

/// Bytes → `check_reader` (every diagnostic rendered), which must agree with the full check
/// of every game; every game replayed without error survives canonical PDN output with the
/// same main line.
pub fn replay(data: &[u8]) {
    let options = CheckOptions::default();
    let report = check_reader("fuzz.pdn", data, &options);
    assert!(!report.io_failed, "reading from memory cannot fail");
    assert_eq!(report.summaries.len(), report.games);
    let mut out = Vec::new();
    for format in [Format::Full, Format::JsonLines, Format::Sarif] {
        let mut r = Renderer::new(&mut out, format, false);
        r.begin().unwrap();
        for d in &report.diagnostics {
            r.diagnostic(d).unwrap();
        }
        r.finish().unwrap();
    }
    // check_reader proves most games through its quick lane: it must say exactly what the
    // full check of every game says.
    let Ok(games) = CheckedGames::new("fuzz.pdn", data, &options) else {
        return;
    };
    let mut full = Vec::new();
    let mut summaries = Vec::new();
    let games: Vec<_> = games
        .filter_map(|item| match item {
            Ok(g) => {
                full.extend(g.diagnostics.iter().cloned());
                summaries.push(format!("{:?}", g.summary()));
                Some(g)
            }
            Err(d) => {
                full.push(d);
                None
            }
        })
        .collect();
    assert_eq!(
        format!("{:?}", report.diagnostics),
        format!("{full:?}"),
        "quick lane and full check disagree"
    );
    let quick: Vec<String> = report.summaries.iter().map(|s| format!("{s:?}")).collect();
    assert_eq!(quick, summaries, "quick lane and full check disagree");
    // A report for machines (lint but for --format full, convert, stats) leaves out the
    // source lines and boards, and nothing else.
    let bare = CheckOptions {
        omit_snippets_and_boards: true,
        ..CheckOptions::default()
    };
    let mut without = report.diagnostics.clone();
    for d in &mut without {
        (d.snippet, d.board) = (None, None);
    }
    assert_eq!(
        format!("{:?}", check_reader("fuzz.pdn", data, &bare).diagnostics),
        format!("{without:?}"),
        "omitting snippets and boards changed more"
    );
    // A report of some rules only (`lint --select`), chosen by the input, is each game's
    // full report of those rules (below the limit of findings, which counts the reported
    // ones only), and a game has errors as it has them with every rule reported.
    let pick = data
        .iter()
        .fold(0u32, |h, &b| h.rotate_left(5) ^ u32::from(b));
    let some = RuleSet::matching(|r| {
        let k = codes::ALL
            .iter()
            .position(|a| a.code == r.code)
            .unwrap_or(0);
        (pick >> (k % 31)) & 1 == 1
    });
    let selecting = CheckOptions {
        report: some,
        ..options
    };
    let selected = DiagnosedGames::new("fuzz.pdn", data, &selecting).unwrap();
    let mut all = games.iter();
    for game in selected.filter_map(Result::ok) {
        let g = all.next().expect("as many games as the full check");
        assert_eq!(
            game.summary.has_errors,
            g.has_errors(),
            "a selection changed whether a game has errors"
        );
        if g.diagnostics.len() <= MAX_GAME_FINDINGS {
            let want: Vec<_> = (g.diagnostics.iter())
                .filter(|d| some.contains(d.rule))
                .collect();
            assert_eq!(
                format!("{:?}", game.diagnostics.iter().collect::<Vec<_>>()),
                format!("{want:?}"),
                "a selection is not the full report filtered"
            );
        }
    }
    assert!(all.next().is_none(), "as many games as the full check");
    // The writers that skip a copy write what the ones they replace write, for any game.
    for g in &games {
        let style = pdnkit::convert::CANONICAL;
        let record = serde_json::to_string(&GameRecord::new("fuzz.pdn", g, style)).unwrap();
        let mut written = Vec::new();
        write_game_json(&mut written, "fuzz.pdn", g, style).unwrap();
        assert_eq!(
            String::from_utf8(written).unwrap(),
            record,
            "JSON writer and record disagree"
        );
        let (mut copied, mut in_place) = (String::new(), String::new());
        write_pdn(&mut copied, g, &PdnOptions::default());
        write_pdn_renotating(&mut in_place, &mut g.clone(), &PdnOptions::default());
        assert_eq!(
            in_place, copied,
            "PDN written in place and from a copy disagree"
        );
    }
    // `convert --to csv` and `stats` read games in one pass (`next_checked`): each game's
    // CSV row must be the full check's.
    let columns = ["Round".to_string()];
    let full_rows: Vec<_> = (games.iter())
        .map(|g| game_row("fuzz.pdn", g, Style::default(), &columns))
        .collect();
    let mut one_pass = DiagnosedGames::new("fuzz.pdn", data, &options).unwrap();
    one_pass.keep_first_plies(usize::MAX);
    let mut rows = Vec::new();
    while let Some(item) = one_pass.next_checked(|checked| match checked {
        Checked::Quick(g) => quick_game_row("fuzz.pdn", &g, Style::default(), &columns),
        Checked::Full(g) => game_row("fuzz.pdn", &g, Style::default(), &columns),
    }) {
        rows.extend(item.ok());
    }
    assert_eq!(
        rows, full_rows,
        "rows read in one pass and cut then checked disagree"
    );
    // Nothing lost: a game replayed completely is written as canonical PDN and read back
    // with the same moves.
    for g in games {
        // unparsed games are written back verbatim (whatever bytes they hold), illegal
        // ones up to the bad move: only games read and replayed cleanly must survive
        if g.replay.status != Status::Complete || !g.game.errors.is_empty() {
            continue;
        }
        // Known limitation (README, section Robustness): control bytes in a tag or comment
        // are written back as they are, and a short output full of them trips the
        // reader's binary-data heuristic (more than 1 byte in 20), which a long input
        // holding the same game did not.
        if g.raw
            .text
            .bytes()
            .any(|b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r'))
        {
            continue;
        }
        let mut text = String::new();
        write_pdn(&mut text, &g, &PdnOptions::default());
        let back: Vec<_> = CheckedGames::new("again.pdn", text.as_bytes(), &options)
            .unwrap()
            .flatten()
            .collect();
        assert_eq!(
            back.len(),
            1,
            "one game written, {} read: {text:?}",
            back.len()
        );
        let moves = |g: &pdnkit::check::CheckedGame| -> Vec<_> {
            g.replay.mainline.iter().map(|p| (p.mv, p.after)).collect()
        };
        assert_eq!(
            moves(&back[0]),
            moves(&g),
            "main line changed through canonical PDN: {text:?}"
        );
    }
}
