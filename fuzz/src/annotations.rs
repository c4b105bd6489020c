//! What PDN output must give back of a game, as the reader's events show it: the tags, and
//! in document order every comment (with its syntax), NAG, setup command, variation and
//! move (with its strength marks; not its text, which output re-notates). The fuzz
//! targets and the tests read a game and the PDN written of it with [`Annotations`] and
//! compare.

#![allow(dead_code)]

use pdnkit::pdn::visitor::PlainSquares;
use pdnkit::pdn::{CommentKind, MoveNumber, RawTag, ResultToken, Skip, Span, SyntaxError, Visitor};

/// One item of a game's text, in document order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// The first tag: what comes before it was written before the tags.
    Tags,
    /// A move, with the strength marks written after it (`!`, `?!`…), concatenated.
    Move(String),
    /// A comment: its syntax and its text.
    Comment(CommentKind, String),
    /// A NAG.
    Nag(u16),
    /// A setup command's FEN.
    Setup(String),
    /// `(`.
    VariationStart,
    /// `)`.
    VariationEnd,
    /// A strength mark with no move to go to.
    Strength(String),
}

/// A game's tags (sorted: output writes them in roster order) and items.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameItems {
    /// Every tag as (name, decoded value), sorted.
    pub tags: Vec<(String, String)>,
    /// The items, in document order.
    pub items: Vec<Item>,
}

/// A visitor that records a game's [`GameItems`] and hands every event on to `inner` (a
/// [`pdnkit::pdn::GameBuilder`], say, to have the tree of the same pass): its output is
/// both.
#[derive(Default)]
pub struct Annotations<V> {
    /// The visitor the events go on to.
    pub inner: V,
    game: GameItems,
    /// Of each open line (the main line first), where its last move is in `items`: the
    /// move a strength mark goes to, as the tree builder gives it.
    last_move: Vec<Option<usize>>,
}

impl<V> Annotations<V> {
    /// Records the items of the games `inner` visits.
    pub fn new(inner: V) -> Self {
        Annotations {
            inner,
            game: GameItems::default(),
            last_move: Vec::new(),
        }
    }

    fn push(&mut self, item: Item) {
        self.game.items.push(item);
    }
}

impl<V: Visitor> Visitor for Annotations<V> {
    type Output = (V::Output, GameItems);

    fn begin_game(&mut self) {
        self.game = GameItems::default();
        self.last_move = vec![None];
        self.inner.begin_game();
    }
    fn tag(&mut self, tag: RawTag<'_>) {
        if self.game.tags.is_empty() {
            self.push(Item::Tags);
        }
        let value = tag.value().into_owned();
        self.game.tags.push((tag.name.to_owned(), value));
        self.inner.tag(tag);
    }
    fn begin_movetext(&mut self) -> Skip {
        self.inner.begin_movetext()
    }
    fn move_number(&mut self, number: MoveNumber, span: Span) {
        self.inner.move_number(number, span);
    }
    fn mv(&mut self, text: &str, span: Span) {
        self.push(Item::Move(String::new()));
        if let Some(last) = self.last_move.last_mut() {
            *last = Some(self.game.items.len() - 1);
        }
        self.inner.mv(text, span);
    }
    fn plain_mv(&mut self, squares: PlainSquares, text: &str, span: Span) {
        self.push(Item::Move(String::new()));
        if let Some(last) = self.last_move.last_mut() {
            *last = Some(self.game.items.len() - 1);
        }
        self.inner.plain_mv(squares, text, span);
    }
    fn strength(&mut self, mark: &str, span: Span) {
        match self.last_move.last().copied().flatten() {
            Some(k) => match &mut self.game.items[k] {
                Item::Move(marks) => marks.push_str(mark),
                _ => unreachable!("the index of a move"),
            },
            None => self.push(Item::Strength(mark.to_owned())),
        }
        self.inner.strength(mark, span);
    }
    fn nag(&mut self, nag: u16, span: Span) {
        self.push(Item::Nag(nag));
        self.inner.nag(nag, span);
    }
    fn comment(&mut self, text: &str, span: Span) {
        self.push(Item::Comment(CommentKind::Brace, text.to_owned()));
        self.inner.comment(text, span);
    }
    fn line_comment(&mut self, kind: CommentKind, text: &str, span: Span) {
        self.push(Item::Comment(kind, text.to_owned()));
        self.inner.line_comment(kind, text, span);
    }
    fn begin_variation(&mut self, span: Span) -> Skip {
        self.push(Item::VariationStart);
        self.last_move.push(None);
        // (every variation is followed: a skipped one would have no end to record)
        let _ = self.inner.begin_variation(span);
        Skip(false)
    }
    fn end_variation(&mut self, span: Span) {
        self.push(Item::VariationEnd);
        self.last_move.pop();
        self.inner.end_variation(span);
    }
    fn setup(&mut self, fen: &str, span: Span) {
        self.push(Item::Setup(fen.to_owned()));
        self.inner.setup(fen, span);
    }
    fn result(&mut self, result: ResultToken<'_>, span: Span) {
        self.inner.result(result, span);
    }
    fn syntax_error(&mut self, error: SyntaxError) {
        self.inner.syntax_error(error);
    }
    fn end_game(&mut self) -> Self::Output {
        self.game.tags.sort();
        (self.inner.end_game(), std::mem::take(&mut self.game))
    }
}

/// The items of every game of `bytes` read with `options` (problems of the input, such as
/// a game too large, left out), with what `inner` made of each.
pub fn read_items<V: Visitor>(
    bytes: &[u8],
    options: pdnkit::pdn::ReaderOptions,
    inner: V,
) -> Vec<(V::Output, GameItems)> {
    let Ok(mut reader) = pdnkit::pdn::Reader::new(bytes, options) else {
        return Vec::new();
    };
    let mut visitor = Annotations::new(inner);
    let mut games = Vec::new();
    while let Some(item) = reader.read_game(&mut visitor) {
        if let Ok(game) = item {
            games.push(game);
        }
    }
    games
}
