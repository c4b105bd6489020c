//! The generator of test and benchmark inputs (tools/gen, `pdnkit-generate`): legal,
//! deterministic, varied games.

use assert_cmd::Command;
use pdnkit::check::CheckOptions;
use pdnkit::run::check_reader;
use pdnkit_gen::{Amount, Generator};

fn pdnkit() -> Command {
    Command::cargo_bin("pdnkit").expect("the pdnkit binary is built")
}

fn generate(seed: u64, games: u64) -> Vec<u8> {
    let mut out = Vec::new();
    Generator::new(seed).write_games(&mut out, games).unwrap();
    out
}

#[test]
fn generated_games_lint_without_errors_or_warnings() {
    let pdn = generate(42, 200);
    let report = check_reader("gen.pdn", &pdn[..], &CheckOptions::default());
    assert_eq!(report.games, 200);
    assert_eq!(report.games_with_errors, 0);
    let serious: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.severity != pdnkit::diag::Severity::Info)
        .map(|d| format!("{}:{} {} {}", d.line, d.column, d.rule.code, d.message))
        .collect();
    assert!(serious.is_empty(), "{serious:#?}");
    // every game replays to its end, 40 plies or more
    assert!(report.summaries.iter().all(|s| s.plies >= 40));
    // the CLI agrees
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gen.pdn");
    std::fs::write(&path, &pdn).unwrap();
    pdnkit()
        .args(["lint", "-q", "--select", "P,M,R,D101,D102,F,E,T"])
        .arg(&path)
        .assert()
        .success();
}

#[test]
fn same_seed_same_bytes_other_seed_other_games() {
    let a = generate(7, 50);
    assert_eq!(a, generate(7, 50));
    assert_ne!(a, generate(8, 50));
    // games made on all cores are the same as one by one, and a size-bounded run is a
    // prefix
    let mut one_by_one = Generator::new(7);
    let games: String = (0..50).map(|_| one_by_one.next_game()).collect();
    assert_eq!(a, games.as_bytes());
    let mut sized = Vec::new();
    Generator::new(7).write_bytes(&mut sized, 20_000).unwrap();
    assert!(sized.len() >= 20_000 && a.starts_with(&sized));
}

#[test]
fn shapes_are_varied() {
    let pdn = String::from_utf8(generate(42, 200)).unwrap();
    // both notations, both capture separators
    assert!(
        pdn.lines()
            .any(|l| l.starts_with("1. ") && l.as_bytes()[3].is_ascii_lowercase())
    );
    assert!(
        pdn.lines()
            .any(|l| l.starts_with("1. ") && l.as_bytes()[3].is_ascii_digit())
    );
    assert!(pdn.contains(':') && pdn.contains('x'));
    // comments, variations
    assert!(pdn.contains('{') && pdn.contains('('));
    // every kind of result
    for r in ["1-0", "0-1", "1/2-1/2"] {
        assert!(pdn.contains(&format!("[Result \"{r}\"]")), "{r}");
    }
    // draws by a rule of the russia edition, and games with kings
    let report = check_reader("gen.pdn", pdn.as_bytes(), &CheckOptions::default());
    let rule_draws = report
        .summaries
        .iter()
        .filter(|s| matches!(s.draw_basis, Some(pdnkit::draw::DrawBasis::Rule { .. })))
        .count();
    assert!(rule_draws >= 2, "{rule_draws} draws by rule");
}

#[test]
fn games_spread_over_files_are_the_games_of_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("many");
    Generator::new(3)
        .write_files(&out, 4, Amount::Games(30))
        .unwrap();
    let mut all = Vec::new();
    for i in 0..4 {
        all.extend(std::fs::read(out.join(format!("{i:04}.pdn"))).unwrap());
    }
    assert_eq!(all, generate(3, 30));
}
