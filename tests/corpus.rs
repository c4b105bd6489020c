//! Real files from `../shared/corpus` (not shipped with the project). Every test prints a
//! note and passes when the folder is absent.

use pdnkit::check::CheckOptions;
use pdnkit::diag::Severity;
use pdnkit::run::{FileReport, check_reader};
use std::path::{Path, PathBuf};

fn corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("note: {} is absent; corpus test skipped", dir.display());
        None
    }
}

fn check(path: &Path) -> FileReport {
    let file = std::fs::File::open(path).unwrap();
    check_reader(&path.display().to_string(), file, &CheckOptions::default())
}

fn errors(report: &FileReport) -> Vec<String> {
    report
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| {
            format!(
                "game {:?} {}:{} {} {}",
                d.game, d.line, d.column, d.rule.code, d.message
            )
        })
        .collect()
}

#[test]
fn abatsiev_replays_without_a_rule_error_in_both_encodings() {
    let Some(dir) = corpus() else { return };
    let utf8 = check(&dir.join("russian/abatsiev.pdn"));
    let cp1251 = check(&dir.join("russian/abatsiev.cp1251.pdn"));
    assert_eq!(utf8.encoding, Some("UTF-8"));
    assert_eq!(cp1251.encoding, Some("windows-1251"));
    for report in [&utf8, &cp1251] {
        assert_eq!(report.games, 56);
        assert_eq!(errors(report), Vec::<String>::new());
        // the one game of `- -` placeholders is the only one not replayed to its end
        let placeholders: Vec<_> = report
            .diagnostics
            .iter()
            .filter(|d| d.rule.name == "placeholder-move")
            .map(|d| d.game)
            .collect();
        assert_eq!(placeholders.len(), 1);
        let incomplete = report
            .summaries
            .iter()
            .filter(|s| s.status != pdnkit::replay::Status::Complete)
            .count();
        assert_eq!(incomplete, 1);
    }
    // same findings, same places: the encoding changes nothing, but that its guess is said
    let strip = |r: &FileReport| -> Vec<(Option<usize>, usize, usize, &str, String)> {
        r.diagnostics
            .iter()
            .filter(|d| d.rule.code != "E103")
            .map(|d| (d.game, d.line, d.column, d.rule.code, d.message.clone()))
            .collect()
    };
    assert_eq!(strip(&utf8), strip(&cp1251));
    let guessed: Vec<_> = (cp1251.diagnostics.iter())
        .filter(|d| d.rule.code == "E103")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(guessed.len(), 1, "{guessed:?}");
    assert!(guessed[0].contains("read as windows-1251"), "{guessed:?}");
}

#[test]
fn hcheckers_illegal_stubs_are_caught_and_legal_ones_pass() {
    let Some(dir) = corpus() else { return };
    let mut illegal = 0;
    let mut clean = 0;
    for entry in std::fs::read_dir(dir.join("russian/hcheckers-openings")).unwrap() {
        let report = check(&entry.unwrap().path());
        assert_eq!(report.games, 1);
        let errs = errors(&report);
        if errs.is_empty() {
            clean += 1;
        } else {
            assert!(
                report
                    .diagnostics
                    .iter()
                    .all(|d| d.severity != Severity::Error || d.rule.name == "illegal-move"),
                "{errs:?}"
            );
            illegal += 1;
        }
    }
    // PDN.md §5: 353 of the 745 files replay legally (their positions match hcheckers'
    // own FEN files); the other 392 contain moves like `A3-A5`.
    assert_eq!((clean, illegal), (353, 392));
}

#[test]
fn czech_games_fail_a_russian_replay_without_crashing() {
    let Some(dir) = corpus() else { return };
    let report = check(&dir.join("other-variants/czech/mrcd2006.pdn"));
    assert_eq!(report.games, 44);
    let illegal = report
        .diagnostics
        .iter()
        .filter(|d| d.rule.name == "illegal-move")
        .count();
    assert!(illegal >= 30, "only {illegal} illegal moves found");
}

#[test]
fn every_corpus_file_is_checked_without_panic() {
    let Some(dir) = corpus() else { return };
    let mut files = 0;
    for entry in walkdir::WalkDir::new(&dir) {
        let entry = entry.unwrap();
        if entry.file_type().is_file()
            && entry
                .path()
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("pdn"))
        {
            let report = check(entry.path());
            assert!(!report.io_failed, "{}", entry.path().display());
            files += 1;
        }
    }
    assert!(files >= 800, "only {files} corpus files found");
}
