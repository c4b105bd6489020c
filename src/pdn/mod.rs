//! PDN text: reading, writing, FEN.
//!
//! The [`Reader`] decodes any [`std::io::Read`] to UTF-8 in bounded chunks ([`input`]:
//! BOM, UTF-8, UTF-16, or a detected legacy Cyrillic/Latin code page) and reads it game by
//! game in one pass, giving a [`Visitor`] each game's tokens, borrowed from its buffer;
//! [`Reader::game`] then gives the game's text and where it is in the file. [`Game`] is a
//! tree built by one such visitor ([`GameBuilder`]), and [`writer`] writes it back.
//!
//! ```
//! use pdnkit::pdn::{GameBuilder, Reader, ReaderOptions};
//! let text = "[Event \"Test\"]\n1. c3-d4 f6-g5 2. b2-c3 1-0\n";
//! let mut reader = Reader::new(text.as_bytes(), ReaderOptions::default()).unwrap();
//! let game = reader.read_game(&mut GameBuilder::default()).unwrap().unwrap();
//! assert_eq!(game.tags[0].value, "Test");
//! assert_eq!(game.moves.moves.len(), 3);
//! let pos = reader.game().position(game.moves.moves[1].span.start);
//! assert_eq!((pos.line, pos.column), (2, 10));
//! ```

pub mod boundary;
pub mod error;
pub mod game;
pub mod input;
pub mod reader;
pub mod source;
pub mod token;
pub mod visitor;
pub mod writer;

pub use error::{ReadError, Span, SyntaxError, SyntaxErrorKind};
pub use game::GameBuilder;
pub use game::{
    Annotation, Comment, CommentKind, Game, GameResult, Line, MAX_GAME_ERRORS, Move, MoveExtras,
    Setup, Tag,
};
pub use input::Decoder;
pub use reader::{
    BlockStart, MAX_GAME_BYTES, MAX_GAME_ITEMS, MAX_GAME_MOVES, MAX_VARIATION_DEPTH, Reader,
    ReaderOptions, visit_text,
};
pub use source::{GameSource, Position, Positions, Units};
pub use token::{MoveNumber, Outcome, RawTag, ResultScale, ResultToken};
pub use visitor::{MoveCount, Skip, Visitor};
pub use writer::{WriteOptions, game_to_string, write_game};

/// The characters of `s`: its bytes when it is ASCII (as most PDN text is), which is
/// quicker to see than the characters are to count.
pub(crate) fn char_count(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}
