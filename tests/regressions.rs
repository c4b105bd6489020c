//! Inputs that once broke pdnkit, found by the fuzz targets (`fuzz/`) or the round-trip
//! properties, kept in `fixtures/regressions/` and replayed through the very fuzz target
//! bodies: `TARGET-what-broke.ext` runs through target TARGET.

#[allow(dead_code)]
#[path = "../fuzz/src/targets.rs"]
mod targets;

use pdnkit::check::CheckOptions;
use pdnkit::run::check_reader;
use std::path::Path;

#[test]
fn saved_fuzz_inputs_pass_their_targets() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/regressions");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let target = name.split('-').next().unwrap();
        let run =
            targets::by_name(target).unwrap_or_else(|| panic!("{name}: no fuzz target {target:?}"));
        let data = std::fs::read(&f).unwrap();
        eprintln!("{name}");
        run(&data);
    }
}

/// Found by the `replay` fuzz target: a UTF-8 BOM skipped the binary check, so a file
/// with NUL bytes was read as text and its converted output was then "not a PDN file".
#[test]
fn utf8_bom_does_not_hide_binary_data() {
    let mut bytes = b"\xef\xbb\xbf[Event \"x\"]\n1. c3-d4 *\n".to_vec();
    bytes.extend_from_slice(b"\0\0\0\0");
    let r = check_reader("bom.pdn", &bytes[..], &CheckOptions::default());
    assert!(
        r.diagnostics.iter().any(|d| d.rule.name == "not-pdn"),
        "{:?}",
        r.diagnostics
    );
    // UTF-16 with its BOM is full of NULs and still text
    let utf16: Vec<u8> = "\u{feff}[Event \"x\"]\n1. c3-d4 *\n"
        .encode_utf16()
        .flat_map(|u| u.to_le_bytes())
        .collect();
    let r = check_reader("utf16.pdn", &utf16[..], &CheckOptions::default());
    assert_eq!(r.games, 1);
    assert!(!r.diagnostics.iter().any(|d| d.rule.name == "not-pdn"));
}

/// Found while testing the unterminated comment at the start of a 1 GB file: a comment
/// before the first game was reported as "comments after the last game".
#[test]
fn a_comment_before_the_first_game_is_not_said_to_be_after_the_last() {
    let text = "{ never closed\n\n[Event \"after\"]\n1. c3-d4 *\n";
    let r = check_reader("c.pdn", text.as_bytes(), &CheckOptions::default());
    let stray: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.rule.name == "stray-text")
        .collect();
    assert_eq!(r.games, 1);
    assert_eq!(stray.len(), 1, "{:?}", r.diagnostics);
    assert!(
        stray[0].message.contains("before the first game"),
        "{}",
        stray[0].message
    );
}
