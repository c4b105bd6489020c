//! The real International, English, Czech and Italian files of
//! `../shared/corpus/other-variants` (not shipped with the project), replayed move by move
//! with the general move generator ([`VariantPosition`]): the main line of every game,
//! from its FEN or the variant's start. Every move that does not replay is listed and
//! compared with the list below, each checked by hand. The test prints a note and passes
//! when the folder is absent.

use pdnkit::pdn::{Game, GameBuilder, Reader, ReaderOptions};
use pdnkit::rules::notation::MoveText;
use pdnkit::rules::{Variant, VariantMove, VariantPosition, VariantResolution};
use std::path::{Path, PathBuf};

fn corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/other-variants");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "note: {} is absent; variant corpus test skipped",
            dir.display()
        );
        None
    }
}

/// The games of a file.
fn games(path: &Path) -> Vec<Game> {
    let file = std::fs::File::open(path).unwrap();
    let mut reader = Reader::new(file, ReaderOptions::default()).unwrap();
    let mut out = Vec::new();
    // (text that is no game is skipped: the reader reports it, not this test)
    while let Some(item) = reader.read_game(&mut GameBuilder::default()) {
        out.extend(item.ok());
    }
    out
}

/// Whether `moves` replay from `pos`, an ambiguous one by any of its readings (an
/// ambiguous move is decided by the rest of its line, as `lint` decides it).
fn replays(pos: &VariantPosition, moves: &[&str]) -> bool {
    let Some((first, rest)) = moves.split_first() else {
        return true;
    };
    let Ok(text) = first.parse::<MoveText>() else {
        return false;
    };
    let candidates = match pos.resolve(&text) {
        VariantResolution::Unique(m) => vec![m],
        VariantResolution::Ambiguous(list) => list,
        VariantResolution::Illegal(_) => return false,
    };
    candidates.iter().any(|m| replays(&pos.after(m), rest))
}

/// The first move of the game's main line that does not replay, as
/// `file #game ply text (why)`; `None` when all do.
fn first_bad_move(name: &str, index: usize, game: &Game, variant: Variant) -> Option<String> {
    let mut pos = match game.tag("FEN") {
        Some(fen) => match VariantPosition::from_fen(fen, variant) {
            Ok(p) => p,
            Err(e) => return Some(format!("{name} #{index} FEN {fen:?}: {e}")),
        },
        None => VariantPosition::start(variant),
    };
    let texts: Vec<&str> = game.moves.moves.iter().map(|m| m.text.as_str()).collect();
    for (ply, text) in texts.iter().enumerate() {
        let bad = |why: &str| Some(format!("{name} #{index} ply {} `{text}`: {why}", ply + 1));
        let Ok(parsed) = text.parse::<MoveText>() else {
            return bad("unreadable");
        };
        let chosen: VariantMove = match pos.resolve(&parsed) {
            VariantResolution::Unique(m) => m,
            VariantResolution::Ambiguous(list) => {
                let rest = &texts[ply + 1..];
                let fitting: Vec<&VariantMove> = list
                    .iter()
                    .filter(|m| replays(&pos.after(m), rest))
                    .collect();
                match fitting[..] {
                    [only] => *only,
                    _ => {
                        let named: Vec<String> = list.iter().map(|m| pos.route_text(m)).collect();
                        return bad(&format!(
                            "could be {}, {} of them fit the rest of the line, in {}",
                            named.join(" or "),
                            fitting.len(),
                            pos.to_fen()
                        ));
                    }
                }
            }
            VariantResolution::Illegal(why) => return bad(&format!("{why} in {}", pos.to_fen())),
        };
        pos.play_unchecked(&chosen);
    }
    None
}

#[test]
fn real_games_of_other_variants_replay() {
    let Some(dir) = corpus() else { return };
    let mut bad = Vec::new();
    let mut counted = (0, 0);
    for (folder, variant) in [
        ("international", Variant::International),
        ("english", Variant::English),
        ("czech", Variant::Czech),
        ("italian", Variant::Italian),
    ] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "pdn"))
            .collect();
        files.sort();
        for path in files {
            let name = format!("{folder}/{}", path.file_name().unwrap().to_string_lossy());
            for (i, game) in games(&path).iter().enumerate() {
                counted.0 += 1;
                counted.1 += game.moves.moves.len();
                if let Some(b) = first_bad_move(&name, i + 1, game, variant) {
                    bad.push(b);
                }
            }
        }
    }
    eprintln!("{} games, {} moves; stopped at:", counted.0, counted.1);
    for b in &bad {
        eprintln!("  {b}");
    }
    assert!(counted.0 > 1000 && counted.1 > 60_000, "{counted:?}");
    let expected = [
        // Black's king went 32-28 at move 60 and has not left 28; nothing stands on 32.
        // The king shuttles 27-32, 32-28, 28-32 from move 47 on: `28-32` is meant.
        "english/tinsley.pdn #541 ply 123 `32-28`: no legal move goes by these squares in B:WK26,K27,K30:B16,K28,K29",
        // The game's last move: the man takes three men either way (6, 14, 22 or 6, 13,
        // 21), equal by every Italian precedence rule, so both are legal and the record
        // does not say which was played.
        "italian/Campionato Assoluto 2005.pdn #46 ply 26 `3x26`: could be 3x10x19x26 or 3x10x17x26, 2 of them fit the rest of the line, in B:W6,13,14,18,21,22,25,30,31:B1,2,3,4,7,9",
    ];
    assert_eq!(bad, expected);
}

/// `pdnkit lint` replays the same files by their variants' rules (`--variant`: the English,
/// Czech and Italian files have no GameType tag) and reports as errors only what is wrong
/// with the records, each checked by hand.
#[test]
fn lint_reports_only_the_errors_of_the_records() {
    let Some(dir) = corpus() else { return };
    let mut errors = Vec::new();
    for variant in ["international", "english", "czech", "italian"] {
        let out = assert_cmd::Command::cargo_bin("pdnkit")
            .unwrap()
            .args([
                "lint",
                "--variant",
                variant,
                "--format",
                "jsonl",
                "--select",
            ])
            .args(["M,R,F,V"])
            .arg(dir.join(variant))
            .output()
            .unwrap();
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let d: serde_json::Value = serde_json::from_str(line).unwrap();
            if d["severity"] == "error" {
                let path = d["path"].as_str().unwrap();
                let file = path.rsplit(['/', '\\']).next().unwrap().to_string();
                errors.push((file, d["game"].as_u64().unwrap(), d["code"].to_string()));
            }
        }
    }
    let expected = [
        // the Result tag says 0-1, the movetext ends with 1/2-1/2
        ("candidate95.pdn", 8, "R101"),
        // `32-28` where `28-32` is meant (see above)
        ("tinsley.pdn", 541, "M101"),
        // `3x26`, two captures equal by every Italian precedence rule (see above)
        ("Campionato Assoluto 2005.pdn", 46, "M102"),
    ];
    let expected: Vec<(String, u64, String)> = (expected.iter())
        .map(|(f, g, c)| (f.to_string(), *g, format!("\"{c}\"")))
        .collect();
    assert_eq!(errors, expected);
}
