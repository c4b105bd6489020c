//! Pictures of a position: an ASCII board for terminals and an SVG diagram for documents.
//!
//! Both take a plain description ([`Diagram`]) so that they do not depend on how the rules
//! engine stores a position.

use crate::Color;
use crate::rules::{Move, Position};
use std::fmt::Write;

/// A square by file (0 = a) and rank (0 = rank 1).
pub type Coord = (u8, u8);

/// What to draw.
#[derive(Clone, Debug, Default)]
pub struct Diagram {
    /// Pieces: where, whose, and whether a king.
    pub pieces: Vec<(Coord, Color, bool)>,
    /// Side to move, written under the board.
    pub turn: Option<Color>,
    /// The last move as the squares it passed through (from, landings…, to), drawn as an
    /// arrow in SVG and marked in ASCII.
    pub last_move: Vec<Coord>,
    /// Further arrows, drawn in SVG only (a move as written, the legal moves).
    pub arrows: Vec<Arrow>,
}

/// An arrow through squares (from, landings…, to).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrow {
    /// The squares it passes through.
    pub squares: Vec<Coord>,
    /// What it shows, which gives its colour.
    pub kind: ArrowKind,
}

/// What an [`Arrow`] shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrowKind {
    /// A move as written in the record that is not legal (red, dashed).
    Written,
    /// A legal move (green).
    Legal,
}

impl ArrowKind {
    /// The CSS class, colour and marker of the arrow.
    fn style(self) -> (&'static str, &'static str, &'static str) {
        match self {
            ArrowKind::Written => ("written-move", "#c62828", "arrowhead-written"),
            ArrowKind::Legal => ("legal-move", "#2e7d32", "arrowhead-legal"),
        }
    }
}

impl From<&Position> for Diagram {
    /// The pieces of `pos` and its side to move, with no arrow.
    fn from(pos: &Position) -> Diagram {
        let mut pieces = Vec::new();
        for color in [Color::White, Color::Black] {
            let kings = pos.kings(color);
            for sq in pos.pieces(color) {
                pieces.push(((sq.file(), sq.rank()), color, kings.contains(sq)));
            }
        }
        Diagram {
            pieces,
            turn: Some(pos.turn()),
            ..Diagram::default()
        }
    }
}

/// The squares a legal move `m` of `pos` passes through: its first route of captures, or
/// its two squares.
pub fn move_squares(pos: &Position, m: &Move) -> Vec<Coord> {
    let route = pos.routes(m).into_iter().next().map(|r| r.0);
    let squares = route.unwrap_or_else(|| vec![m.from(), m.to()]);
    squares.iter().map(|s| (s.file(), s.rank())).collect()
}

impl Diagram {
    /// An ASCII board, White at the bottom: `w`/`b` men, `W`/`B` kings, `.` an empty dark
    /// square, light squares blank; the squares of the last move are bracketed.
    ///
    /// ```
    /// use pdnkit::diagram::Diagram;
    /// use pdnkit::Color;
    /// let d = Diagram { pieces: vec![((2, 2), Color::White, false), ((7, 7), Color::Black, true)],
    ///                   turn: Some(Color::White), ..Diagram::default() };
    /// let text = d.ascii();
    /// assert!(text.contains(" 8 |    .     .     .     B |"));
    /// assert!(text.contains(" 3 | .     w     .     .    |"));
    /// ```
    pub fn ascii(&self) -> String {
        // (cells looked up in a grid and bytes pushed, not a piece searched and a
        // formatted write per square: `lint` draws one for every illegal move)
        // (a square off the board is not drawn)
        let cell = |(file, rank): Coord| {
            (file < 8 && rank < 8).then(|| usize::from(rank) * 8 + usize::from(file))
        };
        let mut grid = [None; 64];
        // (the first piece given for a square is the one drawn)
        for &(at, color, king) in self.pieces.iter().rev() {
            if let Some(at) = cell(at) {
                grid[at] = Some((color, king));
            }
        }
        let mut marked = [false; 64];
        for &at in &self.last_move {
            if let Some(at) = cell(at) {
                marked[at] = true;
            }
        }
        let mut s = String::with_capacity(400);
        s.push_str("   +------------------------+\n");
        for rank in (0..8u8).rev() {
            s.push(' ');
            s.push(char::from(b'1' + rank));
            s.push_str(" |");
            for file in 0..8u8 {
                let at = usize::from(rank) * 8 + usize::from(file);
                let dark = (file + rank) % 2 == 0;
                let c = if !dark {
                    ' '
                } else {
                    match grid[at] {
                        Some((Color::White, false)) => 'w',
                        Some((Color::White, true)) => 'W',
                        Some((Color::Black, false)) => 'b',
                        Some((Color::Black, true)) => 'B',
                        None => '.',
                    }
                };
                let (open, close) = if marked[at] { ('[', ']') } else { (' ', ' ') };
                s.push(open);
                s.push(c);
                s.push(close);
            }
            s.push_str("|\n");
        }
        s.push_str("   +------------------------+\n");
        s.push_str("     a  b  c  d  e  f  g  h\n");
        if let Some(t) = self.turn {
            let _ = writeln!(s, "   {t} to move");
        }
        s
    }

    /// An SVG diagram: board, coordinates, pieces (kings carry a crown mark), the last
    /// move as an arrow through its landing squares, and the further [`arrows`](Self::arrows).
    pub fn svg(&self) -> String {
        let mut s = String::with_capacity(8_000);
        s.push_str(&Diagram::svg_open());
        s.push('\n');
        s.push_str(&Diagram::svg_frame());
        self.svg_pieces_into(&mut s);
        s.push_str("</svg>\n");
        s
    }

    /// The `<svg>` start tag of [`svg`](Self::svg), with its size and view box.
    pub fn svg_open() -> String {
        let size = SIZE;
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}" font-family="sans-serif">"#
        )
    }

    /// What [`svg`](Self::svg) draws under the pieces, the same for every position: the
    /// arrow heads, the squares and the coordinates (a page of many boards holds it once).
    pub fn svg_frame() -> String {
        let size = SIZE;
        let mut s = String::with_capacity(6_000);
        s.push_str("<defs>");
        for (id, color) in [
            ("arrowhead", "#1565c0"),
            ("arrowhead-written", "#c62828"),
            ("arrowhead-legal", "#2e7d32"),
        ] {
            let _ = write!(
                s,
                "<marker id=\"{id}\" markerWidth=\"4\" markerHeight=\"4\" refX=\"2\" refY=\"2\" orient=\"auto\"><path d=\"M0,0 L4,2 L0,4 z\" fill=\"{color}\"/></marker>"
            );
        }
        s.push_str("</defs>\n");
        let _ = writeln!(
            s,
            "<rect x=\"0\" y=\"0\" width=\"{size}\" height=\"{size}\" fill=\"#ffffff\"/>"
        );
        for rank in 0..8u8 {
            for file in 0..8u8 {
                let dark = (file + rank) % 2 == 0;
                let x = MARGIN + file as u32 * SQ;
                let y = MARGIN + (7 - rank as u32) * SQ;
                let fill = if dark { "#b58863" } else { "#f0d9b5" };
                let _ = writeln!(
                    s,
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{SQ}\" height=\"{SQ}\" fill=\"{fill}\"/>"
                );
            }
        }
        for i in 0..8u32 {
            let file = (b'a' + i as u8) as char;
            let x = MARGIN + i * SQ + SQ / 2;
            let _ = writeln!(
                s,
                "<text x=\"{x}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\">{file}</text>",
                size - 7
            );
            let y = MARGIN + (7 - i) * SQ + SQ / 2 + 5;
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{y}\" font-size=\"14\" text-anchor=\"middle\">{}</text>",
                MARGIN / 2,
                i + 1
            );
        }
        s
    }

    /// What [`svg`](Self::svg) draws over the [frame](Self::svg_frame): the pieces and the
    /// arrows, as SVG elements.
    pub fn svg_pieces(&self) -> String {
        let mut s = String::with_capacity(3_000);
        self.svg_pieces_into(&mut s);
        s
    }

    fn svg_pieces_into(&self, s: &mut String) {
        let center = |(f, r): Coord| -> (u32, u32) {
            (
                MARGIN + u32::from(f) * SQ + SQ / 2,
                MARGIN + (7 - u32::from(r)) * SQ + SQ / 2,
            )
        };
        // (a square off the board is not drawn)
        let on_board = |&(f, r): &Coord| f < 8 && r < 8;
        for &(c, color, king) in self.pieces.iter().filter(|(c, ..)| on_board(c)) {
            let (x, y) = center(c);
            let (fill, stroke, mark) = match color {
                Color::White => ("#fafafa", "#333333", "#333333"),
                Color::Black => ("#222222", "#000000", "#f5d76e"),
            };
            let _ = writeln!(
                s,
                "<circle cx=\"{x}\" cy=\"{y}\" r=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"2\"/>",
                SQ * 2 / 5
            );
            if king {
                // a crown: a ring and a K, readable in print without colour
                let _ = writeln!(
                    s,
                    "<circle cx=\"{x}\" cy=\"{y}\" r=\"{}\" fill=\"none\" stroke=\"{mark}\" stroke-width=\"2\"/><text x=\"{x}\" y=\"{}\" font-size=\"20\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{mark}\" class=\"king\">K</text>",
                    SQ / 4,
                    y + 7
                );
            }
        }
        let mut arrow = |squares: &[Coord], class: &str, color: &str, marker: &str, dash: &str| {
            if squares.len() < 2 || !squares.iter().all(on_board) {
                return;
            }
            let points: Vec<String> = (squares.iter())
                .map(|&c| {
                    let (x, y) = center(c);
                    format!("{x},{y}")
                })
                .collect();
            let _ = writeln!(
                s,
                "<polyline class=\"{class}\" points=\"{}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"6\" stroke-opacity=\"0.8\" stroke-linejoin=\"round\"{dash} marker-end=\"url(#{marker})\"/>",
                points.join(" ")
            );
        };
        for a in &self.arrows {
            let (class, color, marker) = a.kind.style();
            let dash = match a.kind {
                ArrowKind::Written => " stroke-dasharray=\"12 6\"",
                ArrowKind::Legal => "",
            };
            arrow(&a.squares, class, color, marker, dash);
        }
        arrow(&self.last_move, "last-move", "#1565c0", "arrowhead", "");
    }
}

/// The side of a square in an SVG diagram, and the margin that holds the coordinates.
const SQ: u32 = 60;
const MARGIN: u32 = 24;
/// The width and height of an SVG diagram.
pub const SIZE: u32 = SQ * 8 + 2 * MARGIN;

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Diagram {
        Diagram {
            pieces: vec![
                ((0, 0), Color::White, false),
                ((3, 3), Color::White, true),
                ((7, 7), Color::Black, false),
                ((4, 6), Color::Black, true),
            ],
            turn: Some(Color::Black),
            last_move: vec![(2, 2), (3, 3)],
            arrows: vec![Arrow {
                squares: vec![(0, 0), (1, 1)],
                kind: ArrowKind::Legal,
            }],
        }
    }

    #[test]
    fn ascii_places_pieces_on_their_squares() {
        let a = sample().ascii();
        let lines: Vec<&str> = a.lines().collect();
        // rank 8 is the second line, rank 1 the ninth
        assert_eq!(lines[1], " 8 |    .     .     .     b |");
        assert_eq!(lines[2], " 7 | .     .     B     .    |");
        assert_eq!(lines[5], " 4 |    .    [W]    .     . |");
        assert_eq!(lines[6], " 3 | .    [.]    .     .    |");
        assert_eq!(lines[8], " 1 | w     .     .     .    |");
        assert_eq!(lines[10], "     a  b  c  d  e  f  g  h");
        assert!(a.ends_with("   black to move\n"));
    }

    #[test]
    fn svg_has_pieces_kings_and_arrow() {
        let svg = sample().svg();
        assert!(svg.starts_with("<svg"));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("class=\"king\"").count(), 2);
        assert_eq!(svg.matches("class=\"last-move\"").count(), 1);
        assert_eq!(svg.matches("class=\"legal-move\"").count(), 1);
        assert_eq!(svg.matches("<rect").count(), 65);
    }
}
