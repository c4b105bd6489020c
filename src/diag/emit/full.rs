//! `--format full`, like rustc: the finding, `path:line:column`, the source line with a
//! caret under the token, where it is (game, ply, move), the notes, and for a rule error
//! the board before the move.

use super::{Diagnostic, Emitter, Paint};
use std::io::{self, Write};

pub(super) struct Full(pub(super) Paint);

impl Emitter for Full {
    fn diagnostic(&mut self, out: &mut dyn Write, d: &Diagnostic, _first: bool) -> io::Result<()> {
        let (b, r) = self.0.style(Paint::BOLD);
        let (s, sr) = self.0.severity(d.severity);
        let (bl, blr) = self.0.style(Paint::BLUE);
        writeln!(
            out,
            "{s}{}[{}]{sr}{b}: {} ({}){r}",
            d.severity, d.rule.code, d.message, d.rule.name
        )?;
        let pad = " ".repeat(d.line.to_string().len());
        writeln!(out, "{pad}{bl}-->{blr} {}", d.place())?;
        if let Some(snip) = &d.snippet {
            let text = snip.line_text.replace('\t', " ");
            writeln!(out, "{pad} {bl}|{blr}")?;
            writeln!(out, "{bl}{}{blr} {bl}|{blr} {}", d.line, text)?;
            writeln!(
                out,
                "{pad} {bl}|{blr} {}{s}{}{sr}",
                " ".repeat(snip.column.saturating_sub(1)),
                "^".repeat(snip.width.max(1))
            )?;
        }
        let mut where_ = Vec::new();
        if let Some(g) = d.game {
            where_.push(format!("game {g}"));
        }
        if let Some(p) = d.ply {
            where_.push(format!("ply {p}"));
        }
        if let Some(m) = &d.move_text {
            where_.push(format!("move `{m}`"));
        }
        if !where_.is_empty() {
            writeln!(out, "{pad} {bl}={blr} {}", where_.join(", "))?;
        }
        for note in &d.notes {
            writeln!(out, "{pad} {bl}={blr} {note}")?;
        }
        if let Some(fix) = &d.fix {
            let (g, gr) = self.0.style(Paint::BOLD);
            writeln!(
                out,
                "{pad} {bl}={blr} {g}help{gr}: {} ({} fix)",
                fix.message,
                fix.applicability.as_str()
            )?;
        }
        if let Some(board) = &d.board {
            writeln!(out, "{pad} {bl}={blr} position before the move:")?;
            for line in crate::diagram::Diagram::from(board).ascii().lines() {
                writeln!(out, "{pad}     {line}")?;
            }
        }
        writeln!(out)
    }
}
