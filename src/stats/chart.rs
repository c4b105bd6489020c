//! The charts of a [`Report`] as SVG: each a standalone picture (`stats --format svg
//! --chart NAME`, for papers) and a figure of `stats --format html`.
//!
//! Every mark carries the numbers it shows as `data-` attributes (and a `<title>` that a
//! browser shows on hover), so that a reader, or a test, can take them from the picture.

use super::report::{Groups, Report};
use crate::html::Escaped;
use std::fmt::Write;

/// The charts there are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Chart {
    /// a histogram of game lengths in plies
    Lengths,
    /// results per group (per year unless --by says otherwise): White wins, draws,
    /// Black wins, others
    Results,
    /// the tree of the most frequent openings, move by move
    Openings,
    /// the players with most games: wins, draws and losses, and their score
    Players,
}

impl Chart {
    /// Every chart, in the order a page shows them.
    pub const ALL: [Chart; 4] = [
        Chart::Lengths,
        Chart::Results,
        Chart::Openings,
        Chart::Players,
    ];

    /// `lengths`, `results`, `openings` or `players`.
    pub fn as_str(self) -> &'static str {
        match self {
            Chart::Lengths => "lengths",
            Chart::Results => "results",
            Chart::Openings => "openings",
            Chart::Players => "players",
        }
    }

    /// The chart of `report` as a standalone SVG document.
    pub fn svg(self, report: &Report) -> String {
        match self {
            Chart::Lengths => lengths(report),
            Chart::Results => results(report),
            Chart::Openings => openings(report),
            Chart::Players => players(report),
        }
    }
}

const WIDTH: u32 = 640;
const FONT: &str = "font-family=\"sans-serif\" font-size=\"12\"";
const WHITE_WINS: &str = "#90caf9";
const DRAWS: &str = "#bdbdbd";
const BLACK_WINS: &str = "#37474f";
const OTHERS: &str = "#ffcc80";

fn open(s: &mut String, chart: Chart, height: u32, title: &str) {
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" data-chart=\"{}\" width=\"{WIDTH}\" height=\"{height}\" viewBox=\"0 0 {WIDTH} {height}\" {FONT}>\n\
         <rect width=\"{WIDTH}\" height=\"{height}\" fill=\"#ffffff\"/>\n\
         <text x=\"10\" y=\"20\" font-size=\"15\" font-weight=\"bold\">{}</text>\n",
        chart.as_str(),
        Escaped(title)
    );
}

fn empty(chart: Chart, title: &str) -> String {
    let mut s = String::new();
    open(&mut s, chart, 60, title);
    s.push_str("<text x=\"10\" y=\"45\" fill=\"#666666\">no games</text>\n</svg>\n");
    s
}

/// A legend of coloured squares from `x` on at height `y`.
fn legend(s: &mut String, x: u32, y: u32, keys: &[(&str, &str)]) {
    let mut x = x;
    for (label, color) in keys {
        let _ = write!(
            s,
            "<rect x=\"{x}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{color}\"/><text x=\"{}\" y=\"{y}\">{label}</text>",
            y - 9,
            x + 14
        );
        x += 24 + 7 * label.len() as u32;
    }
    s.push('\n');
}

fn lengths(r: &Report) -> String {
    let l = &r.length;
    let title = format!("Game length (plies, {} games replayed)", l.games);
    if l.histogram.is_empty() {
        return empty(Chart::Lengths, &title);
    }
    let (left, top, plot_h, bottom) = (50u32, 36u32, 220u32, 50u32);
    let height = top + plot_h + bottom;
    let mut s = String::new();
    open(&mut s, Chart::Lengths, height, &title);
    let most = l
        .histogram
        .iter()
        .map(|b| b.games)
        .max()
        .unwrap_or(1)
        .max(1);
    let n = l.histogram.len() as u32;
    let slot = (WIDTH - left - 20) / n.max(1);
    let base = top + plot_h;
    // the axis and its largest value
    let _ = writeln!(
        s,
        "<line x1=\"{left}\" y1=\"{top}\" x2=\"{left}\" y2=\"{base}\" stroke=\"#999999\"/><line x1=\"{left}\" y1=\"{base}\" x2=\"{}\" y2=\"{base}\" stroke=\"#999999\"/>\
         <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{most}</text><text x=\"{}\" y=\"{base}\" text-anchor=\"end\">0</text>",
        WIDTH - 10,
        left - 4,
        top + 4,
        left - 4
    );
    for (i, b) in l.histogram.iter().enumerate() {
        let h = (b.games * u64::from(plot_h)).div_ceil(most) as u32;
        let x = left + i as u32 * slot + 2;
        let _ = writeln!(
            s,
            "<rect class=\"bar\" data-from=\"{}\" data-to=\"{}\" data-games=\"{}\" x=\"{x}\" y=\"{}\" width=\"{}\" height=\"{h}\" fill=\"#5c8fc4\"><title>{}-{} plies: {} games</title></rect>",
            b.from,
            b.to,
            b.games,
            base - h,
            slot.saturating_sub(4).max(1),
            b.from,
            b.to,
            b.games
        );
        let cx = x + slot / 2;
        let _ = writeln!(
            s,
            "<text x=\"{cx}\" y=\"{}\" text-anchor=\"end\" transform=\"rotate(-45 {cx} {})\">{}-{}</text>",
            base + 14,
            base + 14,
            b.from,
            b.to
        );
    }
    s.push_str("</svg>\n");
    s
}

fn results(r: &Report) -> String {
    // the groups, or all games as one
    let all = [r.results.clone()];
    let (rows, by) = match &r.groups {
        Some(Groups::Rows(rows)) => (
            rows.iter().map(|g| g.results.clone()).collect::<Vec<_>>(),
            r.by.map_or("group", |b| b.as_str()),
        ),
        _ => (all.to_vec(), "all games"),
    };
    let title = format!("Results by {by}");
    if rows.is_empty() || r.results.counts.games == 0 {
        return empty(Chart::Results, &title);
    }
    let (left, top, row_h) = (150u32, 52u32, 20u32);
    let height = top + row_h * rows.len() as u32 + 16;
    let mut s = String::new();
    open(&mut s, Chart::Results, height, &title);
    legend(
        &mut s,
        10,
        40,
        &[
            ("1-0", WHITE_WINS),
            ("draw", DRAWS),
            ("0-1", BLACK_WINS),
            ("0-0 or *", OTHERS),
        ],
    );
    let most = rows
        .iter()
        .map(|x| x.counts.games)
        .max()
        .unwrap_or(1)
        .max(1);
    let plot_w = u64::from(WIDTH - left - 60);
    for (i, row) in rows.iter().enumerate() {
        let y = top + i as u32 * row_h;
        let c = &row.counts;
        let _ = write!(
            s,
            "<g class=\"group\" data-key=\"{}\" data-games=\"{}\" data-white-wins=\"{}\" data-draws=\"{}\" data-black-wins=\"{}\" data-others=\"{}\">\
             <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            Escaped(&row.key),
            c.games,
            c.white_wins,
            c.draws,
            c.black_wins,
            c.both_lose + c.unknown,
            left - 6,
            y + 13,
            Escaped(&truncate(&row.key, 22))
        );
        let segments = [
            (c.white_wins, WHITE_WINS, "1-0"),
            (c.draws, DRAWS, "draw"),
            (c.black_wins, BLACK_WINS, "0-1"),
            (c.both_lose + c.unknown, OTHERS, "0-0 or *"),
        ];
        let bar = Bar {
            left,
            most,
            plot_w,
            y,
            row_h,
        };
        let x = bar.write(&mut s, &row.key, segments);
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\">{}</text></g>",
            x / most + 6,
            y + 13,
            c.games
        );
    }
    s.push_str("</svg>\n");
    s
}

/// A node of the openings' tree: the moves from its parent, the games through it, the
/// games whose opening ends there (shorter than the depth: the game was), its children.
struct Node {
    moves: Vec<String>,
    games: u64,
    ends: u64,
    children: Vec<Node>,
}

fn insert(children: &mut Vec<Node>, path: &[&str], games: u64) {
    let Some((first, rest)) = path.split_first() else {
        return;
    };
    let at = match children.iter().position(|c| c.moves[0] == *first) {
        Some(at) => at,
        None => {
            children.push(Node {
                moves: vec![first.to_string()],
                games: 0,
                ends: 0,
                children: Vec::new(),
            });
            children.len() - 1
        }
    };
    children[at].games += games;
    if rest.is_empty() {
        children[at].ends += games;
    }
    insert(&mut children[at].children, rest, games);
}

/// Joins a node and its only child when they hold the same games (none ends at the
/// node): one row, not a chain.
fn merge(node: &mut Node) {
    while node.children.len() == 1 && node.children[0].games == node.games {
        let child = node.children.pop().expect("one child");
        node.moves.extend(child.moves);
        node.ends = child.ends;
        node.children = child.children;
    }
    node.children
        .sort_by(|a, b| b.games.cmp(&a.games).then(a.moves.cmp(&b.moves)));
    node.children.iter_mut().for_each(merge);
}

fn openings(r: &Report) -> String {
    let title = format!(
        "Openings: the {} most frequent (first {} plies)",
        r.openings.top.len(),
        r.depth
    );
    let mut roots = Vec::new();
    for o in &r.openings.top {
        // (the moves without their numbers: `1. c3-d4 f6-g5` is two moves deep)
        let moves: Vec<&str> = (o.key.split_whitespace())
            .filter(|t| !t.ends_with('.'))
            .collect();
        insert(&mut roots, &moves, o.counts.games);
    }
    if roots.is_empty() {
        return empty(Chart::Openings, &title);
    }
    roots.sort_by(|a, b| b.games.cmp(&a.games).then(a.moves.cmp(&b.moves)));
    roots.iter_mut().for_each(merge);
    let mut rows = Vec::new();
    fn walk<'a>(nodes: &'a [Node], depth: u32, rows: &mut Vec<(u32, &'a Node)>) {
        for n in nodes {
            rows.push((depth, n));
            walk(&n.children, depth + 1, rows);
        }
    }
    walk(&roots, 0, &mut rows);
    let (top, row_h, text_w) = (36u32, 18u32, 330u32);
    let height = top + row_h * rows.len() as u32 + 10;
    let most = roots.iter().map(|n| n.games).max().unwrap_or(1).max(1);
    let mut s = String::new();
    open(&mut s, Chart::Openings, height, &title);
    for (i, (depth, node)) in rows.iter().enumerate() {
        let y = top + i as u32 * row_h;
        let x = 10 + depth * 16;
        let w = (node.games * u64::from(WIDTH - text_w - 120)).div_ceil(most) as u32;
        // (the games of an opening shorter than the others, ending at a node that goes on)
        let ending = match node.ends {
            n if n > 0 && !node.children.is_empty() => format!(" ({n} end here)"),
            _ => String::new(),
        };
        let _ = writeln!(
            s,
            "<g class=\"opening\" data-depth=\"{depth}\" data-moves=\"{}\" data-games=\"{}\" data-ends=\"{}\">\
             <text x=\"{x}\" y=\"{}\" font-family=\"monospace\">{}</text>\
             <rect x=\"{text_w}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#7cb342\"><title>{}: {} games</title></rect>\
             <text x=\"{}\" y=\"{}\">{}{ending}</text></g>",
            Escaped(&node.moves.join(" ")),
            node.games,
            node.ends,
            y + 13,
            Escaped(&truncate(&node.moves.join(" "), 40)),
            y + 3,
            w.max(1),
            row_h - 6,
            Escaped(&node.moves.join(" ")),
            node.games,
            text_w + w.max(1) + 6,
            y + 13,
            node.games
        );
    }
    s.push_str("</svg>\n");
    s
}

fn players(r: &Report) -> String {
    let title = format!(
        "Players: the {} with most games, and their score",
        r.players.len()
    );
    if r.players.is_empty() {
        return empty(Chart::Players, &title);
    }
    let (left, top, row_h) = (190u32, 52u32, 20u32);
    let height = top + row_h * r.players.len() as u32 + 16;
    let mut s = String::new();
    open(&mut s, Chart::Players, height, &title);
    legend(
        &mut s,
        10,
        40,
        &[
            ("wins", "#66bb6a"),
            ("draws", DRAWS),
            ("losses", "#ef5350"),
            ("*", OTHERS),
        ],
    );
    let most = r
        .players
        .iter()
        .map(|p| p.counts.games)
        .max()
        .unwrap_or(1)
        .max(1);
    let plot_w = u64::from(WIDTH - left - 130);
    for (i, p) in r.players.iter().enumerate() {
        let y = top + i as u32 * row_h;
        let c = &p.counts;
        let score = p
            .score
            .map_or_else(|| "-".to_string(), |v| format!("{v:.1}%"));
        let _ = write!(
            s,
            "<g class=\"player\" data-name=\"{}\" data-games=\"{}\" data-wins=\"{}\" data-draws=\"{}\" data-losses=\"{}\" data-score=\"{}\">\
             <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            Escaped(&p.name),
            c.games,
            c.wins,
            c.draws,
            c.losses,
            p.score.map_or_else(String::new, |v| v.to_string()),
            left - 6,
            y + 13,
            Escaped(&truncate(&p.name, 26))
        );
        let segments = [
            (c.wins, "#66bb6a", "wins"),
            (c.draws, DRAWS, "draws"),
            (c.losses, "#ef5350", "losses"),
            (c.unknown, OTHERS, "unknown"),
        ];
        let bar = Bar {
            left,
            most,
            plot_w,
            y,
            row_h,
        };
        let x = bar.write(&mut s, &p.name, segments);
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\">{} games, {score}</text></g>",
            x / most + 6,
            y + 13,
            c.games
        );
    }
    s.push_str("</svg>\n");
    s
}

/// `text` cut to `n` characters, an ellipsis for the rest.
fn truncate(text: &str, n: usize) -> String {
    if text.chars().count() <= n {
        return text.to_string();
    }
    let mut s: String = text.chars().take(n - 1).collect();
    s.push('…');
    s
}

/// A row of a stacked bar chart: where it starts, the scale (`most`, the largest row's
/// total, spans `plot_w`), its top and height.
struct Bar {
    left: u32,
    most: u64,
    plot_w: u64,
    y: u32,
    row_h: u32,
}

impl Bar {
    /// Writes the bar of `key` with its `segments` (count, colour, what), each titled with
    /// its count; the bar's end, in units of `most`.
    fn write(&self, s: &mut String, key: &str, segments: [(u64, &str, &str); 4]) -> u64 {
        let most = self.most;
        let mut x = u64::from(self.left) * most;
        for (n, color, what) in segments {
            let w = n * self.plot_w;
            if n > 0 {
                let _ = write!(
                    s,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{color}\"><title>{}: {n} {what}</title></rect>",
                    x / most,
                    self.y + 2,
                    (w / most).max(1),
                    self.row_h - 4,
                    Escaped(key)
                );
            }
            x += w;
        }
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_opening_that_is_a_prefix_of_others_ends_at_a_node_that_goes_on() {
        let mut roots = Vec::new();
        for (key, games) in [
            ("1. c3-d4", 4),
            ("1. c3-d4 f6-g5 2. b2-c3", 3),
            ("1. c3-d4 f6-g5 2. g3-h4", 2),
            ("1. a3-b4 b6-a5", 1),
        ] {
            let moves: Vec<&str> = key
                .split_whitespace()
                .filter(|t| !t.ends_with('.'))
                .collect();
            insert(&mut roots, &moves, games);
        }
        roots.iter_mut().for_each(merge);
        let c3 = &roots[0];
        assert_eq!(
            (c3.moves.join(" "), c3.games, c3.ends),
            ("c3-d4".into(), 9, 4)
        );
        // f6-g5 holds 5 games and none ends there; its two replies end
        let f6 = &c3.children[0];
        assert_eq!((f6.games, f6.ends, f6.children.len()), (5, 0, 2));
        // a chain of one opening is one row
        assert_eq!(roots[1].moves, ["a3-b4", "b6-a5"]);
        assert_eq!(roots[1].ends, 1);
    }
}
