//! PDN text: reading, writing, FEN.
//!
//! The reading pipeline has three layers, each usable on its own:
//!
//! 1. [`input`]: bytes from any [`std::io::Read`] are decoded to UTF-8 in bounded chunks
//!    (BOM, UTF-8, UTF-16, or a detected legacy Cyrillic/Latin code page).
//! 2. [`split`]: the decoded stream is cut into [`RawGame`]s, independent units that carry
//!    their position in the file (so spans map to `line:column`) and can be parsed in
//!    parallel.
//! 3. [`parser`]: one raw game is parsed into events for a [`Visitor`] with borrowed tokens;
//!    [`Game`] is a tree built by one such visitor, and [`writer`] writes it back.
//!
//! ```
//! use pdnkit::pdn::{GameSplitter, ReaderOptions};
//! let text = "[Event \"Test\"]\n1. c3-d4 f6-g5 2. b2-c3 1-0\n";
//! let mut games = GameSplitter::new(text.as_bytes(), ReaderOptions::default()).unwrap();
//! let raw = games.next().unwrap().unwrap();
//! let game = raw.to_game();
//! assert_eq!(game.tags[0].value, "Test");
//! assert_eq!(game.moves.moves.len(), 3);
//! let pos = raw.position(game.moves.moves[1].span.start);
//! assert_eq!((pos.line, pos.column), (2, 10));
//! ```

pub mod blocks;
pub mod error;
pub mod fen;
pub mod game;
pub mod input;
pub mod parser;
pub(crate) mod plain;
pub mod reader;
pub mod source;
pub mod split;
pub mod token;
pub mod visitor;
pub mod writer;

pub use error::{ReadError, Severity, Span, SyntaxError, SyntaxErrorKind};
pub use game::GameBuilder;
pub use game::{
    Annotation, Comment, CommentKind, Game, GameResult, Line, MAX_GAME_ERRORS, Move, MoveExtras,
    Setup, Tag,
};
pub use input::{Decoder, EncodingSource};
pub use parser::{MAX_VARIATION_DEPTH, visit_text};
pub use reader::Reader;
pub use source::GameSource;
pub use split::{
    BlockStart, GameSplitter, MAX_GAME_BYTES, MAX_GAME_ITEMS, MAX_GAME_MOVES, Position, Positions,
    RawGame, ReaderOptions,
};
pub use token::{MoveNumber, Outcome, RawTag, ResultScale, ResultToken};
pub use visitor::{MoveCount, Skip, Visitor};
pub use writer::{WriteOptions, game_to_string, write_game};

/// The characters of `s`: its bytes when it is ASCII (as most PDN text is), which is
/// quicker to see than the characters are to count. The splitter asks it of each game's
/// last line, the writer of each token.
pub(crate) fn char_count(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}
