//! Writes a [`Game`] back as canonical PDN.
//!
//! Tags: the comments written before them first, then the seven roster tags in standard
//! order (Event, Site, Date, Round, White, Black, Result), then the others in their
//! original order, one per line, values escaped. Movetext: every annotation where the tree
//! has it, so in the order it was written (comments written between tags come after the
//! tags, still in order); a move number before every White move, and `N...` before a
//! Black move that follows an interruption (comment, variation) or does not follow from
//! the previous move; lines wrapped at [`WriteOptions::max_line_width`]; the result last
//! (`*` when the game had none, so the written game always ends with a terminator).
//!
//! Reading the written text again gives the same [`Game`] (after [`Game::normalize`]),
//! except that a missing result comes back as `*`.

use memchr::memrchr2;
use std::fmt::{self, Write};

use super::char_count;
use super::game::{Annotation, CommentKind, Game, Line, Move, Tag};
use super::token::{escape, parse_result};
use crate::Color;

/// The seven-tag roster, in its standard order.
pub const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// What to write.
#[derive(Clone, Debug)]
pub struct WriteOptions {
    /// Write comments (`{…}`, `%`, `;`).
    pub comments: bool,
    /// Write variations.
    pub variations: bool,
    /// Write NAGs.
    pub nags: bool,
    /// Write strength marks (`!`, `?`…).
    pub strength: bool,
    /// Wrap movetext lines at this many characters (a longer token gets a line of its own).
    pub max_line_width: usize,
    /// The line ending (`"\n"` or `"\r\n"`).
    pub newline: &'static str,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            comments: true,
            variations: true,
            nags: true,
            strength: true,
            max_line_width: 80,
            newline: "\n",
        }
    }
}

/// The tags in writing order: the roster tags (first of each name) in standard order, then
/// the others in their original order.
pub fn tags_in_writing_order(tags: &[Tag]) -> Vec<&Tag> {
    let mut order = Vec::with_capacity(tags.len());
    let mut taken = vec![false; tags.len()];
    for name in ROSTER {
        if let Some(i) = tags.iter().position(|t| t.name == name) {
            taken[i] = true;
            order.push(&tags[i]);
        }
    }
    order.extend(
        tags.iter()
            .zip(taken)
            .filter(|(_, done)| !done)
            .map(|(t, _)| t),
    );
    order
}

/// Writes one game (tags, a blank line, movetext, a final line end).
pub fn write_game<W: Write>(out: &mut W, game: &Game, opts: &WriteOptions) -> fmt::Result {
    let nl = opts.newline;
    // (straight into `out`: a game of megabytes of comment was copied into a buffer of
    // twice its size first)
    let mut w = Wrapper {
        out,
        written: Ok(()),
        column: 0,
        opts,
        lone_dash: false,
    };
    w.annotations(&game.before_tags);
    if w.column > 0 {
        w.newline();
    }
    w.written?;
    for t in tags_in_writing_order(&game.tags) {
        write!(w.out, "[{} \"{}\"]{nl}", t.name, escape(&t.value))?;
    }
    if !game.tags.is_empty() {
        w.out.write_str(nl)?;
    }
    w.line(&game.moves);
    w.token(game.result.as_ref().map_or("*", |r| r.raw.as_str()));
    w.written?;
    out.write_str(nl)
}

/// The game as a string (see [`write_game`]).
pub fn game_to_string(game: &Game, opts: &WriteOptions) -> String {
    let mut s = String::new();
    write_game(&mut s, game, opts).expect("writing to a String cannot fail");
    s
}

struct Wrapper<'o, W> {
    out: &'o mut W,
    /// The first error of `out`, if any (what follows it is not written).
    written: fmt::Result,
    column: usize,
    opts: &'o WriteOptions,
    /// The last token written is a placeholder `-`: a placeholder after it, a blank
    /// between, would be read as one placeholder `- -`.
    lone_dash: bool,
}

impl<W: Write> Wrapper<'_, W> {
    fn put(&mut self, s: &str) {
        if self.written.is_ok() {
            self.written = self.out.write_str(s);
        }
    }

    fn newline(&mut self) {
        self.put(self.opts.newline);
        self.column = 0;
    }

    fn token(&mut self, t: &str) {
        self.enclosed("", t, "");
    }

    /// The token `open`, `t`, `close` (`open` and `close` without line breaks), written
    /// in pieces: `t` may be a comment of megabytes.
    fn enclosed(&mut self, open: &str, t: &str, close: &str) {
        let Some(last_break) = memrchr2(b'\n', b'\r', t.as_bytes()) else {
            // one line (every move and number, most comments): measured once
            let width = char_count(open) + char_count(t) + char_count(close);
            self.separate(width);
            self.put(open);
            self.put(t);
            self.put(close);
            self.column += width;
            return;
        };
        // the width of the token's first line (as `lines` cuts it)
        let first_line = t.lines().next().map_or(0, char_count);
        let width = match t.contains('\n') || close.is_empty() {
            true => char_count(open) + first_line,
            false => char_count(open) + char_count(t) + char_count(close),
        };
        self.separate(width);
        self.put(open);
        self.put(t);
        self.put(close);
        self.column = char_count(&t[last_break + 1..]) + char_count(close);
    }

    /// A space before a token `width` wide, or a line break when it would not fit.
    fn separate(&mut self, width: usize) {
        self.lone_dash = false;
        if self.column > 0 {
            if self.column + 1 + width > self.opts.max_line_width {
                self.newline();
            } else {
                self.put(" ");
                self.column += 1;
            }
        }
    }

    /// Writes annotations; returns whether they interrupt the moves: whether a comment,
    /// setup command or variation was written (a NAG reads as the move's, as a strength
    /// mark does, and needs no `N...` after it).
    fn annotations(&mut self, list: &[Annotation]) -> bool {
        let mut interrupts = false;
        for a in list {
            match a {
                Annotation::Comment(c) if self.opts.comments => {
                    interrupts = true;
                    match c.kind {
                        CommentKind::Brace => self.enclosed("{", &c.text, "}"),
                        CommentKind::Semicolon => {
                            self.enclosed(";", &c.text, "");
                            self.newline();
                        }
                        CommentKind::Percent => {
                            if self.column > 0 {
                                self.newline();
                            }
                            self.put("%");
                            self.put(&c.text);
                            self.newline();
                        }
                    }
                }
                Annotation::Setup(s) => {
                    interrupts = true;
                    self.enclosed("/FEN \"", &s.fen, "\"/");
                }
                Annotation::Nag(n) if self.opts.nags => {
                    // (without format!: most NAGs follow a move, one in a few moves)
                    let mut digits = itoa::Buffer::new();
                    self.one_line_token(&["$", digits.format(*n)]);
                }
                Annotation::Variation(line) if self.opts.variations => {
                    interrupts = true;
                    self.variation(line);
                }
                _ => {}
            }
        }
        interrupts
    }

    fn variation(&mut self, line: &Line) {
        self.token("(");
        self.line(line);
        self.token(")");
    }

    fn line(&mut self, line: &Line) {
        let mut interrupted = true;
        let mut expected: Option<(u32, Color)> = None;
        for (i, m) in line.moves.iter().enumerate() {
            // A comment or NAG written between two moves is read back as belonging after
            // the first; so when this move has some before it, its number goes first
            // (`2. {c} c3-d4`), which keeps them with this move. A setup command cannot be
            // misread, and the line's first move has nothing before it to be misread for.
            let annotations_first =
                i == 0 || matches!(m.before().first(), Some(Annotation::Setup(_)));
            if annotations_first {
                interrupted |= self.annotations(m.before());
                self.number(m, interrupted, expected);
            } else {
                let has_before = !m.before().is_empty();
                self.number(m, interrupted || has_before, expected);
                self.annotations(m.before());
            }
            let glued = self.mv(m);
            interrupted = self.annotations(&m.after()[glued..]);
            expected = m.number.zip(m.side).map(|(n, s)| match s {
                Color::White => (n, Color::Black),
                Color::Black => (n.saturating_add(1), Color::White),
            });
        }
        self.annotations(&line.trailing);
    }

    fn number(&mut self, m: &Move, interrupted: bool, expected: Option<(u32, Color)>) {
        let (Some(n), Some(side)) = (m.number, m.side) else {
            return;
        };
        let dots = match side {
            Color::White => ".",
            Color::Black if interrupted || expected != Some((n, side)) => "...",
            Color::Black => return,
        };
        // (without format!: one per move of every game written)
        let mut digits = itoa::Buffer::new();
        self.one_line_token(&[digits.format(n), dots]);
    }

    /// Writes the move and its strength marks; returns how many of its `after` it wrote
    /// with them (glued to it).
    fn mv(&mut self, m: &Move) -> usize {
        let strength = m.strength().filter(|_| self.opts.strength).unwrap_or("");
        if self.lone_dash && m.text.starts_with('-') {
            // (the reader reads `- -` across blanks, not across a line break)
            self.newline();
        }
        if m.text.ends_with('-') {
            // A placeholder (`- -`, `-`) ends only at a delimiter: a mark glued to it
            // would be read as a word of its own, one after a blank is read as its mark.
            self.one_line_token(&[&m.text]);
            self.lone_dash = m.text == "-";
            if !strength.is_empty() {
                self.one_line_token(&[strength]);
            }
            return 0;
        }
        // A move written as a result token (`1-0`) is read as a move only with something
        // glued to it (`1-0$9`): its NAG stays glued.
        if let (Some(Annotation::Nag(n)), "") = (m.after().first(), strength) {
            if self.opts.nags && parse_result(&m.text).is_some() {
                let mut digits = itoa::Buffer::new();
                self.one_line_token(&[&m.text, "$", digits.format(*n)]);
                return 1;
            }
        }
        // (a byte at a time: a move is a few bytes, shorter than memchr's set-up)
        if !m.text.bytes().any(|b| b == b'\n' || b == b'\r') {
            // (a mark has no line break: the reader ends it at a blank)
            self.one_line_token(&[&m.text, strength]);
        } else {
            // (the reader gives no move with a line break in it; were there one, it is
            // measured as the general token is)
            self.token(&[m.text.as_str(), strength].concat());
        }
        0
    }

    /// A token made of `pieces`, none with a line break, written one after another
    /// without putting them together first (a move number and its dots, a move and its
    /// mark: two strings made and dropped for every move of every game written).
    fn one_line_token(&mut self, pieces: &[&str]) {
        let width = pieces.iter().map(|p| char_count(p)).sum();
        self.separate(width);
        for piece in pieces {
            self.put(piece);
        }
        self.column += width;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) -> (String, Game) {
        let mut g = Game::parse(text);
        let written = game_to_string(&g, &WriteOptions::default());
        let mut again = Game::parse(&written);
        g.normalize();
        again.normalize();
        g.tags = tags_in_writing_order(&g.tags)
            .into_iter()
            .cloned()
            .collect();
        if g.result.is_none() {
            g.result = again.result.clone().filter(|r| r.raw == "*");
        }
        assert_eq!(g.before_tags, again.before_tags, "{written}");
        assert_eq!(g.tags, again.tags, "{written}");
        assert_eq!(g.moves, again.moves, "{written}");
        assert_eq!(g.result, again.result, "{written}");
        (written, again)
    }

    #[test]
    fn canonical_form() {
        let (w, _) = round_trip(
            "[Black \"B\"]\n[Opening \"x\"]\n[Event \"a \\\"q\\\" \\\\ D\\'A\"]\n{pre} 1.c3-d4!? $1 {c} (1. e3-f4 h6-g5) f6-g5 2. ... b2-c3 ; lc\n% pc\n/FEN \"W:W1:B2\"/ a7-b6 1-0",
        );
        assert_eq!(
            w,
            "[Event \"a \\\"q\\\" \\\\ D\\\\'A\"]\n[Black \"B\"]\n[Opening \"x\"]\n\n{pre} 1. c3-d4!? $1 {c} ( 1. e3-f4 h6-g5 ) 1... f6-g5 2... b2-c3 ; lc\n% pc\n/FEN \"W:W1:B2\"/ 3. a7-b6 1-0\n"
        );
    }

    #[test]
    fn wraps_at_80_columns() {
        let text = (1..60)
            .map(|n| format!("{n}. c3-d4 f6-g5"))
            .collect::<Vec<_>>()
            .join(" ")
            + " *";
        let (w, _) = round_trip(&text);
        assert!(w.lines().all(|l| l.chars().count() <= 80), "{w}");
        assert!(w.lines().count() > 10);
    }

    #[test]
    fn comments_are_wrapped_by_their_first_and_last_lines() {
        // a comment's first line decides whether it starts a line (here 8 + 1 + 72 > 80);
        // the column goes on from its last line (`cd}`: 3, so 3 + 1 + 72 fits); a comment
        // is never cut
        let (long, shorter) = ("x".repeat(71), "x".repeat(70));
        let g = Game::parse(&format!(
            "1. c3-d4 {{{long}\nend}} f6-g5 2. b2-c3 {{ab\r\ncd}} {{{shorter}}} 2... g5-h4 *"
        ));
        assert_eq!(
            game_to_string(&g, &WriteOptions::default()),
            format!(
                "1. c3-d4\n{{{long}\nend}} 1... f6-g5 2. b2-c3 {{ab\r\ncd}} {{{shorter}}}\n2... g5-h4 *\n"
            )
        );
        // a line comment and a setup command are tokens too
        let g = Game::parse(&format!("1. c3-d4 ;{long}\n/FEN \"W:W1:B2\"/ f6-g5 *"));
        assert_eq!(
            game_to_string(&g, &WriteOptions::default()),
            format!("1. c3-d4\n;{long}\n/FEN \"W:W1:B2\"/ 1... f6-g5 *\n")
        );
    }

    #[test]
    fn odd_forms_survive() {
        round_trip("1. - - 2. - - 3. 1- 6 35x 4 ( ) (( a1-b2 ) ( c3-d4 )) 27-20* 18-22 (?) *");
        round_trip(" ( ( 1. g3-h4 b6-a5 ) ( 1. e3-d4 ) ) 1. g3-h4 b6-a5 0-2");
        round_trip("c3-d4 e5-f4 (g5-h4 {x}) {y} 1/2-1/2");
        let (w, _) =
            round_trip("1. c3-d4 f6-g5 2. {before} $4 b2-c3 $1 /FEN \"B:W1:B2\"/ {c} g5-h4 *");
        assert!(
            w.contains("2. {before} $4 b2-c3 $1 /FEN \"B:W1:B2\"/ {c} 2... g5-h4"),
            "{w}"
        );
        let (w, g) = round_trip("1. c3-d4");
        assert!(w.ends_with("c3-d4 *\n"));
        assert_eq!(g.result.unwrap().raw, "*");
    }

    #[test]
    fn comments_before_the_tags_stay_before_them() {
        let (w, g) = round_trip("% escape\n{c}\n[Site \"S\"]\n% mid\n[Event \"E\"]\n1. c3-d4 *");
        assert_eq!(
            w,
            "% escape\n{c}\n[Event \"E\"]\n[Site \"S\"]\n\n% mid\n1. c3-d4 *\n"
        );
        assert_eq!(g.before_tags.len(), 2);
    }

    /// Found by the `annotations` fuzz target: `- -!` is read as a placeholder and a word.
    #[test]
    fn a_mark_after_a_placeholder_is_not_glued_to_it() {
        let (w, _) = round_trip("1. - - ! 2. - (?) *");
        assert_eq!(w, "1. - - ! 2. - (?) *\n");
    }

    /// Found by the `annotations` fuzz target: two placeholders `-` were written `- -`.
    #[test]
    fn two_placeholders_are_not_written_as_one() {
        let (w, g) = round_trip("-\n- -\n- *");
        assert_eq!(w, "-\n- - - *\n");
        assert_eq!(g.moves.moves.len(), 3);
    }

    /// Found by the `annotations` fuzz target: the move `1-0` of `1-0$9` was written
    /// `1-0 $9`, which is a result.
    #[test]
    fn a_move_written_as_a_result_keeps_its_nag_glued() {
        let (w, _) = round_trip("1-0$9 $1 0-1! *");
        assert_eq!(w, "1-0$9 $1 0-1! *\n");
    }

    #[test]
    fn options_strip() {
        let g = Game::parse("1. c3-d4! $1 {c} (1. e3-f4) f6-g5 *");
        let opts = WriteOptions {
            comments: false,
            variations: false,
            nags: false,
            strength: false,
            ..WriteOptions::default()
        };
        assert_eq!(game_to_string(&g, &opts), "1. c3-d4 f6-g5 *\n");
    }
}
