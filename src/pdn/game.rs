//! The game tree: what a converter, a writer or a replayer walks.
//!
//! ```text
//! Game
//! ├── before_tags: [Annotation]                            comments before the first tag
//! ├── tags: [Tag { name, raw_value, value, span }]         in file order
//! ├── moves: Line                                          the main line
//! │   ├── moves: [Move]
//! │   │   ├── before: [Annotation]      what stands between the previous move's `after` and this move
//! │   │   ├── number, side              as written (`12.`/`12...`) or inferred from the previous move
//! │   │   ├── text, span, strength
//! │   │   └── after: [Annotation]       NAGs, comments, variations (alternatives to THIS move)…
//! │   └── trailing: [Annotation]        what follows the last move
//! ├── result: Option<GameResult>
//! └── errors: [SyntaxError]
//! ```
//!
//! Everything but moves is an [`Annotation`] (a comment, a setup command, a NAG, a
//! variation), and every list of them is in document order, so that a game written back
//! has its annotations in the order they were read. The run of them between two moves is
//! cut into the first move's `after` and the second's `before` at the first move number
//! or setup command (which belong to the next move), except that a variation, an
//! alternative to the move before it, always goes to that move's `after`, and takes along
//! what stands between them. So only a line's first move has variations in its `before`:
//! those written before the line's first move (one generator puts alternatives before the
//! move they replace) are kept where they are, so that nothing is guessed.
//!
//! Nesting is at most [`crate::pdn::MAX_VARIATION_DEPTH`] deep, so recursive walks are safe.

use super::error::{Span, SyntaxError, SyntaxErrorKind};
use super::token::{MoveNumber, Outcome, RawTag, ResultScale, ResultToken};
use super::visitor::{Skip, Visitor};
use crate::Color;
use compact_str::CompactString;

/// The syntax errors a [`Game`] keeps, at most: past them one more, of kind
/// [`SyntaxErrorKind::TooManyErrors`], says that the rest are not reported.
pub const MAX_GAME_ERRORS: usize = 1_000;

/// A tag pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    /// The name as written.
    pub name: String,
    /// The value as written between the quotes (escapes not decoded).
    pub raw_value: String,
    /// The value with `\"` and `\\` decoded.
    pub value: String,
    /// The whole `[Name "value"]` in the game text.
    pub span: Span,
}

/// Which syntax a comment was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CommentKind {
    /// `{…}`.
    Brace,
    /// `%` at the start of a line, to the end of the line.
    Percent,
    /// `;` to the end of the line.
    Semicolon,
}

/// A comment, text verbatim (embedded commands such as `[%clock …]` included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// The syntax used.
    pub kind: CommentKind,
    /// The text between the braces, or after the line-comment marker.
    pub text: String,
    /// Where it was.
    pub span: Span,
}

/// A `/FEN "…"/` setup command in the movetext: the position is re-set before the next move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The FEN text between the quotes (parsed by the rules side, not here).
    pub fen: String,
    /// Where it was.
    pub span: Span,
}

/// Something in a line that is not a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Annotation {
    /// A comment.
    Comment(Comment),
    /// A setup command.
    Setup(Setup),
    /// A NAG (`$n`).
    Nag(u16),
    /// A variation: an alternative to the move before it (in a move's `after`), or, before
    /// a line's first move, one written there.
    Variation(Line),
}

impl Annotation {
    /// The variation, if this is one.
    pub fn variation(&self) -> Option<&Line> {
        match self {
            Annotation::Variation(line) => Some(line),
            _ => None,
        }
    }
}

/// A move and everything attached to it.
///
/// What most moves of an archive lack (annotations, strength marks, NAGs, variations) is
/// kept in one boxed [`MoveExtras`], absent until the move has some: a move is 96 bytes
/// instead of 208, which is what the tree of a long game costs per move. Read them with
/// [`before`](Self::before), [`strength`](Self::strength) and [`after`](Self::after)
/// (or the NAGs and variations of `after` alone: [`nags`](Self::nags),
/// [`variations`](Self::variations)); add to them through [`extras_mut`](Self::extras_mut).
#[derive(Clone, Debug)]
pub struct Move {
    /// The full-move number, as written or inferred from the previous move of the line.
    pub number: Option<u32>,
    /// The side that played it, as announced by the move number (`N.` White, `N...` Black)
    /// or inferred by alternation; `None` when the text has no numbers.
    pub side: Option<Color>,
    /// The move number written right before this move, if any (for checking numbers).
    pub written_number: Option<MoveNumber>,
    /// Where that number was written.
    pub number_span: Option<Span>,
    /// The move exactly as written (`c3-d4`, `1- 6`, `- -`…), to be resolved by the rules.
    pub text: CompactString,
    /// Where the move text is.
    pub span: Span,
    extras: Option<Box<MoveExtras>>,
}

/// The parts of a [`Move`] that most moves do not have.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveExtras {
    /// Annotations between the previous move's `after` (or the line's start) and this
    /// move, in document order: from the first move number or setup command after the
    /// previous move on; of a line's first move, all before it (see the
    /// [module documentation](self)).
    pub before: Vec<Annotation>,
    /// Strength marks (`!`, `?!`, `(?)`, `*`…), concatenated when there are several.
    pub strength: Option<String>,
    /// Annotations after the move, in document order: its NAGs, comments and variations
    /// (alternatives to it), up to the next move number or setup command, or on to the
    /// last variation before the next move.
    pub after: Vec<Annotation>,
}

impl Move {
    /// A move written as `text` at `span`, with no number and nothing attached.
    pub fn new(text: &str, span: Span) -> Move {
        Move {
            number: None,
            side: None,
            written_number: None,
            number_span: None,
            text: CompactString::from(text),
            span,
            extras: None,
        }
    }

    /// Annotations between the previous move and this move (see [`MoveExtras::before`]).
    pub fn before(&self) -> &[Annotation] {
        &self.extras_or_none().before
    }

    /// Strength marks (`!`, `?!`, `(?)`, `*`…), concatenated when there are several.
    pub fn strength(&self) -> Option<&str> {
        self.extras_or_none().strength.as_deref()
    }

    /// Annotations after the move, in document order (see [`MoveExtras::after`]).
    pub fn after(&self) -> &[Annotation] {
        &self.extras_or_none().after
    }

    /// The NAGs after the move, in order.
    pub fn nags(&self) -> impl Iterator<Item = u16> + '_ {
        self.after().iter().filter_map(|a| match a {
            Annotation::Nag(n) => Some(*n),
            _ => None,
        })
    }

    /// The alternatives to this move, in order.
    pub fn variations(&self) -> impl Iterator<Item = &Line> + '_ {
        self.after().iter().filter_map(Annotation::variation)
    }

    fn extras_or_none(&self) -> &MoveExtras {
        self.extras.as_deref().unwrap_or(&NO_EXTRAS)
    }

    /// The move's extras, if it has any.
    pub fn extras(&self) -> Option<&MoveExtras> {
        self.extras.as_deref()
    }

    /// The move's extras, made empty first if it has none.
    pub fn extras_mut(&mut self) -> &mut MoveExtras {
        self.extras.get_or_insert_with(Box::default)
    }
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        // (no extras and empty extras are the same move)
        self.number == other.number
            && self.side == other.side
            && self.written_number == other.written_number
            && self.number_span == other.number_span
            && self.text == other.text
            && self.span == other.span
            && self.extras_or_none() == other.extras_or_none()
    }
}

impl Eq for Move {}

/// The extras of a move that has none.
static NO_EXTRAS: MoveExtras = MoveExtras {
    before: Vec::new(),
    strength: None,
    after: Vec::new(),
};

/// A sequence of moves: the main line or a variation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The moves.
    pub moves: Vec<Move>,
    /// Annotations after the last move's `after` (all of the line's, when it has no
    /// moves), in document order.
    pub trailing: Vec<Annotation>,
}

/// The result token of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// Who won.
    pub outcome: Outcome,
    /// The scale it was written in.
    pub scale: ResultScale,
    /// The token as written.
    pub raw: String,
    /// Where it was.
    pub span: Span,
}

/// One game: tags, the move tree, the result token and the syntax errors met.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    /// Comments written before the first tag, in document order (those after it, up to
    /// the first move, are the first move's `before`).
    pub before_tags: Vec<Annotation>,
    /// Tag pairs in file order.
    pub tags: Vec<Tag>,
    /// The main line.
    pub moves: Line,
    /// The result token ending the movetext, if any.
    pub result: Option<GameResult>,
    /// Syntax errors, in text order.
    pub errors: Vec<SyntaxError>,
}

impl Game {
    /// Parses the first game of `text` (use a [`super::Reader`] for the games of a file).
    pub fn parse(text: &str) -> Game {
        super::reader::visit_text(text, &mut GameBuilder::default()).unwrap_or_default()
    }

    /// The decoded value of the first tag with this name (case-sensitive).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
    }

    /// Sets every span to empty and every raw tag value to its escaped canonical form, so
    /// that the same game read from two different texts compares equal.
    pub fn normalize(&mut self) {
        for t in &mut self.tags {
            t.span = Span::default();
            t.raw_value = super::token::escape(&t.value).into_owned();
        }
        if let Some(r) = &mut self.result {
            r.span = Span::default();
        }
        self.errors
            .iter_mut()
            .for_each(|e| e.span = Span::default());
        fn annotations(list: &mut [Annotation]) {
            for a in list {
                match a {
                    Annotation::Comment(c) => c.span = Span::default(),
                    Annotation::Setup(s) => s.span = Span::default(),
                    Annotation::Nag(_) => {}
                    Annotation::Variation(l) => line(l),
                }
            }
        }
        fn line(l: &mut Line) {
            annotations(&mut l.trailing);
            for m in &mut l.moves {
                m.span = Span::default();
                m.number_span = None;
                m.written_number = None;
                if let Some(e) = &mut m.extras {
                    annotations(&mut e.before);
                    annotations(&mut e.after);
                }
            }
        }
        annotations(&mut self.before_tags);
        line(&mut self.moves);
    }

    /// Number of moves in the main line.
    pub fn ply_count(&self) -> usize {
        self.moves.moves.len()
    }
}

/// One level of the line stack while building.
#[derive(Default)]
struct Frame {
    line: Line,
    /// Annotations waiting for the next move.
    pending: Vec<Annotation>,
    /// A move number waiting for its move.
    number: Option<MoveNumber>,
    /// Where that number was written.
    number_span: Option<Span>,
    /// (number, side) of the move this variation replaces: its first unnumbered move
    /// takes them.
    replaces: Option<(u32, Color)>,
}

impl Frame {
    /// Whether a comment/NAG now belongs after the last move rather than before the next.
    fn attaches_to_last(&self) -> bool {
        self.pending.is_empty() && self.number.is_none() && !self.line.moves.is_empty()
    }

    fn finish(mut self) -> Line {
        // A move number with no move after it is dropped; the comments and NAGs it kept
        // from the last move go back to that move, which is how the text reads without it.
        if self.number.is_some() {
            if let Some(last) = self.line.moves.last_mut() {
                let keep = self
                    .pending
                    .iter()
                    .position(|a| matches!(a, Annotation::Setup(_)))
                    .unwrap_or(self.pending.len());
                last.extras_mut().after.extend(self.pending.drain(..keep));
            }
        }
        self.line.trailing.append(&mut self.pending);
        self.line
    }
}

/// The visitor that builds a [`Game`]; it uses an explicit stack, never recursion.
#[derive(Default)]
pub struct GameBuilder {
    game: Game,
    stack: Vec<Frame>,
    /// An empty vector to build the next main line in (see [`reuse`](Self::reuse)).
    spare: Vec<Move>,
}

impl GameBuilder {
    /// Takes back a game built before, so that the next game's main line is built in
    /// its main line's memory. A run of long games (20,000 moves: 2 MB of main line each)
    /// then takes the memory of one, not a block per game that the allocator keeps for a
    /// while after it is freed; and an ordinary game's line is not grown anew move by move.
    /// A line with room for more than twice [`super::MAX_GAME_MOVES`] moves (read under a
    /// raised limit) is let go.
    pub fn reuse(&mut self, mut game: Game) {
        let room = game.moves.moves.capacity();
        if room > self.spare.capacity() && room <= 2 * super::MAX_GAME_MOVES {
            game.moves.moves.clear();
            self.spare = std::mem::take(&mut game.moves.moves);
        }
    }

    fn top(&mut self) -> &mut Frame {
        if self.stack.is_empty() {
            self.stack.push(Frame::default());
        }
        self.stack.last_mut().expect("pushed above")
    }

    fn annotate(&mut self, a: Annotation) {
        let f = self.top();
        if f.attaches_to_last() {
            let last = f.line.moves.last_mut().expect("checked");
            last.extras_mut().after.push(a);
        } else {
            f.pending.push(a);
        }
    }
}

impl Visitor for GameBuilder {
    type Output = Game;

    fn begin_game(&mut self) {
        self.game = Game::default();
        self.stack.clear();
        let mut main = Frame::default();
        main.line.moves = std::mem::take(&mut self.spare);
        self.stack.push(main);
    }

    fn tag(&mut self, tag: RawTag<'_>) {
        if self.game.tags.is_empty() {
            // (the comments read so far stand before the tags; the tags come before any
            // move, so nothing else is waiting)
            self.game.before_tags = std::mem::take(&mut self.top().pending);
        }
        self.game.tags.push(Tag {
            name: tag.name.to_owned(),
            raw_value: tag.raw_value.to_owned(),
            value: tag.value().into_owned(),
            span: tag.span,
        });
    }

    fn move_number(&mut self, number: MoveNumber, span: Span) {
        let f = self.top();
        f.number = Some(number);
        f.number_span = Some(span);
    }

    fn mv(&mut self, text: &str, span: Span) {
        let f = self.top();
        let written_number = f.number;
        let number_span = f.number_span.take().filter(|_| written_number.is_some());
        let (number, side) = if let Some(n) = f.number.take() {
            (
                Some(n.number),
                Some(if n.black { Color::Black } else { Color::White }),
            )
        } else if let Some(last) = f.line.moves.last() {
            match (last.number, last.side) {
                (Some(n), Some(Color::White)) => (Some(n), Some(Color::Black)),
                (Some(n), Some(Color::Black)) => (Some(n.saturating_add(1)), Some(Color::White)),
                _ => (None, None),
            }
        } else if let Some((n, s)) = f.replaces {
            (Some(n), Some(s))
        } else {
            (None, None)
        };
        let before = std::mem::take(&mut f.pending);
        f.line.moves.push(Move {
            number,
            side,
            written_number,
            number_span,
            text: CompactString::from(text),
            span,
            extras: (!before.is_empty()).then(|| {
                Box::new(MoveExtras {
                    before,
                    ..MoveExtras::default()
                })
            }),
        });
    }

    fn strength(&mut self, mark: &str, span: Span) {
        match self.top().line.moves.last_mut() {
            Some(m) => {
                let strength = &mut m.extras_mut().strength;
                strength.get_or_insert_with(String::new).push_str(mark);
            }
            None => self.game.errors.push(SyntaxError::new(
                SyntaxErrorKind::StrengthWithoutMove,
                span,
                format!("strength mark `{mark}` with no move before it; ignored"),
            )),
        }
    }

    fn nag(&mut self, nag: u16, _span: Span) {
        self.annotate(Annotation::Nag(nag));
    }

    fn comment(&mut self, text: &str, span: Span) {
        self.annotate(Annotation::Comment(Comment {
            kind: CommentKind::Brace,
            text: text.to_owned(),
            span,
        }));
    }

    fn line_comment(&mut self, kind: CommentKind, text: &str, span: Span) {
        self.annotate(Annotation::Comment(Comment {
            kind,
            text: text.to_owned(),
            span,
        }));
    }

    fn setup(&mut self, fen: &str, span: Span) {
        self.top().pending.push(Annotation::Setup(Setup {
            fen: fen.to_owned(),
            span,
        }));
    }

    fn begin_variation(&mut self, _span: Span) -> Skip {
        let replaces = self
            .top()
            .line
            .moves
            .last()
            .and_then(|m| Some((m.number?, m.side?)));
        self.stack.push(Frame {
            replaces,
            ..Frame::default()
        });
        Skip(false)
    }

    fn end_variation(&mut self, _span: Span) {
        if self.stack.len() < 2 {
            return; // the parser balances variations; nothing to close
        }
        let line = self.stack.pop().expect("len checked").finish();
        let parent = self.top();
        match parent.line.moves.last_mut() {
            // (an alternative to the last move: what was written between them, after a
            // move number or a setup command, goes with it, so that the order stays)
            Some(m) => {
                let after = &mut m.extras_mut().after;
                after.append(&mut parent.pending);
                after.push(Annotation::Variation(line));
            }
            None => parent.pending.push(Annotation::Variation(line)),
        }
    }

    fn result(&mut self, result: ResultToken<'_>, span: Span) {
        self.game.result = Some(GameResult {
            outcome: result.outcome,
            scale: result.scale,
            raw: result.raw.to_owned(),
            span,
        });
    }

    fn syntax_error(&mut self, error: SyntaxError) {
        // (past the limit, one error says so: a game of megabytes can have hundreds of
        // thousands, each a diagnostic later)
        let errors = &mut self.game.errors;
        match errors.len().cmp(&MAX_GAME_ERRORS) {
            std::cmp::Ordering::Less => errors.push(error),
            std::cmp::Ordering::Equal => errors.push(SyntaxError::new(
                SyntaxErrorKind::TooManyErrors,
                error.span,
                format!("more than {MAX_GAME_ERRORS} syntax errors in this game: the rest are not reported"),
            )),
            std::cmp::Ordering::Greater => {}
        }
    }

    fn end_game(&mut self) -> Game {
        while self.stack.len() > 1 {
            self.end_variation(Span::default());
        }
        if let Some(f) = self.stack.pop() {
            self.game.moves = f.finish();
        }
        self.game.errors.sort_by_key(|e| e.span.start);
        std::mem::take(&mut self.game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_builds_its_main_line_where_the_last_one_was() {
        use crate::pdn::reader::visit_text;
        let text = format!("1. c3-d4 {}*", "c3-d4 d6-c5 ".repeat(400));
        let mut builder = GameBuilder::default();
        let first = visit_text(&text, &mut builder).unwrap();
        let (at, room) = (first.moves.moves.as_ptr(), first.moves.moves.capacity());
        assert!(room >= 801, "{room}");
        builder.reuse(first);
        let second = visit_text(&text, &mut builder).unwrap();
        assert_eq!(second.moves.moves.as_ptr(), at);
        assert_eq!(second.moves.moves.len(), 801);
        assert_eq!(second.moves.moves[800].text, "d6-c5");
        // a short game takes it too, and gives it back
        builder.reuse(second);
        let short = visit_text("1. c3-d4 d6-c5 *", &mut builder).unwrap();
        assert_eq!(short.moves.moves.as_ptr(), at);
        assert_eq!(short.moves.moves.len(), 2);
        // a game not given back keeps its line: the next one is built in a new vector
        let next = visit_text("1. c3-d4 d6-c5 *", &mut builder).unwrap();
        assert_ne!(next.moves.moves.as_ptr(), at);
        assert_eq!(short.moves.moves.len(), 2);
    }

    #[test]
    fn a_move_without_extras_is_small() {
        // the tree of a long game costs this per move (what most moves lack is boxed)
        assert!(
            std::mem::size_of::<Move>() <= 96,
            "{}",
            std::mem::size_of::<Move>()
        );
        let g = Game::parse("1. c3-d4 f6-g5 2. d4-e5 {c} ! g5-h4 $1");
        let m = &g.moves.moves;
        assert!(m[0].extras().is_none() && m[1].extras().is_none());
        assert_eq!(m[2].after().len(), 1);
        assert_eq!(m[3].nags().collect::<Vec<_>>(), [1]);
        // no extras and empty extras read and compare the same
        let mut bare = m[0].clone();
        bare.extras_mut();
        assert_eq!(bare, m[0]);
        assert!(bare.before().is_empty() && bare.strength().is_none());
    }

    #[test]
    fn builds_the_tree() {
        let g = Game::parse(
            "[Event \"E\"]\n{pre} 1. c3-d4! $1 {after} (1. e3-f4 f6-g5 (2... h6-g5)) f6-g5 /FEN \"W:W1:B2\"/ 2. ... b6-a5 $3 {end} 0-2",
        );
        assert_eq!(g.tag("Event"), Some("E"));
        let m = &g.moves.moves;
        assert_eq!(m.len(), 3);
        assert_eq!(
            m[0].before(),
            vec![Annotation::Comment(Comment {
                kind: CommentKind::Brace,
                text: "pre".into(),
                span: Span::new(12, 17)
            })]
        );
        assert_eq!(
            (m[0].number, m[0].side, m[0].strength()),
            (Some(1), Some(Color::White), Some("!"))
        );
        assert_eq!(m[0].nags().collect::<Vec<_>>(), [1]);
        assert_eq!(m[0].after().len(), 3);
        assert!(matches!(&m[0].after()[1], Annotation::Comment(c) if c.text == "after"));
        let v = m[0].variations().next().unwrap();
        assert_eq!(
            (v.moves[0].number, v.moves[0].side),
            (Some(1), Some(Color::White))
        );
        assert_eq!(
            (v.moves[1].number, v.moves[1].side),
            (Some(1), Some(Color::Black))
        );
        assert_eq!(
            v.moves[1].variations().next().unwrap().moves[0].text,
            "h6-g5"
        );
        assert_eq!((m[1].number, m[1].side), (Some(1), Some(Color::Black)));
        assert!(matches!(m[2].before()[0], Annotation::Setup(ref s) if s.fen == "W:W1:B2"));
        assert_eq!((m[2].number, m[2].side), (Some(2), Some(Color::Black)));
        assert_eq!(m[2].nags().collect::<Vec<_>>(), [3]);
        assert_eq!(g.result.as_ref().unwrap().outcome, Outcome::BlackWins);
        assert!(g.errors.is_empty(), "{:?}", g.errors);
    }

    #[test]
    fn leading_and_empty_variations() {
        let g = Game::parse(" (  ( 1.  g3-h4 b6-a5 ) ( 1. e3-d4 ) ) 1. g3-h4 ( ) *");
        let first = &g.moves.moves[0];
        let [Annotation::Variation(leading)] = first.before() else {
            panic!("{:?}", first.before());
        };
        // (a line of variations only: they are all it has)
        assert!(leading.moves.is_empty());
        assert_eq!(
            leading
                .trailing
                .iter()
                .filter_map(Annotation::variation)
                .count(),
            2
        );
        assert_eq!(first.variations().collect::<Vec<_>>(), [&Line::default()]);
    }

    #[test]
    fn variation_inherits_the_replaced_move_number() {
        let g = Game::parse("1. c3-d4 f6-g5 (h6-g5 2. b2-c3) *");
        let v = &g.moves.moves[1].variations().next().unwrap().moves;
        assert_eq!((v[0].number, v[0].side), (Some(1), Some(Color::Black)));
        assert_eq!((v[1].number, v[1].side), (Some(2), Some(Color::White)));
    }

    #[test]
    fn a_dangling_move_number_gives_its_comments_back() {
        let g = Game::parse("c3-d4 7. {c} $2 *");
        assert_eq!(g.moves.moves[0].after().len(), 2);
        assert_eq!(g.moves.moves[0].nags().collect::<Vec<_>>(), [2]);
    }

    /// What the items between two moves were written as, in order.
    fn kinds(list: &[Annotation]) -> String {
        let kind = |a: &Annotation| match a {
            Annotation::Comment(c) => format!("{{{}}}", c.text),
            Annotation::Setup(s) => format!("/{}/", s.fen),
            Annotation::Nag(n) => format!("${n}"),
            Annotation::Variation(l) => format!("({})", l.moves.len()),
        };
        list.iter().map(kind).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn annotations_keep_their_order() {
        let g = Game::parse(
            "1. c3-d4 (1. c3-b4 b6-a5) {after var} f6-g5 $1 {c} $2 2. {n} (1... h6-g5) b2-c3 /FEN \"W:W1:B2\"/ {s} (2. a3-b4) g5-h4 *",
        );
        let m = &g.moves.moves;
        assert_eq!(kinds(m[0].after()), "(2) {after var}");
        assert_eq!(kinds(m[1].after()), "$1 {c} $2 {n} (1)");
        assert!(m[2].before().is_empty());
        // a variation takes what was written between its move and it
        assert_eq!(kinds(m[2].after()), "/W:W1:B2/ {s} (1)");
        assert!(m[3].before().is_empty());
        // a line's first move: what is before it, variations too
        let g = Game::parse("( {a} ( 1. e3-f4 ) {b} 1. c3-d4 ) {c} ( ) 1. g3-h4 *");
        let first = g.moves.moves[0].before();
        assert_eq!(kinds(first), "(1) {c} (0)");
        let Annotation::Variation(v) = &first[0] else {
            unreachable!()
        };
        assert_eq!(kinds(v.moves[0].before()), "{a} (1) {b}");
        // a move number or a setup command starts the next move's
        let g = Game::parse("1. c3-d4 {a} 1... {b} f6-g5 {c} /FEN \"B:W1:B2\"/ {d} g5-h4 *");
        let m = &g.moves.moves;
        assert_eq!(
            (kinds(m[0].after()), kinds(m[1].before())),
            ("{a}".into(), "{b}".into())
        );
        assert_eq!(
            (kinds(m[1].after()), kinds(m[2].before())),
            ("{c}".into(), "/B:W1:B2/ {d}".into())
        );
    }

    #[test]
    fn comments_before_the_tags_are_kept_apart() {
        let g = Game::parse("% escape\n{c}\n[Event \"E\"]\n% mid\n[Site \"S\"]\n{d} 1. c3-d4 *");
        assert_eq!(kinds(&g.before_tags), "{ escape} {c}");
        assert_eq!(kinds(g.moves.moves[0].before()), "{ mid} {d}");
        // without tags, they are the first move's
        let g = Game::parse("{c} 1. c3-d4 *");
        assert!(g.before_tags.is_empty());
        assert_eq!(kinds(g.moves.moves[0].before()), "{c}");
    }

    #[test]
    fn strength_without_move_is_an_error() {
        let g = Game::parse("! c3-d4 *");
        assert_eq!(g.errors[0].kind, SyntaxErrorKind::StrengthWithoutMove);
    }
}
