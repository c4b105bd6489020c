//! Renderers: diagnostics as text for people and for machines.
//!
//! A [`Renderer`] is streaming: `begin`, then `diagnostic` for each finding in report
//! order, then `finish`. Every format writes only to the writer it is given.

use super::{Diagnostic, Severity};
use serde::Serialize;
use std::io::{self, Write};

/// Output formats of `pdnkit lint`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// rustc-like: header, source line with a caret under the token, notes, board diagram.
    Full,
    /// One line each: `path:line:col: CODE [severity] message`.
    Concise,
    /// One JSON object per line.
    JsonLines,
    /// One JSON array.
    Json,
    /// GitHub Actions workflow commands (`::error file=…,line=…::…`).
    Github,
    /// SARIF 2.1.0, for code-scanning dashboards.
    Sarif,
}

/// The JSON shape of one diagnostic (the `jsonl`/`json` formats). Field names are stable.
#[derive(Serialize)]
pub struct JsonDiagnostic<'a> {
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

impl<'a> From<&'a Diagnostic> for JsonDiagnostic<'a> {
    fn from(d: &'a Diagnostic) -> Self {
        JsonDiagnostic {
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

/// Streams diagnostics to a writer in one format.
pub struct Renderer<W: Write> {
    out: W,
    format: Format,
    color: bool,
    count: usize,
    /// SARIF is one document, streamed result by result (held whole, it took gigabytes
    /// for a million diagnostics): the text that follows its results, once the text
    /// before them is written.
    sarif_tail: Option<String>,
    /// A diagnostic's JSON, made here before it is written.
    line: Vec<u8>,
}

/// Appends `d` as serde_json serializes it (the field names and order of
/// [`JsonDiagnostic`], no spaces). By hand: most real files have a diagnostic in nearly
/// every game (a missing tag), and serde_json's way, a write to the output for each
/// piece, took 7.9% of `lint --format jsonl` on an archive without tags.
fn push_json(out: &mut Vec<u8>, d: &JsonDiagnostic<'_>) {
    use crate::json_text::{push_number, push_optional_number, push_string};
    out.extend_from_slice(b"{\"path\":");
    push_string(out, d.path);
    out.extend_from_slice(b",\"game\":");
    push_optional_number(out, d.game);
    out.extend_from_slice(b",\"line\":");
    push_number(out, d.line);
    out.extend_from_slice(b",\"column\":");
    push_number(out, d.column);
    out.extend_from_slice(b",\"code\":");
    push_string(out, d.code);
    out.extend_from_slice(b",\"name\":");
    push_string(out, d.name);
    out.extend_from_slice(b",\"severity\":\"");
    out.extend_from_slice(d.severity.as_str().as_bytes());
    out.extend_from_slice(b"\",\"message\":");
    push_string(out, d.message);
    out.extend_from_slice(b",\"ply\":");
    push_optional_number(out, d.ply);
    out.extend_from_slice(b",\"move\":");
    match d.move_text {
        Some(text) => push_string(out, text),
        None => out.extend_from_slice(b"null"),
    }
    out.push(b'}');
}

const RED: &str = "\x1b[1;31m";
const YELLOW: &str = "\x1b[1;33m";
const CYAN: &str = "\x1b[1;36m";
const BLUE: &str = "\x1b[1;34m";
const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";

impl<W: Write> Renderer<W> {
    /// A renderer; `color` adds ANSI colours to the human formats (the caller decides,
    /// normally only when the output is a terminal).
    pub fn new(out: W, format: Format, color: bool) -> Self {
        Renderer {
            out,
            format,
            color,
            count: 0,
            sarif_tail: None,
            line: Vec::new(),
        }
    }

    /// Writes whatever opens the output.
    pub fn begin(&mut self) -> io::Result<()> {
        match self.format {
            Format::Json => self.out.write_all(b"["),
            Format::Sarif => self.sarif_open(),
            _ => Ok(()),
        }
    }

    /// Writes the SARIF document up to its list of results (once), keeping the rest.
    fn sarif_open(&mut self) -> io::Result<()> {
        if self.sarif_tail.is_some() {
            return Ok(());
        }
        let text = serde_json::to_string_pretty(&sarif_document())?;
        // the document with no result, cut inside its empty list
        let cut = text
            .find(SARIF_NO_RESULTS)
            .map(|at| at + SARIF_NO_RESULTS.len() - 1)
            .ok_or_else(|| io::Error::other("the SARIF document has no list of results"))?;
        self.out.write_all(&text.as_bytes()[..cut])?;
        self.sarif_tail = Some(text[cut..].to_string());
        Ok(())
    }

    /// Writes one SARIF result in the list, indented as in the whole document.
    fn sarif(&mut self, d: &Diagnostic) -> io::Result<()> {
        self.sarif_open()?;
        let text = serde_json::to_string_pretty(&sarif_result(d))?;
        self.out
            .write_all(if self.count == 0 { b"\n" } else { b",\n" })?;
        // (a JSON string holds no line break: every line break is the layout's)
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                self.out.write_all(b"\n")?;
            }
            self.out.write_all(SARIF_RESULT_INDENT.as_bytes())?;
            self.out.write_all(line.as_bytes())?;
        }
        Ok(())
    }

    /// Writes one diagnostic.
    pub fn diagnostic(&mut self, d: &Diagnostic) -> io::Result<()> {
        match self.format {
            Format::Full => self.full(d)?,
            Format::Concise => self.concise(d)?,
            Format::JsonLines => {
                self.line.clear();
                push_json(&mut self.line, &JsonDiagnostic::from(d));
                self.line.push(b'\n');
                self.out.write_all(&self.line)?;
            }
            Format::Json => {
                self.line.clear();
                self.line
                    .extend_from_slice(if self.count == 0 { b"\n  " } else { b",\n  " });
                push_json(&mut self.line, &JsonDiagnostic::from(d));
                self.out.write_all(&self.line)?;
            }
            Format::Github => self.github(d)?,
            Format::Sarif => self.sarif(d)?,
        }
        self.count += 1;
        Ok(())
    }

    /// Writes whatever closes the output and flushes.
    pub fn finish(&mut self) -> io::Result<()> {
        match self.format {
            Format::Json => self
                .out
                .write_all(if self.count == 0 { b"]\n" } else { b"\n]\n" })?,
            Format::Sarif => {
                self.sarif_open()?;
                if self.count > 0 {
                    // the list's closing bracket, on a line of its own
                    self.out.write_all(b"\n")?;
                    self.out.write_all(&SARIF_RESULT_INDENT.as_bytes()[2..])?;
                }
                let tail = self.sarif_tail.take().unwrap_or_default();
                self.out.write_all(tail.as_bytes())?;
                self.out.write_all(b"\n")?;
            }
            _ => {}
        }
        self.out.flush()
    }

    fn paint(&self, style: &'static str) -> (&'static str, &'static str) {
        if self.color { (style, RESET) } else { ("", "") }
    }

    fn severity_style(s: Severity) -> &'static str {
        match s {
            Severity::Error => RED,
            Severity::Warning => YELLOW,
            Severity::Info => CYAN,
        }
    }

    fn concise(&mut self, d: &Diagnostic) -> io::Result<()> {
        let (b, r) = self.paint(BOLD);
        let (s, sr) = self.paint(Self::severity_style(d.severity));
        writeln!(
            self.out,
            "{b}{}:{}:{}:{r} {s}{}{sr} [{}] {}",
            d.path, d.line, d.column, d.rule.code, d.severity, d.message
        )
    }

    fn full(&mut self, d: &Diagnostic) -> io::Result<()> {
        let (b, r) = self.paint(BOLD);
        let (s, sr) = self.paint(Self::severity_style(d.severity));
        let (bl, blr) = self.paint(BLUE);
        writeln!(
            self.out,
            "{s}{}[{}]{sr}{b}: {} ({}){r}",
            d.severity, d.rule.code, d.message, d.rule.name
        )?;
        let gutter = d.line.to_string().len();
        let pad = " ".repeat(gutter);
        writeln!(
            self.out,
            "{pad}{bl}-->{blr} {}:{}:{}",
            d.path, d.line, d.column
        )?;
        if let Some(snip) = &d.snippet {
            let text = snip.line_text.replace('\t', " ");
            writeln!(self.out, "{pad} {bl}|{blr}")?;
            writeln!(self.out, "{bl}{}{blr} {bl}|{blr} {}", d.line, text)?;
            writeln!(
                self.out,
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
            writeln!(self.out, "{pad} {bl}={blr} {}", where_.join(", "))?;
        }
        for note in &d.notes {
            writeln!(self.out, "{pad} {bl}={blr} {note}")?;
        }
        if let Some(board) = &d.board {
            writeln!(self.out, "{pad} {bl}={blr} position before the move:")?;
            for line in board.lines() {
                writeln!(self.out, "{pad}     {line}")?;
            }
        }
        writeln!(self.out)
    }

    fn github(&mut self, d: &Diagnostic) -> io::Result<()> {
        let level = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        writeln!(
            self.out,
            "::{level} file={},line={},col={},title={} {}::{}",
            github_property(&d.path),
            d.line,
            d.column,
            github_property(d.rule.code),
            github_property(d.rule.name),
            github_data(&d.message)
        )
    }
}

/// Escapes a GitHub workflow-command property value.
fn github_property(s: &str) -> String {
    github_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// Escapes GitHub workflow-command data.
fn github_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// The SARIF document without results, as [`Renderer::sarif_open`] cuts it; and how deep a
/// result is indented in it (in `runs`, the run, `results`).
const SARIF_NO_RESULTS: &str = "\"results\": []";
const SARIF_RESULT_INDENT: &str = "        ";

fn sarif_document() -> serde_json::Value {
    let rules: Vec<_> = super::codes::ALL
        .iter()
        .map(|r| {
            serde_json::json!({
                "id": r.code,
                "name": r.name,
                "shortDescription": { "text": r.summary },
                "fullDescription": { "text": r.explanation },
            })
        })
        .collect();
    serde_json::json!({
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [{
            "tool": { "driver": {
                "name": "pdnkit",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "results": [],
        }]
    })
}

fn sarif_result(d: &Diagnostic) -> serde_json::Value {
    let level = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    };
    serde_json::json!({
        "ruleId": d.rule.code,
        "level": level,
        "message": { "text": format!("{} ({})", d.message, d.rule.name) },
        "locations": [{
            "physicalLocation": {
                "artifactLocation": { "uri": d.path },
                "region": { "startLine": d.line, "startColumn": d.column },
            }
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::{Snippet, codes};

    fn sample() -> Diagnostic {
        let mut d = Diagnostic::new(&codes::ILLEGAL_MOVE, "no piece on c3");
        d.path = "games/a.pdn".into();
        d.game = Some(2);
        d.line = 12;
        d.column = 4;
        d.ply = Some(3);
        d.move_text = Some("c3-d4".into());
        d.snippet = Some(Snippet {
            line_text: "2. c3-d4 f6-g5".into(),
            column: 4,
            width: 5,
        });
        d
    }

    #[test]
    fn the_json_written_by_hand_is_what_serde_writes() {
        // paths, messages and moves with characters to escape, numbers and nulls, every
        // severity
        let texts = [
            "",
            "a.pdn",
            "dir\\\"q\".pdn",
            "Кубок\t€",
            "c3-d4\n",
            "\u{1}\u{1f}/",
        ];
        let severities = [Severity::Error, Severity::Warning, Severity::Info];
        let mut line = Vec::new();
        for k in 0..600usize {
            let pick = |n: usize| texts[(k / n) % texts.len()];
            let d = JsonDiagnostic {
                path: pick(1),
                game: (k % 4 != 0).then_some(k * 7_919),
                line: k * 31,
                column: k % 97,
                code: "M101",
                name: "illegal-move",
                severity: severities[k % 3],
                message: pick(6),
                ply: (k % 5 != 0).then_some(k as u32),
                move_text: (k % 2 == 0).then(|| pick(36)),
            };
            line.clear();
            push_json(&mut line, &d);
            assert_eq!(
                String::from_utf8_lossy(&line),
                serde_json::to_string(&d).unwrap(),
                "{k}"
            );
        }
    }

    fn render(format: Format, ds: &[Diagnostic]) -> String {
        let mut buf = Vec::new();
        let mut r = Renderer::new(&mut buf, format, false);
        r.begin().unwrap();
        for d in ds {
            r.diagnostic(d).unwrap();
        }
        r.finish().unwrap();
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn concise_is_one_line() {
        assert_eq!(
            render(Format::Concise, &[sample()]),
            "games/a.pdn:12:4: M101 [error] no piece on c3\n"
        );
    }

    #[test]
    fn full_underlines_the_token() {
        let out = render(Format::Full, &[sample()]);
        assert!(out.starts_with("error[M101]: no piece on c3 (illegal-move)\n"));
        assert!(out.contains("  --> games/a.pdn:12:4\n"));
        assert!(out.contains("12 | 2. c3-d4 f6-g5\n"));
        assert!(out.contains("   |    ^^^^^\n"), "{out}");
        assert!(out.contains("= game 2, ply 3, move `c3-d4`"));
    }

    #[test]
    fn jsonl_has_the_stable_fields() {
        let out = render(Format::JsonLines, &[sample()]);
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        for key in [
            "path", "game", "line", "column", "code", "name", "severity", "message", "ply", "move",
        ] {
            assert!(v.get(key).is_some(), "missing {key}");
        }
        assert_eq!(v["name"], "illegal-move");
        assert_eq!(v["move"], "c3-d4");
        assert_eq!(v["severity"], "error");
    }

    #[test]
    fn json_is_an_array_even_when_empty() {
        let empty: serde_json::Value = serde_json::from_str(&render(Format::Json, &[])).unwrap();
        assert_eq!(empty, serde_json::json!([]));
        let two: serde_json::Value =
            serde_json::from_str(&render(Format::Json, &[sample(), sample()])).unwrap();
        assert_eq!(two.as_array().unwrap().len(), 2);
    }

    #[test]
    fn github_escapes_properties() {
        let mut d = sample();
        d.path = "a,b:c.pdn".into();
        d.message = "50% done\nnext".into();
        let out = render(Format::Github, &[d]);
        assert_eq!(
            out,
            "::error file=a%2Cb%3Ac.pdn,line=12,col=4,title=M101 illegal-move::50%25 done%0Anext\n"
        );
    }

    #[test]
    fn sarif_streamed_is_the_whole_document_pretty_printed() {
        let mut other = sample();
        other.rule = &codes::MISSING_TAG;
        other.severity = Severity::Warning;
        other.message = "a \"quoted\"\nmessage\twith breaks".into();
        for n in [0, 1, 3] {
            let all: Vec<Diagnostic> = (0..n)
                .map(|i| if i % 2 == 0 { sample() } else { other.clone() })
                .collect();
            let mut doc = sarif_document();
            doc["runs"][0]["results"] = all.iter().map(sarif_result).collect();
            let whole = serde_json::to_string_pretty(&doc).unwrap() + "\n";
            assert_eq!(render(Format::Sarif, &all), whole, "{n} results");
        }
    }

    #[test]
    fn sarif_is_valid_json_with_rules() {
        let v: serde_json::Value =
            serde_json::from_str(&render(Format::Sarif, &[sample()])).unwrap();
        assert_eq!(v["version"], "2.1.0");
        assert_eq!(v["runs"][0]["results"][0]["ruleId"], "M101");
    }
}
