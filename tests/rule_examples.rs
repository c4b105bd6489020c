//! Every rule's documented example is a test: linting it yields that rule's code, through
//! the library and through `pdnkit rule --json` and `pdnkit lint`.

use assert_cmd::Command;
use pdnkit::check::CheckOptions;
use pdnkit::diag::codes::{self, Rule};
use pdnkit::rules::notation::CaptureStyle;
use pdnkit::run::check_reader;

/// The rules a few lines of text cannot show, and why.
const WITHOUT_EXAMPLE: [(&str, &str); 8] = [
    ("P107", "a game of more than 4 MiB or 20,000 moves"),
    ("P108", "binary bytes"),
    ("P118", "more than a thousand errors in one game"),
    (
        "P199",
        "a reader finding the registry does not name: none today",
    ),
    ("E101", "bytes invalid in the file's encoding"),
    ("E102", "a file that cannot be read"),
    (
        "E103",
        "bytes in a legacy encoding, which a UTF-8 example cannot hold",
    ),
    (
        "E104",
        "bytes in a legacy encoding, which a UTF-8 example cannot hold",
    ),
];

/// The codes linting `text` yields: through the library, or for a finding about the
/// collection (`C`: a game among the others, looked for by `lint --unique`) through the
/// binary.
fn codes_found(code: &str, text: &str) -> Vec<String> {
    if code.starts_with('C') {
        let out = Command::cargo_bin("pdnkit")
            .unwrap()
            .args(["lint", "--unique", "--format", "jsonl", "-q", "-"])
            .write_stdin(text)
            .output()
            .unwrap();
        return String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["code"].to_string())
            .map(|c| c.trim_matches('"').to_string())
            .collect();
    }
    // (a capture's route is looked at only when a capture style is asked for)
    let options = CheckOptions {
        captures: (code == codes::CAPTURE_ROUTE.code).then_some(CaptureStyle::Full),
        ..CheckOptions::default()
    };
    let report = check_reader("example.pdn", text.as_bytes(), &options);
    report
        .diagnostics
        .iter()
        .map(|d| d.rule.code.to_string())
        .collect()
}

#[test]
fn every_example_yields_its_rule() {
    let mut shown = 0;
    for rule in codes::ALL {
        if rule.example.is_empty() {
            assert!(
                WITHOUT_EXAMPLE.iter().any(|(code, _)| *code == rule.code),
                "{} has no example",
                rule.code
            );
            continue;
        }
        let found = codes_found(rule.code, rule.example);
        assert!(
            found.iter().any(|c| c == rule.code),
            "the example of {} {} yields {found:?}:\n{}",
            rule.code,
            rule.name,
            rule.example
        );
        shown += 1;
    }
    assert_eq!(shown + WITHOUT_EXAMPLE.len(), codes::ALL.len());
}

#[test]
fn the_rules_without_example_have_none() {
    for (code, why) in WITHOUT_EXAMPLE {
        let rule: &Rule = codes::find(code).unwrap();
        assert!(rule.example.is_empty(), "{code} ({why}) has an example now");
    }
}

/// `rule --json` and `rule --all --json` give the explanation and the example, and the
/// example given to `lint` yields the rule.
#[test]
fn rule_json_gives_the_example_lint_reports() {
    let out = Command::cargo_bin("pdnkit")
        .unwrap()
        .args(["rule", "--all", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let all: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(all.len(), codes::ALL.len());
    for r in &all {
        assert!(
            r["explanation"].as_str().is_some_and(|e| !e.is_empty()),
            "{r}"
        );
        assert!(r["example"].is_string() || r["example"].is_null(), "{r}");
    }
    for code in ["M106", "P117", "M103"] {
        let out = Command::cargo_bin("pdnkit")
            .unwrap()
            .args(["rule", "--json", code])
            .output()
            .unwrap();
        let rule: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(rule["code"], code);
        let example = rule["example"].as_str().unwrap();
        let lint = Command::cargo_bin("pdnkit")
            .unwrap()
            .args(["lint", "--format", "jsonl", "-q", "-"])
            .write_stdin(example)
            .output()
            .unwrap();
        let text = String::from_utf8(lint.stdout).unwrap();
        assert!(
            text.contains(&format!("\"code\":\"{code}\"")),
            "{code}: {text}"
        );
    }
}
