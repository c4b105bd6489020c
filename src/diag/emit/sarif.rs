//! `--format sarif`: one SARIF 2.1.0 document, pretty-printed, streamed result by result
//! (its text up to the list of results first, the rest kept for the end), so that a
//! million findings take no more memory than one.

use super::{Diagnostic, Emitter, Severity};
use std::io::{self, Write};

#[derive(Default)]
pub(super) struct Sarif {
    /// The document's text after its results, once the text before them is written.
    tail: Option<String>,
}

/// The document without results, where it is cut; how deep a result is indented in it
/// (in `runs`, the run, `results`).
const NO_RESULTS: &str = "\"results\": []";
const RESULT_INDENT: &str = "        ";

impl Sarif {
    /// Writes the document up to its list of results (once), keeping the rest.
    fn open(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.tail.is_some() {
            return Ok(());
        }
        let text = serde_json::to_string_pretty(&document())?;
        let cut = text
            .find(NO_RESULTS)
            .map(|at| at + NO_RESULTS.len() - 1)
            .ok_or_else(|| io::Error::other("the SARIF document has no list of results"))?;
        out.write_all(&text.as_bytes()[..cut])?;
        self.tail = Some(text[cut..].to_string());
        Ok(())
    }
}

impl Emitter for Sarif {
    fn begin(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.open(out)
    }

    fn diagnostic(&mut self, out: &mut dyn Write, d: &Diagnostic, first: bool) -> io::Result<()> {
        self.open(out)?;
        let text = serde_json::to_string_pretty(&result(d))?;
        out.write_all(if first { b"\n" } else { b",\n" })?;
        // (a JSON string holds no line break: every line break is the layout's)
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                out.write_all(b"\n")?;
            }
            out.write_all(RESULT_INDENT.as_bytes())?;
            out.write_all(line.as_bytes())?;
        }
        Ok(())
    }

    fn finish(
        &mut self,
        out: &mut dyn Write,
        written: usize,
        _run: &super::RunSummary,
    ) -> io::Result<()> {
        self.open(out)?;
        if written > 0 {
            // the list's closing bracket, on a line of its own
            out.write_all(b"\n")?;
            out.write_all(&RESULT_INDENT.as_bytes()[2..])?;
        }
        let tail = self.tail.take().unwrap_or_default();
        out.write_all(tail.as_bytes())?;
        out.write_all(b"\n")
    }
}

/// The document, with the rule registry and no results.
pub(super) fn document() -> serde_json::Value {
    let rules: Vec<_> = crate::diag::codes::ALL
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

/// One result.
pub(super) fn result(d: &Diagnostic) -> serde_json::Value {
    let level = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    };
    let mut location = serde_json::json!({ "artifactLocation": { "uri": uri(&d.path) } });
    // (a finding about a whole input has no region)
    if d.line > 0 {
        location["region"] = serde_json::json!({ "startLine": d.line, "startColumn": d.column });
    }
    let mut result = serde_json::json!({
        "ruleId": d.rule.code,
        "level": level,
        "message": { "text": format!("{} ({})", d.message, d.rule.name) },
        "locations": [{ "physicalLocation": location }],
    });
    // (SARIF 3.55: a fix's replacements, regions by byte offset in the input as read)
    if let Some(fix) = &d.fix {
        let replacements: Vec<serde_json::Value> = (fix.edits.iter())
            .map(|e| {
                serde_json::json!({
                    "deletedRegion": { "byteOffset": e.start, "byteLength": e.end - e.start },
                    "insertedContent": { "text": e.content },
                })
            })
            .collect();
        result["fixes"] = serde_json::json!([{
            "description": { "text": format!("{} ({} fix)", fix.message, fix.applicability.as_str()) },
            "artifactChanges": [{
                "artifactLocation": { "uri": uri(&d.path) },
                "replacements": replacements,
            }],
        }]);
    }
    result
}

/// The URI reference of a path (RFC 3986): a relative path stays a relative reference,
/// with `/` between its segments; an absolute one becomes a `file:` URI. Every byte but
/// the unreserved characters, the sub-delimiters and `@` is percent-encoded (UTF-8 bytes
/// each), and `:` too in a relative path, whose first segment could otherwise read as a
/// scheme.
pub(super) fn uri(path: &str) -> String {
    // (on Windows `\` separates segments, and `C:\x` is absolute)
    let path = match cfg!(windows) {
        true => path.replace('\\', "/"),
        false => path.to_string(),
    };
    let drive = |p: &str| {
        let b = p.as_bytes();
        b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':'
    };
    let (mut out, rest, colon) =
        if let Some(unc) = path.strip_prefix("//").filter(|_| cfg!(windows)) {
            (String::from("file://"), unc.to_string(), true)
        } else if path.starts_with('/') {
            (String::from("file://"), path, true)
        } else if cfg!(windows) && drive(&path) {
            (String::from("file:///"), path, true)
        } else {
            (String::new(), path, false)
        };
    for &b in rest.as_bytes() {
        let keep =
            b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=@/".contains(&b) || (colon && b == b':');
        if keep {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_percent_encoded_references() {
        assert_eq!(uri("games/a.pdn"), "games/a.pdn");
        assert_eq!(uri("dir/odd, name.pdn"), "dir/odd,%20name.pdn");
        assert_eq!(uri("a,b:c.pdn"), "a,b%3Ac.pdn");
        assert_eq!(uri("50%#1?.pdn"), "50%25%231%3F.pdn");
        assert_eq!(
            uri("партии/é.pdn"),
            "%D0%BF%D0%B0%D1%80%D1%82%D0%B8%D0%B8/%C3%A9.pdn"
        );
        assert_eq!(uri("-"), "-");
        assert_eq!(uri("../up/x.pdn"), "../up/x.pdn");
        if cfg!(unix) {
            assert_eq!(uri("/home/a b/c:d.pdn"), "file:///home/a%20b/c:d.pdn");
            assert_eq!(uri("back\\slash.pdn"), "back%5Cslash.pdn");
        }
    }
    use crate::diag::codes;
    use crate::diag::emit::{Format, Renderer};

    #[test]
    fn the_streamed_document_is_the_whole_document_pretty_printed() {
        let mut one = Diagnostic::new(&codes::ILLEGAL_MOVE, "no piece on c3");
        one.path = "games/a.pdn".into();
        let mut other = Diagnostic::new(&codes::MISSING_TAG, "a \"quoted\"\nmessage\twith breaks");
        other.line = 7;
        for n in [0, 1, 3] {
            let all: Vec<Diagnostic> = (0..n)
                .map(|i| {
                    if i % 2 == 0 {
                        one.clone()
                    } else {
                        other.clone()
                    }
                })
                .collect();
            let mut doc = document();
            doc["runs"][0]["results"] = all.iter().map(result).collect();
            let whole = serde_json::to_string_pretty(&doc).unwrap() + "\n";
            let mut out = Vec::new();
            let mut r = Renderer::new(&mut out, Format::Sarif, false);
            r.begin().unwrap();
            all.iter().for_each(|d| r.diagnostic(d).unwrap());
            r.finish().unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), whole, "{n} results");
        }
    }
}
