//! `--format concise`: `path:line:col: CODE [severity] message`, one line each.

use super::{Diagnostic, Emitter, Paint};
use std::io::{self, Write};

pub(super) struct Concise(pub(super) Paint);

impl Emitter for Concise {
    fn diagnostic(&mut self, out: &mut dyn Write, d: &Diagnostic, _first: bool) -> io::Result<()> {
        let (b, r) = self.0.style(Paint::BOLD);
        let (s, sr) = self.0.severity(d.severity);
        writeln!(
            out,
            "{b}{}:{r} {s}{}{sr} [{}] {}",
            d.place(),
            d.rule.code,
            d.severity,
            d.message
        )
    }
}
