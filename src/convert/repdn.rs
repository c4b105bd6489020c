//! Canonical PDN (`pdnkit convert --to pdn`): every resolved move rewritten in the chosen
//! notation, then the game handed to the [writer](crate::pdn::writer).
//!
//! - A game whose main line replays completely is re-notated: every move of the main line
//!   and of every variation that resolves is written in [`PdnOptions::style`]; a variation
//!   move that does not resolve (and the rest of its line) is kept as written.
//! - A game whose main line does not replay (illegal move, bad FEN, unsupported GameType)
//!   is written through the writer with its moves as written.
//! - A game with syntax errors (severity error) is written through verbatim, as it was
//!   read: the writer could lose what the reader could not understand.
//!
//! Writing the output again gives the same text (a fixed point), and writing it in numeric
//! then algebraic notation gives the same text as writing it in algebraic directly.

use super::{GameStatus, LineWalker, ResolvedLine, main_line_start, resolve_tree};
use crate::check::CheckedGame;
use crate::pdn::writer::{WriteOptions, write_game};
use crate::pdn::{Game, Line};
use crate::replay::Ply;
use crate::rules::Position;
use crate::rules::notation::Style;

/// How to write PDN.
#[derive(Clone, Copy, Debug)]
pub struct PdnOptions {
    /// The notation of the moves.
    pub style: Style,
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
            style: super::CANONICAL,
            comments: true,
            variations: true,
            nags: true,
        }
    }
}

/// The game with each resolved move's text replaced by its notation in `style`.
pub fn renotate(game: &Game, tree: &ResolvedLine, style: Style) -> Game {
    let mut g = game.clone();
    rewrite(&mut g.moves, tree, style);
    g
}

fn rewrite(line: &mut Line, tree: &ResolvedLine, style: Style) {
    for (v, t) in line
        .leading_variations
        .iter_mut()
        .zip(&tree.leading_variations)
    {
        rewrite(v, t, style);
    }
    for (m, r) in line.moves.iter_mut().zip(&tree.moves) {
        if let Some(info) = &r.info {
            m.text = info.text(style).into();
        }
        if !r.variations.is_empty() {
            for (v, t) in m.extras_mut().variations.iter_mut().zip(&r.variations) {
                rewrite(v, t, style);
            }
        }
    }
}

/// [`rewrite`] resolving each move as it goes (see [`LineWalker`]). `text` is room for a
/// move's notation, reused from move to move: written there, a move's new text fits in
/// the move's own (inline for up to 24 bytes), where a string made for each and dropped
/// was an allocation a move.
fn rewrite_walking(
    line: &mut Line,
    start: Option<(Position, u32)>,
    main: Option<&[Ply]>,
    style: Style,
    text: &mut String,
) {
    for v in &mut line.leading_variations {
        rewrite_walking(v, start, None, style, text);
    }
    let mut walker = LineWalker::new(start, main);
    for i in 0..line.moves.len() {
        // (the moves after this one are read as written, as resolve_tree reads them)
        let walked = walker.step(&line.moves, i);
        let m = &mut line.moves[i];
        if let Some(info) = &walked.info {
            text.clear();
            info.push_text(text, style);
            m.text = text.as_str().into();
        }
        if !m.variations().is_empty() {
            for v in &mut m.extras_mut().variations {
                let start = walked.alternatives().start(v);
                rewrite_walking(v, start, None, style, text);
            }
        }
    }
}

/// Writes one game as PDN (ending with a line break; games are separated by the caller).
pub fn write_pdn(out: &mut String, g: &CheckedGame, opts: &PdnOptions) {
    match GameStatus::of(g) {
        GameStatus::Ok => {
            let tree = resolve_tree(&g.game, &g.replay);
            let game = renotate(&g.game, &tree, opts.style);
            write_game(out, &game, &write_options(opts)).expect("writing to a String cannot fail");
        }
        status => write_as_read(out, g, status, opts),
    }
}

/// [`write_pdn`], re-notating the game's moves in place instead of in a copy: what is
/// written is the same, and the game is left with its resolved moves in `opts.style`.
/// For a caller done with the game (`convert`): a copy of a game of megabytes of
/// comment is megabytes more per thread.
pub fn write_pdn_renotating(out: &mut String, g: &mut CheckedGame, opts: &PdnOptions) {
    match GameStatus::of(g) {
        GameStatus::Ok => {
            // (walked as resolve_tree walks it, without holding a resolution a move)
            let start = main_line_start(&g.replay);
            let main = Some(&g.replay.mainline[..]);
            rewrite_walking(
                &mut g.game.moves,
                start,
                main,
                opts.style,
                &mut String::new(),
            );
            write_game(out, &g.game, &write_options(opts))
                .expect("writing to a String cannot fail");
        }
        status => write_as_read(out, g, status, opts),
    }
}

fn write_options(opts: &PdnOptions) -> WriteOptions {
    WriteOptions {
        comments: opts.comments,
        variations: opts.variations,
        nags: opts.nags,
        ..WriteOptions::default()
    }
}

/// A game that is not re-notated: its moves as written, or, with syntax errors, its text.
fn write_as_read(out: &mut String, g: &CheckedGame, status: GameStatus, opts: &PdnOptions) {
    if status == GameStatus::Unparsed && g.game.has_errors() {
        // Verbatim: the text from its first tag (stray lines before it dropped).
        let text = g.raw.text.get(g.raw.stray_prefix..).unwrap_or(&g.raw.text);
        out.push_str(text.trim_end_matches(['\n', '\r', ' ', '\t']));
        out.push('\n');
    } else {
        write_game(out, &g.game, &write_options(opts)).expect("writing to a String cannot fail");
    }
}

/// One game as PDN (see [`write_pdn`]).
pub fn pdn_string(g: &CheckedGame, opts: &PdnOptions) -> String {
    let mut s = String::new();
    write_pdn(&mut s, g, opts);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{CheckOptions, CheckedGames};
    use crate::rules::notation::{CaptureStyle, SquareStyle};

    fn convert(text: &str, opts: &PdnOptions) -> String {
        CheckedGames::new("t.pdn", text.as_bytes(), &CheckOptions::default())
            .unwrap()
            .map(|g| pdn_string(&g.unwrap(), opts))
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn numeric_full_and_back() {
        let text = "[Event \"e\"]\n1. c3-d4 f6-g5 (1... f6-e5 2. d4xf6 g7xe5) 2. d4-c5 b6xd4 3. e3xc5 {x} *";
        let numeric = PdnOptions {
            style: Style {
                squares: SquareStyle::Numeric,
                captures: CaptureStyle::Full,
                ..Style::default()
            },
            ..PdnOptions::default()
        };
        let n = convert(text, &numeric);
        assert!(
            n.contains("1. 22-18 11-16 ( 1... 11-15 2. 18:11 8:15 ) 2. 18-14 9:18"),
            "{n}"
        );
        let a = convert(&n, &PdnOptions::default());
        assert_eq!(a, convert(text, &PdnOptions::default()));
        assert_eq!(convert(&a, &PdnOptions::default()), a);
    }

    #[test]
    fn an_illegal_game_keeps_its_moves() {
        let text = "1. c3-d4 f6-g5 2. c3-d4 h6-h5 *";
        assert_eq!(
            convert(text, &PdnOptions::default()),
            "1. c3-d4 f6-g5 2. c3-d4 h6-h5 *\n"
        );
    }
}
