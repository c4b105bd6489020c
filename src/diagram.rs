//! Pictures of a position: an ASCII board for terminals and an SVG diagram for documents.
//!
//! Both take a plain description ([`Diagram`]) so that they do not depend on how the rules
//! engine stores a position.

use crate::Color;
use crate::rules::{AnyPosition, Move, Position, VariantMove, VariantPosition};
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
    /// The board: Russian's 8×8 unless another variant's.
    pub shape: Shape,
}

/// The board a diagram is drawn on, as its players see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Files and ranks: 8, 10 or 12.
    pub side: u8,
    /// The bottom-left corner (a1) is a dark square (Russian, International); light on
    /// the mirrored boards (Italian, Spanish, Portuguese).
    pub dark_corner: bool,
    /// Every square is played (Turkish), not only the dark ones.
    pub every_square: bool,
}

impl Default for Shape {
    fn default() -> Shape {
        Shape {
            side: 8,
            dark_corner: true,
            every_square: false,
        }
    }
}

impl Shape {
    /// Whether pieces stand on the square at `file`, `rank` (a dark square, or any).
    pub fn playable(&self, file: u8, rank: u8) -> bool {
        self.every_square || ((file + rank) % 2 == 0) == self.dark_corner
    }

    /// The width and height of the SVG diagram of this board.
    pub fn size(&self) -> u32 {
        SQ * u32::from(self.side) + 2 * MARGIN
    }

    fn on_board(&self, (file, rank): Coord) -> bool {
        file < self.side && rank < self.side
    }
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

impl From<&VariantPosition> for Diagram {
    /// The board of any variant, its pieces and its side to move, with no arrow.
    fn from(pos: &VariantPosition) -> Diagram {
        Diagram {
            pieces: (pos.pieces_on_board())
                .map(|(i, color, king)| (pos.file_rank(i), color, king))
                .collect(),
            turn: Some(pos.turn()),
            shape: pos.shape(),
            ..Diagram::default()
        }
    }
}

impl From<&AnyPosition> for Diagram {
    /// The board of a position of any variant, with no arrow.
    fn from(pos: &AnyPosition) -> Diagram {
        match pos {
            AnyPosition::Russian(p) => Diagram::from(p),
            AnyPosition::Other(p) => Diagram::from(&**p),
        }
    }
}

/// A main-line ply as a board shows it: the position after it and the squares its move
/// went by, with the move's number, side and text as written (Russian or any variant).
#[derive(Clone, Debug)]
pub struct DrawnPly {
    /// The position after the ply.
    pub after: AnyPosition,
    /// The squares the move went by (the last move's arrow).
    pub squares: Vec<Coord>,
    /// Its full-move number.
    pub move_number: u32,
    /// Who played it.
    pub side: Color,
    /// The move as written.
    pub written: compact_str::CompactString,
    /// The move is the second of a full move in its variant (numbered `N...`).
    pub second: bool,
}

/// The legal moves of `pos`, each as the squares it passes through and its name with
/// every landing square.
pub fn legal_move_squares(pos: &AnyPosition) -> Vec<(Vec<Coord>, String, bool)> {
    use crate::rules::Playable;
    match pos {
        AnyPosition::Russian(p) => (p.legal_moves().iter())
            .map(|m| (move_squares(p, m), p.full(m), m.is_capture()))
            .collect(),
        AnyPosition::Other(p) => (p.legal_moves().iter())
            .map(|m| (variant_move_squares(p, m), p.full(m), m.is_capture()))
            .collect(),
    }
}

/// The squares a legal move `m` of a variant's `pos` passes through: its route.
pub fn variant_move_squares(pos: &VariantPosition, m: &VariantMove) -> Vec<Coord> {
    m.route().iter().map(|&i| pos.file_rank(i)).collect()
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
        let shape = self.shape;
        let side = usize::from(shape.side.min(MAX_SIDE));
        // (a square off the board is not drawn)
        let cell = |at: Coord| {
            (shape.on_board(at) && at.0 < MAX_SIDE && at.1 < MAX_SIDE)
                .then(|| usize::from(at.1) * side + usize::from(at.0))
        };
        let mut grid = [None; CELLS];
        // (the first piece given for a square is the one drawn)
        for &(at, color, king) in self.pieces.iter().rev() {
            if let Some(at) = cell(at) {
                grid[at] = Some((color, king));
            }
        }
        let mut marked = [false; CELLS];
        for &at in &self.last_move {
            if let Some(at) = cell(at) {
                marked[at] = true;
            }
        }
        let rule = format!("   +{}+\n", "-".repeat(3 * side));
        let mut s = String::with_capacity(400);
        s.push_str(&rule);
        for rank in (0..side as u8).rev() {
            let _ = write!(s, "{:>2} |", rank + 1);
            for file in 0..side as u8 {
                let at = usize::from(rank) * side + usize::from(file);
                let c = if !shape.playable(file, rank) {
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
        s.push_str(&rule);
        s.push_str("   ");
        for file in 0..side as u8 {
            s.push_str("  ");
            s.push(char::from(b'a' + file));
        }
        s.push('\n');
        if let Some(t) = self.turn {
            let _ = writeln!(s, "   {t} to move");
        }
        s
    }

    /// An SVG diagram: board, coordinates, pieces (kings carry a crown mark), the last
    /// move as an arrow through its landing squares, and the further [`arrows`](Self::arrows).
    pub fn svg(&self) -> String {
        let mut s = String::with_capacity(8_000);
        let size = self.shape.size();
        let _ = write!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}" font-family="sans-serif">"#
        );
        s.push('\n');
        s.push_str(&Diagram::svg_frame_of(self.shape));
        self.svg_pieces_into(&mut s);
        s.push_str("</svg>\n");
        s
    }

    /// The `<svg>` start tag of [`svg`](Self::svg) of a Russian board, with its size and
    /// view box.
    pub fn svg_open() -> String {
        let size = SIZE;
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}" font-family="sans-serif">"#
        )
    }

    /// What [`svg`](Self::svg) draws under the pieces of a Russian board, the same for
    /// every position: the arrow heads, the squares and the coordinates (a page of many
    /// boards holds it once).
    pub fn svg_frame() -> String {
        Diagram::svg_frame_of(Shape::default())
    }

    /// [`svg_frame`](Self::svg_frame) of any board.
    pub fn svg_frame_of(shape: Shape) -> String {
        let size = shape.size();
        let side = shape.side;
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
        for rank in 0..side {
            for file in 0..side {
                // (on a board where every square is played, all are drawn alike)
                let dark = shape.playable(file, rank) && !shape.every_square;
                let x = MARGIN + u32::from(file) * SQ;
                let y = MARGIN + u32::from(side - 1 - rank) * SQ;
                let fill = if dark { "#b58863" } else { "#f0d9b5" };
                let _ = writeln!(
                    s,
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{SQ}\" height=\"{SQ}\" fill=\"{fill}\"/>"
                );
            }
        }
        for i in 0..u32::from(side) {
            let file = (b'a' + i as u8) as char;
            let x = MARGIN + i * SQ + SQ / 2;
            let _ = writeln!(
                s,
                "<text x=\"{x}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\">{file}</text>",
                size - 7
            );
            let y = MARGIN + (u32::from(side) - 1 - i) * SQ + SQ / 2 + 5;
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
        let shape = self.shape;
        let top = u32::from(shape.side) - 1;
        let center = |(f, r): Coord| -> (u32, u32) {
            (
                MARGIN + u32::from(f) * SQ + SQ / 2,
                MARGIN + (top - u32::from(r)) * SQ + SQ / 2,
            )
        };
        // (a square off the board is not drawn)
        let on_board = |&c: &Coord| shape.on_board(c);
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
/// The width and height of an SVG diagram of a Russian board.
pub const SIZE: u32 = SQ * 8 + 2 * MARGIN;
/// The most files and ranks a diagram draws (Canadian's 12×12), and its squares.
const MAX_SIDE: u8 = 12;
const CELLS: usize = MAX_SIDE as usize * MAX_SIDE as usize;

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
            ..Diagram::default()
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
    fn boards_of_other_variants_are_drawn_as_their_players_see_them() {
        use crate::rules::Variant;
        // International: 10×10, a1 dark, White's men on ranks 1-4
        let d = Diagram::from(&VariantPosition::start(Variant::International));
        let a = d.ascii();
        let lines: Vec<&str> = a.lines().collect();
        assert_eq!(lines[1], "10 |    b     b     b     b     b |");
        assert_eq!(lines[10], " 1 | w     w     w     w     w    |");
        assert_eq!(lines[12], "     a  b  c  d  e  f  g  h  i  j");
        let svg = d.svg();
        assert!(svg.contains("width=\"648\""));
        assert_eq!(svg.matches("<rect").count(), 101);
        assert_eq!(svg.matches("<circle").count(), 40);
        // Italian: the mirrored board, a1 light; White's first move b3-a4 is 21-17
        let pos = VariantPosition::start(Variant::Italian);
        let a = Diagram::from(&pos).ascii();
        assert!(
            a.lines().nth(8).unwrap().starts_with(" 1 |    w     w"),
            "{a}"
        );
        let first = (pos.legal_moves().into_iter())
            .find(|m| (pos.number(m.from()), pos.number(m.to())) == (21, 17));
        let route = variant_move_squares(&pos, &first.unwrap());
        assert_eq!(route, [(1, 2), (0, 3)]);
        // Turkish: every square is played
        let a = Diagram::from(&VariantPosition::start(Variant::Turkish)).ascii();
        assert!(a.contains(" 2 | w  w  w  w  w  w  w  w |"), "{a}");
        assert!(a.contains(" 4 | .  .  .  .  .  .  .  . |"), "{a}");
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
