//! The `GameType` tag: its number, and the optional fields that say how a game is written
//! (`20,W,10,10,N2,0`: who moves first, the board's width and height, the notation and where
//! square 1 is, and whether the bottom-left corner is light).
//!
//! The number chooses the rules. The fields are followed where they describe a way of
//! writing the variant's games ([`Dialect`]): who moves first, where square 1 is in numeric
//! notation, which way the files run. What they say that the rules cannot follow (another
//! board size; another first player or numbering for Russian games, which are replayed on
//! Russian's own board) is said in words, for a finding.

use std::fmt::Write as _;

use super::geometry::Corner;
use super::{Dialect, Variant};
use crate::Color;

/// A GameType tag's value read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameType {
    /// The game's number (`20`).
    pub number: u32,
    /// The optional fields, when given and well-formed.
    pub fields: Option<Fields>,
}

/// A GameType's optional fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fields {
    /// Who moves first.
    pub first: Color,
    /// Board width and height, in squares.
    pub width: u32,
    /// See [`width`](Self::width).
    pub height: u32,
    /// `A` algebraic, `N` numeric, `S` short numeric.
    pub letter: char,
    /// Where square 1 (or a1) is, as the first player sees the board: `0` bottom left, `1`
    /// bottom right, `2` top left, `3` top right.
    pub digit: u8,
    /// The bottom-left corner is light (`1`), dark (`0`), or not said.
    pub invert: Option<bool>,
}

/// Why a GameType value cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameTypeError {
    /// No number first.
    #[error("a GameType starts with its number")]
    NoNumber,
    /// A number, then fields that are not PDN's.
    #[error(
        "the fields after the number are not PDN's (`Type,StartColour,Width,Height,Notation[,Invert]`)"
    )]
    Fields,
}

/// Reads a GameType value: `Type[,StartColour,Width,Height,Notation[,Invert]]`. Of a value
/// whose fields do not read, [`number_of`] still reads the number.
pub fn parse(value: &str) -> Result<GameType, GameTypeError> {
    let number = number_of(value).ok_or(GameTypeError::NoNumber)?;
    let rest: Vec<&str> = value.split(',').skip(1).map(str::trim).collect();
    if rest.is_empty() {
        return Ok(GameType {
            number,
            fields: None,
        });
    }
    let fields = (|| {
        let [colour, width, height, notation, invert @ ..] = rest.as_slice() else {
            return None;
        };
        let first = match *colour {
            "W" | "w" => Color::White,
            "B" | "b" => Color::Black,
            _ => return None,
        };
        let size = |s: &str| s.parse::<u32>().ok().filter(|n| (1..=26).contains(n));
        let mut notation = notation.chars();
        let letter = notation.next()?.to_ascii_uppercase();
        let digit = notation.next()?.to_digit(10)? as u8;
        if !matches!(letter, 'A' | 'N' | 'S') || digit > 3 || notation.next().is_some() {
            return None;
        }
        let invert = match invert {
            [] => None,
            ["0"] => Some(false),
            ["1"] => Some(true),
            _ => return None,
        };
        Some(Fields {
            first,
            width: size(width)?,
            height: size(height)?,
            letter,
            digit,
            invert,
        })
    })()
    .ok_or(GameTypeError::Fields)?;
    Ok(GameType {
        number,
        fields: Some(fields),
    })
}

/// The number a GameType value starts with, whatever follows it.
pub fn number_of(value: &str) -> Option<u32> {
    value.split(',').next()?.trim().parse().ok()
}

impl Variant {
    /// The GameType table's full value for the variant (`20,W,10,10,N2,0`).
    pub fn game_type_value(self) -> String {
        let d = self.dialect();
        let side = u32::from(self.board_side());
        let first = if d.first == Color::White { 'W' } else { 'B' };
        // (the variants the table writes algebraically: Russian, Brazilian, Czech, Turkish)
        let letter = match self {
            Variant::Russian | Variant::Brazilian | Variant::Czech | Variant::Turkish => "A0",
            _ => "",
        };
        let mut value = format!("{},{first},{side},{side},", self.game_type());
        if letter.is_empty() {
            let _ = write!(value, "N{}", d.first_square.digit(d.first));
        } else {
            value.push_str(letter);
        }
        let _ = write!(value, ",{}", u8::from(d.mirrored));
        value
    }
}

/// How a game of `variant` whose GameType has `fields` is written, and, in words, what the
/// fields say that pdnkit does not follow (empty when it follows them all).
pub fn dialect_of(variant: Variant, fields: &Fields) -> (Dialect, Vec<String>) {
    let standard = variant.dialect();
    let mut dialect = standard;
    let mut unfollowed = Vec::new();
    let side = u32::from(variant.board_side());
    if (fields.width, fields.height) != (side, side) {
        unfollowed.push(format!(
            "its board is {}×{}, not {side}×{side}",
            fields.width, fields.height
        ));
    }
    let russian = variant == Variant::Russian;
    if fields.first != standard.first {
        if russian {
            unfollowed.push(format!(
                "it has {} move first, and Russian games are replayed with White first",
                if fields.first == Color::White {
                    "White"
                } else {
                    "Black"
                }
            ));
        } else {
            dialect.first = fields.first;
        }
    }
    // Numbers are placed from the corner the digit names; algebraic names have a1 at
    // White's bottom left whatever the digit (the table wrote Russian, Brazilian and Czech
    // `A1` until 2014, meaning `A0`).
    if fields.letter != 'A' {
        let corner = Corner::of_digit(fields.digit, fields.first);
        match corner {
            Some(c) if c != standard.first_square && russian => unfollowed.push(format!(
                "its notation {}{} numbers the squares from another corner than Russian numeric notation does",
                fields.letter, fields.digit
            )),
            Some(c) if !russian => dialect.first_square = c,
            _ => {}
        }
    }
    if let Some(invert) = fields.invert.filter(|&i| i != standard.mirrored) {
        if russian || variant == Variant::Turkish {
            // (Turkish plays on every square: no corner is light)
            let board = if russian {
                "the Russian board"
            } else {
                "a board of every square"
            };
            let corner = if invert { "light" } else { "dark" };
            unfollowed.push(format!(
                "it has a {corner} bottom-left corner, unlike {board}"
            ));
        } else {
            dialect.mirrored = invert;
        }
    }
    (dialect, unfollowed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_with_and_without_fields() {
        let plain = parse("20").unwrap();
        assert_eq!((plain.number, plain.fields), (20, None));
        let full = parse("21,B,8,8,N1,0").unwrap().fields.unwrap();
        assert_eq!(
            (full.first, full.width, full.letter, full.digit, full.invert),
            (Color::Black, 8, 'N', 1, Some(false))
        );
        assert_eq!(parse("25,W,8,8,A1").unwrap().fields.unwrap().invert, None);
        // a real file's value: the number is read, the fields are not PDN's
        assert_eq!(parse("20,W,0,0,N,0"), Err(GameTypeError::Fields));
        assert_eq!(number_of("20,W,0,0,N,0"), Some(20));
        assert_eq!(parse("x"), Err(GameTypeError::NoNumber));
        assert_eq!(parse("20,W,10,10,N4,0"), Err(GameTypeError::Fields));
    }

    #[test]
    fn the_table_values_are_the_variants_dialects() {
        // the PDN 3.0 GameType table's full values
        for (variant, value) in [
            (Variant::International, "20,W,10,10,N2,0"),
            (Variant::English, "21,B,8,8,N1,0"),
            (Variant::Italian, "22,W,8,8,N2,1"),
            (Variant::Pool, "23,B,8,8,N1,0"),
            (Variant::Spanish, "24,W,8,8,N1,1"),
            (Variant::Russian, "25,W,8,8,A0,0"),
            (Variant::Brazilian, "26,W,8,8,A0,0"),
            (Variant::Canadian, "27,W,12,12,N2,0"),
            (Variant::Portuguese, "28,W,8,8,N1,1"),
            (Variant::Czech, "29,W,8,8,A0,0"),
            (Variant::Turkish, "30,W,8,8,A0,0"),
            (Variant::Thai, "31,B,8,8,N2,0"),
            (Variant::Frisian, "40,W,10,10,N2,0"),
        ] {
            assert_eq!(variant.game_type_value(), value);
            let fields = parse(value).unwrap().fields.unwrap();
            assert_eq!(dialect_of(variant, &fields), (variant.dialect(), vec![]));
        }
    }

    #[test]
    fn fields_are_followed_where_they_can_be() {
        // pool as Zimbabwe plays it: White first, a1 at the bottom left
        let zimbabwe = parse("23,W,8,8,A0,0").unwrap().fields.unwrap();
        let (dialect, unfollowed) = dialect_of(Variant::Pool, &zimbabwe);
        assert_eq!(dialect.first, Color::White);
        assert!(unfollowed.is_empty());
        // International numbered from White's bottom right
        let fields = parse("20,W,10,10,N1,0").unwrap().fields.unwrap();
        let (dialect, _) = dialect_of(Variant::International, &fields);
        assert_eq!(dialect.first_square, Corner::BottomRight);
        // another board, and Russian's own board, are not followed
        let small = parse("20,W,8,8,N2,0").unwrap().fields.unwrap();
        assert_eq!(dialect_of(Variant::International, &small).1.len(), 1);
        let old = parse("25,W,8,8,A1,0").unwrap().fields.unwrap();
        assert!(dialect_of(Variant::Russian, &old).1.is_empty());
        let black = parse("25,B,8,8,N2,1").unwrap().fields.unwrap();
        assert_eq!(dialect_of(Variant::Russian, &black).1.len(), 3);
    }
}
