//! The movetext and tag-pair parser: one game's text to [`Visitor`] events.
//!
//! The main loop is a hand-driven dispatch on the first byte of each token, so that every
//! problem can be reported and stepped over (the PDN grammar has no synchronisation points
//! a combinator chain could backtrack to). Small token grammars (setup commands, NAGs) are
//! nom parsers. Variations are not parsed recursively: a depth counter capped at
//! [`MAX_VARIATION_DEPTH`] keeps the stack flat whatever the input.

use memchr::{memchr2, memchr3};
use nom::IResult;
use nom::Parser as _;
use nom::bytes::complete::{tag_no_case, take_till};
use nom::character::complete::{char, digit1, space0};
use nom::sequence::{delimited, preceded};

use super::error::{Span, SyntaxError, SyntaxErrorKind as K};
use super::game::CommentKind;
use super::token::{
    RawTag, is_literal_cr, is_space, lex_move, lex_move_number, lex_placeholder, lex_plain_move,
    may_start_result, paren_strength, parse_result, token_end,
};
use super::visitor::{Skip, Visitor};

/// The deepest variation nesting the parser follows; deeper variations are reported
/// (`variation-too-deep`) and skipped, so that no input can exhaust the stack of code that
/// walks the game tree recursively.
pub const MAX_VARIATION_DEPTH: usize = 100;

/// Parses the text of one game, calling the visitor; `stray_prefix` bytes at the start are
/// reported as `stray-text` and skipped, `starts_line` tells whether the text starts at
/// the beginning of a line (a `%` comment is only one at a line start), and `note` is an
/// error found before parsing (such as `decoding-replaced`), reported first.
pub fn visit_game_text<V: Visitor>(
    text: &str,
    stray_prefix: usize,
    starts_line: bool,
    note: Option<SyntaxError>,
    visitor: &mut V,
) -> V::Output {
    let mut p = Parser {
        text,
        b: text.as_bytes(),
        pos: 0,
        v: visitor,
        starts_line,
        in_movetext: false,
        depth: 0,
        open: Vec::new(),
        skip_depth: 0,
        result_seen: false,
        after_result_reported: false,
    };
    p.v.begin_game();
    if let Some(e) = note {
        p.v.syntax_error(e);
    }
    if stray_prefix > 0 && stray_prefix <= text.len() && text.is_char_boundary(stray_prefix) {
        p.error(
            K::StrayText,
            0,
            stray_prefix,
            "text before the first tag holds no moves; skipped",
        );
        p.pos = stray_prefix;
    }
    if p.run() {
        p.finish();
    }
    p.v.end_game()
}

/// Parses a text holding one game (no stray prefix, starting at a line start).
pub fn visit_text<V: Visitor>(text: &str, visitor: &mut V) -> V::Output {
    visit_game_text(text, 0, true, None, visitor)
}

struct Parser<'a, 'v, V> {
    text: &'a str,
    b: &'a [u8],
    pos: usize,
    v: &'v mut V,
    starts_line: bool,
    in_movetext: bool,
    depth: usize,
    /// Where each open variation started, for the unclosed-variation error.
    open: Vec<usize>,
    /// Inside a skipped variation: its nesting depth (0 = not skipping).
    skip_depth: usize,
    result_seen: bool,
    after_result_reported: bool,
}

fn setup_command(i: &str) -> IResult<&str, &str> {
    delimited(
        (char('/'), space0, tag_no_case("FEN"), space0, char('"')),
        take_till(|c| c == '"' || c == '\n' || c == '\r'),
        (char('"'), space0, char('/')),
    )
    .parse(i)
}

fn nag_token(i: &str) -> IResult<&str, &str> {
    preceded(char('$'), digit1).parse(i)
}

impl<V: Visitor> Parser<'_, '_, V> {
    fn error(&mut self, kind: K, start: usize, end: usize, message: impl Into<String>) {
        if self.skip_depth == 0 {
            self.v
                .syntax_error(SyntaxError::new(kind, Span::new(start, end), message));
        }
    }

    fn at_line_start(&self, i: usize) -> bool {
        if i == 0 {
            self.starts_line
        } else {
            matches!(self.b[i - 1], b'\n' | b'\r')
        }
    }

    fn movetext(&mut self) {
        if !self.in_movetext {
            self.in_movetext = true;
            self.v.begin_movetext();
        }
    }

    /// Skips a token that is not PDN: at least one character, up to the next delimiter.
    fn unexpected(&mut self, kind: K, what: &str) {
        let start = self.pos;
        let mut end = token_end(self.b, start);
        if end == start {
            end = start + self.text[start..].chars().next().map_or(1, char::len_utf8);
        }
        let shown: String = self.text[start..end].chars().take(40).collect();
        self.error(kind, start, end, format!("{what} `{shown}`"));
        self.pos = end;
    }

    /// Reads the tokens; `false` when the visitor said it was done before the end.
    fn run(&mut self) -> bool {
        while self.pos < self.b.len() {
            if self.v.done() {
                return false;
            }
            let c = self.b[self.pos];
            if is_space(c) {
                self.pos += 1;
                continue;
            }
            if is_literal_cr(self.b, self.pos) {
                self.pos += 2;
                continue;
            }
            match c {
                b'{' => self.comment(),
                b'%' if self.at_line_start(self.pos) => self.line_comment(CommentKind::Percent),
                b';' => self.line_comment(CommentKind::Semicolon),
                b'[' => self.tag(),
                _ if self.result_seen => {
                    let report = !self.after_result_reported;
                    self.after_result_reported = true;
                    if report {
                        self.unexpected(K::TextAfterResult, "text after the result:");
                    } else {
                        let end = token_end(self.b, self.pos);
                        self.pos = if end > self.pos { end } else { self.pos + 1 };
                    }
                }
                b'(' => self.open_paren(),
                b')' => self.close_paren(),
                b'$' => self.nag(),
                b'/' => self.setup(),
                b'!' | b'?' => {
                    self.movetext();
                    let start = self.pos;
                    let mut end = start;
                    while end < self.b.len() && matches!(self.b[end], b'!' | b'?') {
                        end += 1;
                    }
                    if self.skip_depth == 0 {
                        self.v
                            .strength(&self.text[start..end], Span::new(start, end));
                    }
                    self.pos = end;
                }
                _ => self.word(),
            }
        }
        true
    }

    fn comment(&mut self) {
        let start = self.pos;
        let mut i = start + 1;
        let end = loop {
            match memchr2(b'{', b'}', &self.b[i..]) {
                Some(off) if self.b[i + off] == b'}' => break Some(i + off),
                Some(off) => {
                    self.error(
                        K::NestedComment,
                        i + off,
                        i + off + 1,
                        "`{` inside a comment: PDN comments do not nest",
                    );
                    i += off + 1;
                }
                None => break None,
            }
        };
        let (text_end, next) = match end {
            Some(e) => (e, e + 1),
            None => {
                self.error(
                    K::UnterminatedComment,
                    start,
                    self.b.len(),
                    "comment not closed before the end of the game",
                );
                (self.b.len(), self.b.len())
            }
        };
        if self.skip_depth == 0 {
            self.v
                .comment(&self.text[start + 1..text_end], Span::new(start, next));
        }
        self.pos = next;
    }

    fn line_comment(&mut self, kind: CommentKind) {
        let start = self.pos;
        let end = memchr2(b'\n', b'\r', &self.b[start..]).map_or(self.b.len(), |o| start + o);
        if self.skip_depth == 0 {
            self.v
                .line_comment(kind, &self.text[start + 1..end], Span::new(start, end));
        }
        self.pos = end;
    }

    fn line_end(&self, from: usize) -> usize {
        memchr2(b'\n', b'\r', &self.b[from..]).map_or(self.b.len(), |o| from + o)
    }

    fn skip_blanks(&self, mut i: usize) -> usize {
        while i < self.b.len() && (self.b[i] == b' ' || self.b[i] == b'\t') {
            i += 1;
        }
        i
    }

    fn tag(&mut self) {
        let start = self.pos;
        let b = self.b;
        let mut i = self.skip_blanks(start + 1);
        let name_start = i;
        while i < b.len() && !is_space(b[i]) && !matches!(b[i], b'"' | b']' | b'[') {
            i += 1;
        }
        let name_end = i;
        i = self.skip_blanks(i);
        if name_end == name_start || b.get(i) != Some(&b'"') {
            // skip to the `]` on this line, or to the line end
            let le = self.line_end(start);
            let end = memchr::memchr(b']', &b[start..le]).map_or(le, |o| start + o + 1);
            self.error(
                K::MalformedTag,
                start,
                end,
                "a tag pair is `[Name \"value\"]`",
            );
            self.pos = end;
            return;
        }
        let value_start = i + 1;
        let mut j = value_start;
        let value_end = loop {
            match memchr3(b'"', b'\\', b'\n', &b[j..]).map(|o| j + o) {
                Some(k) if b[k] == b'\\' => {
                    // a backslash escapes the next byte unless that ends the line
                    j = if k + 1 < b.len() && !matches!(b[k + 1], b'\n' | b'\r') {
                        k + 2
                    } else {
                        k + 1
                    };
                }
                Some(k) if b[k] == b'"' => break Some(k),
                _ => break None,
            }
        };
        // the value may not span lines: a `\r` before the closing quote also ends it
        let value_end = match value_end {
            Some(k) if memchr::memchr(b'\r', &b[value_start..k]).is_none() => k,
            _ => {
                let le = self.line_end(value_start);
                self.error(
                    K::UnterminatedString,
                    start,
                    le,
                    "tag value not closed by `\"` on its line",
                );
                self.emit_tag(start, le, name_start, name_end, value_start, le);
                self.pos = le;
                return;
            }
        };
        let mut k = self.skip_blanks(value_end + 1);
        if b.get(k) == Some(&b']') {
            k += 1;
        } else {
            self.error(K::MalformedTag, start, k, "tag pair not closed by `]`");
        }
        self.emit_tag(start, k, name_start, name_end, value_start, value_end);
        self.pos = k;
    }

    fn emit_tag(&mut self, start: usize, end: usize, ns: usize, ne: usize, vs: usize, ve: usize) {
        if self.in_movetext {
            self.error(
                K::TagInMovetext,
                start,
                end,
                "tag pair after the movetext started; ignored",
            );
            return;
        }
        let tag = RawTag {
            name: &self.text[ns..ne],
            raw_value: &self.text[vs..ve],
            span: Span::new(start, end),
        };
        self.v.tag(tag);
    }

    fn open_paren(&mut self) {
        let start = self.pos;
        if let Some(end) = paren_strength(self.b, start) {
            self.movetext();
            if self.skip_depth == 0 {
                self.v
                    .strength(&self.text[start..end], Span::new(start, end));
            }
            self.pos = end;
            return;
        }
        self.movetext();
        self.pos += 1;
        if self.skip_depth > 0 {
            self.skip_depth += 1;
            return;
        }
        if self.depth >= MAX_VARIATION_DEPTH {
            self.error(
                K::VariationTooDeep,
                start,
                start + 1,
                format!("variations nested deeper than {MAX_VARIATION_DEPTH}; skipped"),
            );
            self.skip_depth = 1;
            return;
        }
        match self.v.begin_variation(Span::new(start, start + 1)) {
            Skip(true) => self.skip_depth = 1,
            Skip(false) => {
                self.depth += 1;
                self.open.push(start);
            }
        }
    }

    fn close_paren(&mut self) {
        let start = self.pos;
        self.movetext();
        self.pos += 1;
        if self.skip_depth > 0 {
            self.skip_depth -= 1;
        } else if self.depth == 0 {
            self.error(
                K::UnbalancedVariation,
                start,
                start + 1,
                "`)` without a matching `(`",
            );
        } else {
            self.depth -= 1;
            self.open.pop();
            self.v.end_variation(Span::new(start, start + 1));
        }
    }

    /// Closes what is still open: unclosed variations get an error and an `end_variation`.
    fn close_all(&mut self, at: usize) {
        if self.skip_depth > 0 || !self.open.is_empty() {
            let from = self.open.first().copied().unwrap_or(at);
            self.skip_depth = 0;
            self.error(K::UnbalancedVariation, from, from + 1, "`(` not closed");
        }
        while self.open.pop().is_some() {
            self.depth -= 1;
            self.v.end_variation(Span::new(at, at));
        }
    }

    fn nag(&mut self) {
        self.movetext();
        let start = self.pos;
        match nag_token(&self.text[start..]) {
            Ok((rest, digits)) => {
                let end = self.text.len() - rest.len();
                match digits.parse::<u16>() {
                    Ok(n) if self.skip_depth == 0 => self.v.nag(n, Span::new(start, end)),
                    Ok(_) => {}
                    Err(_) => self.error(K::InvalidNag, start, end, "NAG number above 65535"),
                }
                self.pos = end;
            }
            Err(_) => self.unexpected(K::InvalidNag, "`$` without a number:"),
        }
    }

    fn setup(&mut self) {
        self.movetext();
        let start = self.pos;
        match setup_command(&self.text[start..]) {
            Ok((rest, fen)) => {
                let end = self.text.len() - rest.len();
                if self.skip_depth == 0 {
                    self.v.setup(fen, Span::new(start, end));
                }
                self.pos = end;
            }
            Err(_) => self.unexpected(K::MalformedSetup, "setup command is `/FEN \"…\"/`, found"),
        }
    }

    fn word(&mut self) {
        self.movetext();
        let b = self.b;
        let start = self.pos;
        // a letter starts neither a result nor a move number: most such tokens are moves
        if b[start].is_ascii_alphabetic() && self.emit_move(start) {
            return;
        }
        // the end of the token as delimiters cut it, only where it is needed (not for the
        // moves and move numbers that make up most tokens: they know their own ends)
        let maybe_result = may_start_result(b, start);
        let result_end = maybe_result.then(|| token_end(b, start));
        if let Some((r, end)) =
            result_end.and_then(|end| Some((parse_result(&self.text[start..end])?, end)))
        {
            let span = Span::new(start, end);
            self.pos = end;
            if self.skip_depth > 0 {
                return;
            }
            if self.depth > 0 {
                self.error(
                    K::ResultInVariation,
                    start,
                    end,
                    "result token inside a variation; ignored",
                );
                return;
            }
            self.result_seen = true;
            self.v.result(r, span);
            return;
        }
        // a plainly written numeric move (`22-18`), before asking for a move number
        if let Some(end) = lex_plain_move(b, start) {
            self.emit_lexed_move(start, end, end);
            return;
        }
        if let Some((e, n)) = lex_move_number(b, start) {
            if self.skip_depth == 0 {
                self.v.move_number(n, Span::new(start, e));
            }
            self.pos = e;
            return;
        }
        if self.emit_move(start) {
            return;
        }
        if let Some(e) = lex_placeholder(b, start) {
            if self.skip_depth == 0 {
                self.v.mv(&self.text[start..e], Span::new(start, e));
            }
            self.pos = e;
            return;
        }
        let end = result_end.unwrap_or_else(|| token_end(b, start));
        if self.b[start] == b'.' && end > start && self.b[start..end].iter().all(|&c| c == b'.') {
            // a stray ellipsis (`1. ... h6` across a line break): harmless
            self.pos = end;
            return;
        }
        self.unexpected(
            K::UnexpectedToken,
            "not a move, move number, result or annotation:",
        );
    }

    /// Reads a move (and its glued strength marks) at `start`, if one is there.
    #[inline]
    fn emit_move(&mut self, start: usize) -> bool {
        let Some((move_end, marks_end)) = lex_move(self.b, start) else {
            return false;
        };
        self.emit_lexed_move(start, move_end, marks_end);
        true
    }

    /// Gives the visitor the move `start..move_end` and the marks up to `marks_end`.
    #[inline]
    fn emit_lexed_move(&mut self, start: usize, move_end: usize, marks_end: usize) {
        if self.skip_depth == 0 {
            self.v
                .mv(&self.text[start..move_end], Span::new(start, move_end));
            if marks_end > move_end {
                self.v.strength(
                    &self.text[move_end..marks_end],
                    Span::new(move_end, marks_end),
                );
            }
        }
        self.pos = marks_end;
    }

    fn finish(&mut self) {
        let len = self.b.len();
        self.close_all(len);
        self.movetext();
        if !self.result_seen {
            self.v.syntax_error(missing_terminator(self.text));
        }
    }
}

/// The error at the end of a game's `text` that has no result token.
pub(crate) fn missing_terminator(text: &str) -> SyntaxError {
    // where the game's text ends, not after the blank lines that follow it: those end on
    // the next game's first line, where the finding was then shown
    let end = text.trim_end().len();
    SyntaxError::new(
        K::MissingTerminator,
        Span::new(end, end),
        "game ends without a result or `*`",
    )
}

/// Whether `text` holds at least one move or result: tells a game without tags from stray
/// lines (`3`, `1`) written before a tag block.
pub fn has_moves(text: &str) -> bool {
    struct Probe(bool);
    impl Visitor for Probe {
        type Output = bool;
        fn mv(&mut self, _: &str, _: Span) {
            self.0 = true;
        }
        fn result(&mut self, _: super::token::ResultToken<'_>, _: Span) {
            self.0 = true;
        }
        fn done(&self) -> bool {
            // (the first move or result answers: the rest is not read)
            self.0
        }
        fn end_game(&mut self) -> bool {
            self.0
        }
    }
    visit_text(text, &mut Probe(false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdn::token::{MoveNumber, ResultToken};

    /// Records events as short strings, for readable assertions.
    #[derive(Default)]
    struct Log(Vec<String>);

    impl Visitor for Log {
        type Output = Vec<String>;
        fn tag(&mut self, t: RawTag<'_>) {
            self.0.push(format!("tag {}={}", t.name, t.value()));
        }
        fn begin_movetext(&mut self) {
            self.0.push("movetext".into());
        }
        fn move_number(&mut self, n: MoveNumber, _: Span) {
            self.0
                .push(format!("{}{}", n.number, if n.black { "..." } else { "." }));
        }
        fn mv(&mut self, t: &str, _: Span) {
            self.0.push(format!("mv {t}"));
        }
        fn strength(&mut self, t: &str, _: Span) {
            self.0.push(format!("mark {t}"));
        }
        fn nag(&mut self, n: u16, _: Span) {
            self.0.push(format!("${n}"));
        }
        fn comment(&mut self, t: &str, _: Span) {
            self.0.push(format!("{{{t}}}"));
        }
        fn line_comment(&mut self, k: CommentKind, t: &str, _: Span) {
            self.0.push(format!("{k:?}:{t}"));
        }
        fn begin_variation(&mut self, _: Span) -> Skip {
            self.0.push("(".into());
            Skip(false)
        }
        fn end_variation(&mut self, _: Span) {
            self.0.push(")".into());
        }
        fn setup(&mut self, f: &str, _: Span) {
            self.0.push(format!("fen {f}"));
        }
        fn result(&mut self, r: ResultToken<'_>, _: Span) {
            self.0.push(format!("result {} {:?}", r.raw, r.outcome));
        }
        fn syntax_error(&mut self, e: SyntaxError) {
            self.0.push(format!("error {}", e.kind));
        }
        fn end_game(&mut self) -> Vec<String> {
            std::mem::take(&mut self.0)
        }
    }

    fn log(text: &str) -> String {
        visit_text(text, &mut Log::default()).join(" | ")
    }

    #[test]
    fn tags_and_moves() {
        assert_eq!(
            log(
                "[Event \"a \\\"b\\\"\"]\t[Site  \"x\\\\y\"]  \n[Event       \"p\"]\\r\n1. c3-d4 f6-g5 1-0"
            ),
            "tag Event=a \"b\" | tag Site=x\\y | tag Event=p | movetext | 1. | mv c3-d4 | mv f6-g5 | result 1-0 WhiteWins"
        );
    }

    #[test]
    fn move_number_forms() {
        assert_eq!(
            log("01.32-28 1... 19-23 2. ... 28x19 *"),
            "movetext | 1. | mv 32-28 | 1... | mv 19-23 | 2... | mv 28x19 | result * Unknown"
        );
        assert_eq!(log("1. 2-0"), "movetext | 1. | result 2-0 WhiteWins");
        assert_eq!(
            log("1. 1- 6 35x 4 1-1"),
            "movetext | 1. | mv 1- 6 | mv 35x 4 | result 1-1 Draw"
        );
    }

    #[test]
    fn strength_marks() {
        assert_eq!(
            log("1.32-28!? 19-23(!?!!!) 2.28x19 ! 27-20* 18-22 (?) ?? *"),
            "movetext | 1. | mv 32-28 | mark !? | mv 19-23 | mark (!?!!!) | 2. | mv 28x19 | mark ! | mv 27-20 | mark * | mv 18-22 | mark (?) | mark ?? | result * Unknown"
        );
    }

    #[test]
    fn comments_nags_variations_setup() {
        assert_eq!(
            log(
                "{start} 1. a3b4 $1 {[%clock w0:01 B0:02]} ( 1. 3228 $14 ) (( ) ( c3-d4 )) /FEN \"W:W21:B1\"/ - - ; tail\n% line\n0-1"
            ),
            "{start} | movetext | 1. | mv a3b4 | $1 | {[%clock w0:01 B0:02]} | ( | 1. | mv 3228 | $14 | ) | ( | ( | ) | ( | mv c3-d4 | ) | ) | fen W:W21:B1 | mv - - | Semicolon: tail | Percent: line | result 0-1 BlackWins"
        );
    }

    #[test]
    fn recovery() {
        assert_eq!(
            log("1. 33-29 { nested { comment } } *"),
            "movetext | 1. | mv 33-29 | error nested-comment | { nested { comment } | error unexpected-token | result * Unknown"
        );
        assert_eq!(
            log("1. c3-d4 { open"),
            "movetext | 1. | mv c3-d4 | error unterminated-comment | { open} | error missing-terminator"
        );
        assert_eq!(
            log("c3-d4 ) ( e3-f4"),
            "movetext | mv c3-d4 | error unbalanced-variation | ( | mv e3-f4 | error unbalanced-variation | ) | error missing-terminator"
        );
        assert_eq!(
            log("[Event \"x]\n[Bad]\n[Site \"y\"\n1. zz c3-d4 $ $99999 /FEN x/ *"),
            "error unterminated-string | tag Event=x] | error malformed-tag | error malformed-tag | tag Site=y | movetext | 1. | error unexpected-token | mv c3-d4 | error invalid-nag | error invalid-nag | error malformed-setup | error unexpected-token | result * Unknown"
        );
        assert_eq!(
            log("c3-d4 ( e3-f4 1-0 ) * junk more"),
            "movetext | mv c3-d4 | ( | mv e3-f4 | error result-in-variation | ) | result * Unknown | error text-after-result"
        );
        assert_eq!(
            log("c3-d4 [Event \"x\"] *"),
            "movetext | mv c3-d4 | error tag-in-movetext | result * Unknown"
        );
    }

    #[test]
    fn literal_backslash_r_is_blank() {
        assert_eq!(
            log("[A \"1\"]\\r\n\\r\n1. 35-30\\r\n6.\\r\n1/2-1/2\\r"),
            "tag A=1 | movetext | 1. | mv 35-30 | 6. | result 1/2-1/2 Draw"
        );
    }

    #[test]
    fn deep_nesting_is_capped() {
        let text = format!(
            "c3-d4 {} e3-f4 {} *",
            "(".repeat(100_000),
            ")".repeat(100_000)
        );
        let events = visit_text(&text, &mut Log::default());
        assert_eq!(
            events.iter().filter(|e| *e == "(").count(),
            MAX_VARIATION_DEPTH
        );
        assert_eq!(
            events.iter().filter(|e| *e == ")").count(),
            MAX_VARIATION_DEPTH
        );
        assert!(events.contains(&"error variation-too-deep".to_string()));
        assert_eq!(events.last().unwrap(), "result * Unknown");
        // unclosed: errors, balanced events, no overflow
        let text = "(".repeat(100_000);
        let events = visit_text(&text, &mut Log::default());
        assert_eq!(
            events.iter().filter(|e| *e == ")").count(),
            MAX_VARIATION_DEPTH
        );
    }

    #[test]
    fn skipped_variations_emit_nothing() {
        struct NoVars(usize);
        impl Visitor for NoVars {
            type Output = usize;
            fn begin_variation(&mut self, _: Span) -> Skip {
                Skip(true)
            }
            fn mv(&mut self, _: &str, _: Span) {
                self.0 += 1;
            }
            fn end_game(&mut self) -> usize {
                self.0
            }
        }
        assert_eq!(
            visit_text("a1-b2 (c3-d4 (e5-f6)) g7-h8 *", &mut NoVars(0)),
            2
        );
    }

    #[test]
    fn stray_lines_hold_no_moves() {
        assert!(!has_moves("3\n1\n"));
        assert!(has_moves("1.a3b4"));
        assert!(has_moves("*"));
        // (answered at the first move: what follows it is not read)
        assert!(has_moves("1. c3-d4 {unclosed (f6-g5"));
    }

    #[test]
    fn a_visitor_that_is_done_ends_the_reading() {
        /// The events up to the second move.
        #[derive(Default)]
        struct TwoMoves(Log, usize);
        impl Visitor for TwoMoves {
            type Output = Vec<String>;
            fn mv(&mut self, t: &str, s: Span) {
                self.1 += 1;
                self.0.mv(t, s);
            }
            fn syntax_error(&mut self, e: SyntaxError) {
                self.0.0.push(format!("error {}", e.message));
            }
            fn done(&self) -> bool {
                self.1 == 2
            }
            fn end_game(&mut self) -> Vec<String> {
                std::mem::take(&mut self.0.0)
            }
        }
        // no further event, and none of the end's findings (no result, an open variation)
        let events = visit_text("1. c3-d4 f6-g5 2. (b2-c3", &mut TwoMoves::default());
        assert_eq!(events, ["mv c3-d4", "mv f6-g5"]);
        let mut all = TwoMoves(Log::default(), 10);
        let events = visit_text("1. c3-d4 f6-g5 2. (b2-c3", &mut all);
        assert!(events.iter().any(|e| e.starts_with("error")), "{events:?}");
    }
}
