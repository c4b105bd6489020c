//! Criteria on the board: an opening (moves from the start), a partial position
//! ([`Pattern`]), the material of both sides ([`Material`]).

use std::fmt;
use std::str::FromStr;

use super::ParseCriterionError;
use crate::Color;
use crate::rules::fen::FenSquare;
use crate::rules::fen::Setup;
use crate::rules::notation::{Resolution, resolve_token};
use crate::rules::{Bitboard, Move, Position, SetupError, VariantPosition};

/// The first moves of a game from the start position, resolved: `--opening "c3-d4 d6-c5
/// b2-c3"`. The moves may be written in any notation pdnkit reads (algebraic or numeric,
/// short or full captures, move numbers or not); they are compared as moves, so
/// `22-18 11-15` is `c3-d4 f6-e5`.
///
/// ```
/// use pdnkit::select::Opening;
/// let a: Opening = "1. c3-d4 f6-e5 2. d4:f6".parse().unwrap();
/// let b: Opening = "22-18 11-15 18x11".parse().unwrap();
/// assert_eq!(a, b);
/// assert_eq!(a.len(), 3);
/// assert!("c3-e5".parse::<Opening>().is_err()); // not a legal first move
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    moves: Vec<Move>,
}

impl Opening {
    /// The moves, from the start position.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// How many plies it has.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether it has no move (never, when parsed).
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

impl FromStr for Opening {
    type Err = ParseCriterionError;

    fn from_str(s: &str) -> Result<Opening, ParseCriterionError> {
        let err = |reason: String| ParseCriterionError::new("--opening", s, reason);
        let mut pos = Position::start();
        let mut moves = Vec::new();
        for word in s.split_whitespace() {
            // a move number, alone (`1.`, `1...`) or before its move (`1.c3-d4`)
            let digits = word.bytes().take_while(u8::is_ascii_digit).count();
            let dots = word[digits..].bytes().take_while(|&c| c == b'.').count();
            let token = if digits > 0 && dots > 0 {
                &word[digits + dots..]
            } else {
                word
            };
            if token.is_empty() {
                continue;
            }
            let ply = moves.len() + 1;
            let resolved = resolve_token(&pos, token, None, None)
                .map_err(|e| err(format!("cannot read `{token}` (ply {ply}): {e}")))?;
            let mv = match resolved.resolution {
                Resolution::Unique { mv, .. } => mv,
                Resolution::Illegal(why) => {
                    return Err(err(format!("`{token}` (ply {ply}) is illegal: {why}")));
                }
                Resolution::Ambiguous(candidates) => {
                    let names: Vec<String> = (candidates.iter())
                        .map(|c| crate::rules::Playable::full(&pos, c))
                        .collect();
                    return Err(err(format!(
                        "`{token}` (ply {ply}) could be {}: write its landing squares",
                        names.join(" or ")
                    )));
                }
            };
            pos.play_unchecked(&mv);
            moves.push(mv);
        }
        if moves.is_empty() {
            return Err(err("no move".to_string()));
        }
        Ok(Opening { moves })
    }
}

/// A partial position (Scoutfish's sub-FEN): the squares listed hold the pieces listed,
/// the squares of the `E` list are empty, the others hold anything; and the side to move,
/// unless it is `?` or left out. The squares are read on the board of each game looked at,
/// in its numbering: `W:W46` fits International games, never Russian ones.
///
/// Written as a FEN with an `E` list: `W:Wc3,Kh8:Bd6:Ee5,f4` (White to move, a White man
/// on c3 and a king on h8, a Black man on d6, e5 and f4 empty), `Wc3:B1-4` (either side to
/// move), numeric or algebraic squares, ranges (`E13-20`) as a FEN has them.
///
/// ```
/// use pdnkit::rules::Position;
/// use pdnkit::select::Pattern;
/// let start = Position::start();
/// assert!("W:Wc3:Bd6:Ed4,e5".parse::<Pattern>().unwrap().matches(&start));
/// assert!("Wc3".parse::<Pattern>().unwrap().matches(&start)); // either side to move
/// assert!(!"B:Wc3".parse::<Pattern>().unwrap().matches(&start)); // Black to move
/// assert!(!"W:WKc3".parse::<Pattern>().unwrap().matches(&start)); // a king, not a man
/// assert!(!"W:Ec3".parse::<Pattern>().unwrap().matches(&start));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    turn: Option<Color>,
    men: [Bitboard; 2],
    kings: [Bitboard; 2],
    empty: Bitboard,
    /// Every square is on the Russian board (the bitboards above hold them all).
    russian: bool,
    /// The squares listed, as written: the piece each holds, or none (the `E` list).
    listed: Vec<(FenSquare, Option<(Color, bool)>)>,
}

impl Pattern {
    /// Whether `pos` fits the pattern.
    #[inline]
    pub fn matches(&self, pos: &Position) -> bool {
        let has = |want: Bitboard, have: Bitboard| have.0 & want.0 == want.0;
        self.russian
            && self.turn.is_none_or(|t| t == pos.turn())
            && pos.occupied().0 & self.empty.0 == 0
            && [Color::White, Color::Black].into_iter().all(|c| {
                has(self.men[c.index()], pos.men(c)) && has(self.kings[c.index()], pos.kings(c))
            })
    }
}

/// Whether a square is on the largest board of any variant (12×12: numbers to 72, files
/// to l, ranks to 12).
fn on_some_board(sq: FenSquare) -> bool {
    match sq {
        FenSquare::Numeric(n) => (1..=72).contains(&n),
        FenSquare::Algebraic { file, rank } => file < 12 && rank < 12,
    }
}

impl Pattern {
    /// Whether `pos`, a position of another variant than Russian, fits the pattern: its
    /// squares read on that board, in that game's numbering.
    pub fn matches_variant(&self, pos: &VariantPosition) -> bool {
        self.turn.is_none_or(|t| t == pos.turn())
            && self.listed.iter().all(|&(square, want)| {
                let Some(i) = pos.index_of(square) else {
                    return false;
                };
                let have = pos.piece_on(i).map(|color| (color, pos.king_on(i)));
                have == want
            })
    }
}

impl FromStr for Pattern {
    type Err = ParseCriterionError;

    fn from_str(s: &str) -> Result<Pattern, ParseCriterionError> {
        let err = |reason: String| ParseCriterionError::new("--pattern", s, reason);
        let first = s.split(':').next().unwrap_or("").trim();
        let text = match first.to_ascii_uppercase().as_str() {
            "W" | "B" | "?" => s.to_string(),
            // (the side to move left out: either)
            _ => format!("?:{s}"),
        };
        let setup: Setup = text.parse().map_err(|e| err(format!("{e}")))?;
        let mut pattern = Pattern {
            turn: setup.turn,
            men: [Bitboard::EMPTY; 2],
            kings: [Bitboard::EMPTY; 2],
            empty: Bitboard::EMPTY,
            russian: true,
            listed: Vec::new(),
        };
        let mut listed = Bitboard::EMPTY;
        let mut russian = true;
        let mut list = |square: FenSquare, set: &mut Bitboard| {
            // (a square beyond the 8×8 board is a larger board's: the pattern fits no
            // Russian game; a light square of 8×8 is a mistake)
            match crate::rules::board_square(square) {
                Ok(sq) if listed.contains(sq) => {
                    return Err(err(format!("square {sq} is listed twice")));
                }
                Ok(sq) => {
                    listed.insert(sq);
                    set.insert(sq);
                }
                // (12×12 is the largest board)
                Err(SetupError::OffBoard(sq)) if on_some_board(sq) => russian = false,
                Err(e) => return Err(err(e.to_string())),
            }
            Ok(())
        };
        for p in &setup.pieces {
            let set = match p.king {
                true => &mut pattern.kings[p.color.index()],
                false => &mut pattern.men[p.color.index()],
            };
            list(p.square, set)?;
            pattern.listed.push((p.square, Some((p.color, p.king))));
        }
        for field in &setup.extra {
            let Some(squares) = field.strip_prefix(['E', 'e']) else {
                return Err(err(format!(
                    "`{field}` is not a list of pieces (W…, B…) nor of empty squares (E…)"
                )));
            };
            let empty: Setup = format!("W:W{squares}")
                .parse()
                .map_err(|e| err(format!("{e}")))?;
            for p in &empty.pieces {
                if p.king {
                    return Err(err("the E list names squares, not kings".to_string()));
                }
                list(p.square, &mut pattern.empty)?;
                pattern.listed.push((p.square, None));
            }
        }
        if pattern.listed.is_empty() {
            return Err(err("no square listed".to_string()));
        }
        pattern.russian = russian;
        Ok(pattern)
    }
}

/// The pieces of one side: kings and men.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SideCount {
    /// Kings.
    pub kings: u32,
    /// Men.
    pub men: u32,
}

impl SideCount {
    /// `color`'s pieces in `pos`.
    #[inline]
    pub fn of(pos: &Position, color: Color) -> SideCount {
        SideCount {
            kings: pos.kings(color).count(),
            men: pos.men(color).count(),
        }
    }
}

impl fmt::Display for SideCount {
    /// `3K`, `K2M`, `M`, `0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let part = |f: &mut fmt::Formatter<'_>, n: u32, letter: char| match n {
            0 => Ok(()),
            1 => write!(f, "{letter}"),
            n => write!(f, "{n}{letter}"),
        };
        if self.kings == 0 && self.men == 0 {
            return f.write_str("0");
        }
        part(f, self.kings, 'K')?;
        part(f, self.men, 'M')
    }
}

/// The material on the board, White first: `--material '3K v K'`. A side is its kings
/// `K` and men `M`, each with a count before it when not one (`K`, `2K`, `K2M`, `3M`,
/// `0` for none); `v` (or `vs`) between the sides.
///
/// ```
/// use pdnkit::rules::Position;
/// use pdnkit::select::Material;
/// let m: Material = "12M v 12M".parse().unwrap();
/// assert!(m.matches(&Position::start()));
/// assert_eq!("3K v K".parse::<Material>().unwrap().to_string(), "3K v K");
/// assert_eq!("K2M vs 2mk".parse::<Material>().unwrap().to_string(), "K2M v K2M");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Material {
    /// White's pieces.
    pub white: SideCount,
    /// Black's pieces.
    pub black: SideCount,
}

impl Material {
    /// Whether `pos` has exactly this material.
    #[inline]
    pub fn matches(&self, pos: &Position) -> bool {
        SideCount::of(pos, Color::White) == self.white
            && SideCount::of(pos, Color::Black) == self.black
    }

    /// Whether `pos`, a position of another variant than Russian, has exactly this
    /// material.
    pub fn matches_variant(&self, pos: &VariantPosition) -> bool {
        let side = |color| {
            let (men, kings) = pos.counts(color);
            SideCount {
                kings: u32::from(kings),
                men: u32::from(men),
            }
        };
        side(Color::White) == self.white && side(Color::Black) == self.black
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} v {}", self.white, self.black)
    }
}

impl FromStr for Material {
    type Err = ParseCriterionError;

    fn from_str(s: &str) -> Result<Material, ParseCriterionError> {
        let err = |reason: String| ParseCriterionError::new("--material", s, reason);
        let lower = s.to_ascii_lowercase().replace("vs", "v");
        let sides: Vec<&str> = lower.split('v').collect();
        let [white, black] = sides[..] else {
            return Err(err(
                "two sides, White first, with `v` between: `3K v K`".to_string()
            ));
        };
        let side = |text: &str| -> Result<SideCount, ParseCriterionError> {
            let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
            if text == "0" || text == "-" {
                return Ok(SideCount::default());
            }
            let mut count = SideCount::default();
            let (mut seen_k, mut seen_m) = (false, false);
            let mut rest = text.as_str();
            if rest.is_empty() {
                return Err(err("a side with no pieces is written `0`".to_string()));
            }
            while !rest.is_empty() {
                let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
                let n: u32 = match digits {
                    0 => 1,
                    _ => rest[..digits]
                        .parse()
                        .map_err(|_| err(format!("`{}` is no count", &rest[..digits])))?,
                };
                let (slot, seen) = match rest.as_bytes().get(digits) {
                    Some(b'k') => (&mut count.kings, &mut seen_k),
                    Some(b'm') => (&mut count.men, &mut seen_m),
                    _ => {
                        return Err(err(format!(
                            "`{text}`: a side is kings K and men M with their counts (K, 2K, K2M, 3M)"
                        )));
                    }
                };
                if std::mem::replace(seen, true) {
                    return Err(err(format!("`{text}` counts the same pieces twice")));
                }
                *slot = n;
                rest = &rest[digits + 1..];
            }
            // (the most of any variant: Canadian's 30)
            if count.kings + count.men > 30 {
                return Err(err(format!("`{text}`: a side has at most 30 pieces")));
            }
            Ok(count)
        };
        Ok(Material {
            white: side(white)?,
            black: side(black)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_setup(&fen.parse().unwrap()).unwrap()
    }

    #[test]
    fn openings_are_moves_not_text() {
        let algebraic: Opening = "c3-d4 f6-e5 d4xf6 g7xe5".parse().unwrap();
        let numeric: Opening = "1. 22-18 11-15 2. 18:11 8:15".parse().unwrap();
        assert_eq!(algebraic, numeric);
        assert_eq!(algebraic.len(), 4);
        assert!("1.c3-d4".parse::<Opening>().is_ok());
        for bad in ["", "1.", "c3-d4 c3-d4", "z9-a1", "c3-e5"] {
            assert!(bad.parse::<Opening>().is_err(), "{bad}");
        }
    }

    #[test]
    fn patterns() {
        let p: Pattern = "W:WKd4:Bg7:Ef6,e5".parse().unwrap();
        assert!(p.matches(&pos("W:WKd4,a1:Bg7,h8")));
        assert!(!p.matches(&pos("B:WKd4:Bg7")), "side to move");
        assert!(!p.matches(&pos("W:Wd4:Bg7")), "a man is not a king");
        assert!(!p.matches(&pos("W:WKd4:Bg7,e5")), "e5 must be empty");
        let numeric: Pattern = "?:W18:B1-4".parse().unwrap();
        assert!(numeric.matches(&pos("B:W18:B1,2,3,4,5")));
        for bad in [
            "",
            "W",
            "W:Wc3:Ec3",
            "W:Wc3:Xd4",
            "W:Wz9",
            "W:W73",
            "W:Wa2",
            "W:EKc3",
        ] {
            assert!(bad.parse::<Pattern>().is_err(), "{bad}");
        }
    }

    #[test]
    fn material() {
        let m: Material = "3K v K".parse().unwrap();
        assert_eq!(m.white, SideCount { kings: 3, men: 0 });
        assert!(m.matches(&pos("W:WKa1,Kc1,Ke1:BKh8")));
        assert!(!m.matches(&pos("W:WKa1,Kc1,e1:BKh8")));
        assert_eq!(
            "M2K v 0".parse::<Material>().unwrap().to_string(),
            "2KM v 0"
        );
        for bad in ["", "K", "K v K v K", "2X v K", "KK v K", "31M v K", "K v "] {
            assert!(bad.parse::<Material>().is_err(), "{bad}");
        }
    }
}
