//! The fuzz targets' bodies. Each takes arbitrary bytes and panics only when pdnkit breaks
//! one of its promises (a panic inside pdnkit, or an invariant below that does not hold).
//!
//! This file uses nothing but `pdnkit`, so the main crate's regression test
//! (`tests/regressions.rs`) includes it with `#[path]` and replays the saved crashing
//! inputs of `fixtures/regressions/` through exactly these bodies.

#[path = "annotations.rs"]
mod annotations;
#[path = "records.rs"]
mod records;

use pdnkit::check::checker::{GameReport, Keep};
use pdnkit::check::{CheckOptions, MAX_GAME_FINDINGS};
use pdnkit::convert::pdn::PdnOptions;
use pdnkit::convert::{Converter, Format, convert_reader};
use pdnkit::diag::Diagnostic;
use pdnkit::diag::codes::{self, RuleSet};
use pdnkit::diag::emit::{Format as RenderFormat, Renderer};
use pdnkit::pdn::input::cuttable_encoding;
use pdnkit::pdn::{BlockStart, Decoder, GameBuilder, ReadError, Reader, ReaderOptions};
use pdnkit::replay::Status;
use pdnkit::rules::fen::Setup;
use pdnkit::rules::notation::{
    CaptureSeparator, CaptureStyle, MoveText, Resolution, SquareStyle, Style, format_move, resolve,
};
use pdnkit::rules::{FenStyle, Position};
use pdnkit::run::{Checked, Event, RunOptions, Task, check_reader, run_reader};
use records::GameRecord;

/// A target body.
pub type Target = fn(&[u8]);

/// The targets by name, for drivers.
pub const TARGETS: &[(&str, Target)] = &[
    ("reader", reader),
    ("fen", fen),
    ("move_token", move_token),
    ("replay", replay),
    ("encoding", encoding),
    ("annotations", annotations),
];

/// The target called `name`.
pub fn by_name(name: &str) -> Option<Target> {
    TARGETS.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
}

/// Every item of `input` read with `options` (from `start`, when given) as text: a game's
/// index, place, text and tree, or a problem; game indices moved on by `games`.
fn items(
    input: &[u8],
    options: ReaderOptions,
    start: Option<BlockStart>,
    games: u64,
) -> Vec<String> {
    let reader = match start {
        None => Reader::new(input, options),
        Some(start) => Reader::at(input, options, start),
    };
    let Ok(mut reader) = reader else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut builder = GameBuilder::default();
    while let Some(item) = reader.read_game(&mut builder) {
        out.push(match item {
            Ok(game) => {
                let g = reader.game();
                format!("{} {:?} {:?} {game:?}", g.index + games, g.start, g.text)
            }
            Err(ReadError::At {
                kind,
                game_index,
                line,
                column,
                message,
            }) => format!(
                "{kind} {:?} {line}:{column} {message}",
                game_index.map(|i| i + games)
            ),
            Err(e) => format!("{e}"),
        });
    }
    out
}

/// Bytes → every game → its tree; every span maps to a line and column; the tree is
/// written back; cut where a game surely starts, the blocks read apart give the items of
/// the whole; with small limits, every game read keeps within them.
pub fn reader(data: &[u8]) {
    let Ok(mut reader) = Reader::new(data, ReaderOptions::default()) else {
        return;
    };
    let mut builder = GameBuilder::default();
    while let Some(item) = reader.read_game(&mut builder) {
        let Ok(game) = item else { continue };
        let source = reader.game();
        for m in &game.moves.moves {
            let _ = source.span_positions(m.span);
        }
        for e in &game.errors {
            let _ = source.span_positions(e.span);
        }
        let _ = pdnkit::pdn::game_to_string(&game, &Default::default());
    }
    blocks_read_apart(data);
    let small = ReaderOptions {
        max_game_bytes: 300,
        max_game_moves: 6,
        max_game_items: 5,
        ..ReaderOptions::default()
    };
    let Ok(mut reader) = Reader::new(data, small) else {
        return;
    };
    while let Some(item) = reader.read_game(&mut builder) {
        let Ok(game) = item else { continue };
        let len = reader.game().text.len();
        assert!(len <= 300, "a game of {len} bytes was read");
        let (mut moves, mut items) = (0, game.tags.len() + game.before_tags.len());
        let mut lines = vec![&game.moves];
        while let Some(line) = lines.pop() {
            moves += line.moves.len();
            let annotations = (line.moves.iter())
                .flat_map(|m| m.before().iter().chain(m.after()))
                .chain(&line.trailing);
            for a in annotations {
                items += 1;
                lines.extend(a.variation());
            }
        }
        assert!(moves <= 6, "a game of {moves} moves was read");
        assert!(
            items <= 5,
            "a game of {items} tags, comments, NAGs, setups and variations was read"
        );
    }
}

/// Cut as `lint` cuts a long input (before a line where a game surely starts), the two
/// blocks read apart give the items of the whole, game indices moved on.
fn blocks_read_apart(data: &[u8]) {
    let Some(cut) = pdnkit::pdn::boundary::find_cut(data, data.len() / 2) else {
        return;
    };
    let prefix = &data[..data.len().min(pdnkit::pdn::input::DETECT_PREFIX)];
    let Some(encoding) = cuttable_encoding(prefix, prefix.len() == data.len(), None, false) else {
        return;
    };
    let options = ReaderOptions {
        encoding: Some(encoding),
        ..ReaderOptions::default()
    };
    let whole = items(data, options, None, 0);
    let first = BlockStart {
        line: 1,
        replaced_before: false,
        offset: 0,
    };
    let mut got = items(&data[..cut], options, Some(first), 0);
    let games = Reader::at(&data[..cut], options, first)
        .map(|mut r| {
            while r.read_game(&mut pdnkit::pdn::MoveCount(0)).is_some() {}
            r.games_indexed()
        })
        .unwrap_or(0);
    let before = &data[..cut];
    let second = BlockStart {
        line: 1 + pdnkit::pdn::source::line_breaks(before),
        replaced_before: encoding == encoding_rs::UTF_8 && std::str::from_utf8(before).is_err(),
        offset: cut as u64,
    };
    got.extend(items(&data[cut..], options, Some(second), games));
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

/// A checked game, all of it kept.
struct Kept {
    text: String,
    report: GameReport,
    diagnostics: Vec<Diagnostic>,
    has_errors: bool,
}

/// Keeps every game whole.
struct KeepAll;

impl Task for KeepAll {
    type Output = Kept;

    fn keep(&self) -> Keep {
        Keep {
            plies: usize::MAX,
            moves: true,
            tree: true,
            tags_only: false,
            positions: false,
        }
    }

    fn game(&self, g: Checked<'_>) -> Kept {
        Kept {
            text: g.source.text.to_string(),
            report: g.report.clone(),
            diagnostics: g.diagnostics,
            has_errors: g.has_errors,
        }
    }
}

/// Every game of `data`, checked with `options` and kept whole.
fn kept(data: &[u8], options: &CheckOptions) -> Vec<Kept> {
    let mut games = Vec::new();
    let run = RunOptions {
        check: *options,
        ..RunOptions::default()
    };
    let _ = run_reader("fuzz.pdn", data, &run, &KeepAll, |e| {
        if let Event::Game(g) = e {
            games.push(g);
        }
        Ok(())
    });
    games
}

/// The bytes `converter` writes for the games of `data`.
fn converted(data: &[u8], converter: &Converter) -> Vec<u8> {
    let mut out = Vec::new();
    convert_reader(
        "fuzz.pdn",
        data,
        converter,
        &CheckOptions::default(),
        &mut out,
    )
    .expect("writing to memory cannot fail");
    out
}

/// Bytes → every game checked (every diagnostic rendered in every format); a report of
/// some rules is the full report filtered; a report without snippets and boards lacks
/// nothing else; every game's JSON reads back to its tree; every game replayed without
/// error survives canonical PDN output with the same main line.
pub fn replay(data: &[u8]) {
    let options = CheckOptions::default();
    let report = check_reader("fuzz.pdn", data, &options);
    assert!(!report.io_failed, "reading from memory cannot fail");
    assert_eq!(report.summaries.len(), report.games);
    let mut out = Vec::new();
    for format in [
        RenderFormat::Full,
        RenderFormat::JsonLines,
        RenderFormat::Sarif,
    ] {
        let mut r = Renderer::new(&mut out, format, false);
        r.begin().unwrap();
        for d in &report.diagnostics {
            r.diagnostic(d).unwrap();
        }
        r.finish().unwrap();
    }
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
    let games = kept(data, &options);
    let selected = kept(data, &selecting);
    assert_eq!(
        selected.len(),
        games.len(),
        "as many games whatever is reported"
    );
    for (game, g) in selected.iter().zip(&games) {
        assert_eq!(
            game.has_errors, g.has_errors,
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
    // Nothing lost: each game's JSON reads back to its tree.
    let jsonl = Converter::new(Format::Jsonl, pdnkit::convert::CANONICAL);
    let lines = converted(data, &jsonl);
    let records: Vec<GameRecord> = (lines.split(|&b| b == b'\n'))
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).expect("each line is a game's JSON"))
        .collect();
    assert_eq!(records.len(), games.len(), "a line of JSON a game");
    for (record, g) in records.iter().zip(&games) {
        let mut tree = g.report.game.clone().expect("the tree is kept");
        tree.normalize();
        let back = record.to_game();
        // (the object holds a name's values together, in the order its name was first
        // written)
        let mut grouped = tree.tags.clone();
        let first = |name: &str| tree.tags.iter().position(|t| t.name == name);
        grouped.sort_by_key(|t| first(&t.name));
        assert_eq!(
            (&back.tags, &back.moves),
            (&grouped, &tree.moves),
            "JSON lost something"
        );
    }
    // A game replayed completely is written as canonical PDN and read back with the same
    // moves.
    let pdn = Converter::new(
        Format::Pdn(PdnOptions::default()),
        pdnkit::convert::CANONICAL,
    );
    for g in games {
        // unparsed games are written back verbatim (whatever bytes they hold), illegal
        // ones up to the bad move: only games read and replayed cleanly must survive
        if g.report.status != Status::Complete || !g.report.syntax_errors.is_empty() {
            continue;
        }
        // Known limitation (README, section Robustness): control bytes in a tag or comment
        // are written back as they are, and a short output full of them trips the
        // reader's binary-data heuristic (more than 1 byte in 20), which a long input
        // holding the same game did not.
        if g.text
            .bytes()
            .any(|b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r'))
        {
            continue;
        }
        let text = converted(g.text.as_bytes(), &pdn);
        let back = kept(&text, &options);
        assert_eq!(
            back.len(),
            1,
            "one game written, {} read: {text:?}",
            back.len()
        );
        let moves =
            |r: &GameReport| -> Vec<_> { r.mainline.iter().map(|p| (p.mv, p.after)).collect() };
        assert_eq!(
            moves(&back[0].report),
            moves(&g.report),
            "main line changed through canonical PDN: {:?}",
            String::from_utf8_lossy(&text)
        );
    }
}

/// Bytes → a text written in Windows-1251, KOI8-R, IBM866 or UTF-8 (the first byte
/// chooses; and whether the text is of words, as names and comments are, or of any
/// letters), in UTF-8 with stray bytes where the input says. Read back with detection: no
/// such text is binary; a guess said to be clear of a text of words is the right
/// encoding; UTF-8 with at most one stray byte per four characters beyond ASCII is read as
/// UTF-8, each stray byte one U+FFFD in place.
pub fn encoding(data: &[u8]) {
    use encoding_rs::{IBM866, KOI8_R, UTF_8, WINDOWS_1251};
    const WORDS: [&str; 32] = [
        "Иванов",
        "Петров",
        "Сидоров",
        "Абациев",
        "Гантварг",
        "Хохлов",
        "Кукуев",
        "Вирный",
        "Чемпионат",
        "СССР",
        "Москва",
        "Ленинград",
        "Киев",
        "турнир",
        "партия",
        "ничья",
        "белые",
        "чёрные",
        "ход",
        "жертва",
        "финал",
        "полуфинал",
        "командный",
        "кубок",
        "России",
        "Украины",
        "город",
        "клуб",
        "отложена",
        "сильнее",
        "проигрывает",
        "В.",
    ];
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let words = first & 4 != 0;
    let lower: Vec<char> = ('а'..='я').collect();
    let upper: Vec<char> = ('А'..='Я').collect();
    let other: Vec<char> = " .,\n\"[]-:1c3d4".chars().chain('a'..='z').collect();
    let encoding = [WINDOWS_1251, KOI8_R, IBM866, UTF_8][usize::from(first % 4)];
    let (mut text, mut expected, mut bytes) = (String::new(), String::new(), Vec::new());
    let mut strays = 0usize;
    let mut piece = String::new();
    for &b in rest {
        // (0xf0..: a stray byte, in UTF-8 only; below, a character or a word)
        if b >= 0xf0 && encoding == UTF_8 {
            bytes.push(0xff);
            expected.push('\u{fffd}');
            strays += 1;
            continue;
        }
        piece.clear();
        if words {
            piece.push_str(WORDS[usize::from(b) % WORDS.len()]);
            piece.push_str([" ", "\n", ", ", "\"]\n[White \""][usize::from(b / 32) % 4]);
        } else {
            piece.push(match b % 8 {
                0..=4 => lower[usize::from(b / 8) % lower.len()],
                5 => upper[usize::from(b / 8) % upper.len()],
                _ => other[usize::from(b / 8) % other.len()],
            });
        }
        text.push_str(&piece);
        expected.push_str(&piece);
        let (encoded, _, unmappable) = encoding.encode(&piece);
        assert!(!unmappable, "{piece} in {}", encoding.name());
        bytes.extend_from_slice(&encoded);
    }
    let Ok(mut decoder) = Decoder::new(&bytes[..], None) else {
        return;
    };
    let mut out = String::new();
    while decoder.read_into(&mut out).unwrap() > 0 {}
    assert!(!decoder.is_binary(), "text read as binary");
    if let Some(guess) = decoder.guess().filter(|g| g.sure && words) {
        assert_eq!(
            guess.encoding,
            encoding,
            "a clear guess is wrong for {text:?} ({})",
            guess.describe()
        );
        assert_eq!(out, text);
    }
    let letters = text.chars().filter(|c| !c.is_ascii()).count();
    if encoding == UTF_8 && letters >= 4 * strays {
        assert_eq!(
            decoder.encoding(),
            UTF_8,
            "{strays} stray bytes, {letters} letters"
        );
        assert_eq!(out, expected);
    }
}

/// Bytes → every game, its tree and its items (the reader's events: tags, and comments,
/// NAGs, setup commands, variations and moves in document order); every game without
/// errors (which `convert --to pdn` writes through the writer, not verbatim) written as
/// PDN reads back as one game with the same tags and items, and written again is the same
/// text.
pub fn annotations(data: &[u8]) {
    let options = ReaderOptions::default();
    for (game, want) in annotations::read_items(data, options, GameBuilder::default()) {
        let severity =
            |e: &pdnkit::pdn::SyntaxError| pdnkit::diag::codes::of_read_error(e.kind).severity;
        if game
            .errors
            .iter()
            .any(|e| severity(e) == pdnkit::diag::Severity::Error)
        {
            continue;
        }
        let text = pdnkit::pdn::game_to_string(&game, &Default::default());
        // Known limitation (see `replay`): control bytes of a tag or comment are written
        // as they are, and a short game full of them reads as binary data.
        if Decoder::new(text.as_bytes(), None).is_ok_and(|d| d.is_binary()) {
            continue;
        }
        let back = annotations::read_items(text.as_bytes(), options, GameBuilder::default());
        let [(again, got)] = &back[..] else {
            panic!("one game written, {} read: {text:?}", back.len());
        };
        assert_eq!(
            got.tags, want.tags,
            "the tags changed through PDN: {text:?}"
        );
        if got.items != want.items {
            let k = (want.items.iter().zip(&got.items))
                .position(|(a, b)| a != b)
                .unwrap_or(want.items.len().min(got.items.len()));
            panic!(
                "the annotations changed through PDN at item {k}: {:?} read, {:?} written: {text:?}",
                want.items.get(k),
                got.items.get(k)
            );
        }
        let twice = pdnkit::pdn::game_to_string(again, &Default::default());
        assert_eq!(twice, text, "PDN written twice differs");
    }
}
