//! Data-driven check of the move generator against `../shared/rules-cases/movegen/*.json`
//! (positions with their complete lists of legal moves, verified by three implementations).
//! Skips with a note when the folder is absent (e.g. in a published crate).

use std::collections::BTreeSet;
use std::path::Path;

use pdnkit::rules::fen::Setup;
use pdnkit::rules::notation::{
    CaptureSeparator, CaptureStyle, Resolution, SquareStyle, Style, format_move, resolve,
};
use pdnkit::rules::{FenStyle, Position};
use serde::Deserialize;

#[derive(Deserialize)]
struct Case {
    id: String,
    fen: String,
    fen_numeric: String,
    moves: Vec<ExpectedMove>,
    ambiguous_from_to: Vec<String>,
}

#[derive(Deserialize)]
struct ExpectedMove {
    notation: String,
    captured: Vec<String>,
    promotes: bool,
    paths: Vec<String>,
    result_fen: String,
}

fn position(fen: &str) -> Position {
    let setup: Setup = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
    Position::from_setup(&setup).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

const SHORT: Style = Style {
    squares: SquareStyle::Algebraic,
    captures: CaptureStyle::Short,
    separator: CaptureSeparator::Cross,
};

#[test]
fn movegen_cases() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/rules-cases/movegen");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!(
            "note: {} not found, skipping the movegen cases",
            dir.display()
        );
        return;
    };
    let mut files: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    files.retain(|p| p.extension().is_some_and(|x| x == "json"));
    files.sort();
    assert!(!files.is_empty(), "no cases in {}", dir.display());
    eprintln!("checking {} movegen cases", files.len());

    for file in &files {
        let case: Case = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        let pos = position(&case.fen);
        assert_eq!(position(&case.fen_numeric), pos, "{}: numeric FEN", case.id);
        assert_eq!(
            pos.to_fen(FenStyle::Algebraic),
            case.fen,
            "{}: FEN output",
            case.id
        );

        // (notation, captured, promotes, result FEN) and routes, as sets.
        type Key = (String, Vec<String>, bool, String);
        let mut expected: BTreeSet<Key> = BTreeSet::new();
        let mut expected_routes: BTreeSet<(Key, String)> = BTreeSet::new();
        for m in &case.moves {
            let mut captured = m.captured.clone();
            captured.sort();
            let key = (
                m.notation.clone(),
                captured,
                m.promotes,
                m.result_fen.clone(),
            );
            for p in &m.paths {
                expected_routes.insert((key.clone(), p.clone()));
            }
            assert!(expected.insert(key), "{}: duplicate expected move", case.id);
        }

        let legal = pos.legal_moves();
        assert!(!legal.is_truncated());
        let mut actual: BTreeSet<Key> = BTreeSet::new();
        let mut actual_routes: BTreeSet<(Key, String)> = BTreeSet::new();
        for m in legal.iter() {
            let mut captured: Vec<String> = m.captured().map(|s| s.to_string()).collect();
            captured.sort();
            let key = (
                format_move(&pos, m, SHORT),
                captured,
                m.promotes(),
                pos.after(m).to_fen(FenStyle::Algebraic),
            );
            for r in pos.routes(m) {
                let sep = if m.is_capture() { "x" } else { "-" };
                let path = r
                    .squares()
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(sep);
                actual_routes.insert((key.clone(), path));
            }
            assert!(
                actual.insert(key),
                "{}: move generated twice: {m:?}",
                case.id
            );

            // The full and minimal forms read back as the move, except for a capture with a
            // single landing whose short form another capture shares (case 07: `f4xh2`
            // taking g3 alone has nothing to add; RULES.md §3 resolves it from the rest of
            // the game).
            for captures in [CaptureStyle::Full, CaptureStyle::Minimal] {
                let written = format_move(&pos, m, Style { captures, ..SHORT });
                match resolve(&pos, &written.parse().unwrap()) {
                    Resolution::Unique { mv, .. } => assert_eq!(mv, *m, "{}: {written}", case.id),
                    Resolution::Ambiguous(c) => {
                        assert!(c.contains(m), "{}: {written}", case.id);
                        assert!(
                            pos.routes(m).iter().any(|r| r.squares().len() == 2),
                            "{}: {written}",
                            case.id
                        );
                    }
                    other => panic!("{}: {written} -> {other:?}", case.id),
                }
            }
        }
        assert_eq!(actual, expected, "{}: moves", case.id);
        assert_eq!(actual_routes, expected_routes, "{}: routes", case.id);

        // Short notations shared by several distinct moves, and the resolver agrees.
        let mut seen = BTreeSet::new();
        let mut ambiguous = BTreeSet::new();
        for (notation, ..) in &actual {
            if !seen.insert(notation.clone()) {
                ambiguous.insert(notation.clone());
            }
        }
        let expected_ambiguous: BTreeSet<String> = case.ambiguous_from_to.iter().cloned().collect();
        assert_eq!(
            ambiguous, expected_ambiguous,
            "{}: ambiguous short notations",
            case.id
        );
        for notation in &seen {
            let r = resolve(&pos, &notation.parse().unwrap());
            let is_ambiguous = matches!(r, Resolution::Ambiguous(_));
            assert_eq!(
                is_ambiguous,
                ambiguous.contains(notation),
                "{}: {notation} -> {r:?}",
                case.id
            );
        }
    }
}
