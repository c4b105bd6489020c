//! The game viewer of `show --format html`: one page with the board, the move list (the
//! comments, NAGs and variations of the record) and buttons to step through the main
//! line; the arrow keys step too (Home and End jump to the start and the end), and the
//! ply is kept in the address (`#ply=12`), so that a link opens the game at that ply.
//!
//! Every position of the main line is drawn here, in Rust, by [`Diagram`] (its pieces
//! and the last move, over one frame of squares) and embedded with its FEN as JSON; the
//! page's script only puts the position asked for on the board.

use super::{Escaped, board_frame_symbol, page_end, page_start, script_json};
use crate::diagram::{Diagram, DrawnPly};
use crate::pdn::{Annotation, Game, Line};
use crate::rules::AnyPosition;
use serde::Serialize;
use std::io::{self, Write};

/// What the viewer shows of a game.
pub struct ViewedGame<'a> {
    /// What the page is called (the file and the game's number, say).
    pub title: &'a str,
    /// The start position (of any variant).
    pub start: AnyPosition,
    /// The main-line plies replayed, in order.
    pub plies: &'a [DrawnPly],
    /// The game's tree, for its tags, comments, NAGs and variations; without it the move
    /// list holds the main line alone.
    pub tree: Option<&'a Game>,
    /// Why the main line stops short of the record's end, when it does (an illegal move,
    /// said in words).
    pub stopped: Option<String>,
    /// The ply the page shows when its address names none.
    pub opens_at: u32,
}

/// A position of the main line as the page's script gets it.
#[derive(Serialize)]
struct Frame {
    /// The FEN (numeric squares).
    fen: String,
    /// The pieces and the last move's arrow, as SVG elements over the board's frame.
    svg: String,
    /// The move that led here, as written (`""` for the start).
    caption: String,
}

const STYLE: &str = "
.viewer { display: flex; gap: 1.5em; align-items: flex-start; flex-wrap: wrap; }
.viewer svg.board { width: min(480px, 92vw); height: auto; display: block; }
.controls { margin: .5em 0; display: flex; gap: .4em; align-items: center; }
.controls button { font-size: 1.1em; min-width: 2.6em; padding: .2em .5em; }
#ply-label { margin-left: .6em; color: var(--muted); }
.moves { flex: 1 1 20em; max-width: 38em; line-height: 1.9; }
.moves a.mv { color: inherit; text-decoration: none; padding: .05em .25em; border-radius: 3px; white-space: nowrap; }
.moves a.mv:hover { background: #eee; }
.moves a.mv.current { background: #1565c0; color: #fff; }
.moves .num { color: var(--muted); }
.moves .nag { color: #6a1b9a; font-weight: 600; }
.moves .comment { color: #2e7d32; font-style: italic; }
.moves .variation { color: var(--muted); font-size: .93em; }
.moves .result { font-weight: 600; }
.stopped { background: #ffebee; border: 1px solid #ef9a9a; padding: .4em .8em; border-radius: 6px; }
table.tags td { text-align: left; }
";

const SCRIPT: &str = "
(function () {
  var frames = JSON.parse(document.getElementById('positions').textContent);
  var pieces = document.getElementById('pieces');
  var board = document.getElementById('board');
  var label = document.getElementById('ply-label');
  var last = frames.length - 1;
  var opensAt = parseInt(board.getAttribute('data-opens-at'), 10) || 0;
  var current = -1;
  function fromHash() {
    var m = /ply=(\\d+)/.exec(location.hash);
    return m ? Math.min(parseInt(m[1], 10), last) : Math.min(opensAt, last);
  }
  function go(ply, keepHash) {
    ply = Math.max(0, Math.min(last, ply));
    if (ply === current) return;
    current = ply;
    pieces.innerHTML = frames[ply].svg;
    board.setAttribute('data-ply', ply);
    board.setAttribute('data-fen', frames[ply].fen);
    label.textContent = ply === 0 ? 'start' : 'ply ' + ply + ': ' + frames[ply].caption;
    document.querySelectorAll('a.mv.current').forEach(function (a) { a.classList.remove('current'); });
    var link = document.querySelector('a.mv[data-ply=\"' + ply + '\"]');
    if (link) { link.classList.add('current'); link.scrollIntoView({block: 'nearest'}); }
    if (!keepHash) history.replaceState(null, '', '#ply=' + ply);
  }
  document.getElementById('first').onclick = function () { go(0); };
  document.getElementById('prev').onclick = function () { go(current - 1); };
  document.getElementById('next').onclick = function () { go(current + 1); };
  document.getElementById('last').onclick = function () { go(last); };
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var to = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last}[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  });
  document.querySelectorAll('a.mv').forEach(function (a) {
    a.addEventListener('click', function (e) { e.preventDefault(); go(parseInt(a.dataset.ply, 10)); });
  });
  window.addEventListener('hashchange', function () { go(fromHash(), true); });
  go(fromHash(), true);
})();
";

/// Writes the viewer of `game` as one page.
pub fn write_viewer(out: &mut dyn Write, game: &ViewedGame<'_>) -> io::Result<()> {
    let mut frames = Vec::with_capacity(game.plies.len() + 1);
    let start = Diagram::from(&game.start);
    frames.push(Frame {
        fen: game.start.to_fen(),
        svg: start.svg_pieces(),
        caption: String::new(),
    });
    for p in game.plies {
        let mut d = Diagram::from(&p.after);
        d.last_move = p.squares.clone();
        let dots = if p.second { "..." } else { "." };
        frames.push(Frame {
            fen: p.after.to_fen(),
            svg: d.svg_pieces(),
            caption: format!("{}{dots} {}", p.move_number, p.written),
        });
    }

    page_start(out, game.title, STYLE)?;
    out.write_all(board_frame_symbol().as_bytes())?;
    writeln!(out, "<h1>{}</h1>", Escaped(game.title))?;
    if let Some(tree) = game.tree.filter(|t| !t.tags.is_empty()) {
        out.write_all(b"<table class=\"tags\">\n")?;
        for tag in &tree.tags {
            writeln!(
                out,
                "<tr><th>{}</th><td>{}</td></tr>",
                Escaped(&tag.name),
                Escaped(&tag.value)
            )?;
        }
        out.write_all(b"</table>\n")?;
    }
    let size = start.shape.size();
    write!(
        out,
        "<div class=\"viewer\">\n<div>\n<svg id=\"board\" class=\"board\" data-opens-at=\"{}\" viewBox=\"0 0 {size} {size}\" role=\"img\" aria-label=\"board\">{}<g id=\"pieces\"></g></svg>\n\
         <div class=\"controls\"><button id=\"first\" title=\"start (Home)\">|◀</button><button id=\"prev\" title=\"back (←)\">◀</button>\
         <button id=\"next\" title=\"forward (→)\">▶</button><button id=\"last\" title=\"end (End)\">▶|</button><span id=\"ply-label\"></span></div>\n</div>\n\
         <div class=\"moves\" id=\"moves\">\n",
        game.opens_at,
        crate::html::frame_of(start.shape),
    )?;
    match game.tree {
        Some(tree) => {
            annotations(out, &tree.before_tags)?;
            main_line(out, &tree.moves, game.plies.len())?;
            if let Some(result) = &tree.result {
                write!(
                    out,
                    " <span class=\"result\">{}</span>",
                    Escaped(&result.raw)
                )?;
            }
        }
        None => {
            for (i, p) in game.plies.iter().enumerate() {
                let k = i + 1;
                if !p.second || i == 0 {
                    let dots = if p.second { "..." } else { "." };
                    write!(out, "<span class=\"num\">{}{dots}</span> ", p.move_number)?;
                }
                write!(
                    out,
                    "<a class=\"mv\" data-ply=\"{k}\" href=\"#ply={k}\">{}</a> ",
                    Escaped(&p.written)
                )?;
            }
        }
    }
    out.write_all(b"\n</div>\n</div>\n")?;
    if let Some(why) = &game.stopped {
        writeln!(
            out,
            "<p class=\"stopped\">The main line stops after ply {}: {}</p>",
            game.plies.len(),
            Escaped(why)
        )?;
    }
    writeln!(
        out,
        "<script type=\"application/json\" id=\"positions\">{}</script>",
        script_json(&frames)
    )?;
    page_end(out, SCRIPT)
}

/// The main line: its first `replayed` moves are links to their plies.
fn main_line(out: &mut dyn Write, line: &Line, replayed: usize) -> io::Result<()> {
    for (i, m) in line.moves.iter().enumerate() {
        annotations(out, m.before())?;
        number(out, m, i == 0)?;
        let text = format!("{}{}", m.text, m.strength().unwrap_or(""));
        if i < replayed {
            let k = i + 1;
            write!(
                out,
                "<a class=\"mv\" data-ply=\"{k}\" href=\"#ply={k}\">{}</a> ",
                Escaped(&text)
            )?;
        } else {
            write!(out, "<span class=\"unplayed\">{}</span> ", Escaped(&text))?;
        }
        annotations(out, m.after())?;
    }
    annotations(out, &line.trailing)
}

/// A variation's moves, as text.
fn variation(out: &mut dyn Write, line: &Line) -> io::Result<()> {
    out.write_all(b"<span class=\"variation\">( ")?;
    for (i, m) in line.moves.iter().enumerate() {
        annotations(out, m.before())?;
        number(out, m, i == 0)?;
        write!(
            out,
            "<span class=\"vmv\">{}{}</span> ",
            Escaped(&m.text),
            Escaped(m.strength().unwrap_or(""))
        )?;
        annotations(out, m.after())?;
    }
    annotations(out, &line.trailing)?;
    out.write_all(b")</span> ")
}

/// The move number before a move: before White's, and before Black's when it opens a
/// line.
fn number(out: &mut dyn Write, m: &crate::pdn::Move, first: bool) -> io::Result<()> {
    let Some(n) = m.number else { return Ok(()) };
    match m.side {
        Some(crate::Color::White) => write!(out, "<span class=\"num\">{n}.</span> "),
        Some(crate::Color::Black) if first => write!(out, "<span class=\"num\">{n}...</span> "),
        _ => Ok(()),
    }
}

fn annotations(out: &mut dyn Write, list: &[Annotation]) -> io::Result<()> {
    for a in list {
        match a {
            Annotation::Comment(c) => write!(
                out,
                "<span class=\"comment\">{}</span> ",
                Escaped(c.text.trim())
            )?,
            Annotation::Nag(n) => write!(
                out,
                "<span class=\"nag\" title=\"${n}\">{}</span> ",
                nag_symbol(*n)
            )?,
            Annotation::Variation(line) => variation(out, line)?,
            Annotation::Setup(s) => write!(
                out,
                "<span class=\"setup mono\">/FEN \"{}\"/</span> ",
                Escaped(&s.fen)
            )?,
        }
    }
    Ok(())
}

/// The usual symbol of a NAG (`$1` is `!`), else `$n`.
fn nag_symbol(n: u16) -> String {
    match n {
        1 => "!".into(),
        2 => "?".into(),
        3 => "!!".into(),
        4 => "??".into(),
        5 => "!?".into(),
        6 => "?!".into(),
        n => format!("${n}"),
    }
}
