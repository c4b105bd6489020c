//! Canonical PDN (`pdnkit convert --to pdn`): every resolved move rewritten in the chosen
//! notation, then the game handed to the [writer](crate::pdn::writer).
//!
//! - A game whose main line replays completely is re-notated: every move of the main line
//!   and of every variation that resolves is written in the converter's notation; a variation
//!   move that does not resolve (and the rest of its line) is kept as written.
//! - A game whose main line does not replay (illegal move, placeholder, bad FEN,
//!   unsupported GameType) is written through the writer with its moves as written.
//! - A game with syntax errors (severity error), or with text after its result, is
//!   written through verbatim, as it was read: the writer could lose what the reader
//!   could not understand.
//! - Text outside any game (`P111 stray-text`) is written where it was, as it was read.
//!
//! Writing the output again gives the same text (a fixed point), and writing it in numeric
//! then algebraic notation gives the same text as writing it in algebraic directly.

use super::played::Notated;
use super::{GameStatus, Resolutions};
use crate::check::checker::GameReport;
use crate::pdn::writer::{WriteOptions, write_game};
use crate::pdn::{Annotation, GameSource, Line, SyntaxErrorKind};
use crate::rules::notation::Style;
use crate::rules::{Playable, Position, Variant, VariantPosition};

/// How to write PDN (the notation of the moves is the [`super::Converter`]'s).
#[derive(Clone, Copy, Debug)]
pub struct PdnOptions {
    /// Keep comments.
    pub comments: bool,
    /// Keep variations.
    pub variations: bool,
    /// Keep NAGs.
    pub nags: bool,
}

impl Default for PdnOptions {
    fn default() -> Self {
        PdnOptions {
            comments: true,
            variations: true,
            nags: true,
        }
    }
}

/// Rewrites each resolved move of `line` (walked in text order, as `resolutions` hands
/// them out) in `style`.
fn renotate<P: Playable>(
    line: &mut Line,
    resolutions: &Resolutions<'_, P>,
    style: Style,
    text: &mut String,
) where
    for<'b> super::played::Played<'b, P>: Notated,
{
    for m in &mut line.moves {
        // (most moves have no extras: none are made for them)
        if m.extras().is_some() {
            renotate_variations(&mut m.extras_mut().before, resolutions, style, text);
        }
        if let Some(info) = resolutions.next() {
            text.clear();
            info.played().push_text(text, style);
            m.text = text.as_str().into();
        }
        if m.extras().is_some() {
            renotate_variations(&mut m.extras_mut().after, resolutions, style, text);
        }
    }
    renotate_variations(&mut line.trailing, resolutions, style, text);
}

/// [`renotate`] for the variations among `annotations`.
fn renotate_variations<P: Playable>(
    annotations: &mut [Annotation],
    resolutions: &Resolutions<'_, P>,
    style: Style,
    text: &mut String,
) where
    for<'b> super::played::Played<'b, P>: Notated,
{
    for a in annotations {
        if let Annotation::Variation(v) = a {
            renotate(v, resolutions, style, text);
        }
    }
}

/// The game checked as `report` (its tree kept), read from `source`, written as PDN with
/// its moves in `style` and appended to `out` (ending with a line break; games are
/// separated by the caller).
pub fn push_game(
    out: &mut Vec<u8>,
    source: GameSource<'_>,
    report: &mut GameReport,
    opts: &PdnOptions,
    style: Style,
) {
    let status = GameStatus::of(report);
    let write = WriteOptions {
        comments: opts.comments,
        variations: opts.variations,
        nags: opts.nags,
        ..WriteOptions::default()
    };
    let mut text = String::with_capacity(source.text.len() / 8 * 9 + 256);
    let Some(mut game) = report.game.take() else {
        return;
    };
    // (text after the result, which the tree does not hold, is kept too)
    let after_result =
        (report.syntax_errors.iter()).any(|e| e.kind == SyntaxErrorKind::TextAfterResult);
    // stray text before the game's first tag is kept in its place, as it was read
    if let Some(stray) = source.text.get(..source.stray_prefix) {
        let stray = stray.trim_end_matches(['\n', '\r', ' ', '\t']);
        if !stray.is_empty() {
            text.push_str(stray);
            text.push_str("\n\n");
        }
    }
    if (status == GameStatus::Unparsed && report.has_syntax_errors()) || after_result {
        // verbatim: the text from its first tag (the stray text before it is written above)
        let verbatim = source
            .text
            .get(source.stray_prefix..)
            .unwrap_or(source.text);
        text.push_str(verbatim.trim_end_matches(['\n', '\r', ' ', '\t']));
        text.push('\n');
    } else {
        let scratch = &mut String::new();
        match (status, report.variant) {
            (GameStatus::Ok, Variant::Russian) => {
                let resolutions = Resolutions::<Position>::new(&report.moves);
                renotate(&mut game.moves, &resolutions, style, scratch);
            }
            (GameStatus::Ok, _) => {
                let moves = &report.variant_line.moves;
                let resolutions = Resolutions::<VariantPosition>::new(moves);
                renotate(&mut game.moves, &resolutions, style, scratch);
            }
            _ => {}
        }
        write_game(&mut text, &game, &write).expect("writing to a String cannot fail");
    }
    report.game = Some(game);
    out.extend_from_slice(text.as_bytes());
}
