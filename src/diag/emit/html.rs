//! `--format html`: one self-contained page (see [`crate::html`]) for people to open in
//! a browser. A summary (files and games read, findings by code and by severity, with
//! filters), then each file's findings in order with the source line, and for a finding
//! that holds the position before a move (an illegal move, an ambiguous one, a result the
//! final position contradicts) that board, with the move as written (red, dashed) and the
//! legal moves (green: for `M101`, the captures that were mandatory).
//!
//! The page stays usable and bounded for any number of findings: the first
//! [`MAX_LISTED`] findings are listed and the first [`MAX_BOARDS`] boards drawn (the
//! summary counts them all and says how many are not listed); the board's squares are
//! held once in the page, and the browser lays out a finding only when it scrolls into
//! view (`content-visibility`).

use super::{Diagnostic, Emitter, RunSummary, Severity};
use crate::diagram::{Arrow, ArrowKind, Coord, Diagram};
use crate::html::{Escaped, board_frame_symbol, board_svg, page_end, page_start};
use crate::rules::AnyPosition;
use crate::rules::fen::FenSquare;
use crate::rules::notation::MoveText;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// Findings listed at most; the others are counted in the summary.
pub const MAX_LISTED: usize = 2_000;
/// Boards drawn at most.
pub const MAX_BOARDS: usize = 500;
/// Legal moves drawn on a board at most.
const MAX_ARROWS: usize = 24;

#[derive(Default)]
pub(super) struct Html {
    /// The path of the file whose findings are being listed.
    file: Option<String>,
    /// Files with findings.
    files: usize,
    listed: usize,
    boards: usize,
    /// By code: the rule's name and severity, and how many.
    codes: BTreeMap<(&'static str, Severity), (&'static str, usize)>,
    severities: BTreeMap<Severity, usize>,
}

const STYLE: &str = "
main { display: flex; flex-direction: column; }
#summary { order: -1; }
#summary table { margin-top: 0; }
.filters label { margin-right: 1em; white-space: nowrap; }
ol.findings { list-style: none; padding: 0; margin: 0; }
li.finding { border: 1px solid var(--line); border-radius: 6px; padding: .5em .8em; margin: .6em 0;
  content-visibility: auto; contain-intrinsic-size: auto 6em; }
li.finding .head { font-weight: 600; }
li.finding .place { color: var(--muted); font-size: .9em; }
pre.snippet { background: #f6f6f6; padding: .4em .6em; overflow-x: auto; margin: .4em 0; }
pre.snippet .caret { color: var(--error); }
ul.notes { margin: .2em 0; padding-left: 1.2em; font-size: .92em; }
figure.position { margin: .4em 0; display: flex; gap: 1em; align-items: flex-start; }
figure.position svg.board { width: 264px; height: 264px; flex: none; }
figure.position figcaption { font-size: .9em; max-width: 30em; }
.key-written { color: #c62828; font-weight: 600; } .key-legal { color: #2e7d32; font-weight: 600; }
.note { background: #fff8e1; border: 1px solid #ffe082; padding: .4em .8em; border-radius: 6px; }
";

/// Hides the findings of the codes and severities unticked: one style rule each.
const SCRIPT: &str = "
(function () {
  var form = document.getElementById('filters');
  var hide = document.getElementById('hidden-findings');
  if (!form || !hide) return;
  function update() {
    var rules = [];
    form.querySelectorAll('input[type=checkbox]').forEach(function (box) {
      if (!box.checked) rules.push('li.finding[data-' + box.name + '=\"' + box.value + '\"]{display:none}');
    });
    hide.textContent = rules.join('\\n');
    var shown = 0;
    document.querySelectorAll('li.finding').forEach(function (li) {
      if (getComputedStyle(li).display !== 'none') shown++;
    });
    document.getElementById('shown-count').textContent = shown;
  }
  form.addEventListener('change', update);
})();
";

impl Emitter for Html {
    fn begin(&mut self, out: &mut dyn Write) -> io::Result<()> {
        page_start(out, "pdnkit lint report", STYLE)?;
        out.write_all(b"<style id=\"hidden-findings\"></style>\n")?;
        out.write_all(board_frame_symbol().as_bytes())?;
        out.write_all(b"<h1>pdnkit lint report</h1>\n<main>\n<section id=\"files\">\n")
    }

    fn diagnostic(&mut self, out: &mut dyn Write, d: &Diagnostic, _first: bool) -> io::Result<()> {
        let (name, count) = (self.codes)
            .entry((d.rule.code, d.severity))
            .or_insert((d.rule.name, 0));
        *name = d.rule.name;
        *count += 1;
        *self.severities.entry(d.severity).or_insert(0) += 1;
        if self.listed == MAX_LISTED {
            return Ok(());
        }
        self.listed += 1;
        if self.file.as_deref() != Some(d.path.as_str()) {
            if self.file.is_some() {
                out.write_all(b"</ol>\n</section>\n")?;
            }
            self.files += 1;
            write!(
                out,
                "<section class=\"file\">\n<h2 class=\"mono\">{}</h2>\n<ol class=\"findings\">\n",
                Escaped(&d.path)
            )?;
            self.file = Some(d.path.clone());
        }
        let severity = d.severity.as_str();
        write!(
            out,
            "<li class=\"finding\" data-code=\"{code}\" data-severity=\"{severity}\">\n\
             <div class=\"head\"><span class=\"{severity}\">{severity}[{code}]</span> {}: {}</div>\n\
             <div class=\"place mono\">{}",
            d.rule.name,
            Escaped(&d.message),
            Escaped(&d.place()),
            code = d.rule.code,
        )?;
        let mut where_ = Vec::new();
        if let Some(g) = d.game {
            where_.push(format!("game {g}"));
        }
        if let Some(p) = d.ply {
            where_.push(format!("ply {p}"));
        }
        if let Some(m) = &d.move_text {
            where_.push(format!("move <code>{}</code>", Escaped(m)));
        }
        if !where_.is_empty() {
            write!(out, " · {}", where_.join(", "))?;
        }
        out.write_all(b"</div>\n")?;
        if let Some(snip) = &d.snippet {
            let text = snip.line_text.replace('\t', " ");
            writeln!(
                out,
                "<pre class=\"snippet\">{}\n<span class=\"caret\">{}{}</span></pre>",
                Escaped(&text),
                " ".repeat(snip.column.saturating_sub(1)),
                "^".repeat(snip.width.max(1))
            )?;
        }
        if !d.notes.is_empty() || d.fix.is_some() {
            out.write_all(b"<ul class=\"notes\">")?;
            for note in &d.notes {
                write!(out, "<li>{}</li>", Escaped(note))?;
            }
            if let Some(fix) = &d.fix {
                write!(
                    out,
                    "<li><b>help</b>: {} ({} fix)</li>",
                    Escaped(&fix.message),
                    fix.applicability.as_str()
                )?;
            }
            out.write_all(b"</ul>\n")?;
        }
        if let Some(board) = &d.board {
            if self.boards < MAX_BOARDS {
                self.boards += 1;
                write_board(out, board, d)?;
            } else {
                out.write_all(
                    b"<p class=\"muted\">(board not drawn: the report draws the first 500)</p>\n",
                )?;
            }
        }
        out.write_all(b"</li>\n")
    }

    fn finish(&mut self, out: &mut dyn Write, written: usize, run: &RunSummary) -> io::Result<()> {
        if self.file.is_some() {
            out.write_all(b"</ol>\n</section>\n")?;
        }
        out.write_all(b"</section>\n<section id=\"summary\">\n<h2>Summary</h2>\n<p>")?;
        if let Some((files, games)) = run.files.zip(run.games) {
            write!(
                out,
                "<span id=\"files-read\">{files}</span> file{} and <span id=\"games-read\">{games}</span> game{} read; ",
                plural(files),
                plural(games)
            )?;
        }
        write!(
            out,
            "<span id=\"findings-count\">{written}</span> finding{} in {} file{}",
            plural(written),
            self.files,
            plural(self.files)
        )?;
        for (s, n) in &self.severities {
            write!(out, ", <span class=\"{s}\">{n} {s}{}</span>", plural(*n))?;
        }
        out.write_all(b".</p>\n")?;
        if self.listed < written {
            writeln!(
                out,
                "<p class=\"note\">The first {} findings are listed here; {} more are counted above. \
                 The formats <code>jsonl</code> and <code>concise</code> list them all, and \
                 <code>--select</code> and <code>--severity</code> choose which.</p>",
                self.listed,
                written - self.listed
            )?;
        }
        if written > 0 {
            out.write_all(b"<form id=\"filters\" class=\"filters\">\n<p>Show: ")?;
            for (s, n) in &self.severities {
                write!(
                    out,
                    "<label><input type=\"checkbox\" name=\"severity\" value=\"{s}\" checked> <span class=\"{s}\">{s}</span> ({n})</label>"
                )?;
            }
            writeln!(
                out,
                " <span class=\"muted\">(<span id=\"shown-count\">{}</span> listed findings shown)</span></p>",
                self.listed
            )?;
            out.write_all(
                b"<table id=\"codes\"><tr><th>code</th><th class=\"text\">name</th><th class=\"text\">severity</th><th>findings</th></tr>\n",
            )?;
            for ((code, severity), (name, n)) in &self.codes {
                writeln!(
                    out,
                    "<tr data-code=\"{code}\"><td><label><input type=\"checkbox\" name=\"code\" value=\"{code}\" checked> {code}</label></td><td class=\"text\">{name}</td><td class=\"text {severity}\">{severity}</td><td>{n}</td></tr>"
                )?;
            }
            out.write_all(b"</table>\n</form>\n")?;
        }
        out.write_all(b"</section>\n</main>\n")?;
        page_end(out, SCRIPT)
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The board before the move of `d`: the move as written and the legal moves as arrows,
/// and a caption that names them.
fn write_board(out: &mut dyn Write, board: &AnyPosition, d: &Diagnostic) -> io::Result<()> {
    let mut diagram = Diagram::from(board);
    let written = (d.move_text.as_deref()).and_then(|text| written_squares(board, text));
    if let Some(squares) = &written {
        diagram.arrows.push(Arrow {
            squares: squares.clone(),
            kind: ArrowKind::Written,
        });
    }
    let legal = crate::diagram::legal_move_squares(board);
    let mut names: Vec<String> = Vec::new();
    for (squares, name, _) in legal.iter() {
        if diagram.arrows.len() > MAX_ARROWS {
            break;
        }
        diagram.arrows.push(Arrow {
            squares: squares.clone(),
            kind: ArrowKind::Legal,
        });
        names.push(name.clone());
    }
    names.sort();
    names.dedup();
    let captures = legal.first().is_some_and(|(_, _, capture)| *capture);
    writeln!(
        out,
        "<figure class=\"position\" data-fen=\"{}\">{}",
        Escaped(&board.to_fen()),
        board_svg(&diagram)
    )?;
    write!(
        out,
        "<figcaption>The position before the move, {} to move.",
        board.turn()
    )?;
    if let Some(m) = &d.move_text {
        let drawn = if written.is_some() {
            " (red, dashed)"
        } else {
            ""
        };
        write!(
            out,
            " <span class=\"key-written\">Written:</span> <code>{}</code>{drawn}.",
            Escaped(m)
        )?;
    }
    match names.len() {
        0 => out.write_all(b" No legal move.")?,
        _ => write!(
            out,
            " <span class=\"key-legal\">{} (green):</span> <code>{}</code>.",
            if captures {
                "A capture is mandatory; the legal captures"
            } else {
                "The legal moves"
            },
            names.join("</code>, <code>")
        )?,
    }
    out.write_all(b"</figcaption></figure>\n")
}

/// The squares of a move as written, when each is a square of the board.
fn written_squares(board: &AnyPosition, text: &str) -> Option<Vec<Coord>> {
    let parsed: MoveText = text.parse().ok()?;
    (parsed.squares.iter())
        .map(|&s| match (board, s) {
            (AnyPosition::Other(p), s) => p.index_of(s).map(|i| p.file_rank(i)),
            (_, FenSquare::Algebraic { file, rank }) => {
                (file < 8 && rank < 8).then_some((file, rank))
            }
            (_, FenSquare::Numeric(n)) => {
                crate::rules::Square::from_numeric(n).map(|sq| (sq.file(), sq.rank()))
            }
        })
        .collect()
}
