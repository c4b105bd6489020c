//! Games with one slip of the pen: a generated game with one main-line move written
//! wrongly, the way old records are wrong (a wrong square, a man moved backwards, a
//! capture written as a quiet move, a multi-capture stopped short). What `pdnkit fix
//! --unsafe-fixes` is measured on: the slip is illegal where it stands, and the move
//! played is known.

use super::{SplitMix64, play, push_token, style_for};
use pdnkit::Color;
use pdnkit::rules::notation::{Illegal, Resolution, Style, push_squares, resolve_token};
use pdnkit::rules::{Move, Position, Square};

/// The kinds of slip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SlipKind {
    /// The move's last square is another square of the board.
    WrongSquare,
    /// A man's quiet move written towards its own side.
    Backwards,
    /// A capture the rules forced, written as a quiet move of the side.
    CaptureAsQuiet,
    /// A capture of two or more pieces written as its first jump alone.
    StoppedShort,
}

impl SlipKind {
    /// Every kind.
    pub const ALL: [SlipKind; 4] = [
        SlipKind::WrongSquare,
        SlipKind::Backwards,
        SlipKind::CaptureAsQuiet,
        SlipKind::StoppedShort,
    ];

    /// Its name, for tables.
    pub fn name(self) -> &'static str {
        match self {
            SlipKind::WrongSquare => "wrong square",
            SlipKind::Backwards => "man moved backwards",
            SlipKind::CaptureAsQuiet => "capture written as a quiet move",
            SlipKind::StoppedShort => "multi-capture stopped short",
        }
    }
}

/// A game with one slip.
#[derive(Clone, Debug)]
pub struct Slipped {
    /// The game's PDN text, the slip written in place of the move played.
    pub text: String,
    pub kind: SlipKind,
    /// The main-line ply of the slip (1-based).
    pub ply: u32,
    /// The position before it.
    pub before: Position,
    /// The move played there.
    pub played: Move,
    /// The move as the game first wrote it, and the slip written instead.
    pub written: String,
    pub slip: String,
}

/// The game of `seed` and `index` with a slip of `kind` at a ply chosen at random, or
/// `None` when the game has no move that such a slip fits.
pub fn slipped(seed: u64, index: u64, kind: SlipKind) -> Option<Slipped> {
    let mut rng = SplitMix64::new(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5119);
    rng.next_u64();
    let style = style_for(&mut rng);
    let game = play(&mut rng, style);
    // the plies a slip of this kind fits, in a random order from a random start
    let n = game.plies.len();
    let first = rng.index(n);
    for k in (first..n).chain(0..first) {
        let (before, played, _) = &game.plies[k];
        let Some(slip) = slip_of(&mut rng, before, played, kind, style) else {
            continue;
        };
        let mut text = String::from("[Event \"slips\"]\n[Result \"*\"]\n\n");
        let mut line_len = 0;
        for (i, (_, _, written)) in game.plies.iter().enumerate() {
            if i % 2 == 0 {
                push_token(&mut text, &mut line_len, &format!("{}.", i / 2 + 1));
            }
            push_token(
                &mut text,
                &mut line_len,
                if i == k { &slip } else { written },
            );
        }
        push_token(&mut text, &mut line_len, "*");
        text.push_str("\n\n");
        return Some(Slipped {
            text,
            kind,
            ply: k as u32 + 1,
            before: *before,
            played: *played,
            written: game.plies[k].2.clone(),
            slip,
        });
    }
    None
}

/// A slip of `kind` for `played` in `pos`, written in `style`, that is not a legal move
/// there (an illegal move of the board, not an unreadable one).
fn slip_of(
    rng: &mut SplitMix64,
    pos: &Position,
    played: &Move,
    kind: SlipKind,
    style: Style,
) -> Option<String> {
    let side = pos.turn();
    let forward: i8 = if side == Color::White { 1 } else { -1 };
    let candidates: Vec<String> = match kind {
        SlipKind::WrongSquare => Square::all()
            .filter(|&s| s != played.to() && s != played.from())
            .map(|s| squares(&[played.from(), s], style, played.is_capture()))
            .collect(),
        SlipKind::Backwards => {
            let is_man = pos.men(side).contains(played.from());
            if played.is_capture() || !is_man {
                return None;
            }
            neighbours(played.from(), -forward)
                .map(|s| squares(&[played.from(), s], style, false))
                .collect()
        }
        SlipKind::CaptureAsQuiet => {
            if !played.is_capture() {
                return None;
            }
            let empty = |s: &Square| !pos.occupied().contains(*s);
            pos.men(side)
                .flat_map(|from| {
                    neighbours(from, forward)
                        .filter(empty)
                        .map(move |to| (from, to))
                })
                .map(|(from, to)| squares(&[from, to], style, false))
                .collect()
        }
        SlipKind::StoppedShort => {
            if played.captured().count() < 2 {
                return None;
            }
            let route = pos.routes(played).into_iter().next()?;
            squares_route(&route.squares()[..2], style)
        }
    };
    let illegal: Vec<String> = candidates
        .into_iter()
        .filter(|text| {
            matches!(resolve_token(pos, text, None, None),
                Ok(r) if matches!(r.resolution, Resolution::Illegal(ref why)
                    if !matches!(why, Illegal::OffBoard(_) | Illegal::LightSquare(_))))
        })
        .collect();
    (!illegal.is_empty()).then(|| rng.pick(&illegal).clone())
}

/// The dark squares next to `s` diagonally, one rank up (`dir` 1) or down (-1).
fn neighbours(s: Square, dir: i8) -> impl Iterator<Item = Square> {
    let (file, rank) = (s.file() as i8, s.rank() as i8 + dir);
    [file - 1, file + 1]
        .into_iter()
        .filter(move |&f| (0..8).contains(&f) && (0..8).contains(&rank))
        .filter_map(move |f| Square::from_file_rank(f as u8, rank as u8))
}

/// `route`'s squares as a capture in `style`.
fn squares_route(route: &[Square], style: Style) -> Vec<String> {
    vec![squares(route, style, true)]
}

/// The squares as a move in `style` (a capture's separator or `-`).
fn squares(list: &[Square], style: Style, capture: bool) -> String {
    let mut out = String::new();
    push_squares(&mut out, list, style, capture);
    out
}

/// What the check of a game with a slip proposed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games with a slip of the kind.
    pub games: u64,
    /// Repaired to the move played.
    pub repaired: u64,
    /// Several legal moves fit the rest of the game: left as it was.
    pub several: u64,
    /// No legal move fits the rest (the slip changed what came after): left as it was.
    pub none: u64,
    /// Repaired to another move than the one played: must not happen.
    pub wrong: u64,
    /// No illegal-move finding at the slip: must not happen.
    pub missed: u64,
}

/// Checks `games` games with a slip of each kind (from `seed`), and tallies what the
/// repairs proposed.
pub fn measure(seed: u64, games: u64) -> Vec<(SlipKind, Tally)> {
    use pdnkit::check::CheckOptions;
    let options = CheckOptions::default();
    SlipKind::ALL
        .iter()
        .map(|&kind| {
            let mut t = Tally::default();
            let mut index = 0;
            while t.games < games {
                let Some(slipped) = slipped(seed, index, kind) else {
                    index += 1;
                    continue;
                };
                index += 1;
                t.games += 1;
                let report = pdnkit::run::check_reader("slip", slipped.text.as_bytes(), &options);
                let Some(d) = report
                    .diagnostics
                    .iter()
                    .find(|d| d.ply == Some(slipped.ply) && matches!(d.rule.code, "M101" | "M106"))
                else {
                    t.missed += 1;
                    continue;
                };
                match &d.fix {
                    Some(fix) => {
                        let content = &fix.edits[0].content;
                        let named = resolve_token(&slipped.before, content, None, None);
                        let right = matches!(named, Ok(r) if matches!(r.resolution,
                            Resolution::Unique { mv, .. } if mv == slipped.played));
                        if right { t.repaired += 1 } else { t.wrong += 1 }
                    }
                    None if d.notes.iter().any(|n| n.contains("legal moves here let")) => {
                        t.several += 1
                    }
                    None => t.none += 1,
                }
            }
            (kind, t)
        })
        .collect()
}
