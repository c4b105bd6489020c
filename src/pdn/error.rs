//! Syntax errors of the reader: what went wrong, where, and how bad it is.
//!
//! These are *syntax* errors only; rule errors (illegal or ambiguous moves) belong to the
//! rules engine and are separate types.

use std::fmt;

/// A byte range `start..end` in the text of one game (see [`crate::pdn::GameSource::position`]
/// to turn it into a file `line:column`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    #[inline]
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
}

/// The kinds of syntax problems, each with a stable kebab-case name (see [`SyntaxErrorKind::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum SyntaxErrorKind {
    /// A `{` comment not closed before the end of the game.
    UnterminatedComment,
    /// A `{` inside a `{…}` comment (PDN comments do not nest).
    NestedComment,
    /// An unclosed `(` or a stray `)`.
    UnbalancedVariation,
    /// Variations nested deeper than [`crate::pdn::MAX_VARIATION_DEPTH`]; the deeper part is skipped.
    VariationTooDeep,
    /// A tag pair that is not `[Name "value"]`.
    MalformedTag,
    /// A tag value whose closing `"` is missing on its line.
    UnterminatedString,
    /// A tag pair after the movetext started.
    TagInMovetext,
    /// A `/FEN "…"/` setup command that is not well formed.
    MalformedSetup,
    /// A `$` NAG without a number, or with a number above 65535.
    InvalidNag,
    /// A strength mark (`!`, `?`…) with no move before it.
    StrengthWithoutMove,
    /// A result token inside a variation.
    ResultInVariation,
    /// Text after the game's result token.
    TextAfterResult,
    /// A token that is not PDN.
    UnexpectedToken,
    /// Lines before the first tag that hold no moves (skipped).
    StrayText,
    /// A game that ends at the end of the file or at the next tag block without a result.
    MissingTerminator,
    /// A game larger than the configured limit; it was skipped.
    GameTooLarge,
    /// The input is binary, not PDN text.
    NotPdn,
    /// Bytes that are not valid in the input's encoding were replaced by U+FFFD.
    DecodingReplaced,
    /// More syntax errors in one game than are kept ([`crate::pdn::MAX_GAME_ERRORS`]).
    TooManyErrors,
    /// The input's encoding was guessed among the legacy ones, clearly.
    EncodingGuessed,
    /// The input's encoding was guessed among the legacy ones, but the text does not tell
    /// it clearly.
    EncodingUncertain,
}

impl SyntaxErrorKind {
    /// Every kind (a test checks that the registry has a rule for each).
    #[cfg(test)]
    pub(crate) const ALL: [SyntaxErrorKind; 21] = [
        SyntaxErrorKind::UnterminatedComment,
        SyntaxErrorKind::NestedComment,
        SyntaxErrorKind::UnbalancedVariation,
        SyntaxErrorKind::VariationTooDeep,
        SyntaxErrorKind::MalformedTag,
        SyntaxErrorKind::UnterminatedString,
        SyntaxErrorKind::TagInMovetext,
        SyntaxErrorKind::MalformedSetup,
        SyntaxErrorKind::InvalidNag,
        SyntaxErrorKind::StrengthWithoutMove,
        SyntaxErrorKind::ResultInVariation,
        SyntaxErrorKind::TextAfterResult,
        SyntaxErrorKind::UnexpectedToken,
        SyntaxErrorKind::StrayText,
        SyntaxErrorKind::MissingTerminator,
        SyntaxErrorKind::GameTooLarge,
        SyntaxErrorKind::NotPdn,
        SyntaxErrorKind::DecodingReplaced,
        SyntaxErrorKind::TooManyErrors,
        SyntaxErrorKind::EncodingGuessed,
        SyntaxErrorKind::EncodingUncertain,
    ];

    /// The stable kebab-case name, e.g. `unterminated-comment`.
    pub fn name(self) -> &'static str {
        use SyntaxErrorKind::*;
        match self {
            UnterminatedComment => "unterminated-comment",
            NestedComment => "nested-comment",
            UnbalancedVariation => "unbalanced-variation",
            VariationTooDeep => "variation-too-deep",
            MalformedTag => "malformed-tag",
            UnterminatedString => "unterminated-string",
            TagInMovetext => "tag-in-movetext",
            MalformedSetup => "malformed-setup",
            InvalidNag => "invalid-nag",
            StrengthWithoutMove => "strength-without-move",
            ResultInVariation => "result-in-variation",
            TextAfterResult => "text-after-result",
            UnexpectedToken => "unexpected-token",
            StrayText => "stray-text",
            MissingTerminator => "missing-terminator",
            GameTooLarge => "game-too-large",
            NotPdn => "not-pdn",
            DecodingReplaced => "decoding-replaced",
            TooManyErrors => "too-many-errors",
            EncodingGuessed => "encoding-guessed",
            EncodingUncertain => "encoding-uncertain",
        }
    }
}

impl fmt::Display for SyntaxErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One syntax problem in a game: its kind, where (bytes of the game text), and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// What went wrong.
    pub kind: SyntaxErrorKind,
    /// Where, in bytes of the game text.
    pub span: Span,
    /// A human-readable explanation.
    pub message: String,
}

impl SyntaxError {
    /// A new error.
    pub fn new(kind: SyntaxErrorKind, span: Span, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            kind,
            span,
            message: message.into(),
        }
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)
    }
}

/// A problem that stops the reader from producing a game (as opposed to a [`SyntaxError`]
/// inside a game, which the game carries).
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Reading the input failed; the file is abandoned.
    #[error("read error: {0}")]
    Io(#[from] std::io::Error),
    /// A file-level or game-level problem at a known place: `not-pdn` (then the file is
    /// abandoned), `game-too-large` (the game is skipped), `stray-text` after the last game.
    #[error("{line}:{column}: {kind}: {message}")]
    At {
        /// The problem.
        kind: SyntaxErrorKind,
        /// The 1-based index of the game concerned, if any.
        game_index: Option<u64>,
        /// 1-based line in the file.
        line: u64,
        /// 1-based column (characters) in that line.
        column: u64,
        /// A human-readable explanation.
        message: String,
    },
}

impl ReadError {
    /// The syntax error kind, or `None` for I/O errors.
    pub fn kind(&self) -> Option<SyntaxErrorKind> {
        match self {
            ReadError::Io(_) => None,
            ReadError::At { kind, .. } => Some(*kind),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_rule_in_the_registry() {
        for k in SyntaxErrorKind::ALL {
            let rule = crate::diag::codes::of_read_error(k);
            assert_eq!(rule.name, k.name(), "{k:?}");
        }
    }
}
