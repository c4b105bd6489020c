//! `pdnkit.Board` and `pdnkit.Move`: a position of the library's rules with the moves
//! played on it, for engines, bots and notebooks.

use pdnkit::diagram::{self, Diagram};
use pdnkit::draw::{DrawTracker, Edition};
use pdnkit::replay::{draw_view, ply_facts, setup_position};
use pdnkit::rules::notation::{CaptureStyle, Resolution, Style, format_move, resolve_token};
use pdnkit::rules::perft::perft;
use pdnkit::rules::{FenStyle, MoveList, Position, Square, Variant};
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
    mv: rules::Move,
    /// The position it is a move of (its text and route depend on it).
    before: Position,
}

#[pymethods]
impl Move {
    /// The square the piece starts on (`c3`); `from` is a Python keyword, hence the `_`.
    #[getter]
    fn from_(&self) -> String {
        self.mv.from().to_string()
    }

    /// The square the piece ends on.
    #[getter]
    fn to(&self) -> String {
        self.mv.to().to_string()
    }

    /// The squares of the pieces captured, in square order (empty for a quiet move).
    #[getter]
    fn captured(&self) -> Vec<String> {
        names(self.mv.captured())
    }

    /// The squares the piece passes through: from, every landing square, to (the first
    /// of the routes when a capture has several).
    #[getter]
    fn route(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let (before, mv) = (self.before, self.mv);
        let route = guarded(py, || before.routes(&mv).into_iter().next())?;
        Ok(match route {
            Some(route) => names(route.squares().iter().copied()),
            None => names([mv.from(), mv.to()]),
        })
    }

    /// Whether a man becomes a king with this move.
    #[getter]
    fn promotes(&self) -> bool {
        self.mv.promotes()
    }

    /// Whether the move captures.
    #[getter]
    fn is_capture(&self) -> bool {
        self.mv.is_capture()
    }

    /// The move as pdnkit writes it: `c3-d4`, `c3:e5`, with the landing squares a
    /// capture needs to be unambiguous.
    #[getter]
    fn text(&self, py: Python<'_>) -> PyResult<String> {
        let (before, mv) = (self.before, self.mv);
        guarded(py, || format_move(&before, &mv, STYLE))
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
            .is_ok_and(|o| o.get().mv == self.mv && o.get().before == self.before)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.mv.hash(&mut h);
        h.finish()
    }
}

/// A position of Russian draughts and the moves played to it.
#[pyclass(module = "pdnkit")]
pub struct Board {
    pos: Position,
    /// The moves played, each with the position before it.
    stack: Vec<(Position, rules::Move)>,
    /// The draw rules of the edition, followed from the board's first position.
    tracker: DrawTracker,
}

/// A tracker of `edition`'s draw rules from `start`.
fn tracker(edition: Edition, start: &Position) -> DrawTracker {
    let (material, key) = draw_view(start);
    DrawTracker::new(edition, material, key)
}

impl Board {
    fn last_move(&self) -> Option<Move> {
        (self.stack.last()).map(|&(before, mv)| Move { mv, before })
    }
}

#[pymethods]
impl Board {
    /// The start position, or the position of `fen` (`W:W21,22:B1,2`, numeric or
    /// algebraic squares, `K` for kings); `variant` is `russian`; `rules` the draw-rule
    /// edition whose automatic draws end the game (`russia` or `fmjd`).
    #[new]
    #[pyo3(signature = (fen=None, variant="russian", rules="russia"))]
    fn new(py: Python<'_>, fen: Option<&str>, variant: &str, rules: &str) -> PyResult<Board> {
        // (the board plays Russian draughts; the other variants have perft and moves on
        // the command line only)
        match variant.parse::<Variant>() {
            Ok(Variant::Russian) => {}
            Ok(other) => {
                let message = format!("Board plays russian draughts, not {other}");
                return Err(PyValueError::new_err(message));
            }
            Err(e) => return Err(PyValueError::new_err(e.to_string())),
        }
        let pos = match fen {
            None => Position::start(),
            Some(fen) => guarded(py, || setup_position(fen, None))?
                .map(|(pos, _)| pos)
                .map_err(|message| pdn_error(py, "F101", &message, None, None))?,
        };
        Ok(Board {
            pos,
            stack: Vec::new(),
            tracker: tracker(crate::edition(rules)?, &pos),
        })
    }

    /// The legal moves (captures only, when there is one to make).
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let before = self.pos;
        guarded(py, || {
            // (filled in place: a list returned is a copy of its whole array)
            let mut moves = MoveList::new();
            before.legal_moves_into(&mut moves);
            PyList::new(py, moves.iter().map(|&mv| Move { mv, before }))
        })?
    }

    /// Plays a move: a `Move` of `legal_moves()`, or its text (`c3-d4`, `22-18`,
    /// `c3:e5:c7`, as a PDN file writes it). A move that is not legal, ambiguous or
    /// unreadable raises `PdnError` (M101, M102, M106).
    fn push(&mut self, py: Python<'_>, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let pos = self.pos;
        let chosen = if let Ok(m) = mv.cast::<Move>() {
            let m = m.get().mv;
            match guarded(py, || pos.legal_moves().contains(&m))? {
                true => m,
                false => {
                    let text = format!("{m} is not a legal move here");
                    return Err(pdn_error(py, "M101", &text, None, None));
                }
            }
        } else if mv.is_instance_of::<PyString>() {
            let text: String = mv.extract()?;
            let text = text.as_str();
            match guarded(py, || resolve_token(&pos, text, None, None))? {
                Err(e) => {
                    let message = format!("cannot read `{text}`: {e}");
                    return Err(pdn_error(py, "M106", &message, None, None));
                }
                Ok(resolved) => match resolved.resolution {
                    Resolution::Unique { mv, .. } => mv,
                    Resolution::Ambiguous(candidates) => {
                        let them: Vec<String> = candidates
                            .iter()
                            .map(|m| {
                                format_move(
                                    &pos,
                                    m,
                                    Style {
                                        captures: CaptureStyle::Full,
                                        ..STYLE
                                    },
                                )
                            })
                            .collect();
                        let message = format!("`{text}` is ambiguous: {}", them.join(", "));
                        return Err(pdn_error(py, "M102", &message, None, None));
                    }
                    Resolution::Illegal(why) => {
                        let message = format!("`{text}` is not a legal move here: {why}");
                        return Err(pdn_error(py, "M101", &message, None, None));
                    }
                },
            }
        } else {
            return Err(PyTypeError::new_err("push() takes a Move or its text"));
        };
        self.stack.push((pos, chosen));
        self.pos.play_unchecked(&chosen);
        self.tracker.push(&ply_facts(&pos, &chosen, &self.pos));
        Ok(())
    }

    /// Takes back the last move played, and returns it.
    fn pop(&mut self) -> PyResult<Move> {
        let (before, mv) = (self.stack.pop())
            .ok_or_else(|| PyIndexError::new_err("pop from a board with no move played"))?;
        self.pos = before;
        // (the draw rules count back to the first position: followed again from there)
        let first = self.stack.first().map_or(before, |&(pos, _)| pos);
        self.tracker = tracker(self.tracker.edition(), &first);
        for &(pos, mv) in &self.stack {
            self.tracker.push(&ply_facts(&pos, &mv, &pos.after(&mv)));
        }
        Ok(Move { mv, before })
    }

    /// The moves played, first to last.
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        (self.stack.iter())
            .map(|&(before, mv)| Move { mv, before })
            .collect()
    }

    /// The side to move: `white` or `black`.
    #[getter]
    fn turn(&self) -> &'static str {
        match self.pos.turn() {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// The position as FEN: `numeric` squares (`W:W21,22,K30:B1,2`, what Russian PDN
    /// files use) or `algebraic` (`W:Wa1,c1,Kh8:Bb8`, pydraughts' style).
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
        Ok(self.pos.to_fen(style))
    }

    /// The number of move sequences of `depth` plies from here (the move generator's
    /// test: 7, 49, 302, 1469, 7482 from the start).
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        let pos = self.pos;
        py.detach(|| std::panic::catch_unwind(|| perft(&pos, depth)))
            .map_err(|_| pdn_error(py, "internal", "pdnkit failed in perft", None, None))
    }

    /// Whether the game is over: the side to move has no legal move (and loses), or a
    /// move-count rule of the edition drew it automatically (a threefold repetition is
    /// a draw to claim, and does not end the game by itself).
    fn is_over(&self, py: Python<'_>) -> PyResult<bool> {
        let pos = self.pos;
        let drawn = self.tracker.automatic_draw().is_some();
        Ok(drawn || guarded(py, || !pos.has_legal_moves())?)
    }

    /// `1-0` or `0-1` when the side to move has no legal move (it loses), `1/2-1/2` when
    /// a move-count rule drew the game, else `*`.
    fn result(&self, py: Python<'_>) -> PyResult<&'static str> {
        if self.tracker.automatic_draw().is_some() {
            return Ok("1/2-1/2");
        }
        Ok(match (self.is_over(py)?, self.pos.turn()) {
            (false, _) => "*",
            (true, Color::White) => "0-1",
            (true, Color::Black) => "1-0",
        })
    }

    /// The rule that drew the game automatically, as its article and condition
    /// (`6.1.8.4: …`), or `None`.
    fn draw_rule(&self) -> Option<String> {
        let event = self.tracker.automatic_draw()?;
        Some(format!("{}: {}", event.rule, event.detail))
    }

    /// A copy of the board, with its moves.
    fn copy(&self) -> Board {
        Board {
            pos: self.pos,
            stack: self.stack.clone(),
            tracker: self.tracker.clone(),
        }
    }

    /// The board as SVG, the last move as an arrow (what `pdnkit show --format svg`
    /// draws): Jupyter shows a board so.
    fn _repr_svg_(&self, py: Python<'_>) -> PyResult<String> {
        let pos = self.pos;
        let last = self.last_move();
        guarded(py, || {
            let mut d = Diagram::from(&pos);
            if let Some(m) = last {
                d.last_move = diagram::move_squares(&m.before, &m.mv);
            }
            d.svg()
        })
    }

    /// The board as text, White at the bottom.
    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        let pos = self.pos;
        guarded(py, || Diagram::from(&pos).ascii())
    }

    fn __repr__(&self) -> String {
        format!("Board('{}')", self.pos.to_fen(FenStyle::Numeric))
    }
}
