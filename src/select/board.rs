//! Criteria on the board: an opening (moves from the start), a partial position
//! ([`Pattern`]), the material of both sides ([`Material`]).

use std::fmt;
use std::str::FromStr;

use super::ParseCriterionError;
use crate::Color;
use crate::rules::fen::FenSquare;
use crate::rules::fen::Setup;
use crate::rules::{
    Bitboard, Dialect, Move, Named, Playable, Position, SetupError, Variant, VariantPosition,
};

/// The first moves of a game from the start position: `--opening "c3-d4 d6-c5 b2-c3"`.
/// The moves may be written in any notation pdnkit reads (algebraic or numeric, short or
/// full captures, move numbers or not); they are compared as moves, so `22-18 11-15` is
/// `c3-d4 f6-e5`. They are read from the start position of each game's variant, in its
/// numbering: `32-28 19-23` is an International opening (and no Russian one), `11-15`
/// opens English and pool games.
///
/// ```
/// use pdnkit::select::Opening;
/// let a: Opening = "1. c3-d4 f6-e5 2. d4:f6".parse().unwrap();
/// let b: Opening = "22-18 11-15 18x11".parse().unwrap();
/// assert_eq!(a.moves(), b.moves());
/// assert_eq!(a.len(), 3);
/// let international: Opening = "32-28 19-23".parse().unwrap();
/// assert_eq!(international.moves(), None); // no Russian opening
/// assert!("c3-e5".parse::<Opening>().is_err()); // no variant's legal first move
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The moves as written, move numbers left out.
    written: Vec<String>,
    /// The moves from Russian's start position, when they are legal there.
    russian: Option<Vec<Move>>,
}

impl Opening {
    /// The moves from Russian's start position, or `None` when they are not legal there
    /// (an opening of another variant).
    pub fn moves(&self) -> Option<&[Move]> {
        self.russian.as_deref()
    }

    /// The moves from `start`, the start position of a game of any variant, or why they
    /// are not legal there.
    pub fn moves_from<P: Playable>(&self, start: P) -> Result<Vec<P::Move>, String> {
        self.read_from(start).map_err(|(_, why)| why)
    }

    /// [`moves_from`](Self::moves_from), or how many moves were read and why the next one
    /// is not legal.
    fn read_from<P: Playable>(&self, start: P) -> Result<Vec<P::Move>, (usize, String)> {
        let mut pos = start;
        let mut moves = Vec::with_capacity(self.written.len());
        for (k, token) in self.written.iter().enumerate() {
            let ply = k + 1;
            let mv = match pos.read(token, None) {
                Err(e) => return Err((k, format!("cannot read `{token}` (ply {ply}): {e}"))),
                Ok(Named::Unique { mv, .. }) => mv,
                Ok(Named::Ambiguous(candidates)) => {
                    let names: Vec<String> = candidates.iter().map(|c| pos.full(c)).collect();
                    let why = format!(
                        "`{token}` (ply {ply}) could be {}: write its landing squares",
                        names.join(" or ")
                    );
                    return Err((k, why));
                }
                Ok(Named::OffBoard(sq)) => {
                    return Err((
                        k,
                        format!("`{token}` (ply {ply}): {sq} is not on the board"),
                    ));
                }
                Ok(Named::LightSquare(sq)) => {
                    return Err((k, format!("`{token}` (ply {ply}): {sq} is a light square")));
                }
                Ok(Named::Illegal(why)) => {
                    return Err((k, format!("`{token}` (ply {ply}) is illegal: {why}")));
                }
            };
            pos.play(&mv);
            moves.push(mv);
        }
        Ok(moves)
    }

    /// How many plies it has.
    pub fn len(&self) -> usize {
        self.written.len()
    }

    /// Whether it has no move (never, when parsed).
    pub fn is_empty(&self) -> bool {
        self.written.is_empty()
    }
}

impl FromStr for Opening {
    type Err = ParseCriterionError;

    /// The moves, checked to be legal from the start position of some variant, in some
    /// numbering a GameType can give; when they are legal in none, the reason is that of
    /// the variant that reads the most of them.
    fn from_str(s: &str) -> Result<Opening, ParseCriterionError> {
        let err = |reason: String| ParseCriterionError::new("--opening", s, reason);
        let mut written = Vec::new();
        for word in s.split_whitespace() {
            // a move number, alone (`1.`, `1...`) or before its move (`1.c3-d4`)
            let digits = word.bytes().take_while(u8::is_ascii_digit).count();
            let dots = word[digits..].bytes().take_while(|&c| c == b'.').count();
            let token = if digits > 0 && dots > 0 {
                &word[digits + dots..]
            } else {
                word
            };
            if !token.is_empty() {
                written.push(token.to_string());
            }
        }
        if written.is_empty() {
            return Err(err("no move".to_string()));
        }
        let mut opening = Opening {
            written,
            russian: None,
        };
        let (read, why) = match opening.read_from(Position::start()) {
            Ok(moves) => {
                opening.russian = Some(moves);
                return Ok(opening);
            }
            Err(failed) => failed,
        };
        // (each variant in its usual numbering first, then in every other)
        let others = || Variant::ALL.into_iter().filter(|&v| v != Variant::Russian);
        let usual = others().map(VariantPosition::start);
        let every =
            others().flat_map(|v| Dialect::every().map(move |d| VariantPosition::start_in(v, d)));
        // the reason of the variant that reads the most moves, Russian's among equals
        let mut best = (read, Variant::Russian, why);
        for start in usual.chain(every) {
            match opening.read_from(start) {
                Ok(_) => return Ok(opening),
                Err((read, why)) if read > best.0 => best = (read, start.variant(), why),
                Err(_) => {}
            }
        }
        let (_, variant, why) = best;
        Err(err(format!("legal in no variant; as {variant}: {why}")))
    }
}

/// A whole position (`--position`): every piece on the board and the side to move, as a
/// FEN gives them. Its squares are read on the board of each game looked at, in its
/// numbering, as a [`Pattern`]'s are: `W:W46:B5` is a position of International games.
///
/// ```
/// use pdnkit::rules::Position;
/// use pdnkit::select::Exact;
/// let start: Exact = "W:W21-32:B1-12".parse().unwrap();
/// assert!(start.matches(&Position::start()));
/// assert!(!"B:W21-32:B1-12".parse::<Exact>().unwrap().matches(&Position::start()));
/// assert!(!"W:W21-32:B1-11".parse::<Exact>().unwrap().matches(&Position::start()));
/// assert!("W21-32:B1-12".parse::<Exact>().is_err()); // the side to move is not given
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exact {
    /// Its pieces, each on its square, and the side to move.
    pattern: Pattern,
    /// How many pieces it has.
    pieces: u32,
}

impl Exact {
    /// Whether `pos` is this position.
    #[inline]
    pub fn matches(&self, pos: &Position) -> bool {
        SideCount::both(pos) == self.pieces && self.pattern.matches(pos)
    }

    /// Whether `pos`, a position of another variant than Russian, is this position: its
    /// squares read on that board, in that game's numbering.
    pub fn matches_variant(&self, pos: &VariantPosition) -> bool {
        SideCount::both(pos) == self.pieces && self.pattern.matches_variant(pos)
    }
}

impl FromStr for Exact {
    type Err = ParseCriterionError;

    fn from_str(s: &str) -> Result<Exact, ParseCriterionError> {
        let err = |reason: String| ParseCriterionError::new("--position", s, reason);
        let setup: Setup = s.parse().map_err(|e| err(format!("{e}")))?;
        if setup.turn.is_none() {
            return Err(err("the side to move is unknown: give W or B".to_string()));
        }
        if setup.extra.iter().any(|f| f.starts_with(['E', 'e'])) {
            let why = "a position lists its pieces, not empty squares (--pattern takes an E list)";
            return Err(err(why.to_string()));
        }
        // (a man on Russian's crowning row, or more than 12 pieces a side, is a position of
        // other variants: Spanish men start on 1-12)
        let pattern = Pattern::of_pieces(&setup, &err)?;
        let pieces = pattern.listed.len() as u32;
        Ok(Exact { pattern, pieces })
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

impl Pattern {
    /// The pattern of a setup's pieces (its other fields left aside).
    fn of_pieces(
        setup: &Setup,
        err: &dyn Fn(String) -> ParseCriterionError,
    ) -> Result<Pattern, ParseCriterionError> {
        let mut pattern = Pattern {
            turn: setup.turn,
            men: [Bitboard::EMPTY; 2],
            kings: [Bitboard::EMPTY; 2],
            empty: Bitboard::EMPTY,
            russian: true,
            listed: Vec::new(),
        };
        for p in &setup.pieces {
            pattern.list(p.square, Some((p.color, p.king)), err)?;
        }
        Ok(pattern)
    }

    /// Lists `square` as holding `want` (`None`: empty).
    fn list(
        &mut self,
        square: FenSquare,
        want: Option<(Color, bool)>,
        err: &dyn Fn(String) -> ParseCriterionError,
    ) -> Result<(), ParseCriterionError> {
        if self.listed.iter().any(|&(s, _)| s == square) {
            return Err(err(format!("square {square} is listed twice")));
        }
        // (a square beyond the 8×8 board is a larger board's: the pattern fits no
        // Russian game; a light square of 8×8 is a mistake)
        match crate::rules::board_square(square) {
            Ok(sq) => {
                if (self.men.iter().chain(&self.kings))
                    .chain([&self.empty])
                    .any(|set| set.contains(sq))
                {
                    return Err(err(format!("square {sq} is listed twice")));
                }
                let set = match want {
                    None => &mut self.empty,
                    Some((color, true)) => &mut self.kings[color.index()],
                    Some((color, false)) => &mut self.men[color.index()],
                };
                set.insert(sq);
            }
            // (12×12 is the largest board)
            Err(SetupError::OffBoard(sq)) if on_some_board(sq) => self.russian = false,
            Err(e) => return Err(err(e.to_string())),
        }
        self.listed.push((square, want));
        Ok(())
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
        let mut pattern = Pattern::of_pieces(&setup, &err)?;
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
                pattern.list(p.square, None, &err)?;
            }
        }
        if pattern.listed.is_empty() {
            return Err(err("no square listed".to_string()));
        }
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
    /// `color`'s pieces in `pos`, a position of any variant.
    #[inline]
    pub fn of<P: Playable>(pos: &P, color: Color) -> SideCount {
        let (men, kings) = pos.counts(color);
        SideCount {
            kings: kings.into(),
            men: men.into(),
        }
    }

    /// How many pieces both sides have in `pos`.
    fn both<P: Playable>(pos: &P) -> u32 {
        let [white, black] = [Color::White, Color::Black].map(|c| SideCount::of(pos, c));
        white.kings + white.men + black.kings + black.men
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
    /// Whether `pos`, a position of any variant, has exactly this material.
    #[inline]
    pub fn matches<P: Playable>(&self, pos: &P) -> bool {
        SideCount::of(pos, Color::White) == self.white
            && SideCount::of(pos, Color::Black) == self.black
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
        assert_eq!(algebraic.moves(), numeric.moves());
        assert!(algebraic.moves().is_some());
        assert_eq!(algebraic.len(), 4);
        // legal in some variant only: read in each game's
        let international: Opening = "32-28 19-23 28x19".parse().unwrap();
        assert_eq!(international.moves(), None);
        let start = VariantPosition::start(Variant::International);
        assert_eq!(international.moves_from(start).unwrap().len(), 3);
        let english: Opening = "1. 11-15 23-19".parse().unwrap();
        assert!(
            english
                .moves_from(VariantPosition::start(Variant::English))
                .is_ok()
        );
        assert!(
            english
                .moves_from(VariantPosition::start(Variant::Pool))
                .is_ok()
        );
        assert!("1.c3-d4".parse::<Opening>().is_ok());
        for bad in ["", "1.", "c3-d4 c3-d4", "z9-a1", "c3-e5", "32-28 32-28"] {
            assert!(bad.parse::<Opening>().is_err(), "{bad}");
        }
        let why = "c3-e5".parse::<Opening>().unwrap_err().reason;
        assert!(
            why.contains("as russian: `c3-e5` (ply 1) is illegal"),
            "{why}"
        );
        // the reason of the variant that reads the most moves
        let why = "32-28 28-23".parse::<Opening>().unwrap_err().reason;
        assert!(why.contains("as international: `28-23` (ply 2)"), "{why}");
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
    fn exact_positions() {
        let p: Exact = "W:WKd4,a1:Bg7,h8".parse().unwrap();
        assert!(p.matches(&pos("W:WKd4,a1:Bg7,h8")));
        assert!(!p.matches(&pos("B:WKd4,a1:Bg7,h8")), "side to move");
        assert!(!p.matches(&pos("W:WKd4,a1:Bg7,h8,b8")), "a piece more");
        assert!(!p.matches(&pos("W:Wd4,a1:Bg7,h8")), "a man is not a king");
        let ten: Exact = "W:W46:B5".parse().unwrap();
        assert!(!ten.matches(&pos("W:W29:B5")));
        let fen = "W:W46:B5";
        let international = VariantPosition::from_fen(fen, Variant::International).unwrap();
        assert!(ten.matches_variant(&international));
        let more = VariantPosition::from_fen("W:W46:B5,6", Variant::International).unwrap();
        assert!(!ten.matches_variant(&more));
        for bad in [
            "",
            "W21-32:B1-12",
            "W:W21,21",
            "W:W73",
            "W:Wa2",
            "W:W21:E22",
        ] {
            assert!(bad.parse::<Exact>().is_err(), "{bad}");
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
