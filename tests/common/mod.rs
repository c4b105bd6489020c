//! Inputs shared by the integration-test binaries.

/// A game over the reader's 4 MiB limit (about 5 MB of moves, ending `*`), which is
/// skipped with `P107 game-too-large`, followed by an empty line. What comes after it
/// is read as usual.
pub fn game_too_large_to_read() -> String {
    let mut text = String::from("[Event \"huge\"]\n1. ");
    text.push_str(&"c3-d4 d6-c5 ".repeat(420_000));
    text.push_str("*\n\n");
    text
}
