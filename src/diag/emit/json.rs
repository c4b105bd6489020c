//! `--format jsonl` (one object a line) and `--format json` (one array): each diagnostic
//! as [`JsonDiagnostic`], written by serde_json into a buffer kept between diagnostics.

use super::{Diagnostic, Emitter, Severity};
use serde::Serialize;
use std::io::{self, Write};

/// The JSON shape of one diagnostic (`schemas/diagnostic.schema.json`). Field names and
/// their order are stable.
#[derive(Serialize)]
pub struct JsonDiagnostic<'a> {
    /// `pdnkit-diagnostic/1`.
    pub schema: &'static str,
    pub path: &'a str,
    pub game: Option<usize>,
    pub line: usize,
    pub column: usize,
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub message: &'a str,
    pub ply: Option<u32>,
    #[serde(rename = "move")]
    pub move_text: Option<&'a str>,
}

/// The schema and version of a diagnostic's JSON.
pub const DIAGNOSTIC_SCHEMA: &str = "pdnkit-diagnostic/1";

impl<'a> From<&'a Diagnostic> for JsonDiagnostic<'a> {
    fn from(d: &'a Diagnostic) -> Self {
        JsonDiagnostic {
            schema: DIAGNOSTIC_SCHEMA,
            path: &d.path,
            game: d.game,
            line: d.line,
            column: d.column,
            code: d.rule.code,
            name: d.rule.name,
            severity: d.severity,
            message: &d.message,
            ply: d.ply,
            move_text: d.move_text.as_deref(),
        }
    }
}

/// `d` after `before`, then `after`, written to `out` in one piece.
fn write_json(
    buf: &mut Vec<u8>,
    out: &mut dyn Write,
    before: &[u8],
    d: &Diagnostic,
    after: &[u8],
) -> io::Result<()> {
    buf.clear();
    buf.extend_from_slice(before);
    serde_json::to_writer(&mut *buf, &JsonDiagnostic::from(d))?;
    buf.extend_from_slice(after);
    out.write_all(buf)
}

#[derive(Default)]
pub(super) struct JsonLines(Vec<u8>);

impl Emitter for JsonLines {
    fn diagnostic(&mut self, out: &mut dyn Write, d: &Diagnostic, _first: bool) -> io::Result<()> {
        write_json(&mut self.0, out, b"", d, b"\n")
    }
}

#[derive(Default)]
pub(super) struct JsonArray(Vec<u8>);

impl Emitter for JsonArray {
    fn begin(&mut self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(b"[")
    }

    fn diagnostic(&mut self, out: &mut dyn Write, d: &Diagnostic, first: bool) -> io::Result<()> {
        let before: &[u8] = if first { b"\n  " } else { b",\n  " };
        write_json(&mut self.0, out, before, d, b"")
    }

    fn finish(&mut self, out: &mut dyn Write, written: usize) -> io::Result<()> {
        out.write_all(if written == 0 { b"]\n" } else { b"\n]\n" })
    }
}
