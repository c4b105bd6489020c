//! Diagnostics: what pdnkit found, where, and how to show it.
//!
//! A [`Diagnostic`] names a stable [`Rule`] (code + kebab-case name), a
//! severity, a message and a location in a file. The emitters of [`emit`] turn them into
//! text for people (`full`, `concise`) or machines (`jsonl`, `json`, `github`, `sarif`).
//! The library only builds values; the caller decides where they go.

pub mod codes;
pub mod emit;
pub mod fix;

pub use codes::Rule;

use serde::Serialize;
use std::fmt;

/// How serious a finding is (ordered from the most serious: `Error < Warning < Info`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The record is wrong: an illegal move, an impossible result, unreadable text.
    Error,
    /// The record is dubious or breaks a convention.
    Warning,
    /// Worth knowing; nothing is wrong.
    Info,
}

impl Severity {
    /// `error`, `warning` or `info`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The source line a diagnostic points into, kept so that renderers can underline the
/// token without reopening the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snippet {
    /// The whole line, without its line end.
    pub line_text: String,
    /// 1-based column (in characters) where the underline starts.
    pub column: usize,
    /// Width of the underline in characters (at least 1).
    pub width: usize,
}

/// One finding.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// Which kind of finding this is.
    pub rule: &'static Rule,
    /// Severity (normally the rule's default).
    pub severity: Severity,
    /// What exactly is wrong, in words.
    pub message: String,
    /// The file (as given on the command line, `-` for stdin).
    pub path: String,
    /// 1-based index of the game in its file; `None` for file-level findings.
    pub game: Option<usize>,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
    /// 1-based mainline ply the finding concerns, when it concerns a move.
    pub ply: Option<u32>,
    /// The move as written, when it concerns a move.
    pub move_text: Option<String>,
    /// The source line, for rustc-style rendering.
    pub snippet: Option<Snippet>,
    /// The position before the move, for rule errors (the formats for people draw it).
    pub board: Option<crate::rules::AnyPosition>,
    /// Further notes (one per line in `full` output).
    pub notes: Vec<String>,
    /// How to mend it, when pdnkit knows ([`fix`]).
    pub fix: Option<Box<fix::Fix>>,
}

impl Diagnostic {
    /// Where it is: `path:line:column`, or the path alone for a finding about a whole
    /// input (line 0, such as one that could not be read).
    pub fn place(&self) -> String {
        match self.line {
            0 => self.path.clone(),
            line => format!("{}:{line}:{}", self.path, self.column),
        }
    }

    /// A diagnostic of `rule` with the rule's default severity and no location yet.
    pub fn new(rule: &'static Rule, message: impl Into<String>) -> Self {
        Diagnostic {
            rule,
            severity: rule.severity,
            message: message.into(),
            path: String::new(),
            game: None,
            line: 1,
            column: 1,
            ply: None,
            move_text: None,
            snippet: None,
            board: None,
            notes: Vec::new(),
            fix: None,
        }
    }
}

/// Counts of diagnostics by severity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SeverityCounts {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
}

impl SeverityCounts {
    /// Adds one diagnostic of severity `s`.
    pub fn add(&mut self, s: Severity) {
        match s {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
            Severity::Info => self.infos += 1,
        }
    }
}
