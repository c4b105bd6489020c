//! Fixes: how to mend what a diagnostic found, as edits of the input's text.
//!
//! The checker proposes a [`Proposal`] with a finding (edits of the game's text, by their
//! spans in it); locating the finding locates its edits in the input ([`Fix`], [`Edit`]:
//! byte offsets in the input as read, and lines and columns), which is what the JSON and
//! SARIF emitters write and what `pdnkit fix` applies.
//!
//! A fix is [`Applicability::Safe`] when it cannot change what the record says (a
//! separator, a move number, a Result tag taken from the terminator, a date written in
//! PDN's form) and [`Applicability::Unsafe`] when it may: a move written illegally
//! replaced by the one legal move that lets the rest of the game replay, or a date whose
//! day and month could be either way round.

use crate::pdn::Span;
use serde::Serialize;

/// Whether a fix may change what was played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// It cannot: applied by `pdnkit fix`.
    Safe,
    /// It may change what the record says (a move, or a date read one of two ways):
    /// applied by `pdnkit fix --unsafe-fixes` only.
    Unsafe,
}

impl Applicability {
    /// `safe` or `unsafe`.
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// A fix as the checker proposes it: edits of the game's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proposal {
    pub applicability: Applicability,
    /// What it does, for a person (`replace e5-d6 with c5-d6: the rest of the game then
    /// replays`).
    pub message: String,
    /// The game text's bytes to replace (an empty span inserts), in text order, none
    /// overlapping.
    pub edits: Vec<(Span, String)>,
}

impl Proposal {
    /// A fix replacing `span` of the game's text with `content`.
    pub fn replace(
        applicability: Applicability,
        message: impl Into<String>,
        span: Span,
        content: impl Into<String>,
    ) -> Proposal {
        Proposal {
            applicability,
            message: message.into(),
            edits: vec![(span, content.into())],
        }
    }
}

/// A fix located in its input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fix {
    pub applicability: Applicability,
    /// What it does, for a person.
    pub message: String,
    /// The edits, in input order, none overlapping.
    pub edits: Vec<Edit>,
}

/// One edit of an input: the bytes `start..end` (offsets in the input as read, before
/// decoding: a byte order mark counts) replaced by `content` (written in the input's
/// encoding); `start == end` inserts. Lines and columns (1-based, columns in characters)
/// are those of diagnostics.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Edit {
    pub start: u64,
    pub end: u64,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub content: String,
}
