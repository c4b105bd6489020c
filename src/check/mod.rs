//! Checking games: the [`checker::Checker`] replays each game as the reader reads it and
//! says what it found; [`diagnose`] turns that into located [`Diagnostic`]s (line, column,
//! the source line, the board before a bad move). [`crate::run`] does both for every game
//! of every input.
//!
//! ```
//! use pdnkit::check::checker::{Checker, Keep};
//! use pdnkit::check::{diagnose, CheckOptions};
//! use pdnkit::pdn::Reader;
//! let pdn = "[Event \"x\"]\n1. c3-d4 f6-e5 2. b2-c3 *\n";
//! let options = CheckOptions::default();
//! let mut reader = Reader::new(pdn.as_bytes(), options.reader_options()).unwrap();
//! let mut checker = Checker::new(options.replay_options(), Keep::default());
//! checker.read_game(&mut reader).unwrap().unwrap();
//! let (diagnostics, _) = diagnose("game.pdn", reader.game(), checker.report(), &options.replay_options());
//! let illegal = diagnostics.iter().find(|d| d.rule.name == "illegal-move").unwrap();
//! assert_eq!((illegal.line, illegal.column, illegal.ply), (2, 19, Some(3)));
//! ```

pub mod checker;
pub mod tags;

use crate::diag::codes::{self, RuleSet};
use crate::diag::fix::{Applicability, Edit, Fix, Proposal};
use crate::diag::{Diagnostic, Severity, Snippet};
use crate::draw::Edition;
use crate::pdn::{GameSource, ReaderOptions, Span, SyntaxError};
use crate::replay::{Finding, ReplayOptions};

/// How to check.
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckOptions {
    /// Text encoding; `None` detects it.
    pub encoding: Option<&'static encoding_rs::Encoding>,
    /// [`ReaderOptions::text`]: never refuse an input as binary data.
    pub text: bool,
    /// Replay every game by this variant's rules, whatever its tags say (`--variant`).
    pub variant: Option<crate::rules::Variant>,
    /// The draw-rule edition.
    pub edition: Edition,
    /// [`ReaderOptions::max_game_bytes`]; `None` for the reader's default.
    pub max_game_bytes: Option<usize>,
    /// [`ReaderOptions::max_game_moves`]; `None` for the reader's default.
    pub max_game_moves: Option<usize>,
    /// [`ReaderOptions::max_game_items`]; `None` for the reader's default.
    pub max_game_items: Option<usize>,
    /// [`ReplayOptions::omit_snippets_and_boards`].
    pub omit_snippets_and_boards: bool,
    /// [`ReplayOptions::report`]: the rules whose findings are made (every rule by
    /// default).
    pub report: RuleSet,
    /// [`ReplayOptions::fill_roster`].
    pub fill_roster: bool,
    /// [`ReplayOptions::captures`].
    pub captures: Option<crate::rules::notation::CaptureStyle>,
    /// [`ReplayOptions::least_shown`].
    pub least_shown: Option<Severity>,
}

impl CheckOptions {
    /// How the reader is to read with these options.
    pub fn reader_options(&self) -> ReaderOptions {
        let default = ReaderOptions::default();
        ReaderOptions {
            encoding: self.encoding,
            text: self.text,
            max_game_bytes: self.max_game_bytes.unwrap_or(default.max_game_bytes),
            max_game_moves: self.max_game_moves.unwrap_or(default.max_game_moves),
            max_game_items: self.max_game_items.unwrap_or(default.max_game_items),
        }
    }

    /// How games are to be replayed with these options.
    pub fn replay_options(&self) -> ReplayOptions {
        ReplayOptions {
            edition: self.edition,
            variant: self.variant,
            omit_snippets_and_boards: self.omit_snippets_and_boards,
            report: self.report,
            fill_roster: self.fill_roster,
            captures: self.captures,
            least_shown: self.least_shown,
        }
    }
}

/// Locates what the checker found in one game (`report`, of the game `game` of the input
/// `path`): its diagnostics in text order, and whether a finding of a rule not reported
/// was an error.
pub fn diagnose(
    path: &str,
    game: GameSource<'_>,
    report: &checker::GameReport,
    options: &ReplayOptions,
) -> (Vec<Diagnostic>, bool) {
    let mut found: Vec<Unlocated> = Vec::with_capacity(
        report.syntax_errors.len() + report.tag_findings.len() + report.findings.len(),
    );
    found.extend(report.syntax_errors.iter().map(Unlocated::Syntax));
    found.extend(report.tag_findings.iter().map(Unlocated::Finding));
    found.extend(report.findings.iter().map(Unlocated::Finding));
    // the draw verdict's findings: about a ply at its move, the others at the result
    let result_span = (report.result.as_ref().map(|t| t.span)).or_else(|| {
        (report.tags.iter())
            .find(|t| t.name == "Result")
            .map(|t| t.span)
    });
    let mut unreported = false;
    let draws: Vec<Finding> = match &report.draw {
        Some(verdict) => crate::replay::draw_findings(
            verdict,
            |rule| {
                let keep = options.report.contains(rule);
                unreported |= !keep && rule.severity == crate::diag::Severity::Error;
                keep
            },
            report.plies,
            |p| {
                let span = report.main_spans[p as usize - 1];
                let text = game.text.get(span.start..span.end).unwrap_or_default();
                (span, text.to_string())
            },
            result_span,
        )
        .collect(),
        None => Vec::new(),
    };
    found.extend(draws.iter().map(Unlocated::Finding));
    let (diagnostics, unreported_here) = self::report(path, game, found, report, options);
    (
        diagnostics,
        unreported || unreported_here || report.unreported_errors,
    )
}

/// The findings one game reports at most, besides its syntax errors (which the reader
/// bounds: [`crate::pdn::MAX_GAME_ERRORS`]): past them one more, `P118 too-many-errors`,
/// says how many more there were (a game of 10,000 tags, within the reader's limits, can
/// have 10,000 duplicates, and each located diagnostic holds its source line).
pub const MAX_GAME_FINDINGS: usize = 1_000;

/// Which findings a check makes ([`ReplayOptions::report`]), and whether one it left
/// out was an error (the game has errors all the same).
#[derive(Clone, Copy)]
pub(super) struct Reporting {
    rules: RuleSet,
    pub(super) unreported_errors: bool,
}

impl Reporting {
    pub(super) fn new(options: &ReplayOptions) -> Reporting {
        Reporting {
            rules: options.report,
            unreported_errors: false,
        }
    }

    /// Whether every rule is reported.
    fn all(&self) -> bool {
        self.rules == RuleSet::ALL
    }

    /// Whether a finding of `rule` whose diagnostic has `severity` is made; notes it when
    /// it is an error that is not.
    pub(super) fn keeps(&mut self, rule: &crate::diag::Rule, severity: Severity) -> bool {
        let keep = self.rules.contains(rule);
        self.unreported_errors |= !keep && severity == Severity::Error;
        keep
    }
}

/// Something a game's check found, not located yet.
enum Unlocated<'a> {
    /// A syntax error of the reader.
    Syntax(&'a SyntaxError),
    /// A finding of the checker.
    Finding(&'a Finding),
}

impl Unlocated<'_> {
    fn span(&self) -> Option<Span> {
        match self {
            Unlocated::Syntax(e) => Some(e.span),
            Unlocated::Finding(f) => f.span,
        }
    }

    /// The rule of the diagnostic this becomes.
    fn rule(&self) -> &'static crate::diag::Rule {
        match self {
            Unlocated::Syntax(e) => codes::of_read_error(e.kind),
            Unlocated::Finding(f) => f.rule,
        }
    }

    /// The rule of a finding that counts towards [`MAX_GAME_FINDINGS`]; `None` for a
    /// syntax error, which the reader bounds.
    fn counted_rule(&self) -> Option<&'static crate::diag::Rule> {
        match self {
            Unlocated::Syntax(_) => None,
            Unlocated::Finding(f) => Some(f.rule),
        }
    }
}

/// Locates what a game's check found, in text order: its syntax errors and at most
/// [`MAX_GAME_FINDINGS`] other findings, then one `P118 too-many-errors` for the rest
/// (an error if some of the rest are, so that the game still counts as having errors).
/// `unmade` are findings counted and not made, each after the findings in `found` of
/// its kind (tag findings beyond the first ones: see [`tags::check_tags_up_to`]), so that
/// there are more than [`MAX_GAME_FINDINGS`] in `found` before them where there are any.
///
/// Only the rules of [`ReplayOptions::report`] are reported (and counted towards the
/// limit); the second value says whether the others held an error.
fn report(
    path: &str,
    raw: GameSource<'_>,
    mut found: Vec<Unlocated>,
    game: &checker::GameReport,
    options: &ReplayOptions,
) -> (Vec<Diagnostic>, bool) {
    let unmade = game.tags_unmade;
    let mut reporting = Reporting::new(options);
    if !reporting.all() {
        found.retain(|u| {
            let rule = u.rule();
            reporting.keeps(rule, rule.severity)
        });
    }
    // (a finding of the game as a whole is located where its text starts)
    let start = |u: &Unlocated| u.span().map_or(raw.stray_prefix, |s| s.start);
    found.sort_by_key(start);
    // Syntax errors are bounded by the reader already (`pdn::MAX_GAME_ERRORS`, then its
    // own P118); the rest are counted here. One past the limit is reported itself: a line
    // saying so would take its place.
    let others = found.iter().filter(|u| u.counted_rule().is_some()).count() + unmade.findings;
    let limit = if others > MAX_GAME_FINDINGS + 1 {
        MAX_GAME_FINDINGS
    } else {
        others
    };
    let mut locator = Locator::new(path, raw, options.omit_snippets_and_boards);
    let mut out: Vec<Diagnostic> = Vec::new();
    let (mut kept, mut dropped, mut dropped_errors) = (0, unmade.findings, unmade.errors);
    let mut first_dropped = None;
    for u in found {
        if let Some(rule) = u.counted_rule() {
            if kept == limit {
                dropped += 1;
                dropped_errors += usize::from(rule.severity == crate::diag::Severity::Error);
                first_dropped = first_dropped.or(Some(u.span()));
                continue;
            }
            kept += 1;
        }
        let rule = u.rule();
        if !options.shows(rule) {
            out.push(Diagnostic::new(rule, String::new()));
            continue;
        }
        out.push(match u {
            Unlocated::Syntax(e) => {
                let mut d = locator.syntax(e);
                if e.kind == crate::pdn::SyntaxErrorKind::MissingTerminator {
                    d.fix = (game.terminator_from_tag.as_ref())
                        .map(|result| Box::new(locator.terminator(result)));
                }
                d
            }
            Unlocated::Finding(f) => locator.finding(f),
        });
    }
    // (an error when some of the findings it stands for are)
    let p118 = match dropped_errors {
        0 => codes::TOO_MANY_ERRORS.severity,
        _ => Severity::Error,
    };
    if let Some(span) = first_dropped.filter(|_| reporting.keeps(&codes::TOO_MANY_ERRORS, p118)) {
        let mut message = format!("{dropped} more findings in this game are not reported");
        if dropped_errors > 0 {
            message.push_str(&format!(" ({dropped_errors} of them errors)"));
        }
        let mut d = Diagnostic::new(&codes::TOO_MANY_ERRORS, message);
        d.severity = p118;
        out.push(locator.locate(d, span));
    }
    // (positions grow with offsets: this only keeps equal places in the order above)
    out.sort_by_key(|d| (d.line, d.column));
    (out, reporting.unreported_errors)
}

/// Locates the diagnostics of one game: fills in path, game, line, column and the source
/// snippet from a span. Positions are counted on from the last one asked, and the source
/// line of the last one is kept, so that a game's diagnostics, asked for in text order,
/// cost about one pass over its text together (located one by one from the game's start,
/// they would cost the square of its length).
struct Locator<'a> {
    path: &'a str,
    raw: GameSource<'a>,
    /// [`ReplayOptions::omit_snippets_and_boards`].
    omit_snippets_and_boards: bool,
    positions: crate::pdn::source::Positions<'a>,
    /// The last source line: its bytes `start..end` in the game's text, and its length in
    /// characters.
    line: Option<(usize, usize, usize)>,
}

impl<'a> Locator<'a> {
    fn new(path: &'a str, raw: GameSource<'a>, omit_snippets_and_boards: bool) -> Self {
        Locator {
            path,
            raw,
            omit_snippets_and_boards,
            positions: raw.positions(),
            line: None,
        }
    }

    fn syntax(&mut self, e: &SyntaxError) -> Diagnostic {
        let d = Diagnostic::new(codes::of_read_error(e.kind), e.message.clone());
        self.locate(d, Some(e.span))
    }

    fn finding(&mut self, f: &Finding) -> Diagnostic {
        let mut d = Diagnostic::new(f.rule, f.message.clone());
        d.ply = f.ply;
        d.move_text = f.move_text.clone();
        if !self.omit_snippets_and_boards {
            d.board = f.board.clone();
        }
        d.notes.extend(f.notes.iter().cloned());
        d.fix = f.fix.as_ref().map(|p| Box::new(self.fix(p)));
        self.locate(d, f.span)
    }

    /// The fix of a movetext without a result: `result` (the Result tag's) written after
    /// the game's last text.
    fn terminator(&self, result: &str) -> Fix {
        let end = self.raw.text.trim_end().len();
        self.fix(&Proposal::replace(
            Applicability::Safe,
            format!("end the movetext with `{result}`, the Result tag's result"),
            Span::new(end, end),
            format!(" {result}"),
        ))
    }

    /// A fix proposed for the game, located in the input (a new line in it written with
    /// the game's line ends).
    fn fix(&self, p: &Proposal) -> Fix {
        let raw = self.raw;
        let crlf = raw.text.contains("\r\n");
        let edits = (p.edits.iter())
            .map(|(span, content)| {
                let content = match crlf {
                    true => content.replace('\n', "\r\n"),
                    false => content.clone(),
                };
                let (from, to) = raw.span_positions(*span);
                Edit {
                    start: raw.input_offset(span.start),
                    end: raw.input_offset(span.end),
                    line: from.line as usize,
                    column: from.column as usize,
                    end_line: to.line as usize,
                    end_column: to.column as usize,
                    content,
                }
            })
            .collect();
        Fix {
            applicability: p.applicability,
            message: p.message.clone(),
            edits,
        }
    }

    /// The source line around byte `at`: its bytes and its length in characters.
    fn line_around(&mut self, at: usize) -> (usize, usize, usize) {
        if let Some(line @ (start, end, _)) = self.line {
            if start <= at && at <= end {
                return line;
            }
        }
        let text = self.raw.text;
        // (memchr: the line of nearly every game's diagnostic, a missing tag, is looked
        // for)
        let bytes = text.as_bytes();
        let start = memchr::memrchr2(b'\n', b'\r', &bytes[..at]).map_or(0, |i| i + 1);
        let end = memchr::memchr2(b'\n', b'\r', &bytes[at..]).map_or(text.len(), |i| at + i);
        let line = (start, end, text[start..end].chars().count());
        self.line = Some(line);
        line
    }

    fn locate(&mut self, mut d: Diagnostic, span: Option<Span>) -> Diagnostic {
        let raw = self.raw;
        d.path = self.path.to_string();
        d.game = Some(raw.index as usize);
        let span = span.unwrap_or_else(|| {
            let at = raw.stray_prefix.min(raw.text.len());
            Span::new(at, at)
        });
        let start = self.positions.position(span.start);
        d.line = start.line as usize;
        d.column = start.column as usize;
        if self.omit_snippets_and_boards {
            return d;
        }
        // The source line: from the last line break before the span to the next one.
        let at = span.start.min(raw.text.len());
        let (line_start, line_end, chars) = self.line_around(at);
        let end = span.end.clamp(at, line_end);
        // (at most a snippet's width is ever shown)
        let width = raw.text[at..end]
            .chars()
            .take(SNIPPET_WHOLE_LINE + 1)
            .count()
            .max(1);
        // The first line of a game may start mid-line in the file: what came before it on
        // that line is shown as blanks, so that columns are the file's.
        let blanks = if line_start == 0 && raw.start.column > 1 {
            raw.start.column as usize - 1
        } else {
            0
        };
        // (the column the position says: the characters before `at` on its line, blanks
        // included, plus one)
        let column = start.column as usize;
        let line_chars = blanks + chars;
        // A long line (a whole game or file on one line) is shown as a window around the
        // span, so that a diagnostic never holds a copy of megabytes.
        let (from, to) = if line_chars <= SNIPPET_WHOLE_LINE {
            (1, line_chars)
        } else {
            (
                column.saturating_sub(SNIPPET_BEFORE).max(1),
                (column + SNIPPET_AFTER).min(line_chars),
            )
        };
        // (one allocation for a line shown whole, at most a window's for a longer one)
        let lead = blanks.min(to).saturating_sub(from - 1);
        let bytes = (line_end - line_start).min(4 * SNIPPET_WHOLE_LINE);
        let mut shown = String::with_capacity(bytes + lead + 6);
        if from > 1 {
            shown.push('…');
        }
        shown.extend(std::iter::repeat_n(' ', lead));
        // the line's characters from the window's first on, found from `at` (the
        // character `column - 1 - blanks` of the line), not from the line's start
        let first = (from - 1).saturating_sub(blanks);
        let back = (column - 1 - blanks).saturating_sub(first);
        let window_start = if back == 0 {
            at
        } else {
            raw.text[line_start..at]
                .char_indices()
                .rev()
                .nth(back - 1)
                .map_or(line_start, |(k, _)| line_start + k)
        };
        // (the characters wanted, as one slice: nearly always the rest of the line)
        let rest = &raw.text[window_start..line_end];
        let wanted = to.saturating_sub(blanks.max(from - 1));
        let end = if rest.len() <= wanted {
            rest.len()
        } else {
            rest.char_indices()
                .nth(wanted)
                .map_or(rest.len(), |(k, _)| k)
        };
        shown.push_str(&rest[..end]);
        if to < line_chars {
            shown.push('…');
        }
        d.snippet = Some(Snippet {
            line_text: shown,
            column: column + 1 - from + usize::from(from > 1),
            width: width.min(to + 1 - column.min(to)).max(1),
        });
        d
    }
}

/// Source lines up to this many characters are shown whole in a diagnostic.
const SNIPPET_WHOLE_LINE: usize = 1_000;
/// Of a longer line, the characters shown before the span's start and after it.
const SNIPPET_BEFORE: usize = 80;
const SNIPPET_AFTER: usize = 160;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::checker::{Checker, Keep};
    use crate::pdn::{Position, Reader};

    /// The snippets of every diagnostic of `pdn`.
    fn snippets(pdn: &str) -> Vec<(usize, Snippet)> {
        let options = CheckOptions::default();
        let mut reader = Reader::new(pdn.as_bytes(), options.reader_options()).unwrap();
        let mut checker = Checker::new(options.replay_options(), Keep::default());
        let mut all = Vec::new();
        while let Some(item) = checker.read_game(&mut reader) {
            if item.is_err() {
                continue;
            }
            let report = checker.report();
            let (found, _) = diagnose("long.pdn", reader.game(), report, &options.replay_options());
            all.extend(
                found
                    .into_iter()
                    .filter_map(|d| Some((d.column, d.snippet?))),
            );
        }
        all
    }

    /// A game's text and place, owned.
    #[derive(Clone)]
    struct RawGame {
        index: u64,
        text: String,
        start: Position,
        stray_prefix: usize,
    }

    impl RawGame {
        fn source(&self) -> GameSource<'_> {
            GameSource {
                index: self.index,
                text: &self.text,
                start: self.start,
                offset: 0,
                units: Default::default(),
                stray_prefix: self.stray_prefix,
            }
        }

        fn position(&self, at: usize) -> Position {
            self.source().position(at)
        }
    }

    #[test]
    fn a_long_line_is_shown_as_a_window_around_the_span() {
        // a whole game on one line, its illegal move 6,000 characters in
        let filler = "{".to_string() + &"ж".repeat(6_000) + "}";
        let pdn = format!("[Event \"x\"]\n1. c3-d4 {filler} f6-e5 2. b2-c3 e5:c3 *\n");
        let all = snippets(&pdn);
        let (column, snip) = all
            .iter()
            .find(|(_, s)| s.line_text.contains("b2-c3"))
            .expect("the illegal move is shown");
        assert!(*column > 6_000);
        assert!(
            snip.line_text.chars().count() <= 80 + 160 + 2,
            "{}",
            snip.line_text
        );
        assert!(snip.line_text.starts_with('…') && !snip.line_text.ends_with('…'));
        // the caret still points at the move
        let shown: String = snip
            .line_text
            .chars()
            .skip(snip.column - 1)
            .take(5)
            .collect();
        assert_eq!((shown.as_str(), snip.width), ("b2-c3", 5));
        // short lines are shown whole, as before
        let short = snippets("[Event \"x\"]\n1. c3-d4 f6-e5 2. b2-c3 *\n");
        assert!(short.iter().all(|(_, s)| !s.line_text.contains('…')));
        assert!(
            short
                .iter()
                .any(|(_, s)| s.line_text == "1. c3-d4 f6-e5 2. b2-c3 *")
        );
    }

    #[test]
    fn a_game_starting_far_into_a_line_does_not_copy_the_line() {
        // the second game starts after 200,000 characters of the first on the same line:
        // its snippets stand for them with a few blanks, not 200,000
        let pdn = format!(
            "[Event \"a\"]\n1. {}*[Event \"b\"]\n1. c3-d4 f6-e5 2. b2-c3 *\n",
            "c3-d4 d6-c5 ".repeat(200_000 / 12)
        );
        for (_, snip) in snippets(&pdn) {
            assert!(
                snip.line_text.chars().count() < 400,
                "{} chars",
                snip.line_text.len()
            );
        }
    }

    #[test]
    fn diagnostics_are_located_as_from_the_games_start() {
        // games of every line shape: generated, on one long line, CR LF and lone CR line
        // ends, starting mid-line in the file, with multibyte text
        let mut text = Vec::new();
        pdnkit_gen::Generator::new(3)
            .write_games(&mut text, 40)
            .unwrap();
        let text = String::from_utf8(text).unwrap();
        let one_line = text.replace('\n', " ");
        let mut games = Vec::new();
        for (k, t) in [
            text.clone(),
            one_line.clone(),
            text.replace('\n', "\r\n"),
            text.replace('\n', "\r"),
            format!("x {}", &text[..20_000.min(text.len())]),
        ]
        .iter()
        .enumerate()
        {
            let mut reader = Reader::new(t.as_bytes(), Default::default()).unwrap();
            while let Some(item) = reader.read_game(&mut crate::pdn::MoveCount(0)) {
                if item.is_err() {
                    continue;
                }
                let g = reader.game();
                let mut raw = RawGame {
                    index: g.index,
                    text: g.text.to_string(),
                    start: g.start,
                    stray_prefix: g.stray_prefix,
                };
                if k == 4 {
                    raw.start.column = 7;
                }
                games.push(raw);
            }
        }
        let mut raw = games[0].clone();
        raw.text = format!(
            "{}{}",
            "ж".repeat(3000),
            one_line.chars().take(9000).collect::<String>()
        );
        games.push(raw);
        let mut rng = pdnkit_gen::SplitMix64::new(17);
        let mut located = 0;
        for raw in &games {
            let mut locator = Locator::new("t.pdn", raw.source(), false);
            let boundaries: Vec<usize> = (0..=raw.text.len())
                .filter(|&k| raw.text.is_char_boundary(k))
                .collect();
            // in text order mostly, now and then back
            let mut at = 0;
            for _ in 0..60 {
                let step = rng.below(raw.text.len() as u64 / 20 + 2) as usize;
                at = if rng.below(8) == 0 {
                    rng.below(raw.text.len() as u64 + 1) as usize
                } else {
                    at + step
                };
                let start = *boundaries
                    .iter()
                    .find(|&&k| k >= at.min(raw.text.len()))
                    .unwrap();
                let len = rng.below(40) as usize;
                let end = *boundaries
                    .iter()
                    .find(|&&k| k >= (start + len).min(raw.text.len()))
                    .unwrap();
                let span = (rng.below(10) > 0).then(|| Span::new(start, end));
                let d = || Diagnostic::new(&codes::ILLEGAL_MOVE, "x".to_string());
                let got = locator.locate(d(), span);
                let want = locate_oracle("t.pdn", raw, d(), span);
                assert_eq!(
                    format!("{got:?}"),
                    format!("{want:?}"),
                    "{span:?} in game {}",
                    raw.index
                );
                located += 1;
            }
        }
        assert!(located > 5_000, "{located}");
    }

    /// `Locator::locate` as it was, each position counted from the game's start: the oracle.
    fn locate_oracle(
        path: &str,
        raw: &RawGame,
        mut d: Diagnostic,
        span: Option<Span>,
    ) -> Diagnostic {
        d.path = path.to_string();
        d.game = Some(raw.index as usize);
        let span = span.unwrap_or_else(|| {
            let at = raw.stray_prefix.min(raw.text.len());
            Span::new(at, at)
        });
        let start = raw.position(span.start);
        d.line = start.line as usize;
        d.column = start.column as usize;
        // The source line: from the last line break before the span to the next one.
        let at = span.start.min(raw.text.len());
        let line_start = raw.text[..at].rfind(['\n', '\r']).map_or(0, |i| i + 1);
        let line_end = raw.text[at..]
            .find(['\n', '\r'])
            .map_or(raw.text.len(), |i| at + i);
        let line_text = &raw.text[line_start..line_end];
        let end = span.end.clamp(at, line_end);
        let width = raw.text[at..end].chars().count().max(1);
        // The first line of a game may start mid-line in the file: what came before it on that
        // line is shown as blanks, so that columns are the file's.
        let blanks = if line_start == 0 && raw.start.column > 1 {
            raw.start.column as usize - 1
        } else {
            0
        };
        let column = blanks + raw.text[line_start..at].chars().count() + 1;
        let line_chars = blanks + line_text.chars().count();
        // A long line (a whole game or file on one line) is shown as a window around the
        // span, so that a diagnostic never holds a copy of megabytes.
        let (from, to) = if line_chars <= SNIPPET_WHOLE_LINE {
            (1, line_chars)
        } else {
            (
                column.saturating_sub(SNIPPET_BEFORE).max(1),
                (column + SNIPPET_AFTER).min(line_chars),
            )
        };
        let mut shown = String::new();
        if from > 1 {
            shown.push('…');
        }
        shown.extend(std::iter::repeat_n(
            ' ',
            blanks.min(to).saturating_sub(from - 1),
        ));
        shown.extend(
            line_text
                .chars()
                .skip((from - 1).saturating_sub(blanks))
                .take(to.saturating_sub(blanks.max(from - 1))),
        );
        if to < line_chars {
            shown.push('…');
        }
        d.snippet = Some(Snippet {
            line_text: shown,
            column: column + 1 - from + usize::from(from > 1),
            width: width.min(to + 1 - column.min(to)).max(1),
        });
        d
    }
}
