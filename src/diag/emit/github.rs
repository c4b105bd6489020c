//! `--format github`: GitHub Actions workflow commands
//! (`::error file=…,line=…,col=…,title=CODE name::message`).

use super::{Diagnostic, Emitter, Severity};
use std::io::{self, Write};

pub(super) struct Github;

impl Emitter for Github {
    fn diagnostic(&mut self, out: &mut dyn Write, d: &Diagnostic, _first: bool) -> io::Result<()> {
        let level = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        // (a finding about a whole input has no line)
        let place = match d.line {
            0 => String::new(),
            line => format!(",line={line},col={}", d.column),
        };
        writeln!(
            out,
            "::{level} file={}{place},title={} {}::{}",
            property(&d.path),
            property(d.rule.code),
            property(d.rule.name),
            data(&d.message)
        )
    }
}

/// Escapes a workflow-command property value.
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

/// Escapes workflow-command data.
fn data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}
