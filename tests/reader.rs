//! Integration tests of the PDN reader and writer: the shared corpus, encodings, recovery
//! fixtures, positions, and a round-trip property.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use encoding_rs::{Encoding, IBM866, KOI8_R, UTF_8, WINDOWS_1251};
use pdnkit::pdn::writer::tags_in_writing_order;
use pdnkit::pdn::{
    Game, GameBuilder, GameSource, Position, ReadError, Reader, ReaderOptions,
    SyntaxErrorKind as K, WriteOptions, game_to_string,
};
use proptest::prelude::*;

fn corpus() -> Option<PathBuf> {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus"));
    if root.is_dir() {
        Some(root.to_path_buf())
    } else {
        eprintln!("note: {} is absent; corpus tests skipped", root.display());
        None
    }
}

/// A game read: its text and place, and its tree.
#[derive(Debug)]
struct RawGame {
    index: u64,
    text: String,
    start: Position,
    stray_prefix: usize,
    game: Game,
}

impl RawGame {
    fn source(&self) -> GameSource<'_> {
        GameSource {
            index: self.index,
            text: &self.text,
            start: self.start,
            offset: 0,
            stray_prefix: self.stray_prefix,
        }
    }

    fn position(&self, at: usize) -> Position {
        self.source().position(at)
    }

    fn to_game(&self) -> Game {
        self.game.clone()
    }
}

/// Every item of `input`.
fn read_with(
    input: impl std::io::Read,
    options: ReaderOptions,
) -> (Vec<Result<RawGame, ReadError>>, &'static Encoding) {
    let mut reader = Reader::new(input, options).unwrap();
    let mut builder = GameBuilder::default();
    let mut items = Vec::new();
    while let Some(item) = reader.read_game(&mut builder) {
        items.push(item.map(|game| {
            let g = reader.game();
            RawGame {
                index: g.index,
                text: g.text.to_string(),
                start: g.start,
                stray_prefix: g.stray_prefix,
                game,
            }
        }));
    }
    (items, reader.encoding())
}

fn read_bytes(
    bytes: &[u8],
    encoding: Option<&'static Encoding>,
) -> (Vec<Result<RawGame, ReadError>>, &'static Encoding) {
    let options = ReaderOptions {
        encoding,
        ..ReaderOptions::default()
    };
    read_with(bytes, options)
}

fn games(bytes: &[u8]) -> Vec<RawGame> {
    read_bytes(bytes, None)
        .0
        .into_iter()
        .map(|r| r.expect("no read error"))
        .collect()
}

fn pdn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            pdn_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "pdn") {
            out.push(p);
        }
    }
}

/// Every corpus file parses without panic; the Russian files hold the number of games a
/// person counts by reading them.
#[test]
fn corpus_game_counts() {
    let Some(root) = corpus() else { return };
    // Counted by hand. The shashkispark files that begin with `3`, `1`, `[Ident "a"]` and
    // a line of moves hold two games: the `[Ident]` one (its moves end at the next tag
    // line) and the main one; the `3`/`1` lines are stray text, not games.
    let mut expected: BTreeMap<&str, usize> = BTreeMap::from([
        ("russian/abatsiev.pdn", 56),
        ("russian/abatsiev.cp1251.pdn", 56),
        ("russian/shashkispark-fixtures/generated.pdn", 0),
        ("russian/shashkispark-fixtures/notation_undo1.pdn", 2),
        ("russian/shashkispark-fixtures/notation_undo3.pdn", 2),
        ("russian/shashkispark-fixtures/notation_variant1.pdn", 2),
        (
            "russian/shashkispark-fixtures/notation_variant_nested.pdn",
            2,
        ),
        (
            "russian/shashkispark-fixtures/notation_variant_with_forward_move1.pdn",
            2,
        ),
        (
            "russian/shashkispark-fixtures/notation_variant_with_forward_move2.pdn",
            2,
        ),
        (
            "russian/shashkispark-fixtures/notation_variant_with_one_drive_and_one_move.pdn",
            2,
        ),
        (
            "russian/shashkispark-fixtures/notation_variant_with_one_drive_and_two_move.pdn",
            2,
        ),
        (
            "russian/shashkispark-fixtures/notation_variant_with_one_move.pdn",
            2,
        ),
        (
            "russian/shashkispark-fixtures/notation_variant_with_two_move.pdn",
            2,
        ),
        ("other-variants/international/Mini.pdn", 6),
        ("other-variants/international/test.pdn", 2),
        ("other-variants/english/tinsley.pdn", 724),
        ("other-variants/czech/mrcd2006.pdn", 44),
        ("other-variants/italian/Campionato Assoluto 2005.pdn", 53),
        ("other-variants/pdn-grammar/fen.pdn", 3),
    ]);
    // the other 16 shashkispark fixtures hold one game each
    for f in [
        "example",
        "example_multivariants1",
        "example_multivariants2",
        "example_multivariants3",
        "fork_1",
        "fork_1_3",
        "fork_inter_1",
        "fork_inter_1_3",
        "generated_here_1",
        "notation2",
        "notation_comment",
        "notation_error1",
        "notation_simple",
        "notation_strength",
        "notation_undo2",
        "notation_variant",
    ] {
        let path: &'static str =
            Box::leak(format!("russian/shashkispark-fixtures/{f}.pdn").into_boxed_str());
        expected.insert(path, 1);
    }
    let mut files = Vec::new();
    pdn_files(&root, &mut files);
    files.sort();
    let (mut hcheckers, mut checked) = (0, 0);
    for file in &files {
        let rel = file
            .strip_prefix(&root)
            .unwrap()
            .to_str()
            .unwrap()
            .replace('\\', "/");
        let bytes = std::fs::read(file).unwrap();
        let (items, _) = read_bytes(&bytes, None);
        let mut count = 0;
        for item in &items {
            match item {
                Ok(raw) => {
                    count += 1;
                    let game = raw.to_game();
                    for e in &game.errors {
                        assert!(
                            e.span.start <= e.span.end && e.span.end <= raw.text.len(),
                            "{rel}: {e:?}"
                        );
                    }
                }
                Err(e) => panic!("{rel}: {e}"),
            }
        }
        if rel.starts_with("russian/hcheckers-openings/") {
            assert_eq!(count, 1, "{rel}");
            hcheckers += 1;
        } else if let Some(&n) = expected.get(rel.as_str()) {
            assert_eq!(count, n, "{rel}");
            checked += 1;
        }
    }
    assert_eq!(hcheckers, 745);
    assert_eq!(checked, expected.len());
}

#[test]
fn corpus_errors_are_the_expected_ones() {
    let Some(root) = corpus() else { return };
    let kinds = |rel: &str| -> Vec<K> {
        let bytes = std::fs::read(root.join(rel)).unwrap();
        games(&bytes)
            .iter()
            .flat_map(|g| g.to_game().errors)
            .map(|e| e.kind)
            .filter(|k| *k != K::MissingTerminator)
            .collect()
    };
    assert_eq!(
        kinds("other-variants/pdn-grammar/nested_comment.pdn"),
        vec![K::NestedComment, K::UnexpectedToken]
    );
    assert_eq!(kinds("russian/abatsiev.pdn"), vec![]);
    assert_eq!(
        kinds("russian/shashkispark-fixtures/notation_undo1.pdn"),
        vec![K::StrayText]
    );
    for f in [
        "example.pdn",
        "example_multivariants3.pdn",
        "generated_here_1.pdn",
        "notation_strength.pdn",
    ] {
        assert_eq!(
            kinds(&format!("russian/shashkispark-fixtures/{f}")),
            vec![],
            "{f}"
        );
    }
}

#[test]
fn abatsiev_cp1251_decodes_to_the_utf8_text() {
    let Some(root) = corpus() else { return };
    let utf8 = std::fs::read(root.join("russian/abatsiev.pdn")).unwrap();
    let cp1251 = std::fs::read(root.join("russian/abatsiev.cp1251.pdn")).unwrap();
    let (a, ea) = read_bytes(&utf8, None);
    let (b, eb) = read_bytes(&cp1251, None);
    assert_eq!((ea, eb), (UTF_8, WINDOWS_1251));
    assert_eq!(a.len(), 56);
    assert_eq!(a.len(), b.len());
    for (a, b) in a.iter().zip(&b) {
        let (a, b) = (a.as_ref().unwrap().to_game(), b.as_ref().unwrap().to_game());
        assert_eq!(a.tags, b.tags);
        assert_eq!(a.moves, b.moves);
    }
    let first = a[0].as_ref().unwrap().to_game();
    assert_eq!(first.tag("White"), Some("Абаулин В."));
    // the `- -` placeholder game
    let placeholder = a
        .iter()
        .map(|g| g.as_ref().unwrap().to_game())
        .find(|g| g.moves.moves.iter().any(|m| m.text == "- -"));
    assert!(placeholder.is_some());
}

#[test]
fn corpus_round_trips_through_the_writer() {
    let Some(root) = corpus() else { return };
    for rel in [
        "russian/abatsiev.pdn",
        "other-variants/international/nk ronde 01.pdn",
        "russian/shashkispark-fixtures/example_multivariants3.pdn",
    ] {
        let bytes = std::fs::read(root.join(rel)).unwrap();
        for raw in games(&bytes) {
            let g = raw.to_game();
            assert_round_trip(&g);
        }
    }
}

const RUSSIAN: &str = "[Event \"Чемпионат СССР\"]\r\n[White \"Абациев В.\"]\r\n[Black \"Хохлов Е.\"]\r\n\r\n1. c3-d4 f6-g5 {Хорошо} 2. b2-c3 1-0\r\n";

#[test]
fn legacy_encodings_and_utf16() {
    for enc in [WINDOWS_1251, IBM866, KOI8_R] {
        let (bytes, _, _) = enc.encode(RUSSIAN);
        let (items, used) = read_bytes(&bytes, None);
        assert_eq!(used, enc);
        let g = items[0].as_ref().unwrap().to_game();
        assert_eq!(g.tag("Black"), Some("Хохлов Е."), "{}", enc.name());
        assert!(g.errors.is_empty());
    }
    // CP866 byte 0x85 is `Е`, not a NEL line break: positions after it are unchanged
    let (bytes, _, _) = IBM866.encode(RUSSIAN);
    assert!(bytes.contains(&0x85));
    let raw = &games(&bytes)[0];
    let g = raw.to_game();
    assert_eq!(
        raw.position(g.moves.moves[0].span.start),
        Position { line: 5, column: 4 }
    );
    // UTF-16 with BOM, both byte orders
    for le in [true, false] {
        let mut bytes = if le {
            vec![0xff, 0xfe]
        } else {
            vec![0xfe, 0xff]
        };
        for u in RUSSIAN.encode_utf16() {
            bytes.extend(if le { u.to_le_bytes() } else { u.to_be_bytes() });
        }
        let mut reader = Reader::new(&bytes[..], ReaderOptions::default()).unwrap();
        let g = reader
            .read_game(&mut GameBuilder::default())
            .unwrap()
            .unwrap();
        assert_eq!(g.tag("White"), Some("Абациев В."));
    }
    // an override skips detection
    let (bytes, _, _) = KOI8_R.encode(RUSSIAN);
    let (items, used) = read_bytes(&bytes, Some(KOI8_R));
    assert_eq!(used, KOI8_R);
    assert_eq!(
        items[0].as_ref().unwrap().to_game().tag("Event"),
        Some("Чемпионат СССР")
    );
}

#[test]
fn bytes_that_do_not_decode_are_reported() {
    // valid UTF-8 prefix, a bad byte far after it: replaced and reported in that game
    let mut bytes = "[Event \"x\"]\n1. c3-d4 *\n".repeat(20_000).into_bytes();
    bytes.extend(b"[Event \"bad \xff\"]\n1. c3-d4 *\n");
    let all = games(&bytes);
    let last = all.last().unwrap().to_game();
    assert_eq!(last.errors[0].kind, K::DecodingReplaced);
    assert!(all[0].to_game().errors.is_empty());
}

#[test]
fn line_ends_crlf_cr_lf_and_columns() {
    for nl in ["\n", "\r\n", "\r"] {
        let text =
            format!("[Event \"é\"]{nl}{nl}1. c3-d4 zz{nl}2. b2-c3 *{nl}[Event \"2\"]{nl}\tÿ 1-0");
        let all = games(text.as_bytes());
        assert_eq!(all.len(), 2);
        let g = all[0].to_game();
        let e = &g.errors[0];
        assert_eq!(
            (e.kind, all[0].position(e.span.start)),
            (
                K::UnexpectedToken,
                Position {
                    line: 3,
                    column: 10
                }
            )
        );
        let g2 = all[1].to_game();
        assert_eq!(all[1].start, Position { line: 5, column: 1 });
        assert_eq!(
            all[1].position(g2.errors[0].span.start),
            Position { line: 6, column: 2 }
        );
    }
}

#[test]
fn a_missing_result_is_located_where_the_game_ends() {
    // after the game's last token or tag, not after the blank lines that follow it: on the
    // next game's first line it would read as that game having no result
    let text = "[Event \"a\"]\n[White \"X\"]\n\n[Event \"b\"]\n1. c3-d4 f6-g5\n\n\n[Event \"c\"]\n";
    let found: Vec<(u64, Vec<(u64, u64)>)> = games(text.as_bytes())
        .iter()
        .map(|raw| {
            let errors = raw.to_game().errors;
            let missing = errors.iter().filter(|e| e.kind == K::MissingTerminator);
            let at = missing
                .map(|e| raw.position(e.span.start))
                .map(|p| (p.line, p.column));
            (raw.index, at.collect())
        })
        .collect();
    assert_eq!(
        found,
        [(1, vec![(2, 12)]), (2, vec![(5, 15)]), (3, vec![(8, 12)])]
    );
}

#[test]
fn recovery_fixture() {
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/reader/recovery.pdn"
    ))
    .unwrap();
    let all = games(&bytes);
    assert_eq!(all.len(), 3);
    let summary: Vec<Vec<(K, u64, u64)>> = all
        .iter()
        .map(|raw| {
            raw.to_game()
                .errors
                .iter()
                .map(|e| {
                    let p = raw.position(e.span.start);
                    (e.kind, p.line, p.column)
                })
                .collect()
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            vec![
                (K::StrayText, 1, 1),
                (K::UnterminatedString, 3, 1),
                (K::MalformedTag, 4, 1),
                (K::UnbalancedVariation, 7, 16),
                (K::UnterminatedComment, 7, 27),
                (K::MissingTerminator, 7, 40),
            ],
            vec![
                (K::UnbalancedVariation, 9, 10),
                (K::ResultInVariation, 9, 24),
                (K::MissingTerminator, 9, 27)
            ],
            vec![
                (K::InvalidNag, 11, 10),
                (K::UnexpectedToken, 11, 12),
                (K::InvalidNag, 11, 15),
                (K::MalformedSetup, 11, 22),
                (K::UnexpectedToken, 11, 27),
            ],
        ]
    );
    let first = all[0].to_game();
    assert_eq!(first.tag("White"), Some("A"));
    assert_eq!(first.tag("Black"), Some("B"));
    assert_eq!(first.tag("Site"), Some("unterminated]"));
}

#[test]
fn not_pdn_and_empty_input() {
    let (items, _) = read_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00binary", None);
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].as_ref().unwrap_err().kind(), Some(K::NotPdn));
    assert!(read_bytes(b"", None).0.is_empty());
    assert!(read_bytes(b"\r\n\r\n", None).0.is_empty());
}

#[test]
fn arbitrary_bytes_never_panic() {
    // a deterministic sweep of nasty inputs; the proptest below adds random ones
    let nasty: [&[u8]; 10] = [
        b"[",
        b"[\"",
        b"{",
        b"(",
        b")",
        b"[A \"\\",
        b"1.",
        b"/FEN \"",
        b"$",
        b"\xff\xfe\x00",
    ];
    for n in nasty {
        for k in 1..4 {
            let bytes = n.repeat(k);
            for raw in read_bytes(&bytes, None).0.into_iter().flatten() {
                let _ = game_to_string(&raw.to_game(), &WriteOptions::default());
            }
        }
    }
}

/// Writes the game, reads it again, and checks that nothing changed.
fn assert_round_trip(g: &Game) {
    let written = game_to_string(g, &WriteOptions::default());
    let all = games(written.as_bytes());
    assert_eq!(all.len(), 1, "{written}");
    let mut again = all[0].to_game();
    let mut expected = g.clone();
    expected.normalize();
    expected.tags = tags_in_writing_order(&expected.tags)
        .into_iter()
        .cloned()
        .collect();
    again.normalize();
    if expected.result.is_none() {
        expected.result = again.result.clone().filter(|r| r.raw == "*");
    }
    assert_eq!(expected.tags, again.tags, "{written}");
    assert_eq!(expected.moves, again.moves, "{written}");
    assert_eq!(expected.result, again.result, "{written}");
    assert!(
        written
            .lines()
            .all(|l| l.chars().count() <= 80 || !l.contains(' ')),
        "{written}"
    );
}

fn tag_text() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec![
            "Event", "Site", "Date", "Round", "White", "Black", "Result", "Opening", "GameType",
            "FEN", "Bianco", "setup",
        ]),
        "[a-zA-Zа-яА-Я0-9 .,'\"\\\\/-]{0,16}",
    )
        .prop_map(|(name, value)| {
            let escaped: String = value
                .chars()
                .flat_map(|c| {
                    if c == '"' || c == '\\' {
                        vec!['\\', c]
                    } else {
                        vec![c]
                    }
                })
                .collect();
            format!("[{name} \"{escaped}\"]\n")
        })
}

fn token() -> impl Strategy<Value = String> {
    let mv = (
        prop::sample::select(vec![
            "c3-d4", "f6:d4:b6", "C3xB4", "22-18", "09-13", "1- 6", "35x 4", "29-18-27", "a3b4",
            "3228", "h6xh6",
        ]),
        prop::sample::select(vec![
            "", "", "", "!", "?", "!!", "??", "!?", "?!", "!?!!!", "(?)", "(!?)", "*",
        ]),
    )
        .prop_map(|(m, s)| format!("{m}{s}"));
    prop_oneof![
        6 => mv,
        1 => Just("- -".to_string()),
        2 => (1u32..80).prop_map(|n| format!("{n}.")),
        1 => (1u32..80).prop_map(|n| format!("{n}...")),
        1 => (0u16..300).prop_map(|n| format!("${n}")),
        1 => "[a-zA-Zа-я0-9 %;:*!?()\\[\\]\"-]{0,20}".prop_map(|c| format!("{{{c}}}")),
        1 => "[a-z0-9 {}()*]{0,12}".prop_map(|c| format!(";{c}\n")),
        1 => "[a-z0-9 {}()*]{0,12}".prop_map(|c| format!("\n%{c}\n")),
        1 => Just("/FEN \"W:W21,22:BK1\"/".to_string()),
    ]
}

fn movetext() -> impl Strategy<Value = String> {
    let leaf = prop::collection::vec(token(), 0..6).prop_map(|t| t.join(" "));
    leaf.prop_recursive(4, 64, 6, |inner| {
        prop::collection::vec(
            prop_oneof![3 => token(), 1 => inner.prop_map(|l| format!("( {l} )"))],
            0..8,
        )
        .prop_map(|t| t.join(" "))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_games_round_trip(
        tags in prop::collection::vec(tag_text(), 0..6),
        moves in movetext(),
        result in prop::sample::select(vec!["", "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*", "½-½", "0.5-0.5"]),
    ) {
        // with no tags, no moves and no result there is no game, only stray text
        let result = if tags.is_empty() && result.is_empty() { "*" } else { result };
        let text = format!("{}\n{moves} {result}\n", tags.concat());
        let all = games(text.as_bytes());
        prop_assert_eq!(all.len(), 1, "{}", text);
        let g = all[0].to_game();
        prop_assert!(g.errors.iter().all(|e| e.kind == K::MissingTerminator), "{:?}\n{}", g.errors, text);
        assert_round_trip(&g);
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        for item in read_bytes(&bytes, None).0.into_iter().flatten() {
            let g = item.to_game();
            for e in &g.errors {
                prop_assert!(e.span.end <= item.text.len());
                let _ = item.position(e.span.start);
            }
            let _ = game_to_string(&g, &WriteOptions::default());
        }
    }

    #[test]
    fn random_pdn_like_text_never_panics(parts in prop::collection::vec(prop::sample::select(vec![
        "[", "]", "\"", "\\", "{", "}", "(", ")", "%", ";", "\n", "\r", " ", "1.", "1-0", "*", "c3-d4", "$", "/FEN", "/", "!", "?", "- ", "[Event \"", "½", "é",
    ]), 0..80)) {
        let text = parts.concat();
        for item in read_bytes(text.as_bytes(), None).0.into_iter().flatten() {
            let g = item.to_game();
            let _ = game_to_string(&g, &WriteOptions::default());
        }
    }
}

/// A stream far larger than any buffer is read in bounded memory (run with `--ignored`
/// in release mode; the peak RSS stays a few MB whatever `GAMES` is).
#[test]
#[ignore]
fn large_stream_in_bounded_memory() {
    struct Endless {
        game: &'static [u8],
        left: usize,
        at: usize,
    }
    impl std::io::Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let mut n = 0;
            while n < buf.len() && self.left > 0 {
                let k = (self.game.len() - self.at).min(buf.len() - n);
                buf[n..n + k].copy_from_slice(&self.game[self.at..self.at + k]);
                n += k;
                self.at += k;
                if self.at == self.game.len() {
                    self.at = 0;
                    self.left -= 1;
                }
            }
            Ok(n)
        }
    }
    const GAMES: usize = 2_000_000;
    let game = b"[Event \"x\"]\r\n[White \"a\"]\r\n\r\n1. c3-d4 f6-g5 2. b2-c3 g5-h4 {c} 3. c3-b4 g7-f6 (3... h6-g5) 1-0\r\n\r\n";
    let input = Endless {
        game,
        left: GAMES,
        at: 0,
    };
    let mut count = 0;
    let mut reader = Reader::new(input, ReaderOptions::default()).unwrap();
    let mut builder = GameBuilder::default();
    while let Some(item) = reader.read_game(&mut builder) {
        count += 1;
        assert_eq!(item.unwrap().ply_count(), 6);
    }
    assert_eq!(count, GAMES);
}

/// A game's tags, names and values.
type Tags = Vec<(String, String)>;

/// A visitor that asks for the tags only: the movetext's events are not given, yet the
/// games end where a reader of the whole ends them.
#[derive(Default)]
struct TagsOnly {
    tags: Vec<(String, String)>,
    events_after_tags: usize,
    in_movetext: bool,
}

impl pdnkit::pdn::Visitor for TagsOnly {
    type Output = Vec<(String, String)>;
    fn begin_game(&mut self) {
        *self = TagsOnly::default();
    }
    fn tag(&mut self, tag: pdnkit::pdn::RawTag<'_>) {
        self.tags
            .push((tag.name.to_string(), tag.value().into_owned()));
    }
    fn begin_movetext(&mut self) -> pdnkit::pdn::Skip {
        self.in_movetext = true;
        pdnkit::pdn::Skip(true)
    }
    fn mv(&mut self, _text: &str, _span: pdnkit::pdn::Span) {
        self.events_after_tags += usize::from(self.in_movetext);
    }
    fn comment(&mut self, _text: &str, _span: pdnkit::pdn::Span) {
        self.events_after_tags += usize::from(self.in_movetext);
    }
    fn end_game(&mut self) -> Self::Output {
        assert_eq!(self.events_after_tags, 0, "no event after the tags");
        std::mem::take(&mut self.tags)
    }
}

#[test]
fn a_visitor_that_skips_the_movetext_gets_the_tags_of_every_game() {
    let mut files = Vec::new();
    pdn_files(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures")),
        &mut files,
    );
    if let Some(corpus) = corpus() {
        pdn_files(&corpus, &mut files);
    }
    let mut games = 0;
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let read = |visitor: &mut dyn FnMut(&mut Reader<&[u8]>) -> Option<Tags>| {
            let mut reader = Reader::new(&bytes[..], ReaderOptions::default()).unwrap();
            let mut all = Vec::new();
            while let Some(tags) = visitor(&mut reader) {
                all.push(tags);
            }
            all
        };
        // (a problem of the input, no game's, is an item of both readings)
        let problem = || vec![("problem".to_string(), String::new())];
        let skipping = read(&mut |r| {
            Some(
                r.read_game(&mut TagsOnly::default())?
                    .unwrap_or_else(|_| problem()),
            )
        });
        let whole = read(&mut |r| {
            let game = r.read_game(&mut GameBuilder::default())?;
            Some(game.map_or_else(
                |_| problem(),
                |g| {
                    g.tags
                        .iter()
                        .map(|t| (t.name.clone(), t.value.clone()))
                        .collect()
                },
            ))
        });
        assert_eq!(skipping, whole, "{}", path.display());
        games += whole.len();
    }
    assert!(games > 100, "{games}");
}
