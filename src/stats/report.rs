//! The report: what [`Stats`] counted, summarised, in the stable JSON schema of
//! `pdnkit stats --format json` (`"schema": "pdnkit-stats/1"`).
//!
//! Fields are only ever added within a schema version; a field that changes meaning or
//! goes away gives a new version. Maps (`encodings`, `variants`, `draws`) have their keys
//! in ascending order; lists are sorted as each field says, ties by name, so the output is
//! deterministic. The top-level object:
//!
//! | field | meaning |
//! |---|---|
//! | `schema` | `"pdnkit-stats/1"` |
//! | `depth` | opening depth in plies |
//! | `by` | the grouping (`event`, `player`, `year`, `opening`, `file`) or `null` |
//! | `top` | how many entries the lists `diagnostics`, `openings.top`, `players`, `material` were cut to (`0`: not cut) |
//! | `totals` | [`Totals`] |
//! | `diagnostics` | [`DiagnosticRow`]s, most frequent first |
//! | `results` | [`ResultRow`] over all games (`key` is `"all"`) |
//! | `draws` | drawn games by basis: draw rule id (`6.1.8.6`, `7.2.4`, …), `repetition`, `agreement`, `early_agreement`, `unjudged` |
//! | `length` | [`Length`] |
//! | `openings` | [`Openings`] |
//! | `players` | [`PlayerRow`]s, most games first |
//! | `material` | [`ResultRow`]s keyed by final material (`3K v K`), most games first |
//! | `groups` | `null`, or with `--by player` [`PlayerRow`]s (all players, most games first), else [`GroupRow`]s (by key ascending; `--by opening`: most games first) |

use super::{GroupBy, PlayerCounts, ResultCounts, Stats, round2};
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::BTreeMap;

/// The schema id written in `schema`.
pub const SCHEMA: &str = "pdnkit-stats/1";

/// Percentiles reported, in percent.
pub const PERCENTILES: [u32; 6] = [10, 25, 50, 75, 90, 99];

/// Most histogram bins (bins are 10 plies wide, or a multiple of 10 for long games).
pub const MAX_BINS: u32 = 20;

/// The whole report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub schema: &'static str,
    pub depth: usize,
    pub by: Option<GroupBy>,
    pub top: usize,
    pub totals: Totals,
    pub diagnostics: Vec<DiagnosticRow>,
    pub results: ResultRow,
    pub draws: BTreeMap<String, u64>,
    pub length: Length,
    pub openings: Openings,
    pub players: Vec<PlayerRow>,
    pub material: Vec<ResultRow>,
    pub groups: Option<Groups>,
}

/// Totals over all inputs.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Totals {
    /// Inputs read (files and standard input), including those that failed.
    pub files: u64,
    /// Inputs that could not be read, or only partly.
    pub unreadable_files: u64,
    /// Bytes read.
    pub bytes: u64,
    /// Games read.
    pub games: u64,
    /// Main-line plies replayed, all games.
    pub plies: u64,
    /// Inputs per encoding (WHATWG name, e.g. `UTF-8`, `windows-1251`).
    pub encodings: BTreeMap<String, u64>,
    /// Games per GameType number (`25`; `none` without the tag).
    pub variants: BTreeMap<String, u64>,
    /// Games whose main line did not replay completely or with a syntax error.
    pub not_replayed: u64,
    /// Games with at least one error diagnostic (lint's "with errors").
    pub with_errors: u64,
}

/// One diagnostic kind and how often it was reported.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DiagnosticRow {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: &'static str,
    pub count: u64,
}

/// Results of a set of games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResultRow {
    /// What the row is about (`all`, a balance, an opening, a group key).
    pub key: String,
    /// The counts (`games`, `white_wins`… in the JSON, beside `key`).
    #[serde(flatten)]
    pub counts: ResultCounts,
    /// White's result percentage, or `null`.
    pub white_score: Option<f64>,
}

impl ResultRow {
    fn new(key: &str, r: &ResultCounts) -> ResultRow {
        ResultRow {
            key: key.to_string(),
            counts: *r,
            white_score: r.white_score(),
        }
    }
}

/// A group of `--by event|year|opening|file`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupRow {
    #[serde(flatten)]
    pub results: ResultRow,
    /// Games not replayed.
    pub not_replayed: u64,
    /// Mean length of the games replayed, or `null`.
    pub mean_plies: Option<f64>,
}

/// One player.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerRow {
    pub name: String,
    /// The counts (`games`, `wins`… in the JSON, beside `name`).
    #[serde(flatten)]
    pub counts: PlayerCounts,
    /// The player's result percentage, or `null`.
    pub score: Option<f64>,
}

impl PlayerRow {
    fn new(name: &str, p: &PlayerCounts) -> PlayerRow {
        PlayerRow {
            name: name.to_string(),
            counts: *p,
            score: p.score(),
        }
    }
}

/// The grouped table.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Groups {
    Players(Vec<PlayerRow>),
    Rows(Vec<GroupRow>),
}

/// Game lengths, in plies, over the games replayed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Length {
    pub games: u64,
    pub min: Option<u32>,
    pub max: Option<u32>,
    /// Rounded to 0.01.
    pub mean: Option<f64>,
    /// The middle length (mean of the two middle ones for an even count).
    pub median: Option<f64>,
    /// `p10 p25 p50 p75 p90 p99`: nearest rank (the smallest length with at least p% of
    /// games at or below it).
    pub percentiles: BTreeMap<String, u32>,
    /// Consecutive bins from the one holding `min` to the one holding `max`.
    pub histogram: Vec<Bin>,
}

/// Games with `from <= length <= to`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bin {
    pub from: u32,
    pub to: u32,
    pub games: u64,
}

/// Openings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Openings {
    /// Games that have an opening.
    pub games: u64,
    /// Distinct openings.
    pub distinct: u64,
    /// Most frequent first (`key` is the opening).
    pub top: Vec<ResultRow>,
}

fn cut<T>(mut v: Vec<T>, top: usize) -> Vec<T> {
    if top > 0 {
        v.truncate(top);
    }
    v
}

/// Most games first, then by key.
fn by_games_desc(r: &ResultRow) -> (Reverse<u64>, &str) {
    (Reverse(r.counts.games), &r.key)
}

fn length(lengths: &BTreeMap<u32, u64>) -> Length {
    let games: u64 = lengths.values().sum();
    let min = lengths.keys().next().copied();
    let max = lengths.keys().next_back().copied();
    let sum: u64 = lengths.iter().map(|(&l, &n)| u64::from(l) * n).sum();
    // the length at 0-based rank `i` in sorted order
    let at = |i: u64| {
        let mut seen = 0;
        for (&l, &n) in lengths {
            seen += n;
            if seen > i {
                return l;
            }
        }
        0
    };
    let mut percentiles = BTreeMap::new();
    let mut median = None;
    let mut histogram = Vec::new();
    if games > 0 {
        for p in PERCENTILES {
            let rank = (u64::from(p) * games).div_ceil(100).max(1);
            percentiles.insert(format!("p{p}"), at(rank - 1));
        }
        median = Some((f64::from(at((games - 1) / 2)) + f64::from(at(games / 2))) / 2.0);
        let (lo, hi) = (min.unwrap_or(0), max.unwrap_or(0));
        let width = 10 * (hi / 10 - lo / 10 + 1).div_ceil(MAX_BINS).max(1);
        let mut from = lo / width * width;
        while from <= hi {
            let to = from + width - 1;
            histogram.push(Bin {
                from,
                to,
                games: lengths.range(from..=to).map(|(_, n)| n).sum(),
            });
            from += width;
        }
    }
    Length {
        games,
        min,
        max,
        mean: (games > 0).then(|| round2(sum as f64 / games as f64)),
        median,
        percentiles,
        histogram,
    }
}

impl Stats {
    /// The report, lists cut to `top` entries (`0`: all).
    pub fn report(&self, top: usize) -> Report {
        let mut diagnostics: Vec<DiagnosticRow> = self
            .diagnostics
            .iter()
            .map(|(k, &count)| DiagnosticRow {
                code: k.code,
                name: k.name,
                severity: k.severity.as_str(),
                count,
            })
            .collect();
        diagnostics.sort_by_key(|d| (Reverse(d.count), d.code, d.severity));

        let mut openings: Vec<ResultRow> = self
            .openings
            .iter()
            .map(|(k, r)| ResultRow::new(k, r))
            .collect();
        openings.sort_by(|a, b| by_games_desc(a).cmp(&by_games_desc(b)));
        let opening_games = openings.iter().map(|r| r.counts.games).sum();
        let distinct = openings.len() as u64;

        // (the players' rows are made for those reported only: an archive may name
        // millions, most of them not in the top)
        let all_players = self.options.by == Some(GroupBy::Player) || top == 0;
        let ranked = self.ranked_players(if all_players { 0 } else { top });
        let row = |&i: &u32| {
            PlayerRow::new(
                self.players.name(i as usize),
                &self.players.counts(i as usize),
            )
        };
        let shown = if top == 0 { ranked.len() } else { top };
        let players: Vec<PlayerRow> = ranked.iter().take(shown).map(row).collect();

        let mut material: Vec<ResultRow> = self
            .material
            .iter()
            .map(|(k, r)| ResultRow::new(&k.text(), r))
            .collect();
        material.sort_by(|a, b| by_games_desc(a).cmp(&by_games_desc(b)));

        let groups = match self.options.by {
            None => None,
            Some(GroupBy::Player) => Some(Groups::Players(ranked.iter().map(row).collect())),
            Some(by) => {
                let mut rows: Vec<GroupRow> = self
                    .groups
                    .iter()
                    .map(|(k, g)| GroupRow {
                        results: ResultRow::new(k, &g.results),
                        not_replayed: g.not_replayed,
                        mean_plies: (g.replayed > 0)
                            .then(|| round2(g.replayed_plies as f64 / g.replayed as f64)),
                    })
                    .collect();
                if by == GroupBy::Opening {
                    rows.sort_by(|a, b| by_games_desc(&a.results).cmp(&by_games_desc(&b.results)));
                } else {
                    rows.sort_by(|a, b| a.results.key.cmp(&b.results.key));
                }
                Some(Groups::Rows(rows))
            }
        };

        Report {
            schema: SCHEMA,
            depth: self.options.depth,
            by: self.options.by,
            top,
            totals: self.totals.clone(),
            diagnostics: cut(diagnostics, top),
            results: ResultRow::new("all", &self.results),
            draws: self.draws.clone(),
            length: length(&self.lengths),
            openings: Openings {
                games: opening_games,
                distinct,
                top: cut(openings, top),
            },
            players,
            material: cut(material, top),
            groups,
        }
    }
}

impl Stats {
    /// The players' entries, most games first (then by name), the first `top` of them
    /// (`0`: all).
    fn ranked_players(&self, top: usize) -> Vec<u32> {
        let players = &self.players;
        let rank = |&i: &u32| (Reverse(players.games(i as usize)), players.name(i as usize));
        let mut ranked: Vec<u32> = (0..players.len() as u32).collect();
        if top > 0 && top < ranked.len() {
            ranked.select_nth_unstable_by(top - 1, |a, b| rank(a).cmp(&rank(b)));
            ranked.truncate(top);
        }
        // (names are distinct: the order is total)
        ranked.sort_unstable_by_key(rank);
        ranked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dist(pairs: &[(u32, u64)]) -> BTreeMap<u32, u64> {
        pairs.iter().copied().collect()
    }

    #[test]
    fn percentiles_nearest_rank_and_median() {
        // 1..=10, one game each
        let l = length(&dist(&(1..=10).map(|i| (i, 1)).collect::<Vec<_>>()));
        assert_eq!(l.games, 10);
        assert_eq!((l.min, l.max), (Some(1), Some(10)));
        assert_eq!(l.mean, Some(5.5));
        assert_eq!(l.median, Some(5.5));
        let p: Vec<_> = l
            .percentiles
            .iter()
            .map(|(k, v)| (k.as_str(), *v))
            .collect();
        assert_eq!(
            p,
            [
                ("p10", 1),
                ("p25", 3),
                ("p50", 5),
                ("p75", 8),
                ("p90", 9),
                ("p99", 10)
            ]
        );
        assert_eq!(l.histogram.len(), 2);
        assert_eq!((l.histogram[0].from, l.histogram[0].to), (0, 9));
        assert_eq!(l.histogram[0].games, 9);
        assert_eq!(l.histogram[1].games, 1);
    }

    #[test]
    fn odd_count_median_and_wide_bins() {
        let l = length(&dist(&[(40, 2), (400, 1)]));
        assert_eq!(l.median, Some(40.0));
        assert_eq!(l.mean, Some(160.0));
        // 37 ten-ply bins would be too many: 20-ply bins from 40 to 419
        assert!(l.histogram.len() as u32 <= MAX_BINS);
        assert_eq!(l.histogram[0].from, 40);
        assert_eq!(l.histogram[0].to, 59);
        assert_eq!(l.histogram.last().unwrap().games, 1);
        assert_eq!(l.histogram.iter().map(|b| b.games).sum::<u64>(), 3);
    }

    #[test]
    fn empty_distribution() {
        let l = length(&BTreeMap::new());
        assert_eq!(l.games, 0);
        assert_eq!(l.mean, None);
        assert_eq!(l.median, None);
        assert!(l.percentiles.is_empty() && l.histogram.is_empty());
    }
}
