//! The rules of draughts: Russian's board, positions, legal moves, move notation and perft,
//! and every other variant's positions and legal moves ([`VariantPosition`]).
//!
//! The flow follows shakmaty: text becomes an unchecked [`crate::rules::fen::Setup`], which
//! becomes a [`Position`] only through [`Position::from_setup`]. A position lists its legal
//! moves ([`Position::legal_moves`]) and plays them; [`notation`] turns move text into a legal
//! move and back.
//!
//! ```
//! use pdnkit::rules::{perft::perft, Position};
//! let start = Position::start();
//! assert_eq!(start.legal_moves().len(), 7);
//! assert_eq!(perft(&start, 3), 302);
//! ```

mod bitboard;
pub mod fen;
pub mod game_type;
mod general;
mod geometry;
mod movegen;
pub mod notation;
pub mod perft;
mod playable;
mod position;
mod square;
mod variant;

pub use bitboard::{Bitboard, Direction};
pub use general::{
    EveryRoute, VariantFenError, VariantIllegal, VariantMove, VariantPosition, VariantResolution,
    VariantSetupError,
};
pub use geometry::Board;
pub use movegen::{IllegalMoveError, MOVE_LIST_CAPACITY, Move, MoveList, Route};
pub use playable::{AnyPosition, Named, Playable};
pub(crate) use position::board_square;
pub use position::{FenStyle, Piece, Position, SetupError};
pub use square::Square;
pub use variant::{CaptureChoice, Crowning, Dialect, ParseVariantError, Variant};
