//! The objects of `pdnkit convert --to jsonl` read back into games: what the tests and the
//! fuzz targets use to show that nothing of a game is lost (a game rebuilt from its object
//! equals the parsed one after `Game::normalize`).

#![allow(dead_code)]

use pdnkit::Color;
use pdnkit::convert::GameStatus;
use pdnkit::pdn::{
    Annotation, Comment, CommentKind, Game, GameResult, Line, Move, MoveExtras, Setup, Span,
};
use pdnkit::{Outcome, draw::DrawBasis};
use serde::Deserialize;

/// One game's object, read back.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct GameRecord {
    /// The record's schema and its version.
    pub schema: String,
    /// The input file (`-` for standard input).
    pub path: String,
    /// 1-based index of the game in its file.
    pub game: u64,
    /// 1-based line where the game starts in the file.
    pub line: u64,
    /// Comments before the first tag.
    #[serde(default)]
    pub before_tags: Vec<AnnotationRecord>,
    /// Tags by name, in the order first written (a name written twice: its values).
    pub tags: TagsRecord,
    /// The `Date` tag in ISO 8601, when it can be read.
    #[serde(default)]
    pub date: Option<String>,
    /// The result token ending the movetext, as written (`1-0`, `2-0`, `*`…).
    #[serde(default)]
    pub result: Option<String>,
    /// The recorded outcome (Result tag if readable, else the terminator).
    pub outcome: Outcome,
    /// `ok`, `illegal` or `unparsed`.
    pub status: GameStatus,
    /// The FEN the game starts from (numeric squares), when it could be set up.
    #[serde(default)]
    pub start_fen: Option<String>,
    /// Main-line plies replayed.
    pub plies: u32,
    /// The FEN at the end of the replayed main line.
    #[serde(default)]
    pub final_fen: Option<String>,
    /// The first error as `CODE` or `CODE@PLY`.
    #[serde(default)]
    pub first_error: Option<String>,
    /// Why a drawn game is drawn (`{"kind":"rule","rule":"6.1.8.6","ply":57}`…).
    #[serde(default)]
    pub draw_basis: Option<DrawBasis>,
    /// The draw basis in words (as in the CSV column).
    #[serde(default)]
    pub draw_basis_text: Option<String>,
    /// White's score: 1, 0.5, 0.
    #[serde(default)]
    pub score: Option<f64>,
    /// The main line's moves, with their variations.
    pub moves: Vec<MoveRecord>,
    /// Annotations after the main line's last move's.
    #[serde(default)]
    pub trailing: Vec<AnnotationRecord>,
    /// Everything lint reports about the game.
    #[serde(default)]
    pub diagnostics: Vec<DiagnosticRecord>,
}

/// A tag pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagRecord {
    /// The name as written.
    pub name: String,
    /// The decoded value.
    pub value: String,
}

/// The `tags` object: its entries in the order written, a list of values read as one
/// tag each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TagsRecord(pub Vec<TagRecord>);

impl<'de> Deserialize<'de> for TagsRecord {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Values {
            One(String),
            Many(Vec<String>),
        }
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = TagsRecord;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of tags")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut map: M,
            ) -> Result<TagsRecord, M::Error> {
                let mut tags = Vec::new();
                while let Some((name, values)) = map.next_entry::<String, Values>()? {
                    let values = match values {
                        Values::One(v) => vec![v],
                        Values::Many(vs) => vs,
                    };
                    tags.extend(values.into_iter().map(|value| TagRecord {
                        name: name.clone(),
                        value,
                    }));
                }
                Ok(TagsRecord(tags))
            }
        }
        d.deserialize_map(Entries)
    }
}

/// A line: the main line or a variation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct LineRecord {
    /// The moves.
    #[serde(default)]
    pub moves: Vec<MoveRecord>,
    /// Annotations after the last move's, in document order.
    #[serde(default)]
    pub trailing: Vec<AnnotationRecord>,
}

/// A move and everything attached to it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct MoveRecord {
    /// Annotations between the previous move's and this move, in document order.
    #[serde(default)]
    pub before: Vec<AnnotationRecord>,
    /// The full-move number, as written or inferred.
    #[serde(default)]
    pub number: Option<u32>,
    /// The side announced by the move number (or inferred).
    #[serde(default)]
    pub side: Option<Color>,
    /// The move exactly as written.
    pub text: String,
    /// Strength marks (`!`, `?!`…).
    #[serde(default)]
    pub strength: Option<String>,
    /// NAGs, comments, variations… after the move, in document order.
    #[serde(default)]
    pub after: Vec<AnnotationRecord>,
    /// The legal move it names; absent when it could not be replayed.
    #[serde(default)]
    pub resolved: Option<ResolvedRecord>,
}

/// A move resolved against the rules.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct ResolvedRecord {
    /// Main-line ply (1-based); absent in variations.
    #[serde(default)]
    pub ply: Option<u32>,
    /// Full-move number.
    pub move_number: u32,
    /// Who played it.
    pub side: Color,
    /// The move in the chosen notation (canonical by default: `c3:e5`).
    #[serde(rename = "move")]
    pub notation: String,
    /// Start square (algebraic).
    pub from: String,
    /// End square (algebraic).
    pub to: String,
    /// Every landing square of the capture, from first to last (a quiet move: from, to).
    pub route: Vec<String>,
    /// Squares of the captured pieces.
    #[serde(default)]
    pub captured: Vec<String>,
    /// A man becomes a king.
    #[serde(default)]
    pub promotes: bool,
    /// The position after the move (numeric FEN).
    pub fen_after: String,
}

/// A comment, setup command, NAG or variation, tagged by `type`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AnnotationRecord {
    /// `{"type":"comment","kind":"brace","text":"…"}`; kind `brace`, `percent` or `semicolon`.
    Comment {
        /// The syntax it was written in.
        kind: CommentKindRecord,
        /// The text, verbatim.
        text: String,
    },
    /// `{"type":"setup","fen":"W:W…:B…"}`: a `/FEN "…"/` command.
    Setup {
        /// The FEN as written.
        fen: String,
    },
    /// `{"type":"nag","nag":3}`.
    Nag {
        /// The number.
        nag: u16,
    },
    /// `{"type":"variation","moves":[…],"trailing":[…]}`: a line.
    Variation {
        /// Its moves.
        #[serde(default)]
        moves: Vec<MoveRecord>,
        /// Annotations after its last move's.
        #[serde(default)]
        trailing: Vec<AnnotationRecord>,
    },
}

/// Comment syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommentKindRecord {
    /// `{…}`.
    Brace,
    /// `%…` at the start of a line.
    Percent,
    /// `;…`.
    Semicolon,
}

/// A diagnostic, as in `pdnkit lint --format jsonl` (without the path and game).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct DiagnosticRecord {
    /// `M101`…
    pub code: String,
    /// `illegal-move`…
    pub name: String,
    /// `error`, `warning` or `info`.
    pub severity: String,
    /// What exactly.
    pub message: String,
    /// 1-based line in the file.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// Main-line ply, when it concerns a main-line move.
    #[serde(default)]
    pub ply: Option<u32>,
    /// The move as written.
    #[serde(default, rename = "move")]
    pub move_text: Option<String>,
}

impl GameRecord {
    /// The game tree this record describes (spans empty, as after [`Game::normalize`];
    /// no syntax errors).
    pub fn to_game(&self) -> Game {
        let tags = self.tags.0.iter().map(|t| pdnkit::pdn::Tag {
            name: t.name.clone(),
            raw_value: pdnkit::pdn::token::escape(&t.value).into_owned(),
            value: t.value.clone(),
            span: Span::default(),
        });
        let result = self.result.as_ref().and_then(|raw| {
            pdnkit::pdn::token::parse_result(raw).map(|t| GameResult {
                outcome: t.outcome,
                scale: t.scale,
                raw: raw.clone(),
                span: Span::default(),
            })
        });
        Game {
            before_tags: annotations(&self.before_tags),
            tags: tags.collect(),
            moves: line(&self.moves, &self.trailing),
            result,
            errors: Vec::new(),
        }
    }
}

/// The annotations these records describe.
fn annotations(list: &[AnnotationRecord]) -> Vec<Annotation> {
    list.iter().map(AnnotationRecord::to_annotation).collect()
}

impl LineRecord {
    /// The line this record describes.
    pub fn to_line(&self) -> Line {
        line(&self.moves, &self.trailing)
    }
}

/// The line of these moves and trailing annotations.
fn line(moves: &[MoveRecord], trailing: &[AnnotationRecord]) -> Line {
    Line {
        moves: (moves.iter())
            .map(|m| {
                let mut mv = Move::new(&m.text, Span::default());
                mv.number = m.number;
                mv.side = m.side;
                let extras = MoveExtras {
                    before: annotations(&m.before),
                    strength: m.strength.clone(),
                    after: annotations(&m.after),
                };
                if extras != MoveExtras::default() {
                    *mv.extras_mut() = extras;
                }
                mv
            })
            .collect(),
        trailing: annotations(trailing),
    }
}

impl AnnotationRecord {
    /// The annotation this record describes (span empty).
    pub fn to_annotation(&self) -> Annotation {
        match self {
            AnnotationRecord::Comment { kind, text } => Annotation::Comment(Comment {
                kind: match kind {
                    CommentKindRecord::Brace => CommentKind::Brace,
                    CommentKindRecord::Percent => CommentKind::Percent,
                    CommentKindRecord::Semicolon => CommentKind::Semicolon,
                },
                text: text.clone(),
                span: Span::default(),
            }),
            AnnotationRecord::Setup { fen } => Annotation::Setup(Setup {
                fen: fen.clone(),
                span: Span::default(),
            }),
            AnnotationRecord::Nag { nag } => Annotation::Nag(*nag),
            AnnotationRecord::Variation { moves, trailing } => {
                Annotation::Variation(line(moves, trailing))
            }
        }
    }
}
