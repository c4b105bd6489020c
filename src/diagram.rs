//! Pictures of a position: an ASCII board for terminals and an SVG diagram for documents.
//!
//! Both take a plain description ([`Diagram`]) so that they do not depend on how the rules
//! engine stores a position.

use crate::Color;
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
}

impl Diagram {
    /// An ASCII board, White at the bottom: `w`/`b` men, `W`/`B` kings, `.` an empty dark
    /// square, light squares blank; the squares of the last move are bracketed.
    ///
    /// ```
    /// use pdnkit::diagram::Diagram;
    /// use pdnkit::Color;
    /// let d = Diagram { pieces: vec![((2, 2), Color::White, false), ((7, 7), Color::Black, true)],
    ///                   turn: Some(Color::White), last_move: vec![] };
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

    /// An SVG diagram: board, coordinates, pieces (kings carry a crown mark), and the last
    /// move as an arrow through its landing squares.
    pub fn svg(&self) -> String {
        const SQ: u32 = 60;
        const MARGIN: u32 = 24;
        let size = SQ * 8 + 2 * MARGIN;
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}" font-family="sans-serif">"#
        );
        s.push_str(
            "<defs><marker id=\"arrowhead\" markerWidth=\"4\" markerHeight=\"4\" refX=\"2\" refY=\"2\" orient=\"auto\"><path d=\"M0,0 L4,2 L0,4 z\" fill=\"#1565c0\"/></marker></defs>\n",
        );
        let _ = writeln!(
            s,
            "<rect x=\"0\" y=\"0\" width=\"{size}\" height=\"{size}\" fill=\"#ffffff\"/>"
        );
        let center = |(f, r): Coord| -> (u32, u32) {
            (
                MARGIN + f as u32 * SQ + SQ / 2,
                MARGIN + (7 - r as u32) * SQ + SQ / 2,
            )
        };
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
        for &(c, color, king) in &self.pieces {
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
        if self.last_move.len() >= 2 {
            let points: Vec<String> = self
                .last_move
                .iter()
                .map(|&c| {
                    let (x, y) = center(c);
                    format!("{x},{y}")
                })
                .collect();
            let _ = writeln!(
                s,
                "<polyline class=\"last-move\" points=\"{}\" fill=\"none\" stroke=\"#1565c0\" stroke-width=\"6\" stroke-opacity=\"0.8\" stroke-linejoin=\"round\" marker-end=\"url(#arrowhead)\"/>",
                points.join(" ")
            );
        }
        s.push_str("</svg>\n");
        s
    }
}

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
        assert_eq!(svg.matches("<rect").count(), 65);
    }
}
