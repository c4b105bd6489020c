//! FEN text (the PDN `FEN` tag and `/FEN "…"/` setup command) into an unchecked [`Setup`].
//!
//! This is syntax only: a setup with 13 white men, a man on its promotion rank or square 99
//! parses fine here. [`crate::rules::Position::from_setup`] decides whether it is a position.
//!
//! Accepted (PDN 1.0–3.0 and what real files do, see `PDN.md` §4):
//! - `W:W21-32:B1-12`, ranges and single numbers, leading zeros (`W06,10`);
//! - algebraic squares `W:Wa1,c3,Kh8:Bb8`, either case;
//! - a `K` before each item, also inside a range (`K1-4`, `K1-K4`);
//! - the colour lists in either order, an empty list (`W:W:B1`, `B::`);
//! - a trailing dot (PDN 1.0), spaces anywhere, extra fields such as lidraughts' `:H0:F1`;
//! - `?` as the side to move ([3.0]: unknown).

use std::fmt;
use std::str::FromStr;

use crate::Color;

/// A square as written in a FEN or a move: not yet checked against any board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FenSquare {
    /// A PDN square number such as `22` (leading zeros already dropped).
    Numeric(u32),
    /// A square such as `c3`: `file` 0 = a, `rank` 0 = rank 1. Any letter and any rank
    /// number are kept, so `k12` is `{ file: 10, rank: 11 }`; the board says if it exists.
    Algebraic {
        /// 0 = a, 1 = b, …
        file: u8,
        /// 0 = rank 1, 1 = rank 2, …
        rank: u8,
    },
}

impl fmt::Display for FenSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FenSquare::Numeric(n) => write!(f, "{n}"),
            FenSquare::Algebraic { file, rank } => {
                write!(f, "{}{}", (b'a' + file) as char, rank as u32 + 1)
            }
        }
    }
}

/// One piece of a [`Setup`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SetupPiece {
    /// Whose piece.
    pub color: Color,
    /// A king (`K` prefix) or a man.
    pub king: bool,
    /// Where, as written.
    pub square: FenSquare,
}

/// A FEN as written: side to move, pieces, extra fields. Not validated.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// Side to move; `None` for `?`.
    pub turn: Option<Color>,
    /// Pieces in the order written (ranges expanded), duplicates kept.
    pub pieces: Vec<SetupPiece>,
    /// Fields after the piece lists that are not piece lists, e.g. `H0`, `F1`, spaces removed.
    pub extra: Vec<String>,
}

/// A FEN that could not be read: what went wrong and at which byte of the input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid FEN at byte {position}: {kind}")]
pub struct ParseFenError {
    /// Byte offset into the text given to the parser.
    pub position: usize,
    /// What went wrong.
    pub kind: FenErrorKind,
}

/// The reasons a FEN text does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenErrorKind {
    /// Nothing but spaces (or a dot).
    #[error("empty FEN")]
    Empty,
    /// The first field is not `W`, `B` or `?`.
    #[error("side to move must be W, B or ?, found {0:?}")]
    BadTurn(String),
    /// The same colour has two piece lists.
    #[error("{0} pieces are listed twice")]
    DuplicateColor(Color),
    /// An item of a piece list is not `[K]square` or `[K]n-[K]m`.
    #[error("bad square {0:?}")]
    BadSquare(String),
    /// A numeric square too large to be a number of any board.
    #[error("square number {0:?} is too large")]
    NumberTooLarge(String),
    /// `12-5`.
    #[error("range {0}-{1} runs backwards")]
    BackwardRange(u32, u32),
    /// A range covering more squares than any board has.
    #[error("range {0}-{1} is too long")]
    RangeTooLong(u32, u32),
    /// `a1-c3` in a FEN: [3.0] allows ranges of numbers only.
    #[error("ranges are allowed for numeric squares only")]
    AlgebraicRange,
    /// `1-K4`: a `K` on the end of a range but not on its start.
    #[error("a K inside a range must also start the range")]
    MixedRange,
}

/// Largest range accepted; the largest boards in PDN (12×12) have 72 squares.
const MAX_RANGE: u32 = 200;
/// Largest square number accepted at the syntax level.
const MAX_NUMBER: u32 = 9999;

impl FromStr for Setup {
    type Err = ParseFenError;

    fn from_str(s: &str) -> Result<Setup, ParseFenError> {
        // Spaces may appear anywhere in real files, so drop them first but remember where
        // each kept byte came from, for the error position.
        let kept: Vec<(usize, u8)> = s
            .bytes()
            .enumerate()
            .filter(|(_, b)| !b.is_ascii_whitespace())
            .collect();
        let mut kept = &kept[..];
        // A trailing dot is PDN 1.0 (and common in old files).
        if let Some((&(_, b'.'), rest)) = kept.split_last() {
            kept = rest;
        }
        if kept.is_empty() {
            return Err(ParseFenError {
                position: 0,
                kind: FenErrorKind::Empty,
            });
        }

        let mut fields = kept.split(|&(_, b)| b == b':');
        let turn_field = fields.next().unwrap_or(&[]);
        let turn = match text(turn_field).to_ascii_uppercase().as_str() {
            "W" => Some(Color::White),
            "B" => Some(Color::Black),
            "?" => None,
            other => {
                return Err(ParseFenError {
                    position: turn_field.first().map_or(0, |p| p.0),
                    kind: FenErrorKind::BadTurn(other.to_string()),
                });
            }
        };

        let mut setup = Setup {
            turn,
            pieces: Vec::new(),
            extra: Vec::new(),
        };
        let mut seen = [false; 2];
        for field in fields {
            let Some(&(pos, first)) = field.first() else {
                continue; // `B::` and `W::B1`: an empty field says nothing
            };
            let color = match first.to_ascii_uppercase() {
                b'W' => Color::White,
                b'B' => Color::Black,
                _ => {
                    setup.extra.push(text(field));
                    continue;
                }
            };
            if std::mem::replace(&mut seen[color.index()], true) {
                return Err(ParseFenError {
                    position: pos,
                    kind: FenErrorKind::DuplicateColor(color),
                });
            }
            for item in field[1..].split(|&(_, b)| b == b',') {
                parse_item(item, color, &mut setup.pieces)?;
            }
        }
        Ok(setup)
    }
}

fn text(bytes: &[(usize, u8)]) -> String {
    String::from_utf8_lossy(&bytes.iter().map(|&(_, b)| b).collect::<Vec<u8>>()).into_owned()
}

/// One list item: `[K]sq` or `[K]n-[K]m`.
fn parse_item(
    item: &[(usize, u8)],
    color: Color,
    out: &mut Vec<SetupPiece>,
) -> Result<(), ParseFenError> {
    let Some(&(pos, _)) = item.first() else {
        return Ok(()); // `W21,,22` or a trailing comma: nothing to add
    };
    let err = |kind| ParseFenError {
        position: pos,
        kind,
    };
    let (king, rest) = strip_king(item);
    let mut halves = rest.splitn(2, |&(_, b)| b == b'-');
    let first = halves.next().unwrap_or(&[]);
    let first_sq = parse_square(first).ok_or_else(|| err(bad_square(item)))?;
    let Some(second) = halves.next() else {
        out.push(SetupPiece {
            color,
            king,
            square: first_sq?,
        });
        return Ok(());
    };
    let first_n = match first_sq? {
        FenSquare::Numeric(n) => n,
        FenSquare::Algebraic { .. } => return Err(err(FenErrorKind::AlgebraicRange)),
    };
    let (king2, second) = strip_king(second);
    if king2 && !king {
        return Err(err(FenErrorKind::MixedRange));
    }
    let last_n = match parse_square(second).ok_or_else(|| err(bad_square(item)))?? {
        FenSquare::Numeric(n) => n,
        FenSquare::Algebraic { .. } => return Err(err(FenErrorKind::AlgebraicRange)),
    };
    if last_n < first_n {
        return Err(err(FenErrorKind::BackwardRange(first_n, last_n)));
    }
    if last_n - first_n >= MAX_RANGE {
        return Err(err(FenErrorKind::RangeTooLong(first_n, last_n)));
    }
    out.extend((first_n..=last_n).map(|n| SetupPiece {
        color,
        king,
        square: FenSquare::Numeric(n),
    }));
    Ok(())
}

fn bad_square(item: &[(usize, u8)]) -> FenErrorKind {
    FenErrorKind::BadSquare(text(item))
}

fn strip_king(item: &[(usize, u8)]) -> (bool, &[(usize, u8)]) {
    match item.split_first() {
        Some((&(_, b'K' | b'k'), rest)) => (true, rest),
        _ => (false, item),
    }
}

/// `None` when the text is not a square at all; `Some(Err)` when it is a number too large.
fn parse_square(item: &[(usize, u8)]) -> Option<Result<FenSquare, ParseFenError>> {
    let bytes: Vec<u8> = item.iter().map(|&(_, b)| b).collect();
    let pos = item.first()?.0;
    parse_square_bytes(&bytes).map(|r| {
        r.map_err(|kind| ParseFenError {
            position: pos,
            kind,
        })
    })
}

/// Reads `22`, `09`, `c3`, `C3` (also used by move text). `None` if not square-shaped.
pub(crate) fn parse_square_bytes(bytes: &[u8]) -> Option<Result<FenSquare, FenErrorKind>> {
    // The shapes of nearly every square (`22`, `5`, `c3`) first, without going through
    // `str::parse`: this runs twice per replayed move. Same results as the general arms.
    match *bytes {
        [d] if d.is_ascii_digit() => return Some(Ok(FenSquare::Numeric(u32::from(d - b'0')))),
        [a, b] if (b'1'..=b'9').contains(&a) && b.is_ascii_digit() => {
            let n = u32::from(a - b'0') * 10 + u32::from(b - b'0');
            if n <= MAX_NUMBER {
                return Some(Ok(FenSquare::Numeric(n)));
            }
        }
        [l, r] if l.is_ascii_alphabetic() && (b'1'..=b'9').contains(&r) => {
            return Some(Ok(FenSquare::Algebraic {
                file: l.to_ascii_lowercase() - b'a',
                rank: r - b'1',
            }));
        }
        _ => {}
    }
    match bytes {
        [] => None,
        [d, ..] if d.is_ascii_digit() => {
            if !bytes.iter().all(u8::is_ascii_digit) {
                return None;
            }
            let digits = std::str::from_utf8(bytes).ok()?;
            let trimmed = digits.trim_start_matches('0');
            match trimmed.parse::<u32>() {
                _ if trimmed.is_empty() => Some(Ok(FenSquare::Numeric(0))),
                Ok(n) if n <= MAX_NUMBER => Some(Ok(FenSquare::Numeric(n))),
                _ => Some(Err(FenErrorKind::NumberTooLarge(digits.to_string()))),
            }
        }
        [l, rank @ ..] if l.is_ascii_alphabetic() => {
            if rank.is_empty() || rank.len() > 2 || !rank.iter().all(u8::is_ascii_digit) {
                return None;
            }
            let r: u32 = std::str::from_utf8(rank).ok()?.parse().ok()?;
            if r == 0 {
                return None;
            }
            Some(Ok(FenSquare::Algebraic {
                file: l.to_ascii_lowercase() - b'a',
                rank: (r - 1) as u8,
            }))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numeric(setup: &Setup, color: Color) -> Vec<(bool, u32)> {
        setup
            .pieces
            .iter()
            .filter(|p| p.color == color)
            .map(|p| match p.square {
                FenSquare::Numeric(n) => (p.king, n),
                FenSquare::Algebraic { .. } => panic!("algebraic"),
            })
            .collect()
    }

    #[test]
    fn start_position_with_ranges() {
        let s: Setup = "W:W21-32:B1-12".parse().unwrap();
        assert_eq!(s.turn, Some(Color::White));
        assert_eq!(
            numeric(&s, Color::White),
            (21..=32).map(|n| (false, n)).collect::<Vec<_>>()
        );
        assert_eq!(
            numeric(&s, Color::Black),
            (1..=12).map(|n| (false, n)).collect::<Vec<_>>()
        );
        assert!(s.extra.is_empty());
    }

    #[test]
    fn kings_leading_zeros_dot_spaces() {
        let s: Setup = " B : W18, 24,K10 :B06,K22. ".parse().unwrap();
        assert_eq!(s.turn, Some(Color::Black));
        assert_eq!(
            numeric(&s, Color::White),
            [(false, 18), (false, 24), (true, 10)]
        );
        assert_eq!(numeric(&s, Color::Black), [(false, 6), (true, 22)]);
    }

    #[test]
    fn king_ranges() {
        let s: Setup = "W:WK1-3,K5-K6:B".parse().unwrap();
        assert_eq!(
            numeric(&s, Color::White),
            [(true, 1), (true, 2), (true, 3), (true, 5), (true, 6)]
        );
        let e = "W:W1-K3:B".parse::<Setup>().unwrap_err();
        assert_eq!(e.kind, FenErrorKind::MixedRange);
    }

    #[test]
    fn algebraic_either_case() {
        let s: Setup = "w:wa1,C3,kh8:bB8".parse().unwrap();
        assert_eq!(s.turn, Some(Color::White));
        let sq: Vec<_> = s
            .pieces
            .iter()
            .map(|p| (p.color, p.king, p.square.to_string()))
            .collect();
        assert_eq!(
            sq,
            [
                (Color::White, false, "a1".to_string()),
                (Color::White, false, "c3".to_string()),
                (Color::White, true, "h8".to_string()),
                (Color::Black, false, "b8".to_string()),
            ]
        );
        assert_eq!(
            "W:Wa1-c3:B".parse::<Setup>().unwrap_err().kind,
            FenErrorKind::AlgebraicRange
        );
    }

    #[test]
    fn empty_sides_and_order() {
        let s: Setup = "W:W:B1".parse().unwrap();
        assert_eq!(numeric(&s, Color::White), []);
        assert_eq!(numeric(&s, Color::Black), [(false, 1)]);
        let s: Setup = "B::".parse().unwrap();
        assert!(s.pieces.is_empty());
        let s: Setup = "W:B1,2:W30".parse().unwrap();
        assert_eq!(numeric(&s, Color::White), [(false, 30)]);
        assert_eq!(numeric(&s, Color::Black), [(false, 1), (false, 2)]);
    }

    #[test]
    fn extra_fields_and_unknown_turn() {
        let s: Setup = "?:W21-32:B1-12:H0:F1".parse().unwrap();
        assert_eq!(s.turn, None);
        assert_eq!(s.extra, ["H0", "F1"]);
    }

    #[test]
    fn errors_say_what_and_where() {
        let e = "X:W1:B2".parse::<Setup>().unwrap_err();
        assert_eq!(e.position, 0);
        assert!(matches!(e.kind, FenErrorKind::BadTurn(_)));
        let e = "W:W1,2:W3".parse::<Setup>().unwrap_err();
        assert_eq!(e.kind, FenErrorKind::DuplicateColor(Color::White));
        assert_eq!(e.position, 7);
        let e = "W:W1,#:B2".parse::<Setup>().unwrap_err();
        assert_eq!(e.kind, FenErrorKind::BadSquare("#".into()));
        assert_eq!(e.position, 5);
        assert!(e.to_string().contains("byte 5"));
        assert_eq!(
            "W:W12-5".parse::<Setup>().unwrap_err().kind,
            FenErrorKind::BackwardRange(12, 5)
        );
        assert_eq!(
            "W:W1-5000".parse::<Setup>().unwrap_err().kind,
            FenErrorKind::RangeTooLong(1, 5000)
        );
        assert!(matches!(
            "W:W99999999999999".parse::<Setup>().unwrap_err().kind,
            FenErrorKind::NumberTooLarge(_)
        ));
        assert_eq!(
            "  . ".parse::<Setup>().unwrap_err().kind,
            FenErrorKind::Empty
        );
        assert!("W:WK:B".parse::<Setup>().is_err());
        assert!("W:W1-:B".parse::<Setup>().is_err());
    }

    #[test]
    fn never_panics_on_odd_bytes() {
        for s in [
            "", ":", "::::", "W:W-", "W:W,", "W:Wé1", "W:W\u{0}", "W:Wa", "W:Wa100", "B:K", "W:W0",
        ] {
            let _ = s.parse::<Setup>();
        }
        // Square 0 parses (the board rejects it), as does an out-of-board algebraic square.
        assert!("W:W0:Bz9".parse::<Setup>().is_ok());
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_text_never_panics(s in "\\PC{0,40}") {
            let _ = s.parse::<Setup>();
        }

        #[test]
        fn fen_shaped_text_never_panics(s in "[WB?][:WBKwbk0-9a-z,. -]{0,40}") {
            if let Ok(setup) = s.parse::<Setup>() {
                let _ = crate::rules::Position::from_setup(&setup);
            }
        }
    }

    #[test]
    fn square_fast_paths_agree_with_the_general_parser() {
        // the general arms, as they were before the fast paths
        fn general(bytes: &[u8]) -> Option<Result<FenSquare, FenErrorKind>> {
            match bytes {
                [d, ..] if d.is_ascii_digit() => {
                    let digits = std::str::from_utf8(bytes).ok()?;
                    let trimmed = digits.trim_start_matches('0');
                    match trimmed.parse::<u32>() {
                        _ if trimmed.is_empty() => Some(Ok(FenSquare::Numeric(0))),
                        Ok(n) if n <= MAX_NUMBER => Some(Ok(FenSquare::Numeric(n))),
                        _ => Some(Err(FenErrorKind::NumberTooLarge(digits.to_string()))),
                    }
                }
                [l, rank @ ..] if l.is_ascii_alphabetic() => {
                    let r: u32 = std::str::from_utf8(rank).ok()?.parse().ok()?;
                    if r == 0 {
                        return None;
                    }
                    Some(Ok(FenSquare::Algebraic {
                        file: l.to_ascii_lowercase() - b'a',
                        rank: (r - 1) as u8,
                    }))
                }
                _ => None,
            }
        }
        for a in 0..=255u8 {
            assert_eq!(
                parse_square_bytes(&[a]),
                general(&[a]).filter(|_| a.is_ascii_digit()),
                "{a}"
            );
            for b in 0..=255u8 {
                if a.is_ascii_alphanumeric() && b.is_ascii_digit() {
                    assert_eq!(parse_square_bytes(&[a, b]), general(&[a, b]), "{a} {b}");
                }
            }
        }
    }
}
