//! The rules of Russian draughts.
