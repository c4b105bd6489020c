//! Writing a [`Report`] for people (aligned text tables, or the same sections in HTML
//! through a [`Layout`]) or as CSV (the grouped table). JSON is `serde_json` of the report
//! itself.

use super::report::{Groups, Length, PlayerRow, Report, ResultRow};
use super::{PlayerCounts, ResultCounts};
use std::io::{self, Write};

/// Longest text bar of the histogram.
const BAR: u64 = 40;

fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{v:.1}%"))
}

fn num(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{v:.1}"))
}

/// Writes rows as columns: the first column left-aligned, the others right-aligned, two
/// spaces apart, indented by two spaces.
fn table(out: &mut impl Write, rows: &[Vec<String>]) -> io::Result<()> {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0; cols];
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    for row in rows {
        let mut line = String::from(" ");
        for (i, cell) in row.iter().enumerate() {
            let pad = widths[i] - cell.chars().count();
            line.push(' ');
            if i == 0 {
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            } else {
                line.push(' ');
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

fn result_header(first: &str) -> Vec<String> {
    [
        first,
        "games",
        "1-0",
        "0-1",
        "draw",
        "0-0",
        "*",
        "White score",
    ]
    .map(String::from)
    .to_vec()
}

fn result_cells(r: &ResultRow) -> Vec<String> {
    let mut cells = vec![r.key.clone()];
    cells.extend(count_cells(&r.counts));
    cells.push(pct(r.white_score));
    cells
}

/// `games`, `1-0`, `0-1`, draws, `0-0`, `*`.
fn count_cells(c: &ResultCounts) -> [String; 6] {
    [
        c.games,
        c.white_wins,
        c.black_wins,
        c.draws,
        c.both_lose,
        c.unknown,
    ]
    .map(|n| n.to_string())
}

fn player_header() -> Vec<String> {
    ["player", "games", "wins", "draws", "losses", "*", "score"]
        .map(String::from)
        .to_vec()
}

fn player_cells(p: &PlayerRow) -> Vec<String> {
    let mut cells = vec![p.name.clone()];
    cells.extend(player_count_cells(&p.counts));
    cells.push(pct(p.score));
    cells
}

/// `games`, wins, draws, losses, `*`.
fn player_count_cells(c: &PlayerCounts) -> [String; 5] {
    [c.games, c.wins, c.draws, c.losses, c.unknown].map(|n| n.to_string())
}

fn map_text(m: &std::collections::BTreeMap<String, u64>) -> String {
    if m.is_empty() {
        return "-".to_string();
    }
    m.iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How the sections of a report are laid out: as aligned text ([`write_table`]) or as
/// HTML ([`super::html`]). The report's content is decided once, in [`write_report`].
pub trait Layout {
    /// A section's title.
    fn heading(&mut self, out: &mut dyn Write, title: &str) -> io::Result<()>;
    /// Rows of cells; `header` when the first row names the columns.
    fn table(&mut self, out: &mut dyn Write, rows: &[Vec<String>], header: bool) -> io::Result<()>;
    /// A line of text.
    fn line(&mut self, out: &mut dyn Write, text: &str) -> io::Result<()>;
    /// The histogram of game lengths.
    fn histogram(&mut self, out: &mut dyn Write, l: &Length) -> io::Result<()>;
}

/// Aligned text tables (see [`table`]), a histogram of `#` bars.
#[derive(Default)]
struct Text {
    /// Whether a section was written (the next is set apart by an empty line).
    started: bool,
}

impl Layout for Text {
    fn heading(&mut self, out: &mut dyn Write, title: &str) -> io::Result<()> {
        if std::mem::replace(&mut self.started, true) {
            writeln!(out)?;
        }
        writeln!(out, "{title}")
    }

    fn table(
        &mut self,
        mut out: &mut dyn Write,
        rows: &[Vec<String>],
        _header: bool,
    ) -> io::Result<()> {
        table(&mut out, rows)
    }

    fn line(&mut self, out: &mut dyn Write, text: &str) -> io::Result<()> {
        writeln!(out, "  {text}")
    }

    fn histogram(&mut self, mut out: &mut dyn Write, l: &Length) -> io::Result<()> {
        writeln!(out)?;
        let most = l
            .histogram
            .iter()
            .map(|b| b.games)
            .max()
            .unwrap_or(0)
            .max(1);
        let rows: Vec<Vec<String>> = l
            .histogram
            .iter()
            .map(|b| {
                let n = (b.games * BAR).div_ceil(most) as usize;
                vec![
                    format!("{}-{}", b.from, b.to),
                    b.games.to_string(),
                    format!("|{}", "#".repeat(n)),
                ]
            })
            .collect();
        // the bar column is left-aligned by hand: pad it to the longest
        let width = rows.iter().map(|r| r[2].len()).max().unwrap_or(0);
        let rows: Vec<Vec<String>> = rows
            .into_iter()
            .map(|mut r| {
                let bar = format!("{:<width$}", r.pop().unwrap_or_default());
                r.push(bar);
                r
            })
            .collect();
        table(&mut out, &rows)
    }
}

fn lengths(out: &mut dyn Write, l: &Length, layout: &mut dyn Layout) -> io::Result<()> {
    layout.heading(
        out,
        &format!(
            "Game length (plies, {} game{} replayed)",
            l.games,
            if l.games == 1 { "" } else { "s" }
        ),
    )?;
    if l.games == 0 {
        return Ok(());
    }
    let mut rows = vec![vec![
        "mean".to_string(),
        "median".to_string(),
        "min".to_string(),
        "max".to_string(),
    ]];
    let mut values = vec![
        num(l.mean),
        num(l.median),
        l.min.unwrap_or(0).to_string(),
        l.max.unwrap_or(0).to_string(),
    ];
    for (k, v) in &l.percentiles {
        rows[0].push(k.clone());
        values.push(v.to_string());
    }
    rows.push(values);
    // the first column is left-aligned: start with an empty one
    for r in &mut rows {
        r.insert(0, String::new());
    }
    layout.table(out, &rows, true)?;
    layout.histogram(out, l)
}

/// The report for people: sections of aligned columns.
pub fn write_table(mut out: &mut impl Write, r: &Report) -> io::Result<()> {
    write_report(&mut out, r, &mut Text::default())
}

/// The report's sections, laid out by `layout`.
pub fn write_report(out: &mut dyn Write, r: &Report, layout: &mut dyn Layout) -> io::Result<()> {
    let t = &r.totals;
    layout.heading(out, "Totals")?;
    layout.table(
        out,
        &[
            vec!["files".into(), t.files.to_string()],
            vec!["unreadable files".into(), t.unreadable_files.to_string()],
            vec!["bytes".into(), t.bytes.to_string()],
            vec!["games".into(), t.games.to_string()],
            vec!["plies".into(), t.plies.to_string()],
            vec!["not replayed".into(), t.not_replayed.to_string()],
            vec!["with errors".into(), t.with_errors.to_string()],
        ],
        false,
    )?;
    layout.line(out, &format!("encodings: {}", map_text(&t.encodings)))?;
    layout.line(
        out,
        &format!("variants (GameType): {}", map_text(&t.variants)),
    )?;

    layout.heading(out, "Results")?;
    layout.table(out, &[result_header(""), result_cells(&r.results)], true)?;

    layout.heading(out, "Draws by basis")?;
    if r.draws.is_empty() {
        layout.line(out, "-")?;
    } else {
        let rows: Vec<Vec<String>> = r
            .draws
            .iter()
            .map(|(k, v)| vec![k.clone(), v.to_string()])
            .collect();
        layout.table(out, &rows, false)?;
    }

    lengths(out, &r.length, layout)?;

    layout.heading(
        out,
        &format!(
            "Openings (first {} plies; {} games, {} distinct)",
            r.depth, r.openings.games, r.openings.distinct
        ),
    )?;
    if !r.openings.top.is_empty() {
        let mut rows = vec![result_header("opening")];
        rows.extend(r.openings.top.iter().map(result_cells));
        layout.table(out, &rows, true)?;
    }

    layout.heading(out, "Players")?;
    if !r.players.is_empty() {
        let mut rows = vec![player_header()];
        rows.extend(r.players.iter().map(player_cells));
        layout.table(out, &rows, true)?;
    }

    layout.heading(out, "Final material (games replayed)")?;
    if !r.material.is_empty() {
        let mut rows = vec![result_header("balance")];
        rows.extend(r.material.iter().map(result_cells));
        layout.table(out, &rows, true)?;
    }

    layout.heading(out, "Most frequent diagnostics")?;
    if r.diagnostics.is_empty() {
        layout.line(out, "-")?;
    } else {
        let rows: Vec<Vec<String>> = r
            .diagnostics
            .iter()
            .map(|d| {
                vec![
                    format!("{} {}", d.code, d.name),
                    d.severity.to_string(),
                    d.count.to_string(),
                ]
            })
            .collect();
        layout.table(out, &rows, false)?;
    }

    if let (Some(by), Some(groups)) = (r.by, &r.groups) {
        layout.heading(out, &format!("By {}", by.as_str()))?;
        match groups {
            Groups::Players(players) => {
                let mut rows = vec![player_header()];
                rows.extend(players.iter().map(player_cells));
                layout.table(out, &rows, true)?;
            }
            Groups::Rows(groups) => {
                let mut header = result_header(by.as_str());
                header.extend(["not replayed".to_string(), "mean plies".to_string()]);
                let mut rows = vec![header];
                rows.extend(groups.iter().map(|g| {
                    let mut cells = result_cells(&g.results);
                    cells.push(g.not_replayed.to_string());
                    cells.push(num(g.mean_plies));
                    cells
                }));
                layout.table(out, &rows, true)?;
            }
        }
    }
    Ok(())
}

fn opt(x: Option<f64>) -> String {
    x.map_or_else(String::new, |v| v.to_string())
}

/// The grouped table as CSV with a header row. Without a grouping it is one row, key
/// `all`. Columns: `<by>,games,white_wins,black_wins,draws,both_lose,unknown,white_score,
/// not_replayed,mean_plies`; with `--by player`: `player,games,wins,draws,losses,unknown,
/// score`. Empty cells for undefined scores and means.
pub fn write_csv(out: impl Write, r: &Report) -> io::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    match &r.groups {
        Some(Groups::Players(players)) => {
            w.write_record(player_header_csv())?;
            for p in players {
                let mut record = vec![p.name.clone()];
                record.extend(player_count_cells(&p.counts));
                record.push(opt(p.score));
                w.write_record(record)?;
            }
        }
        groups => {
            let by = r.by.map_or("group", |b| b.as_str());
            w.write_record([
                by,
                "games",
                "white_wins",
                "black_wins",
                "draws",
                "both_lose",
                "unknown",
                "white_score",
                "not_replayed",
                "mean_plies",
            ])?;
            let all;
            let rows = match groups {
                Some(Groups::Rows(rows)) => rows.as_slice(),
                _ => {
                    all = [super::report::GroupRow {
                        results: r.results.clone(),
                        not_replayed: r.totals.not_replayed,
                        mean_plies: r.length.mean,
                    }];
                    &all[..]
                }
            };
            for g in rows {
                let x = &g.results;
                let mut record = vec![x.key.clone()];
                record.extend(count_cells(&x.counts));
                record.extend([
                    opt(x.white_score),
                    g.not_replayed.to_string(),
                    opt(g.mean_plies),
                ]);
                w.write_record(record)?;
            }
        }
    }
    w.flush()
}

fn player_header_csv() -> [&'static str; 7] {
    [
        "player", "games", "wins", "draws", "losses", "unknown", "score",
    ]
}
