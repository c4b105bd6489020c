//! `pdnkit.Board` and `pdnkit.Move`: a position of the library's rules with the moves
//! played on it, for engines, bots and notebooks. Russian positions are the bitboard
//! [`Position`] with the draw rules of an edition; the other variants' are the general
//! generator's [`VariantPosition`].

use pdnkit::diagram::{self, Diagram};
use pdnkit::draw::{DrawTracker, Edition};
use pdnkit::replay::{draw_view, ply_facts, setup_position};
use pdnkit::rules::notation::{
    CaptureStyle, MoveText, Resolution, Style, format_move, resolve_token,
};
use pdnkit::rules::perft::perft;
use pdnkit::rules::{
    FenStyle, MoveList, Position, Square, Variant, VariantMove, VariantPosition, VariantResolution,
};
use pdnkit::{Color, rules};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use crate::{guarded, pdn_error};

/// How moves are written: algebraic squares, captures by their first and last squares
/// and as many landing squares between as they need to be unambiguous, `:` (what
/// `pdnkit convert` writes by default, [`crate::style`]).
const STYLE: Style = Style {
    squares: rules::notation::SquareStyle::Algebraic,
    captures: CaptureStyle::Minimal,
    separator: rules::notation::CaptureSeparator::Colon,
};

fn names(squares: impl IntoIterator<Item = Square>) -> Vec<String> {
    squares.into_iter().map(|sq| sq.to_string()).collect()
}

/// A legal move of a position.
// (a free list: `legal_moves` makes a few of them for every position, and their memory is
// reused instead of asked for anew)
#[pyclass(module = "pdnkit", frozen, freelist = 512)]
pub struct Move {
    of: MoveOf,
}

/// A move with the position it is a move of (its text and route depend on it).
#[derive(Clone)]
enum MoveOf {
    Russian { mv: rules::Move, before: Position },
    // (boxed: a Russian move object stays as small as it was)
    Other(Box<(VariantMove, VariantPosition)>),
}

impl MoveOf {
    fn other(mv: VariantMove, before: VariantPosition) -> MoveOf {
        MoveOf::Other(Box::new((mv, before)))
    }
}

impl Move {
    fn russian(mv: rules::Move, before: Position) -> Move {
        Move {
            of: MoveOf::Russian { mv, before },
        }
    }
}

#[pymethods]
impl Move {
    /// The square the piece starts on (`c3`; a number in the variants PDN numbers, `32`);
    /// `from` is a Python keyword, hence the `_`.
    #[getter]
    fn from_(&self) -> String {
        match &self.of {
            MoveOf::Russian { mv, .. } => mv.from().to_string(),
            MoveOf::Other(o) => o.1.square_text(o.0.from()),
        }
    }

    /// The square the piece ends on.
    #[getter]
    fn to(&self) -> String {
        match &self.of {
            MoveOf::Russian { mv, .. } => mv.to().to_string(),
            MoveOf::Other(o) => o.1.square_text(o.0.to()),
        }
    }

    /// The squares of the pieces captured, in square order (empty for a quiet move).
    #[getter]
    fn captured(&self) -> Vec<String> {
        match &self.of {
            MoveOf::Russian { mv, .. } => names(mv.captured()),
            MoveOf::Other(o) => {
                let (mv, before) = &**o;
                let mut squares: Vec<u8> = mv.captured().collect();
                squares.sort_by_key(|&i| before.square_order(i));
                squares.iter().map(|&i| before.square_text(i)).collect()
            }
        }
    }

    /// The squares the piece passes through: from, every landing square, to (the first
    /// of the routes when a capture has several).
    #[getter]
    fn route(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let (before, mv) = match &self.of {
            MoveOf::Russian { mv, before } => (*before, *mv),
            MoveOf::Other(o) => {
                let (mv, before) = &**o;
                return Ok(mv.route().iter().map(|&i| before.square_text(i)).collect());
            }
        };
        let route = guarded(py, || before.routes(&mv).into_iter().next())?;
        Ok(match route {
            Some(route) => names(route.squares().iter().copied()),
            None => names([mv.from(), mv.to()]),
        })
    }

    /// Whether a man becomes a king with this move.
    #[getter]
    fn promotes(&self) -> bool {
        match &self.of {
            MoveOf::Russian { mv, .. } => mv.promotes(),
            MoveOf::Other(o) => o.0.promotes(),
        }
    }

    /// Whether the move captures.
    #[getter]
    fn is_capture(&self) -> bool {
        match &self.of {
            MoveOf::Russian { mv, .. } => mv.is_capture(),
            MoveOf::Other(o) => o.0.is_capture(),
        }
    }

    /// The move as pdnkit writes it: `c3-d4`, `c3:e5`, with the landing squares a
    /// capture needs to be unambiguous (other variants: `32-28`, `28x19`, in their
    /// numbering).
    #[getter]
    fn text(&self, py: Python<'_>) -> PyResult<String> {
        match &self.of {
            MoveOf::Russian { mv, before } => {
                let (before, mv) = (*before, *mv);
                guarded(py, || format_move(&before, &mv, STYLE))
            }
            MoveOf::Other(o) => {
                let (mv, before) = **o;
                guarded(py, || before.move_text(&mv, &before.legal_moves()))
            }
        }
    }

    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        self.text(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("<Move {}>", self.text(py)?))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Move>()
            .is_ok_and(|o| match (&o.get().of, &self.of) {
                (MoveOf::Russian { mv: a, before: p }, MoveOf::Russian { mv: b, before: q }) => {
                    a == b && p == q
                }
                (MoveOf::Other(a), MoveOf::Other(b)) => a.0.same(&b.0) && a.1 == b.1,
                _ => false,
            })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        match &self.of {
            MoveOf::Russian { mv, .. } => mv.hash(&mut h),
            MoveOf::Other(o) => {
                (o.0.from(), o.0.to(), o.0.captured().collect::<Vec<_>>()).hash(&mut h)
            }
        }
        h.finish()
    }
}

/// A position of any variant and the moves played to it.
#[pyclass(module = "pdnkit")]
pub struct Board {
    game: Game,
}

/// A board's position and moves, by the generator that plays its variant.
#[derive(Clone)]
enum Game {
    Russian {
        pos: Position,
        /// The moves played, each with the position before it.
        stack: Vec<(Position, rules::Move)>,
        /// The draw rules of the edition, followed from the board's first position.
        tracker: DrawTracker,
    },
    Other {
        pos: VariantPosition,
        stack: Vec<(VariantPosition, VariantMove)>,
    },
}

/// A tracker of `edition`'s draw rules from `start`.
fn tracker(edition: Edition, start: &Position) -> DrawTracker {
    let (material, key) = draw_view(start);
    DrawTracker::new(edition, material, key)
}

impl Board {
    /// The picture of the board, with the last move.
    fn diagram(&self, py: Python<'_>) -> PyResult<Diagram> {
        match &self.game {
            Game::Russian { pos, stack, .. } => {
                let (pos, last) = (*pos, stack.last().copied());
                guarded(py, || {
                    let mut d = Diagram::from(&pos);
                    if let Some((before, mv)) = last {
                        d.last_move = diagram::move_squares(&before, &mv);
                    }
                    d
                })
            }
            Game::Other { pos, stack } => {
                let mut d = Diagram::from(pos);
                if let Some((before, mv)) = stack.last() {
                    d.last_move = diagram::variant_move_squares(before, mv);
                }
                Ok(d)
            }
        }
    }

    /// The Russian move `text` names in `pos`, or the error to raise.
    fn resolve_russian(py: Python<'_>, pos: Position, text: &str) -> PyResult<rules::Move> {
        match guarded(py, || resolve_token(&pos, text, None, None))? {
            Err(e) => {
                let message = format!("cannot read `{text}`: {e}");
                Err(pdn_error(py, "M106", &message, None, None))
            }
            Ok(resolved) => match resolved.resolution {
                Resolution::Unique { mv, .. } => Ok(mv),
                Resolution::Ambiguous(candidates) => {
                    let full = Style {
                        captures: CaptureStyle::Full,
                        ..STYLE
                    };
                    let them: Vec<String> = candidates
                        .iter()
                        .map(|m| format_move(&pos, m, full))
                        .collect();
                    let message = format!("`{text}` is ambiguous: {}", them.join(", "));
                    Err(pdn_error(py, "M102", &message, None, None))
                }
                Resolution::Illegal(why) => {
                    let message = format!("`{text}` is not a legal move here: {why}");
                    Err(pdn_error(py, "M101", &message, None, None))
                }
            },
        }
    }

    /// The move of another variant `text` names in `pos`, or the error to raise.
    fn resolve_other(py: Python<'_>, pos: VariantPosition, text: &str) -> PyResult<VariantMove> {
        let parsed = text.parse::<MoveText>().map_err(|e| {
            pdn_error(
                py,
                "M106",
                &format!("cannot read `{text}`: {e}"),
                None,
                None,
            )
        })?;
        match guarded(py, || pos.resolve(&parsed))? {
            VariantResolution::Unique(mv) => Ok(mv),
            VariantResolution::Ambiguous(candidates) => {
                let them: Vec<String> = candidates.iter().map(|m| pos.route_text(m)).collect();
                let message = format!("`{text}` is ambiguous: {}", them.join(", "));
                Err(pdn_error(py, "M102", &message, None, None))
            }
            VariantResolution::Illegal(why) => {
                let message = format!("`{text}` is not a legal move here: {why}");
                Err(pdn_error(py, "M101", &message, None, None))
            }
        }
    }
}

#[pymethods]
impl Board {
    /// The start position of `variant`, or the position of `fen` (`W:W21,22:B1,2`,
    /// numeric or algebraic squares, `K` for kings). `variant` is any variant PDN numbers
    /// (`russian`, `international`, `english`, …, or a GameType number); `rules` the
    /// draw-rule edition whose automatic draws end a Russian game (`russia` or `fmjd`).
    #[new]
    #[pyo3(signature = (fen=None, variant="russian", rules="russia"))]
    fn new(py: Python<'_>, fen: Option<&str>, variant: &str, rules: &str) -> PyResult<Board> {
        let variant =
            (variant.parse::<Variant>()).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let edition = crate::edition(rules)?;
        if variant != Variant::Russian {
            let pos = match fen {
                None => VariantPosition::start(variant),
                Some(fen) => guarded(py, || VariantPosition::from_fen(fen, variant))?
                    .map_err(|e| pdn_error(py, "F101", &format!("invalid FEN: {e}"), None, None))?,
            };
            let stack = Vec::new();
            return Ok(Board {
                game: Game::Other { pos, stack },
            });
        }
        let pos = match fen {
            None => Position::start(),
            Some(fen) => guarded(py, || setup_position(fen, None))?
                .map(|(pos, _)| pos)
                .map_err(|message| pdn_error(py, "F101", &message, None, None))?,
        };
        let tracker = tracker(edition, &pos);
        let stack = Vec::new();
        Ok(Board {
            game: Game::Russian {
                pos,
                stack,
                tracker,
            },
        })
    }

    /// The variant the board plays: `russian`, `international`, …
    #[getter]
    fn variant(&self) -> &'static str {
        match &self.game {
            Game::Russian { .. } => Variant::Russian.name(),
            Game::Other { pos, .. } => pos.variant().name(),
        }
    }

    /// The legal moves (captures only, when there is one to make; those the variant's
    /// capture rules allow).
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        match &self.game {
            Game::Russian { pos, .. } => {
                let before = *pos;
                guarded(py, || {
                    // (filled in place: a list returned is a copy of its whole array)
                    let mut moves = MoveList::new();
                    before.legal_moves_into(&mut moves);
                    PyList::new(py, moves.iter().map(|&mv| Move::russian(mv, before)))
                })?
            }
            Game::Other { pos, .. } => {
                let before = *pos;
                let moves = guarded(py, || before.legal_moves())?;
                PyList::new(
                    py,
                    moves.into_iter().map(|mv| Move {
                        of: MoveOf::other(mv, before),
                    }),
                )
            }
        }
    }

    /// Plays a move: a `Move` of `legal_moves()`, or its text (`c3-d4`, `22-18`,
    /// `c3:e5:c7`, as a PDN file writes it; `32-28`, `28x19x10` in the numbering of
    /// another variant). A move that is not legal, ambiguous or unreadable raises
    /// `PdnError` (M101, M102, M106).
    fn push(&mut self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let given = mv.cast::<Move>().ok().map(|m| m.get().of.clone());
        let text: Option<String> = if given.is_none() {
            if !mv.is_instance_of::<PyString>() {
                return Err(PyTypeError::new_err("push() takes a Move or its text"));
            }
            Some(mv.extract()?)
        } else {
            None
        };
        let not_legal = |py: Python<'_>, what: String| {
            pdn_error(
                py,
                "M101",
                &format!("{what} is not a legal move here"),
                None,
                None,
            )
        };
        match &mut self.game {
            Game::Russian {
                pos,
                stack,
                tracker,
            } => {
                let before = *pos;
                let chosen = match (given, text) {
                    (Some(MoveOf::Russian { mv, .. }), _) => {
                        if !guarded(py, || before.legal_moves().contains(&mv))? {
                            return Err(not_legal(py, mv.to_string()));
                        }
                        mv
                    }
                    (Some(MoveOf::Other(_)), _) => {
                        return Err(not_legal(py, "a move of another variant".into()));
                    }
                    (None, text) => {
                        Self::resolve_russian(py, before, text.as_deref().unwrap_or(""))?
                    }
                };
                stack.push((before, chosen));
                pos.play_unchecked(&chosen);
                tracker.push(&ply_facts(&before, &chosen, pos));
            }
            Game::Other { pos, stack } => {
                let before = *pos;
                let chosen = match (given, text) {
                    (Some(MoveOf::Other(o)), _) => {
                        // (square indices name other squares on another variant's board)
                        let (mv, of) = *o;
                        let legal = match of.variant() == before.variant() {
                            true => guarded(py, || before.legal_moves())?,
                            false => Vec::new(),
                        };
                        match legal.iter().find(|m| m.same(&mv)) {
                            Some(m) => *m,
                            None => {
                                let text = of.move_text(&mv, &[]);
                                return Err(not_legal(py, format!("{} {text}", of.variant())));
                            }
                        }
                    }
                    (Some(MoveOf::Russian { mv, .. }), _) => {
                        return Err(not_legal(py, format!("the Russian move {mv}")));
                    }
                    (None, text) => Self::resolve_other(py, before, text.as_deref().unwrap_or(""))?,
                };
                stack.push((before, chosen));
                pos.play_unchecked(&chosen);
            }
        }
        Ok(())
    }

    /// Takes back the last move played, and returns it.
    fn pop(&mut self) -> PyResult<Move> {
        let empty = || PyIndexError::new_err("pop from a board with no move played");
        match &mut self.game {
            Game::Russian {
                pos,
                stack,
                tracker: t,
            } => {
                let (before, mv) = stack.pop().ok_or_else(empty)?;
                *pos = before;
                // (the draw rules count back to the first position: followed again from
                // there)
                let first = stack.first().map_or(before, |&(pos, _)| pos);
                *t = tracker(t.edition(), &first);
                for &(p, mv) in stack.iter() {
                    t.push(&ply_facts(&p, &mv, &p.after(&mv)));
                }
                Ok(Move::russian(mv, before))
            }
            Game::Other { pos, stack } => {
                let (before, mv) = stack.pop().ok_or_else(empty)?;
                *pos = before;
                Ok(Move {
                    of: MoveOf::other(mv, before),
                })
            }
        }
    }

    /// The moves played, first to last.
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        match &self.game {
            Game::Russian { stack, .. } => (stack.iter())
                .map(|&(before, mv)| Move::russian(mv, before))
                .collect(),
            Game::Other { stack, .. } => (stack.iter())
                .map(|&(before, mv)| Move {
                    of: MoveOf::other(mv, before),
                })
                .collect(),
        }
    }

    /// The side to move: `white` or `black`.
    #[getter]
    fn turn(&self) -> &'static str {
        let turn = match &self.game {
            Game::Russian { pos, .. } => pos.turn(),
            Game::Other { pos, .. } => pos.turn(),
        };
        match turn {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// The position as FEN: `numeric` squares (`W:W21,22,K30:B1,2`, what Russian PDN
    /// files use) or `algebraic` (`W:Wa1,c1,Kh8:Bb8`, pydraughts' style). Other variants'
    /// FENs are written as their PDN writes them (numbers; Turkish names squares).
    #[pyo3(signature = (notation="numeric"))]
    fn fen(&self, notation: &str) -> PyResult<String> {
        let style = match notation {
            "numeric" => FenStyle::Numeric,
            "algebraic" => FenStyle::Algebraic,
            _ => {
                let message = format!("unknown notation `{notation}` (numeric, algebraic)");
                return Err(PyValueError::new_err(message));
            }
        };
        match &self.game {
            Game::Russian { pos, .. } => Ok(pos.to_fen(style)),
            Game::Other { pos, .. } if style == FenStyle::Numeric => Ok(pos.to_fen()),
            Game::Other { pos, .. } => Err(PyValueError::new_err(format!(
                "a {} FEN is written in its own numbering (notation=\"numeric\")",
                pos.variant()
            ))),
        }
    }

    /// The number of move sequences of `depth` plies from here (the move generator's
    /// test: 7, 49, 302, 1469, 7482 from the Russian start).
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        let game = self.game.clone();
        py.detach(|| {
            std::panic::catch_unwind(|| match &game {
                Game::Russian { pos, .. } => perft(pos, depth),
                Game::Other { pos, .. } => perft(pos, depth),
            })
        })
        .map_err(|_| pdn_error(py, "internal", "pdnkit failed in perft", None, None))
    }

    /// Whether the game is over: the side to move has no legal move (and loses), or, in
    /// Russian, a move-count rule of the edition drew it automatically (a threefold
    /// repetition is a draw to claim, and does not end the game by itself).
    fn is_over(&self, py: Python<'_>) -> PyResult<bool> {
        match &self.game {
            Game::Russian { pos, tracker, .. } => {
                let pos = *pos;
                let drawn = tracker.automatic_draw().is_some();
                Ok(drawn || guarded(py, || !pos.has_legal_moves())?)
            }
            Game::Other { pos, .. } => {
                let pos = *pos;
                guarded(py, || pos.legal_moves().is_empty())
            }
        }
    }

    /// `1-0` or `0-1` when the side to move has no legal move (it loses), `1/2-1/2` when
    /// a move-count rule drew a Russian game, else `*`.
    fn result(&self, py: Python<'_>) -> PyResult<&'static str> {
        if self.draw_rule().is_some() {
            return Ok("1/2-1/2");
        }
        let turn = match &self.game {
            Game::Russian { pos, .. } => pos.turn(),
            Game::Other { pos, .. } => pos.turn(),
        };
        Ok(match (self.is_over(py)?, turn) {
            (false, _) => "*",
            (true, Color::White) => "0-1",
            (true, Color::Black) => "1-0",
        })
    }

    /// The rule that drew a Russian game automatically, as its article and condition
    /// (`6.1.8.4: …`), or `None`.
    fn draw_rule(&self) -> Option<String> {
        let Game::Russian { tracker, .. } = &self.game else {
            return None;
        };
        let event = tracker.automatic_draw()?;
        Some(format!("{}: {}", event.rule, event.detail))
    }

    /// A copy of the board, with its moves.
    fn copy(&self) -> Board {
        Board {
            game: self.game.clone(),
        }
    }

    /// The board as SVG, the last move as an arrow (what `pdnkit show --format svg`
    /// draws; a 10×10 or 12×12 board, mirrored or with every square, as its variant's
    /// players see it): Jupyter shows a board so.
    fn _repr_svg_(&self, py: Python<'_>) -> PyResult<String> {
        let d = self.diagram(py)?;
        guarded(py, || d.svg())
    }

    /// The board as text, White at the bottom.
    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        let d = self.diagram(py)?;
        guarded(py, || d.ascii())
    }

    fn __repr__(&self) -> String {
        match &self.game {
            Game::Russian { pos, .. } => format!("Board('{}')", pos.to_fen(FenStyle::Numeric)),
            Game::Other { pos, .. } => {
                format!("Board('{}', variant='{}')", pos.to_fen(), pos.variant())
            }
        }
    }
}
