//! Following a game ply by ply: the state of every draw rule of an edition.

use super::{DrawRule, Edition, Material};
use crate::Color;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::collections::hash_map::Entry;

/// The hasher of position keys: fast on small keys (SipHash's resistance to chosen
/// collisions buys nothing for the few hundred keys of one game), and fixed, so that a
/// game is checked the same way every time.
type KeyHasher = foldhash::fast::FixedState;

/// A [`PositionKey`]'s placement as two words: a pair of scalars, which is passed in
/// registers (an array is passed through memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Placement(u64, u64);

impl Placement {
    #[inline(always)]
    fn of(key: &PositionKey) -> Placement {
        let [a, b, c, d] = key.placement.map(u64::from);
        Placement(a | b << 32, c | d << 32)
    }

    #[inline(always)]
    fn key(self, side_to_move: Color) -> PositionKey {
        let Placement(low, high) = self;
        let placement = [
            low as u32,
            (low >> 32) as u32,
            high as u32,
            (high >> 32) as u32,
        ];
        PositionKey::new(placement, side_to_move)
    }
}

/// What identifies a position for threefold repetition (7.2.3): the placement of all
/// pieces and the side to move.
///
/// The caller chooses the encoding of `placement`; it only has to be injective, e.g. four
/// 32-square bitboards (white men, white kings, black men, black kings).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PositionKey {
    /// Any injective encoding of where the men and kings of both sides stand.
    pub placement: [u32; 4],
    /// The side to move in this position.
    pub side_to_move: Color,
}

impl PositionKey {
    /// A key from a placement encoding and the side to move.
    pub const fn new(placement: [u32; 4], side_to_move: Color) -> Self {
        PositionKey {
            placement,
            side_to_move,
        }
    }
}

/// What the replayer knows about one ply (one player's move), computed from the position
/// before and after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyFacts {
    /// The side that made this ply.
    pub mover: Color,
    /// The ply captured at least one piece.
    pub capture: bool,
    /// The moving piece was a man when the ply began (a promotion is a man move).
    pub man_moved: bool,
    /// A man became a king on this ply.
    pub promotion: bool,
    /// The material on the board after the ply.
    pub after: Material,
    /// The position after the ply (side to move = the mover's opponent).
    pub key: PositionKey,
    /// The side to move after this ply has at least one legal move. `false` means the
    /// mover has just won (1.8.1), which takes precedence over any draw on the same ply.
    pub side_to_move_has_moves: bool,
}

/// Whether a draw event ends the game or gives a right to claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DrawEventKind {
    /// The game is drawn on this ply; moves after it are a violation.
    Automatic,
    /// A draw may be claimed (threefold repetition); the game may go on.
    Claimable,
}

/// A draw rule reaching its limit (or a threefold repetition) on a ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct DrawEvent {
    /// The rule.
    pub rule: DrawRule,
    /// The 1-based ply after which the game is drawn (or the repeated position stands).
    pub ply: u32,
    /// Automatic draw or claim.
    pub kind: DrawEventKind,
    /// The rule's condition and limit as they applied, e.g. "2-3 piece ending with kings
    /// on both sides, balance unchanged for 5 moves each".
    pub detail: &'static str,
}

/// How a rule's limit is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "counting", rename_all = "snake_case")]
pub enum Counting {
    /// "N moves" of both players: N moves by each side, 2N plies after the establishing ply.
    MovesEach {
        /// N.
        moves: u32,
    },
    /// "Its Nth move": the stronger side's Nth own move after the establishing ply.
    /// `side: None` when either side may count as "the player" (king against king,
    /// 7.2.8): the first side to make its Nth move reaches the limit.
    StrongerSide {
        /// The side that plays for the win, or `None` for either.
        side: Option<Color>,
        /// N.
        moves: u32,
    },
}

/// The state of one rule in the current position: for inspection and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RuleState {
    /// The rule.
    pub rule: DrawRule,
    /// Its condition holds in the current position.
    pub holds: bool,
    /// How the limit is counted, while the condition holds.
    pub counting: Option<Counting>,
    /// The condition and limit in words, while it holds (empty otherwise).
    pub detail: &'static str,
    /// The ply that established the condition (0 = the initial position), while it holds.
    /// That ply itself is not counted.
    pub established_at: Option<u32>,
    /// Plies played since the establishing ply.
    pub plies: u32,
    /// Moves made by each side since the establishing ply, indexed by [`Color::index`].
    pub moves: [u32; 2],
    /// The ply at which the limit is (or was) reached if nothing changes, while it holds.
    pub fires_at: Option<u32>,
}

impl RuleState {
    fn idle(rule: DrawRule) -> Self {
        RuleState {
            rule,
            holds: false,
            counting: None,
            detail: "",
            established_at: None,
            plies: 0,
            moves: [0, 0],
            fires_at: None,
        }
    }

    /// The limit is reached in the current position.
    fn reached(&self) -> bool {
        match self.counting {
            None => false,
            Some(Counting::MovesEach { moves }) => self.plies == 2 * moves,
            Some(Counting::StrongerSide { side, moves }) => match side {
                Some(s) => self.moves[s.index()] == moves,
                None => self.moves.contains(&moves),
            },
        }
    }

    /// The projected ply of the limit, given the current ply and the side to move next.
    fn projection(&self, ply: u32, next: Color) -> Option<u32> {
        let established = self.established_at?;
        match self.counting? {
            Counting::MovesEach { moves } => Some(established + 2 * moves),
            Counting::StrongerSide { side, moves } => {
                let at = |s: Color| {
                    let done = self.moves[s.index()];
                    if done >= moves {
                        // Reached on an earlier ply: count back to it.
                        None
                    } else {
                        let left = moves - done;
                        Some(if s == next {
                            ply + 2 * left - 1
                        } else {
                            ply + 2 * left
                        })
                    }
                };
                match side {
                    Some(s) => at(s),
                    None => [at(Color::White), at(Color::Black)]
                        .into_iter()
                        .flatten()
                        .min(),
                }
            }
        }
    }
}

/// Does the ply restart the rule's count although its condition still holds?
fn restarts(rule: DrawRule, f: &PlyFacts) -> bool {
    use DrawRule::*;
    match rule {
        // 7.2.5, 6.1.8.8: only king moves count; a man move or a capture restarts.
        R7_2_5 | R6_1_8_8 | Int25 => f.capture || f.man_moved || f.promotion,
        // The FMJD's limits in international draughts hold from when the material first
        // met them: a capture or a promotion that leaves it meeting them counts on.
        Int16 | Int5 => false,
        // Every other rule counts from the establishment of the balance of forces, which
        // changes on a capture or a promotion (7.2.6, 6.1.8.6 say so in words).
        _ => f.capture || f.promotion,
    }
}

/// Whether any rule of `edition` can have its [`condition`] hold in `m` (a test checks
/// this for every rule over all material), so that most material is answered without
/// asking the rules. Each rule of `russia`, `fmjd` and `international` needs kings on both
/// sides (and for `russia` at most 7 pieces), or a lone king against three kings, three
/// pieces, or (`fmjd`, 7.2.8; `international`) two pieces of which a king; `frisian`'s
/// need one or two kings against a lone king; `portuguese` 3.2.a holds with any
/// material; `threefold` has none.
pub(crate) fn may_meet_a_condition(edition: Edition, m: &Material) -> bool {
    match edition {
        // (3.2.a holds with any material)
        Edition::Portuguese => return true,
        Edition::Threefold => return false,
        Edition::Frisian => {
            return m
                .against_lone_king()
                .map(|s| m.side(s))
                .is_some_and(|me| me.men == 0 && me.kings == 2)
                || m.sides.iter().all(|s| s.is_lone_king());
        }
        _ => {}
    }
    // (both need a king: most plies of most games have none)
    if m.sides.iter().all(|s| s.kings == 0) {
        return false;
    }
    if edition == Edition::International {
        return m.both_have_kings()
            || m.against_lone_king()
                .is_some_and(|s| m.side(s).pieces() <= 3);
    }
    if m.both_have_kings() && (edition == Edition::Fmjd || m.total() <= 7) {
        return true;
    }
    m.against_lone_king().is_some_and(|strong| {
        let me = m.side(strong);
        me.kings >= 3 || me.pieces() == 3 || (edition == Edition::Fmjd && me.pieces() == 2)
    })
}

/// The rule's condition in this material: its counting and the detail text, or `None`.
fn condition(rule: DrawRule, m: &Material) -> Option<(Counting, &'static str)> {
    use DrawRule::*;
    let each = |moves| Counting::MovesEach { moves };
    let stronger = |side, moves| Counting::StrongerSide { side, moves };
    let lone = m.against_lone_king();
    match rule {
        R7_2_3 | Repetition => None,
        // 7.2.4: three kings (and more), no men, against one king.
        R7_2_4 => {
            let s = lone?;
            let me = m.side(s);
            (me.kings >= 3 && me.men == 0).then_some((
                stronger(Some(s), 15),
                "three or more kings against a lone king, 15 moves by the stronger side",
            ))
        }
        // 7.2.5: only kings moved for 15 moves (by each side).
        R7_2_5 => m.both_have_kings().then_some((
            each(15),
            "only king moves, no man move and no capture, for 15 moves each",
        )),
        // 7.2.6: kings on both sides, balance unchanged: 4–5 pieces 30, 6–7 pieces 60.
        R7_2_6 if m.both_have_kings() => match m.total() {
            4..=5 => Some((
                each(30),
                "4-5 piece ending with kings on both sides, balance unchanged for 30 moves each",
            )),
            6..=7 => Some((
                each(60),
                "6-7 piece ending with kings on both sides, balance unchanged for 60 moves each",
            )),
            _ => None,
        },
        R7_2_6 => None,
        // 7.2.7 (as listed in 1.9.1): three pieces of any kind against a lone king on the
        // main road; the stronger side's 5th move.
        R7_2_7 => {
            let s = lone?;
            (m.side(s).pieces() == 3 && m.side(s.opponent()).lone_king_on_main_road()).then_some((
                stronger(Some(s), 5),
                "three pieces against a lone king on the main road, 5 moves by the stronger side",
            ))
        }
        // 7.2.8: two kings, king and man, or one king against a lone king; the 5th move.
        R7_2_8 => {
            let (w, b) = (m.side(Color::White), m.side(Color::Black));
            if w.is_lone_king() && b.is_lone_king() {
                return Some((
                    stronger(None, 5),
                    "one king against a lone king, 5 moves by either side",
                ));
            }
            let s = lone?;
            let me = m.side(s);
            ((me.kings, me.men) == (2, 0) || (me.kings, me.men) == (1, 1)).then_some((
                stronger(Some(s), 5),
                "two kings or king and man against a lone king, 5 moves by the stronger side",
            ))
        }
        // international: only kings moved for 25 moves (by each side).
        Int25 => m.both_have_kings().then_some((
            each(25),
            "only king moves, no man move and no capture, for 25 moves each",
        )),
        // international: three kings, two kings and a man, or a king and two men against
        // a lone king, 16 moves each.
        Int16 => {
            let s = lone?;
            let me = m.side(s);
            (me.pieces() == 3 && me.kings >= 1).then_some((
                each(16),
                "three pieces, a king among them, against a lone king, 16 moves each",
            ))
        }
        // international: two kings, king and man, or one king against a lone king, 5 moves
        // each.
        Int5 => {
            let (w, b) = (m.side(Color::White), m.side(Color::Black));
            if w.is_lone_king() && b.is_lone_king() {
                return Some((each(5), "one king against a lone king, 5 moves each"));
            }
            let s = lone?;
            let me = m.side(s);
            ((me.kings, me.men) == (2, 0) || (me.kings, me.men) == (1, 1)).then_some((
                each(5),
                "two kings or king and man against a lone king, 5 moves each",
            ))
        }
        // frisian: two kings against a lone king, 7 moves each.
        Frisian7 => {
            let me = m.side(lone?);
            ((me.kings, me.men) == (2, 0))
                .then_some((each(7), "two kings against a lone king, 7 moves each"))
        }
        // frisian: a king against a lone king, 2 moves each.
        Frisian2 => {
            let (w, b) = (m.side(Color::White), m.side(Color::Black));
            (w.is_lone_king() && b.is_lone_king())
                .then_some((each(2), "one king against a lone king, 2 moves each"))
        }
        // portuguese 3.2.a: no capture and no promotion for 20 moves each, any material.
        Portuguese20 => Some((each(20), "no capture and no promotion for 20 moves each")),
        // portuguese 3.2.b: three kings, one of them on the long diagonal, against a lone
        // king, 12 moves each.
        Portuguese12 => {
            let me = m.side(lone?);
            ((me.kings, me.men) == (3, 0) && me.on_main_road >= 1).then_some((
                each(12),
                "three kings, one on the long diagonal, against a lone king, 12 moves each",
            ))
        }
        // 6.1.8.3: three kings against one king, holding the main road (one of the three
        // stands on it).
        R6_1_8_3 => {
            let s = lone?;
            let me = m.side(s);
            ((me.kings, me.men) == (3, 0) && me.on_main_road >= 1).then_some((
                stronger(Some(s), 15),
                "three kings holding the main road against a lone king, 15 moves by the stronger side",
            ))
        }
        // 6.1.8.4: three kings and more pieces (men or kings) against one king.
        R6_1_8_4 => {
            let s = lone?;
            (m.side(s).kings >= 3).then_some((
                stronger(Some(s), 15),
                "three or more kings (with any other pieces) against a lone king, 15 moves by the stronger side",
            ))
        }
        // 6.1.8.5: three pieces, none on the main road, against a lone king on it.
        R6_1_8_5 => {
            let s = lone?;
            let me = m.side(s);
            (me.pieces() == 3
                && me.on_main_road == 0
                && m.side(s.opponent()).lone_king_on_main_road())
            .then_some((
                stronger(Some(s), 5),
                "three pieces off the main road against a lone king on it, 5 moves by the stronger side",
            ))
        }
        // 6.1.8.6: kings on both sides, balance unchanged: 2–3 / 4–5 / 6–7 pieces,
        // 5 / 30 / 60 moves.
        R6_1_8_6 if m.both_have_kings() => match m.total() {
            2..=3 => Some((
                each(5),
                "2-3 piece ending with kings on both sides, balance unchanged for 5 moves each",
            )),
            4..=5 => Some((
                each(30),
                "4-5 piece ending with kings on both sides, balance unchanged for 30 moves each",
            )),
            6..=7 => Some((
                each(60),
                "6-7 piece ending with kings on both sides, balance unchanged for 60 moves each",
            )),
            _ => None,
        },
        R6_1_8_6 => None,
        // 6.1.8.8: only kings moved, no man move, no capture: 4–5 pieces 15, 6–7 pieces 25.
        R6_1_8_8 if m.both_have_kings() => match m.total() {
            4..=5 => Some((
                each(15),
                "4-5 piece ending, only king moves (no man move, no capture) for 15 moves each",
            )),
            6..=7 => Some((
                each(25),
                "6-7 piece ending, only king moves (no man move, no capture) for 25 moves each",
            )),
            _ => None,
        },
        R6_1_8_8 => None,
    }
}

/// Runs of king moves up to this length are looked through for a repetition; longer
/// ones are hashed ([`DrawTracker::follow_repetition`]).
const SCANNED_RUN: usize = 32;

/// Follows one game (one line of play) and the draw rules of an edition.
///
/// Conventions (RULES.md §5, README section "Draw rules"):
/// - plies are numbered from 1; ply 0 is the initial position. A position set up by FEN
///   counts as the first occurrence of that position, and its material balance as
///   established at ply 0 (as if the side not to move had just moved);
/// - "N moves" of both players = 2N plies after the establishing ply; "its Nth move" =
///   the stronger side's Nth own move after the establishing ply; the establishing ply
///   itself is never counted;
/// - a count restarts when the rule's condition stops holding, on a capture or a
///   promotion (the balance of forces changes), and for the king-move rules 7.2.5 and
///   6.1.8.8 also on any man move;
/// - all rules are followed at once; the first to reach its limit decides, ties going
///   to the earlier article ([`Edition::rules`] order). A ply after which the side to
///   move has no legal move is a win and never a draw.
#[derive(Clone, Debug)]
pub struct DrawTracker {
    edition: Edition,
    first_move_number: u32,
    /// Who moves first in the game's variant (whose ply opens each numbered move).
    first_player: Color,
    /// The ply of the initial position: 0, or where a setup command re-set the board.
    start_ply: u32,
    /// The game is played from the start position of draughts (not a problem, a study or
    /// a fragment set up by FEN): only then does a draw agreed early break 6.1.8.1.
    from_start: bool,
    ply: u32,
    initial_to_move: Color,
    to_move: Color,
    states: Vec<RuleState>,
    /// `condition(rule, m)` for each rule of `states`, for the material `conditions_for`.
    conditions: Vec<Option<(Counting, &'static str)>>,
    conditions_for: Option<Material>,
    /// Some rule's condition holds in `conditions_for`.
    any_condition: bool,
    /// Some state of `states` holds (asked on every ply, so kept rather than searched).
    holding: bool,
    /// The plies at which each position that stood twice or more stood (0 = initial
    /// position).
    seen: HashMap<PositionKey, Vec<u32>, KeyHasher>,
    /// The placements since the last capture or man move (the one after it first), with
    /// their plies: the only positions that can stand again (see
    /// [`follow_repetition`](Self::follow_repetition)). The sides to move alternate, the
    /// last one's being `to_move`, so they are not kept, and a placement is passed in two
    /// registers, not copied through the stack (where a wide load of narrow stores
    /// stalls).
    run: Vec<(Placement, u32)>,
    /// Once `run` is long, where each of its positions first stood (hashed: looking
    /// through a long run for every ply would cost its length squared).
    run_index: HashMap<PositionKey, u32, KeyHasher>,
    events: Vec<DrawEvent>,
    automatic: Option<DrawEvent>,
    won_at: Option<(u32, Color)>,
    /// Whether the side to move has a move after the last ply is not known yet (see
    /// [`push_idle`](Self::push_idle)).
    unsettled: bool,
    /// The last ply was followed idle ([`push_idle`](Self::push_idle) or
    /// [`push_without_kings`](Self::push_without_kings)): no rule holds, and none can
    /// while each side keeps as many men and kings, that is until a capture or a
    /// promotion ([`may_meet_a_condition`] looks at those counts only, not at the main
    /// road).
    idle_material: bool,
}

impl DrawTracker {
    /// Starts following a game from its initial position (the standard start or a FEN
    /// setup): its material, and its key, whose `side_to_move` is the side to move first.
    pub fn new(edition: Edition, initial: Material, initial_key: PositionKey) -> Self {
        let mut t = DrawTracker {
            edition,
            first_move_number: 1,
            first_player: Color::White,
            start_ply: 0,
            from_start: true,
            ply: 0,
            initial_to_move: initial_key.side_to_move,
            to_move: initial_key.side_to_move,
            states: Vec::new(),
            conditions: Vec::new(),
            conditions_for: None,
            any_condition: false,
            holding: false,
            seen: HashMap::default(),
            run: Vec::new(),
            run_index: HashMap::default(),
            events: Vec::new(),
            automatic: None,
            won_at: None,
            unsettled: false,
            idle_material: false,
        };
        t.restart(edition, initial, initial_key);
        t
    }

    /// Starts following another game, as [`new`](Self::new) would, but keeping the memory
    /// of this one: a checker that follows game after game allocates once, not per game.
    pub fn restart(&mut self, edition: Edition, initial: Material, initial_key: PositionKey) {
        self.edition = edition;
        self.first_move_number = 1;
        self.first_player = Color::White;
        self.start_ply = 0;
        self.from_start = true;
        self.ply = 0;
        self.initial_to_move = initial_key.side_to_move;
        self.to_move = initial_key.side_to_move;
        self.states.clear();
        self.conditions_for = None;
        self.states.extend(
            edition
                .rules()
                .iter()
                .filter(|r| !r.is_repetition())
                .map(|&r| RuleState::idle(r)),
        );
        self.seen.clear();
        self.events.clear();
        self.automatic = None;
        self.won_at = None;
        self.unsettled = false;
        self.run.clear();
        self.run_index.clear();
        self.run.push((Placement::of(&initial_key), 0));
        self.holding = false;
        self.idle_material = false;
        if !may_meet_a_condition(edition, &initial) {
            return;
        }
        for st in &mut self.states {
            if let Some((counting, detail)) = condition(st.rule, &initial) {
                self.holding = true;
                st.holds = true;
                st.counting = Some(counting);
                st.detail = detail;
                st.established_at = Some(0);
                st.fires_at = st.projection(0, initial_key.side_to_move);
            }
        }
    }

    /// The full-move number of the first move of the record (from the FEN or the
    /// movetext; 1 by default). Only used to count moves for 6.1.8.1.
    pub fn with_first_move_number(mut self, n: u32) -> Self {
        self.set_first_move_number(n);
        self
    }

    /// Says whether the game is played from the start position of draughts (the default);
    /// a game from a position set up is no game whose draw can be agreed too early.
    pub fn set_from_start(&mut self, from_start: bool) {
        self.from_start = from_start;
    }

    /// Whether the game is played from the start position of draughts.
    pub fn from_start(&self) -> bool {
        self.from_start
    }

    /// [`with_first_move_number`](Self::with_first_move_number) in place.
    pub fn set_first_move_number(&mut self, n: u32) {
        self.first_move_number = n.max(1);
    }

    /// Says who moves first in the game's variant (White unless set): Black in English,
    /// pool and Thai, whose numbered moves open with Black's ply.
    pub fn set_first_player(&mut self, first: Color) {
        self.first_player = first;
    }

    /// Who moves first in the game's variant.
    pub fn first_player(&self) -> Color {
        self.first_player
    }

    /// Numbers the plies from `ply` instead of 0: for a position set up in the middle of
    /// a game (a `/FEN "…"/` command after `ply` plies of the main line), so that events,
    /// establishing plies and the verdict use the game's own ply numbers. The initial
    /// position is then the one after ply `ply`; its balance is established there.
    pub fn with_start_ply(mut self, ply: u32) -> Self {
        self.start_ply = ply;
        self.ply = ply;
        for plies in self.seen.values_mut() {
            plies.iter_mut().for_each(|p| *p = ply);
        }
        for (_, at) in &mut self.run {
            *at = ply;
        }
        for at in self.run_index.values_mut() {
            *at = ply;
        }
        for st in &mut self.states {
            if st.holds {
                st.established_at = Some(ply);
                st.fires_at = st.projection(ply, self.to_move);
            }
        }
        self
    }

    /// Follows one ply. Returns the automatic draw reached on this ply (only the first
    /// one of the game), or else a threefold repetition reached on it; every event is
    /// also kept in [`events`](Self::events).
    pub fn push(&mut self, f: &PlyFacts) -> Option<DrawEvent> {
        // A rule's condition depends on the material only, which most plies of an ending
        // leave as it was: evaluate the rules again only when it changed, and only when
        // some rule can hold at all (a king in the middlegame meets none).
        let reversible = !f.capture && !f.man_moved;
        let holding = self.holding;
        if !holding && !may_meet_a_condition(self.edition, &f.after) {
            return self.push_idle(f.mover, f.key, reversible, Some(f.side_to_move_has_moves));
        }
        self.idle_material = false;
        let (ply, won) = self.count_ply(f.mover, f.side_to_move_has_moves);
        self.update_conditions(&f.after);
        let all_idle = !holding && !self.any_condition;
        let reached = if all_idle {
            None
        } else {
            self.follow_rules(f, ply)
        };

        let ended_before = self.automatic.is_some_and(|e| e.ply < ply)
            || self.won_at.is_some_and(|(w, _)| w < ply);
        let mut result = None;
        // A win on this ply takes precedence over any draw (RULES.md §5).
        if let Some(ev) = reached.filter(|_| !won && !ended_before) {
            self.automatic = Some(ev);
            self.events.push(ev);
            result = Some(ev);
        }

        let repeated = self.follow_repetition(f.key, reversible, ply);
        result.or(repeated)
    }

    /// 7.2.3: the same placement with the same side to move, a third (or later) time, on
    /// ply `ply`, after which the position is `key`; `reversible` when the ply was a
    /// king's quiet move. Returns the repetition event reached on it.
    ///
    /// Men never move back and captured pieces never return, so after a capture or a
    /// man move no earlier position can stand again: a position can only have stood
    /// before in the run of king's quiet moves that led to it, which is looked through
    /// (every second position, those with the same side to move) instead of hashing
    /// every position of the game. Every position that stands twice or more has all its
    /// plies listed in `seen`.
    #[inline(always)]
    fn follow_repetition(
        &mut self,
        key: PositionKey,
        reversible: bool,
        ply: u32,
    ) -> Option<DrawEvent> {
        if !reversible {
            self.forget_run();
            self.run.push((Placement::of(&key), ply));
            return None;
        }
        // (an edition without a repetition rule, Frisian, has nothing to look up)
        let rule = self.edition.repetition_rule()?;
        self.look_up_repetition(Placement::of(&key), key.side_to_move, ply, rule)
    }

    /// Empties the run of positions that may stand again (after an irreversible ply).
    #[inline(always)]
    pub(crate) fn forget_run(&mut self) {
        self.run.clear();
        if !self.run_index.is_empty() {
            self.run_index.clear();
        }
    }

    /// [`follow_repetition`](Self::follow_repetition) after a king's quiet move.
    /// `placement` and `side_to_move`: the position after the ply; `rule`: the edition's
    /// repetition rule.
    fn look_up_repetition(
        &mut self,
        placement: Placement,
        side_to_move: Color,
        ply: u32,
        rule: DrawRule,
    ) -> Option<DrawEvent> {
        // the last ply at which the position stood before, if it did
        let before = if self.run.len() < SCANNED_RUN {
            // (the entries with the same side to move: every second one from the last)
            let mut same_side = self.run.iter().rev().skip(1).step_by(2);
            same_side.find(|&&(p, _)| p == placement).map(|&(_, p)| p)
        } else {
            if self.run_index.is_empty() {
                // (the last entry has the other side to move, the one before this side…)
                let len = self.run.len();
                for (k, &(p, at)) in self.run.iter().enumerate() {
                    let side = if (len - k) % 2 == 0 {
                        side_to_move
                    } else {
                        side_to_move.opponent()
                    };
                    self.run_index.entry(p.key(side)).or_insert(at);
                }
            }
            match self.run_index.entry(placement.key(side_to_move)) {
                Entry::Occupied(first) => Some(*first.get()),
                Entry::Vacant(e) => {
                    e.insert(ply);
                    None
                }
            }
        };
        self.run.push((placement, ply));
        let before = before?;
        let key = placement.key(side_to_move);
        // (a position listed stood in this run: no earlier one can come back; one not
        // listed yet stood once before, at `before`)
        let times = match self.seen.entry(key) {
            Entry::Occupied(plies) => {
                let plies = plies.into_mut();
                plies.push(ply);
                plies.len()
            }
            Entry::Vacant(e) => e.insert(vec![before, ply]).len(),
        };
        if times < 3 {
            return None;
        }
        let ev = DrawEvent {
            rule,
            ply,
            kind: DrawEventKind::Claimable,
            detail: "the same position with the same side to move for the third time or more",
        };
        self.events.push(ev);
        Some(ev)
    }

    /// [`push`](Self::push) for a ply after which no rule's condition can hold
    /// ([`may_meet_a_condition`] says no for the material after it), while none holds
    /// ([`holding`](Self::holding) is false): the material itself is not needed then,
    /// and counting it is most of the cost of a ply's facts. `reversible` when the ply
    /// was a king's quiet move (no capture, no man moved).
    ///
    /// No rule starts to hold, and none held, so all there is to do is count the ply,
    /// note a win, and follow the repetitions.
    ///
    /// `side_to_move_has_moves` may be `None`, not known yet: finding out costs a search
    /// of the quiet moves, and a replayer learns it anyway, from the next ply or at the
    /// end of the line. The ply is taken for one after which the side to move has a move
    /// until [`settle`](Self::settle) says otherwise; pushing the next ply settles it.
    pub(crate) fn push_idle(
        &mut self,
        mover: Color,
        key: PositionKey,
        reversible: bool,
        side_to_move_has_moves: Option<bool>,
    ) -> Option<DrawEvent> {
        debug_assert!(!self.holding);
        self.idle_material = true;
        let (ply, _) = self.count_ply(mover, side_to_move_has_moves.unwrap_or(true));
        self.unsettled = side_to_move_has_moves.is_none();
        self.follow_repetition(key, reversible, ply)
    }

    /// [`push_idle`](Self::push_idle) for a ply after which no king stands, with whether
    /// the side to move has a move left open, for a replayer that knows the position
    /// (synthetic facts may pair any material with any key). Every piece is then a man, so
    /// this ply was a man's and so is the next: no position before it can stand again,
    /// and it cannot stand again itself. So the run of positions that may is left empty,
    /// where `push_idle` would hold this one, never to be looked up; its key is not even
    /// made.
    #[inline]
    pub(crate) fn push_without_kings(&mut self, mover: Color) {
        debug_assert!(!self.holding);
        self.idle_material = true;
        self.count_ply(mover, true);
        self.unsettled = true;
        self.forget_run();
    }

    /// Asks `side_to_move_has_moves` whether the side to move has a legal move after the
    /// last ply, when [`push_idle`](Self::push_idle) left that open (else nothing is
    /// asked).
    pub(crate) fn settle(&mut self, side_to_move_has_moves: impl FnOnce() -> bool) {
        if std::mem::take(&mut self.unsettled) && !side_to_move_has_moves() && self.won_at.is_none()
        {
            self.won_at = Some((self.ply, self.to_move.opponent()));
        }
    }

    /// Whether some rule's condition holds in the current position.
    pub(crate) fn holding(&self) -> bool {
        self.holding
    }

    /// Whether the last ply was followed idle, so that a ply that neither captures nor
    /// promotes (and so leaves each side as many men and kings) is idle too, without
    /// asking [`may_meet_a_condition`] again.
    pub(crate) fn idle_material(&self) -> bool {
        self.idle_material
    }

    /// Counts one more ply by `mover`, noting a win when the side to move has no move;
    /// returns the ply and whether it won.
    fn count_ply(&mut self, mover: Color, side_to_move_has_moves: bool) -> (u32, bool) {
        // (a ply played shows that its side had a move)
        self.unsettled = false;
        self.ply += 1;
        let ply = self.ply;
        self.to_move = mover.opponent();
        let won = !side_to_move_has_moves;
        if won && self.won_at.is_none() {
            self.won_at = Some((ply, mover));
        }
        (ply, won)
    }

    /// Counts ply `ply` (`f`) for every rule whose condition holds in its material,
    /// restarting or idling the others; returns the first limit reached on it.
    fn follow_rules(&mut self, f: &PlyFacts, ply: u32) -> Option<DrawEvent> {
        let mut reached: Option<DrawEvent> = None;
        let to_move = self.to_move;
        for (st, &cond) in self.states.iter_mut().zip(&self.conditions) {
            match cond {
                // (a state that does not hold is idle already)
                None if st.holds => *st = RuleState::idle(st.rule),
                None => {}
                Some((counting, detail)) => {
                    let continuing =
                        st.holds && st.counting == Some(counting) && !restarts(st.rule, f);
                    if continuing {
                        st.plies += 1;
                        st.moves[f.mover.index()] += 1;
                        // Only the first time the limit is reached (king against king:
                        // the second side reaching it later changes nothing).
                        if st.reached() && st.fires_at.is_none_or(|at| at >= ply) {
                            st.fires_at = Some(ply);
                            if reached.is_none() {
                                reached = Some(DrawEvent {
                                    rule: st.rule,
                                    ply,
                                    kind: DrawEventKind::Automatic,
                                    detail,
                                });
                            }
                        } else {
                            // A ply that continues the counting leaves the projection as it
                            // was: each ply counts one move of the side that made it, whose
                            // limit it brings a ply nearer, and the other side's is as far
                            // as before now that that side moves next.
                            debug_assert!(
                                st.fires_at.is_some_and(|at| at <= ply)
                                    || st.fires_at == st.projection(ply, to_move),
                                "{st:?} at {ply}"
                            );
                        }
                    } else {
                        *st = RuleState {
                            holds: true,
                            counting: Some(counting),
                            detail,
                            established_at: Some(ply),
                            ..RuleState::idle(st.rule)
                        };
                        st.fires_at = st.projection(ply, to_move);
                    }
                }
            }
        }
        // every state now holds exactly when its condition does
        self.holding = self.any_condition;
        reached
    }

    /// Evaluates every rule's condition in `material`, unless that is already done.
    fn update_conditions(&mut self, material: &Material) {
        if self.conditions_for == Some(*material) {
            return;
        }
        self.conditions.clear();
        self.conditions
            .extend(self.states.iter().map(|st| condition(st.rule, material)));
        self.any_condition = self.conditions.iter().any(Option::is_some);
        self.conditions_for = Some(*material);
    }

    /// The edition followed.
    pub fn edition(&self) -> Edition {
        self.edition
    }

    /// The ply of the current position: the number of plies pushed so far, plus the
    /// [start ply](Self::with_start_ply).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The side to move in the current position.
    pub fn side_to_move(&self) -> Color {
        self.to_move
    }

    /// The side to move in the initial position.
    pub fn initial_side_to_move(&self) -> Color {
        self.initial_to_move
    }

    /// The ply of the initial position (0 unless set with
    /// [`with_start_ply`](Self::with_start_ply)).
    pub fn start_ply(&self) -> u32 {
        self.start_ply
    }

    /// The full-move number of the first move of the record.
    pub fn first_move_number(&self) -> u32 {
        self.first_move_number
    }

    /// Every event so far, in ply order: the first automatic draw and each threefold
    /// repetition (a position occurring for the 3rd, 4th, … time).
    pub fn events(&self) -> &[DrawEvent] {
        &self.events
    }

    /// The first automatic draw of the game, if any.
    pub fn automatic_draw(&self) -> Option<DrawEvent> {
        self.automatic
    }

    /// The ply on which a side won (the side to move had no legal move), and the winner.
    pub fn won_at(&self) -> Option<(u32, Color)> {
        self.won_at
    }

    /// For each position seen, the plies at which it stood.
    pub(super) fn occurrence_lists(&self) -> impl Iterator<Item = &[u32]> {
        self.seen.values().map(Vec::as_slice)
    }
}

#[cfg(test)]
#[path = "tracker_tests.rs"]
mod tests;
