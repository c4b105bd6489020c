//! PDN text: reading, writing, FEN.

pub mod fen;
