//! The registry of diagnostic codes: one stable code and kebab-case name per kind of finding.
//!
//! Codes are grouped by what they concern (ruff style): `P` syntax, `E` encoding and input,
//! `T` tags, `F` setups (FEN), `M` moves, `R` results, `V` variants, `D` draw rules, `C`
//! the collection (findings about a game among the others: `lint --unique`).
//! A code never changes meaning once released; new kinds get new codes.

use super::Severity;

/// One kind of diagnostic: its stable identity and its documentation (serialised as
/// `pdnkit rule --json` writes it).
#[derive(Debug, PartialEq, Eq, serde::Serialize)]
pub struct Rule {
    /// Stable short code, e.g. `M101`.
    pub code: &'static str,
    /// Stable kebab-case name, e.g. `illegal-move`.
    pub name: &'static str,
    /// Default severity.
    pub severity: Severity,
    /// One line: what the diagnostic means.
    pub summary: &'static str,
    /// Why it matters and what to do; shown by `pdnkit rule NAME`.
    pub explanation: &'static str,
    /// A small PDN example that triggers it; empty (`null` in JSON) for the few rules that
    /// a short text cannot show (binary input, a game of megabytes, a thousand errors, a
    /// read error).
    #[serde(serialize_with = "null_if_empty")]
    pub example: &'static str,
}

fn null_if_empty<S: serde::Serializer>(text: &&str, s: S) -> Result<S::Ok, S::Error> {
    match *text {
        "" => s.serialize_none(),
        text => s.serialize_str(text),
    }
}

macro_rules! rules {
    ($( $ident:ident = $code:literal $name:literal $sev:ident, $summary:literal, $explanation:literal, $example:literal; )*) => {
        $( #[doc = $summary] pub static $ident: Rule = Rule {
            code: $code, name: $name, severity: Severity::$sev,
            summary: $summary, explanation: $explanation, example: $example,
        }; )*
        /// Every rule, in code order.
        pub static ALL: &[&Rule] = &[ $( &$ident ),* ];
    };
}

rules! {
    // --- P: syntax -------------------------------------------------------------------
    UNTERMINATED_COMMENT = "P101" "unterminated-comment" Error,
        "A `{` comment is never closed.",
        "The comment runs to the end of the game (or to the next tag line, where pdnkit stops it). Everything after the `{` was read as comment text, so moves may be missing.",
        "1. c3-d4 { forgot to close\n2. b2-c3 *";
    UNBALANCED_VARIATION = "P102" "unbalanced-variation" Error,
        "A `(` variation is never closed, or a `)` closes nothing.",
        "Variations must nest properly. An unclosed variation would swallow the rest of the main line; pdnkit closes it at the end of the game and reports where it opened.",
        "1. c3-d4 (1. a3-b4 f6-g5 2. b2-c3 *";
    MALFORMED_TAG = "P103" "malformed-tag" Error,
        "A tag pair is not of the form `[Name \"value\"]`.",
        "The tag is skipped. Common causes: a missing closing bracket, a value without quotes, a name that is not an identifier.",
        "[Event Moscow]\n1. c3-d4 *";
    UNTERMINATED_STRING = "P104" "unterminated-string" Error,
        "A tag value's opening `\"` is never closed on its line.",
        "Quotes inside values must be escaped as `\\\"`. The tag is kept with the text up to the end of the line.",
        "[Event \"Moscow]\n1. c3-d4 *";
    UNEXPECTED_TOKEN = "P105" "unexpected-token" Error,
        "Text in the movetext that is neither a move, a move number, a comment, a NAG nor a result.",
        "The token is skipped and reading goes on. Often a typo in a move (`c3-d`), a stray character, or a result written in an unusual way.",
        "1. c3-d4 @@ f6-g5 *";
    NESTED_COMMENT = "P106" "nested-comment" Warning,
        "A `{` inside a `{…}` comment: PDN comments do not nest.",
        "The comment ends at the first `}`; what follows is read as movetext, which is usually not what the author meant.",
        "1. c3-d4 { a { nested } comment } *";
    GAME_TOO_LARGE = "P107" "game-too-large" Error,
        "One game exceeds the size limit (4 MiB of text) or the move limit (20,000 moves in all its lines) and was skipped.",
        "pdnkit reads in bounded memory; a single game of many megabytes or of tens of thousands of moves is almost always a broken file (for example an unterminated comment, or games run together without results). The rest of the file is still read. `--max-game-bytes` and `--max-game-moves` raise the limits.",
        "";
    NOT_PDN = "P108" "not-pdn" Error,
        "The input is not a PDN file (binary data).",
        "NUL bytes or mostly non-text bytes were found. The file is skipped.",
        "";
    MISSING_TERMINATOR = "P109" "missing-terminator" Info,
        "A game ends without a result or `*` terminator.",
        "The game ended at the next tag block or at the end of the file. Legal in practice, but the terminator is required by PDN 1.0/2.0. Fix (safe): the Result tag's result written after the game, when the final position does not contradict it.",
        "[Event \"x\"]\n1. c3-d4 f6-g5\n[Event \"y\"]\n1. c3-d4 *";
    VARIATION_TOO_DEEP = "P110" "variation-too-deep" Error,
        "Variations are nested deeper than pdnkit follows.",
        "Deeper levels are read as flat text to keep memory and stack bounded.",
        "1. c3-d4 ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((( *";
    STRAY_TEXT = "P111" "stray-text" Warning,
        "Text outside any game, for example before the first tag.",
        "The text is skipped.",
        "3\n[Event \"x\"]\n1. c3-d4 *";
    TAG_IN_MOVETEXT = "P112" "tag-in-movetext" Error,
        "A tag pair inside the movetext of a game.",
        "Tags belong before the moves. pdnkit starts a new game at a tag line after movetext; this one could not be read that way.",
        "1. c3-d4 [Event \"x\"] f6-g5 *";
    MALFORMED_SETUP = "P113" "malformed-setup" Error,
        "A `/FEN \"…\"/` setup command that is not well formed.",
        "The command is skipped; moves after it are replayed from the position before it, which usually fails.",
        "1. c3-d4 /FEN W:W21/ *";
    INVALID_NAG = "P114" "invalid-nag" Warning,
        "A `$` not followed by a number (or a number too large for a NAG).",
        "NAGs are `$0` to `$255` or so; the token is skipped.",
        "1. c3-d4 $x *";
    STRENGTH_WITHOUT_MOVE = "P115" "strength-without-move" Warning,
        "A strength mark (`!`, `?`, …) with no move before it.",
        "The mark is kept as a comment-like token but belongs to nothing.",
        "1. ! c3-d4 *";
    RESULT_IN_VARIATION = "P116" "result-in-variation" Warning,
        "A result token inside a variation.",
        "A variation cannot end the game; the token is skipped.",
        "1. c3-d4 (1. a3-b4 1-0) f6-g5 *";
    TEXT_AFTER_RESULT = "P117" "text-after-result" Warning,
        "Text after a game's result on the result's line.",
        "The result ends the game; the rest of its line is the game's and is skipped (`convert --to pdn` writes such a game as it was read). A tag, a comment or a first move number `1.` after the result starts what comes next instead.",
        "1. c3-d4 * f6-g5";
    TOO_MANY_ERRORS = "P118" "too-many-errors" Warning,
        "A game has more syntax errors, or more other findings, than pdnkit reports (1,000 of each).",
        "The reader keeps a game's first 1,000 syntax errors and then says so with this code; the check reports a game's first 1,000 other findings (tags, moves, results, draws) in text order and then says with this code how many more there were (an error if some of them are, so the game still counts as having errors). Past that many the game is not PDN in any useful sense, and holding every one of them (a 3 MB game can have hundreds of thousands, each with its source line) would take memory without bound. The game's moves are still replayed as far as they go.",
        "";
    SYNTAX_ERROR = "P199" "syntax-error" Error,
        "Another syntax problem.",
        "The message says what was found.",
        "";

    // --- E: encoding and input ----------------------------------------------------------
    DECODING_REPLACED = "E101" "decoding-replaced" Warning,
        "Bytes that are not valid in the file's encoding were replaced by U+FFFD.",
        "The file mixes encodings or is damaged. Use `--encoding` if detection chose wrongly.",
        "";
    IO_ERROR = "E102" "io-error" Error,
        "A file could not be read.",
        "The file is missing, unreadable or a directory loop was found. Other files are still checked; the exit status is 2.",
        "";
    ENCODING_GUESSED = "E103" "encoding-guessed" Info,
        "The file has no byte order mark and is not UTF-8: its encoding was guessed, clearly.",
        "pdnkit chose among Windows-1251, IBM866 (CP866), KOI8-R and Windows-1252 from the letters beyond ASCII, and the text told the encoding clearly. The message names the encoding; `--encoding` sets it and silences this.",
        "";
    ENCODING_UNCERTAIN = "E104" "encoding-uncertain" Warning,
        "The file has no byte order mark and is not UTF-8: its encoding was guessed, but the text does not tell it clearly.",
        "Few letters beyond ASCII, or two encodings nearly as likely: names may be garbled. The message names the encoding chosen; check a few names and give `--encoding` if they look wrong.",
        "";

    // --- T: tags ----------------------------------------------------------------------
    MISSING_TAG = "T101" "missing-tag" Warning,
        "One of the seven roster tags (Event, Site, Date, Round, White, Black, Result) is missing.",
        "PDN 3.0 calls these tags mandatory; archives without them are hard to search. Fix (safe): a missing Result tag written from the result the movetext ends with; `pdnkit fix --fill-roster` writes `?` for the others.",
        "[Event \"x\"]\n1. c3-d4 *";
    INVALID_DATE = "T102" "invalid-date" Warning,
        "The Date tag cannot be read as a date.",
        "PDN wants `YYYY.MM.DD` with `??` for unknown parts. pdnkit also reads `D.M.YYYY`, `YYYY-MM-DD` and a few other common forms without complaint.",
        "[Date \"last tuesday\"]";
    INVALID_RESULT_TAG = "T103" "invalid-result-tag" Warning,
        "The Result tag is not one of `1-0 0-1 1/2-1/2 2-0 0-2 1-1 0-0 *`.",
        "The tag is ignored when checking the result.",
        "[Result \"white\"]";
    DUPLICATE_TAG = "T104" "duplicate-tag" Warning,
        "The same tag name appears twice in one game.",
        "The first value is used.",
        "[Event \"a\"]\n[Event \"b\"]";
    EMPTY_GAME = "T105" "empty-game" Info,
        "A game with tags but no moves.",
        "Header-only games appear in real archives (e.g. problem collections). Nothing to replay.",
        "[Event \"x\"]\n*";
    NONSTANDARD_DATE = "T106" "nonstandard-date" Info,
        "A Date tag that is a date, or says the date is unknown, written otherwise than PDN's `YYYY.MM.DD`.",
        "pdnkit reads `1.1.1965`, `2024-12-14`, `17 april 2009`, `1950` and `?` (T102 is for what it cannot read), but other tools may not, and the tag sorts only in one form. Fix (safe): the value in PDN's form, with `??` for the parts not known. The fix is unsafe when the day and month of a date written day first could be either way round (`05.03.1965`: pdnkit reads 5 March, as Russian and European records write dates). A range or a season is left as written: PDN's form would lose one end.",
        "[Date \"1.1.1965\"]";

    // --- F: setups --------------------------------------------------------------------
    INVALID_FEN = "F101" "invalid-fen" Error,
        "A FEN tag or `/FEN/` setup that cannot be read or describes an impossible position.",
        "The message says what is wrong (syntax, a square twice, a man on its promotion rank, too many pieces…). The game is not replayed.",
        "[FEN \"W:W21-32:B1-12,21\"]";

    // --- M: moves ---------------------------------------------------------------------
    ILLEGAL_MOVE = "M101" "illegal-move" Error,
        "A move that the rules do not allow in the position.",
        "The message says why: no piece on the square, a capture was mandatory (and which captures were available), wrong direction, a capture not completed, … The rest of that line is not replayed; other variations and games are. Fix (unsafe): when exactly one legal move there lets every later move of the main line replay, that move (the finding lists them when several do).",
        "1. c3-d4 f6-g5 2. d4-c5 d6-e5 *";
    AMBIGUOUS_MOVE = "M102" "ambiguous-move" Error,
        "A capture written from/to that matches several different legal captures.",
        "Write the intermediate landing squares (e.g. `f4:h6:f8:d6:h2`). pdnkit tried each candidate against the rest of the game and could not decide.",
        "[FEN \"W:W19:B7,8,16,24\"]\n1. f4:h2 *";
    AMBIGUOUS_MOVE_RESOLVED = "M103" "ambiguous-move-resolved" Warning,
        "An ambiguous short capture that only one candidate makes consistent with the rest of the game.",
        "pdnkit plays that candidate (as lidraughts does). Writing the full path removes the ambiguity. Fix (unsafe): the capture written with the squares that name it.",
        "[FEN \"W:W19:B7,8,16,24\"]\n1. f4:h2 g7-h6 *";
    WRONG_MOVE_NUMBER = "M104" "wrong-move-number" Warning,
        "A move number that does not fit the move it stands before.",
        "Move numbers count full moves; `N.` precedes White's move and `N...` Black's. Fix (safe): the number the move has.",
        "1. c3-d4 f6-g5 3. b2-c3 *";
    CAPTURE_WRITTEN_AS_MOVE = "M105" "capture-separator" Info,
        "A capture written with `-`, or a quiet move written with `x`/`:`.",
        "The separator is not evidence of legality, so the move is accepted; this is a style note. Fix (safe): the separator of what the move is.",
        "1. c3-d4 f6-e5 2. d4-f6 g7:e5 *";
    UNREADABLE_MOVE = "M106" "unreadable-move" Error,
        "A move token whose squares cannot be read.",
        "For example a light square, or a square outside any board of draughts (a square of a larger board in the main line of a game that says no variant and has replayed no move as Russian makes it a game of that board's variant: V102). The rest of that line is not replayed. Fix (unsafe): as for M101, the one legal move that lets the rest of the main line replay.",
        "1. c3-b3 *";
    PLACEHOLDER_MOVE = "M107" "placeholder-move" Warning,
        "A `- -` placeholder for an unknown move.",
        "The rest of that line cannot be replayed.",
        "1. - - - - *";
    CAPTURE_ROUTE = "M108" "capture-route" Info,
        "A capture written with more or fewer of its landing squares than `--captures` asks for.",
        "Looked for only when `lint` or `fix` is given `--captures full` (every landing square: `c3:e5:g3`) or `--captures short` (from and to, plus the fewest landing squares that name the capture, as PDN 3.0 writes it: `c3:g3`). Fix (safe): the capture written so. It names the same capture, since the capture was unambiguous as written; an ambiguous one is M102 or M103 instead.",
        "[FEN \"W:W22:B4,18,19\"]\n1. c3:g3 *";

    // --- R: results -------------------------------------------------------------------
    RESULT_MISMATCH = "R101" "result-mismatch" Error,
        "The Result tag and the movetext terminator disagree.",
        "`*` as terminator is accepted with any Result tag (many programs write it).",
        "[Result \"1-0\"]\n1. c3-d4 0-1";
    RESULT_CONTRADICTS_POSITION = "R102" "result-contradicts-position" Error,
        "The recorded result is impossible in the final position.",
        "The side recorded as winner has no legal move at the end, or the game is recorded as a draw or a loss for the side that has just won (the side to move has no legal move).",
        "[FEN \"W:W22:B18\"]\n1. c3:e5 0-2";

    // --- V: variants ------------------------------------------------------------------
    UNSUPPORTED_VARIANT = "V101" "unsupported-variant" Warning,
        "The game is of a variant pdnkit does not replay.",
        "Its GameType tag names a game pdnkit has no rules for: chess (0), Spantsiretti (41), or a number PDN does not give. The game is read but not replayed, and no move of it is reported as illegal. Use `--variant NAME` to replay it by a variant's rules. (A game that names a square beyond the Russian board and cannot be read again as the variant of that board, for text before its tags, is reported so too.)",
        "[GameType \"41\"]";
    GUESSED_VARIANT = "V102" "guessed-variant" Warning,
        "The game does not say its variant; pdnkit replayed it as the variant its board shows.",
        "The game has no GameType tag, no Variant tag naming a variant and no `--variant`, and its FEN or one of its moves names a square beyond the 32 of the Russian board (`46-41`, `i3`). pdnkit replays it as the variant of that board: International draughts (GameType 20) for squares up to 50 or files to j, Canadian (27) beyond. The finding points at the FEN or the move that showed it. A GameType tag says the variant for certain, and silences this warning; `pdnkit fix` cannot know it.",
        "1. 33-28 18-23 2. 39-33 *";

    GAME_TYPE_FIELDS = "V103" "game-type-fields" Warning,
        "The GameType's fields after its number are not PDN's, or say what pdnkit does not follow.",
        "A GameType may give, after its number, who moves first, the board's width and height, the notation with the corner of square 1, and whether the bottom-left corner is light (`20,W,10,10,N2,0`). pdnkit follows them where they say how the game is written: who moves first (pool as Zimbabwe plays it, `23,W,8,8,A0,0`, has White first), where square 1 is in numeric notation, `N` or `S` (`20,W,10,10,N1,0` numbers International from White's side), and which way the files run (the invert flag). In algebraic notation (`A`) a1 is White's bottom-left square whatever the digit (the table gave Russian, Brazilian and Czech `A1` until 2014). It cannot follow another board size than the variant's, nor, for Russian games, another first player, numbering or board: Russian games are replayed on Russian's own board. Fields that are not PDN's (`20,W,0,0,N,0`) are not read at all. The game is replayed by the rules of its number, and the message says which fields were not followed.",
        "[GameType \"20,W,8,8,N2,0\"]";

    // --- D: draw rules ----------------------------------------------------------------
    PLAY_AFTER_AUTOMATIC_DRAW = "D101" "play-after-automatic-draw" Error,
        "Moves were played after the game was drawn automatically by a move-count rule.",
        "The move-count draw rules (fmjd 7.2.4-7.2.8, russia 6.1.8.3-6.1.8.6 and 6.1.8.8, in International games the FMJD's international-25, -16 and -5, and those of other variants' federations: Brazilian by fmjd, frisian-7 and -2, portuguese-20 and -12) end the game on the ply where the limit is reached: there is no claim to make, and the game cannot go on. The message names the rule (e.g. 6.1.8.6), the ply at which the game ended and how many plies follow; the finding points at the first of them. It is reported once per game. Usually the record continues a game that the arbiter should have stopped, or the chosen edition of the draw rules (fmjd or russia) is not the one the event was played under. How each rule's moves are counted is described in the README's rules section.",
        "[GameType \"25\"]\n[FEN \"W:WK29:BK28\"]\n1. a1-b2 h2-g1 2. b2-a1 g1-h2 3. a1-b2 h2-g1 4. b2-a1 g1-h2 5. a1-b2 h2-g1 6. b2-a1 1-1";
    RESULT_CONTRADICTS_DRAW_RULE = "D102" "result-contradicts-draw-rule" Error,
        "A decisive result after the game had been drawn automatically.",
        "The game reached the limit of a move-count draw rule (the message names it and the ply), so by the rules it ended drawn there; a result of 1-0/2-0 or 0-1/0-2 contradicts that. Either the result is wrong, the record is incomplete (a capture or promotion that would have restarted the count is missing), or the event used the other edition of the draw rules. A 0-0 result (both lose) is an arbiter's sanction and is not checked. A win on the very ply the limit is reached (the opponent has no move left) takes precedence over the draw and is not reported.",
        "[GameType \"25\"]\n[FEN \"W:WK29:BK28\"]\n1. a1-b2 h2-g1 2. b2-a1 g1-h2 3. a1-b2 h2-g1 4. b2-a1 g1-h2 5. a1-b2 h2-g1 2-0";
    DRAW_WITHOUT_BASIS = "D103" "draw-without-basis" Info,
        "A drawn result that no draw rule supports: a draw by agreement.",
        "No move-count rule reached its limit and no position stood three times with the same side to move, so the draw rests on the players' agreement (7.2.1; in the russia edition allowed after 20 moves each, 6.1.8.1) or on an arbiter's decision the record does not show (7.2.2, 6.1.8.7, which pdnkit does not check). Nothing is wrong; `pdnkit` reports it so that a game's draw basis is always known. The message gives the move number at which the game stopped.",
        "1. c3-d4 f6-g5 2. b2-c3 g7-f6 1-1";
    EARLY_DRAW_AGREEMENT = "D104" "early-draw-agreement" Warning,
        "A draw agreed before each side made 20 moves (russia edition, 6.1.8.1).",
        "In the disciplines \"русские шашки\" and team events a player may offer a draw only after each side has made at least 20 moves (6.1.8.1). The game is recorded as drawn with fewer moves and no draw rule applies, so the draw was agreed too early (or the record is incomplete). Only games with moves played from the start position are judged so: a game without moves, or a problem, study or fragment set up by FEN, is not. The fmjd edition has no such limit. Other disciplines (blitz, rapid) may allow it: ignore the code there.",
        "1. c3-d4 f6-g5 2. b2-c3 g7-f6 1-1";
    REPETITION_NOT_CLAIMED = "D105" "repetition-not-claimed" Info,
        "A threefold repetition occurred in a game recorded as decisive.",
        "The same position with the same side to move stood three times (not necessarily in a row; the initial position or FEN setup counts as its first occurrence). Either player could then claim a draw (7.2.3), but a claim is a right, not an obligation: play may go on, and the game was recorded as a win. Nothing is wrong; the message names the plies at which the position stood.",
        "[GameType \"25\"]\n[FEN \"W:WK29:BK28\"]\n1. a1-b2 h2-g1 2. b2-a1 g1-h2 3. a1-b2 h2-g1 4. b2-a1 g1-h2 2-0";

    // --- C: the collection ------------------------------------------------------------
    DUPLICATE_GAME = "C101" "duplicate-game" Warning,
        "A game that is a copy of another game of the inputs (`lint --unique`).",
        "Its main line is the same moves from the same start position as another game's, however either is written (numeric or algebraic squares, short or full captures, any encoding, any file), or it is a prefix of at least 20 plies of a longer one's: an unfinished copy. Of each group of copies one is kept, the one with the longest line, then the richest (most tags, comments and variations), then the first; each other is reported, with the copy kept. Only `lint --unique` looks for copies, reading the inputs once more first; `pdnkit duplicates` lists the groups, `stats --unique` counts each game once, and `select --unique` selects from the games kept.",
        "[Event \"Moscow ch\"]\n1. c3-d4 f6-g5 2. b2-c3 g7-f6 *\n\n[Event \"Moscow ch\"]\n1. 22-18 11-16 2. 25-22 8-11 *\n";
}

/// Looks a rule up by code (`M101`), by name (`illegal-move`), case-insensitively.
pub fn find(key: &str) -> Option<&'static Rule> {
    ALL.iter()
        .copied()
        .find(|r| r.code.eq_ignore_ascii_case(key) || r.name.eq_ignore_ascii_case(key))
}

/// The rule of a reader's finding of kind `kind` (by its name); the generic syntax error
/// for a kind the registry does not list.
pub fn of_read_error(kind: crate::pdn::SyntaxErrorKind) -> &'static Rule {
    find(kind.name()).unwrap_or(&SYNTAX_ERROR)
}

/// A set of rules of the registry: which findings to report
/// ([`crate::replay::ReplayOptions::report`]). A finding of a rule outside the set is
/// not made at all (its message, place and source line cost nothing), which is what makes
/// `lint --select M` faster than filtering afterwards.
///
/// The default is every rule. Copy and a few words long: one bit per code, by the code's
/// letter and number (`M101` is bit 0 of group `M`, `P199` bit 31 of group `P`).
///
/// ```
/// use pdnkit::diag::codes::{self, RuleSet};
/// let moves = RuleSet::matching(|r| codes::selector_matches("M", r));
/// assert!(moves.contains(&codes::ILLEGAL_MOVE));
/// assert!(!moves.contains(&codes::MISSING_TAG));
/// assert!(RuleSet::default().contains(&codes::MISSING_TAG));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleSet([u32; GROUPS.len()]);

/// The code letters, in the order of [`RuleSet`]'s words.
const GROUPS: [u8; 9] = *b"PETFMRVDC";

/// Where `code` is in a [`RuleSet`]: its word and bit. Every code of the registry has a
/// place (a test checks it); any other string has none.
const fn place(code: &str) -> Option<(usize, u32)> {
    let b = code.as_bytes();
    if b.len() != 4 {
        return None;
    }
    let mut group = 0;
    while group < GROUPS.len() && GROUPS[group] != b[0] {
        group += 1;
    }
    let digits = b[1].is_ascii_digit() && b[2].is_ascii_digit() && b[3].is_ascii_digit();
    if group == GROUPS.len() || !digits {
        return None;
    }
    let n = (b[1] - b'0') as u32 * 100 + (b[2] - b'0') as u32 * 10 + (b[3] - b'0') as u32;
    match n {
        101..=131 => Some((group, n - 101)),
        199 => Some((group, 31)),
        _ => None,
    }
}

impl RuleSet {
    /// No rule.
    pub const EMPTY: RuleSet = RuleSet([0; GROUPS.len()]);

    /// Every rule (what [`Default`] gives).
    pub const ALL: RuleSet = RuleSet([u32::MAX; GROUPS.len()]);

    /// The rules of the registry for which `keep` says yes, e.g. those a `--select`
    /// selector matches ([`selector_matches`]).
    pub fn matching(mut keep: impl FnMut(&Rule) -> bool) -> RuleSet {
        let mut set = RuleSet::EMPTY;
        for rule in self::ALL.iter().copied().filter(|r| keep(r)) {
            set = set.with(rule.code);
        }
        set
    }

    /// This set and the rule of code `code` (a code of no rule adds nothing).
    pub const fn with(mut self, code: &str) -> RuleSet {
        if let Some((group, bit)) = place(code) {
            self.0[group] |= 1 << bit;
        }
        self
    }

    /// Whether `rule` is in the set. A rule made outside the registry (no code of its
    /// shape) is in every set but [`RuleSet::EMPTY`].
    #[inline]
    pub fn contains(&self, rule: &Rule) -> bool {
        match place(rule.code) {
            Some((group, bit)) => self.0[group] & (1 << bit) != 0,
            None => *self != RuleSet::EMPTY,
        }
    }

    /// Whether the two sets have a rule in common.
    #[inline]
    pub fn meets(&self, other: &RuleSet) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }
}

impl Default for RuleSet {
    fn default() -> RuleSet {
        RuleSet::ALL
    }
}

/// Does a `--select`/`--ignore` selector match this rule? A selector is a code
/// (`M101`), a name (`illegal-move`), or a code prefix (`M`, `M1`).
pub fn selector_matches(selector: &str, rule: &Rule) -> bool {
    let s = selector.trim();
    !s.is_empty()
        && (rule.name.eq_ignore_ascii_case(s)
            || rule
                .code
                .get(..s.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(s)))
}

/// A `--select`/`--ignore` selector that matches some rule (trimmed), or why it is none:
/// the nearest codes and names (`did you mean illegal-move?`). A typo must not select
/// nothing in silence.
pub fn check_selector(selector: &str) -> Result<String, String> {
    let s = selector.trim();
    if ALL.iter().any(|r| selector_matches(s, r)) {
        return Ok(s.to_string());
    }
    Err(format!(
        "no rule has the code, name or code prefix `{s}`{}",
        nearest_hint(s)
    ))
}

/// What to say after a key that names no rule: the nearest codes and names by Jaro-Winkler
/// similarity (`; did you mean illegal-move?`), else where to find them.
pub fn nearest_hint(key: &str) -> String {
    let lower = key.trim().to_ascii_lowercase();
    let mut near: Vec<(f64, &str)> = (ALL.iter())
        .flat_map(|r| [r.name, r.code])
        .map(|n| (strsim::jaro_winkler(&lower, &n.to_ascii_lowercase()), n))
        .filter(|&(score, _)| score > 0.8)
        .collect();
    near.sort_by(|a, b| b.0.total_cmp(&a.0));
    let near: Vec<&str> = near.iter().take(3).map(|&(_, n)| n).collect();
    match near[..] {
        [] => "; `pdnkit rule --all` lists the codes and names".to_string(),
        _ => format!("; did you mean {}?", near.join(" or ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn a_selector_that_matches_no_rule_is_refused_with_the_nearest_names() {
        for ok in ["M101", "m101", "illegal-move", "M", "T1", " D "] {
            assert!(check_selector(ok).is_ok(), "{ok}");
        }
        let typo = check_selector("illegal-mov").unwrap_err();
        assert!(typo.contains("did you mean illegal-move"), "{typo}");
        let none = check_selector("Z9").unwrap_err();
        assert!(none.contains("rule --all"), "{none}");
        assert!(check_selector("").is_err());
    }

    #[test]
    fn every_code_has_its_own_place_in_a_rule_set() {
        let mut places = HashSet::new();
        for r in ALL {
            let at = place(r.code).unwrap_or_else(|| panic!("{} has no place", r.code));
            assert!(places.insert(at), "{} shares its place", r.code);
            let alone = RuleSet::EMPTY.with(r.code);
            assert!(alone.contains(r) && RuleSet::ALL.contains(r));
            // no other rule is in the set of this one alone
            for other in ALL.iter().filter(|o| o.code != r.code) {
                assert!(!alone.contains(other), "{} holds {}", r.code, other.code);
            }
        }
        for not_a_code in ["", "M1", "X101", "M100", "M132", "M1011", "m101", "M1a1"] {
            assert_eq!(place(not_a_code), None, "{not_a_code}");
        }
    }

    #[test]
    fn a_selection_is_the_set_of_the_rules_it_matches() {
        let tags = RuleSet::matching(|r| selector_matches("T1", r));
        for r in ALL {
            assert_eq!(tags.contains(r), r.code.starts_with('T'), "{}", r.code);
        }
        assert!(tags.meets(&RuleSet::EMPTY.with("T104")));
        assert!(!tags.meets(&RuleSet::EMPTY.with("M101").with("D103")));
        assert_eq!(RuleSet::matching(|_| false), RuleSet::EMPTY);
    }

    #[test]
    fn codes_and_names_are_unique_and_well_formed() {
        let mut codes = HashSet::new();
        let mut names = HashSet::new();
        for r in ALL {
            assert!(codes.insert(r.code), "duplicate code {}", r.code);
            assert!(names.insert(r.name), "duplicate name {}", r.name);
            assert!(
                r.name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{} is not kebab-case",
                r.name
            );
            assert_eq!(r.code.len(), 4);
        }
    }

    #[test]
    fn find_by_code_or_name() {
        assert_eq!(find("M101").unwrap().name, "illegal-move");
        assert_eq!(find("illegal-move").unwrap().code, "M101");
        assert_eq!(find("m101").unwrap().code, "M101");
        assert!(find("nope").is_none());
    }

    #[test]
    fn selectors_match_code_prefix_and_name() {
        assert!(selector_matches("M", &ILLEGAL_MOVE));
        assert!(selector_matches("M1", &ILLEGAL_MOVE));
        assert!(selector_matches("M101", &ILLEGAL_MOVE));
        assert!(selector_matches("illegal-move", &ILLEGAL_MOVE));
        assert!(!selector_matches("M102", &ILLEGAL_MOVE));
        assert!(!selector_matches("", &ILLEGAL_MOVE));
        assert!(!selector_matches("illegal", &ILLEGAL_MOVE));
    }
}
