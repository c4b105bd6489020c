//! Every output format of `lint`, one snapshot each (insta), of the same findings: the
//! example file's, through the library's emitters. A change of a format shows as a diff
//! of its snapshot in `tests/snapshots/`.

use pdnkit::check::CheckOptions;
use pdnkit::diag::emit::{Format, Renderer};
use pdnkit::diag::{Diagnostic, codes};
use pdnkit::run::check_reader;

/// The findings of `fixtures/example.pdn`, of a game with odd text, and ones made to need
/// escaping.
fn findings() -> Vec<Diagnostic> {
    let example = include_bytes!("../fixtures/example.pdn");
    let mut found = check_reader(
        "fixtures/example.pdn",
        &example[..],
        &CheckOptions::default(),
    )
    .diagnostics;
    let odd =
        "[Event \"a \\\"quoted\\\" name, 50%\"]\n1. c3-d4 {tab\there} d6-c5 2. d4:b6 a7:c5 *\n";
    found.extend(
        check_reader(
            "dir/odd, name.pdn",
            odd.as_bytes(),
            &CheckOptions::default(),
        )
        .diagnostics,
    );
    // fixes: a move number and a separator (safe), an illegal move repaired (unsafe)
    let slips = "[Event \"slips\"]\n1. c3-d4 b6-a5 3. d4-c5 d6:b4 4. a3-c5 *\n\n[Event \"slip\"]\n1. c3-d4 f6-e5 2. d4-c5 g7:e5 *\n";
    let options = CheckOptions {
        report: codes::RuleSet::matching(|r| r.code.starts_with('M')),
        ..CheckOptions::default()
    };
    found.extend(check_reader("slips.pdn", slips.as_bytes(), &options).diagnostics);
    // what the formats must escape: `%`, line breaks, `,` and `:` in a path, quotes
    let mut d = Diagnostic::new(&codes::STRAY_TEXT, "50% \"done\"\nnext\r\tend");
    (d.path, d.line, d.column) = ("a,b:c.pdn".into(), 3, 7);
    found.push(d);
    // a path that is no URI as it is: a space, a letter beyond ASCII, `#` and `%`
    let mut d = Diagnostic::new(&codes::MISSING_TAG, "missing roster tags: Site");
    (d.path, d.line, d.column) = ("parties/partie é #2 100%.pdn".into(), 1, 1);
    found.push(d);
    found
}

fn render(format: Format, diagnostics: &[Diagnostic]) -> String {
    let mut out = Vec::new();
    let mut r = Renderer::new(&mut out, format, false);
    r.begin().unwrap();
    for d in diagnostics {
        r.diagnostic(d).unwrap();
    }
    r.finish().unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn full() {
    insta::assert_snapshot!(render(Format::Full, &findings()));
}

#[test]
fn concise() {
    insta::assert_snapshot!(render(Format::Concise, &findings()));
}

#[test]
fn jsonl() {
    insta::assert_snapshot!(render(Format::JsonLines, &findings()));
}

#[test]
fn json() {
    insta::assert_snapshot!(render(Format::Json, &findings()));
}

#[test]
fn github() {
    insta::assert_snapshot!(render(Format::Github, &findings()));
}

#[test]
fn sarif() {
    insta::assert_snapshot!(render(Format::Sarif, &findings()));
}

/// Without findings, each format is still well formed.
#[test]
fn empty() {
    let all = [
        Format::Full,
        Format::Concise,
        Format::JsonLines,
        Format::Json,
        Format::Github,
        Format::Sarif,
    ]
    .map(|f| format!("{f:?}:\n{}", render(f, &[])))
    .join("\n");
    insta::assert_snapshot!(all);
}

#[test]
fn html() {
    insta::assert_snapshot!(render(Format::Html, &findings()));
}
