//! PDN text: reading, writing, FEN.
