//! The players' table of [`Stats`](super::Stats): every distinct name once, and small
//! counters.
//!
//! An archive may name millions of players, each once or twice, so what a player costs
//! is what the table costs: a name is kept once, in one buffer of all the names (no
//! allocation of its own), an entry holds where it ends and four `u32` counters (24
//! bytes), and the index is a hash table of entry numbers (4 bytes and a control byte a
//! slot), hashed by the text they point to. A counter that would pass `u32::MAX` (four
//! billion games of one player) moves the player's counts to a table of full counts, so
//! the counts stay exact.

use super::PlayerCounts;
use crate::Color;
use crate::outcome::Outcome;
use hashbrown::HashTable;
use std::collections::HashMap;
use std::hash::BuildHasher;

/// Players by name, with their counts.
#[derive(Clone, Default)]
pub struct Players {
    /// Every name, one after another, in the order first met.
    names: String,
    /// Per player, in the same order: where its name ends in `names`, and its counts.
    entries: Vec<Entry>,
    /// Entry numbers, hashed by name.
    index: HashTable<u32>,
    hasher: foldhash::fast::RandomState,
    /// The counts of players whose counters would have overflowed, by entry number (what
    /// their counters hold is to be added).
    wide: HashMap<u32, [u64; 4]>,
}

#[derive(Clone, Copy)]
struct Entry {
    end: usize,
    /// Wins, draws, losses (`0-0` too), unknown.
    counts: [u32; 4],
}

const WINS: usize = 0;
const DRAWS: usize = 1;
const LOSSES: usize = 2;
const UNKNOWN: usize = 3;

impl Players {
    /// How many players.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Counts a game of the player `name` with `color`, ending in `outcome`.
    pub fn add(&mut self, name: &str, outcome: Outcome, color: Color) {
        let counter = match (outcome, color) {
            (Outcome::WhiteWins, Color::White) | (Outcome::BlackWins, Color::Black) => WINS,
            (Outcome::WhiteWins, Color::Black)
            | (Outcome::BlackWins, Color::White)
            | (Outcome::BothLose, _) => LOSSES,
            (Outcome::Draw, _) => DRAWS,
            (Outcome::Unknown, _) => UNKNOWN,
        };
        let mut one = [0; 4];
        one[counter] = 1;
        let i = self.find_or_insert(name);
        self.add_counts(i, one);
    }

    /// Adds the players and counts of `other`.
    pub fn merge(&mut self, other: &Players) {
        for i in 0..other.entries.len() {
            let (name, counts) = (other.name(i), other.full(i));
            let at = self.find_or_insert(name);
            self.add_counts(at, counts);
        }
    }

    /// Every player, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, PlayerCounts)> {
        (0..self.entries.len()).map(|i| (self.name(i), self.counts(i)))
    }

    /// The counts of a player, if the player is there.
    pub fn get(&self, name: &str) -> Option<PlayerCounts> {
        let hash = self.hasher.hash_one(name);
        let &i = self.index.find(hash, |&i| self.name(i as usize) == name)?;
        Some(self.counts(i as usize))
    }

    /// The name of entry `i`.
    pub fn name(&self, i: usize) -> &str {
        let start = match i {
            0 => 0,
            i => self.entries[i - 1].end,
        };
        &self.names[start..self.entries[i].end]
    }

    /// The counts of entry `i`.
    pub fn counts(&self, i: usize) -> PlayerCounts {
        let [wins, draws, losses, unknown] = self.full(i);
        PlayerCounts {
            games: wins + draws + losses + unknown,
            wins,
            draws,
            losses,
            unknown,
        }
    }

    /// The games of entry `i`.
    pub fn games(&self, i: usize) -> u64 {
        let small: u64 = self.entries[i].counts.iter().map(|&n| u64::from(n)).sum();
        match self.wide.is_empty() {
            true => small,
            false => self.full(i).iter().sum(),
        }
    }

    fn full(&self, i: usize) -> [u64; 4] {
        let mut full = self.entries[i].counts.map(u64::from);
        if let Some(wide) = self.wide.get(&(i as u32)) {
            for (f, w) in full.iter_mut().zip(wide) {
                *f += w;
            }
        }
        full
    }

    /// The entry of `name`, made if it is new.
    fn find_or_insert(&mut self, name: &str) -> usize {
        let Players {
            names,
            entries,
            index,
            hasher,
            ..
        } = self;
        let name_of = |i: u32| {
            let i = i as usize;
            let start = if i == 0 { 0 } else { entries[i - 1].end };
            &names[start..entries[i].end]
        };
        let hash = hasher.hash_one(name);
        if let Some(&i) = index.find(hash, |&i| name_of(i) == name) {
            return i as usize;
        }
        let i = u32::try_from(entries.len()).expect("fewer than 2^32 players");
        names.push_str(name);
        entries.push(Entry {
            end: names.len(),
            counts: [0; 4],
        });
        let (names, entries) = (&*names, &*entries);
        index.insert_unique(hash, i, |&j| {
            let j = j as usize;
            let start = if j == 0 { 0 } else { entries[j - 1].end };
            hasher.hash_one(&names[start..entries[j].end])
        });
        i as usize
    }

    /// Adds `counts` to entry `i`, exactly.
    fn add_counts(&mut self, i: usize, counts: [u64; 4]) {
        let entry = &mut self.entries[i];
        for (k, n) in counts.into_iter().enumerate() {
            let sum = u64::from(entry.counts[k]) + n;
            match u32::try_from(sum) {
                Ok(small) => entry.counts[k] = small,
                Err(_) => {
                    self.wide.entry(i as u32).or_default()[k] += sum;
                    entry.counts[k] = 0;
                }
            }
        }
    }
}

/// The same players with the same counts, met in any order.
impl PartialEq for Players {
    fn eq(&self, other: &Players) -> bool {
        self.len() == other.len()
            && (self.iter()).all(|(name, counts)| other.get(name) == Some(counts))
    }
}

impl std::fmt::Debug for Players {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_name_once_with_its_counts() {
        let mut p = Players::default();
        p.add("Ann", Outcome::WhiteWins, Color::White);
        p.add("Bob", Outcome::WhiteWins, Color::Black);
        p.add("Ann", Outcome::Draw, Color::Black);
        p.add("", Outcome::Unknown, Color::White);
        p.add("Анна", Outcome::BothLose, Color::Black);
        assert_eq!(p.len(), 4);
        assert_eq!(p.names, "AnnBobАнна");
        let ann = p.get("Ann").unwrap();
        assert_eq!((ann.games, ann.wins, ann.draws), (2, 1, 1));
        assert_eq!(p.get("Bob").unwrap().losses, 1);
        assert_eq!(p.get("Анна").unwrap().losses, 1);
        assert_eq!(p.get("").unwrap().unknown, 1);
        assert_eq!(p.get("Bo"), None);
    }

    #[test]
    fn merging_in_any_order_gives_the_same_table() {
        let mut a = Players::default();
        let mut b = Players::default();
        for n in 0..1000 {
            a.add(&format!("P{}", n % 300), Outcome::WhiteWins, Color::White);
            b.add(&format!("P{}", n % 700), Outcome::Draw, Color::Black);
        }
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b.clone();
        ba.merge(&a);
        assert_eq!(ab, ba);
        assert_eq!(ab.len(), 700);
        let p1 = ab.get("P1").unwrap();
        assert_eq!((p1.games, p1.wins, p1.draws), (4 + 2, 4, 2));
    }

    #[test]
    fn counters_past_u32_stay_exact() {
        let mut p = Players::default();
        p.add("A", Outcome::WhiteWins, Color::White);
        p.add_counts(0, [u64::from(u32::MAX), 0, 0, 5]);
        p.add("A", Outcome::WhiteWins, Color::White);
        let a = p.get("A").unwrap();
        assert_eq!(a.wins, u64::from(u32::MAX) + 2);
        assert_eq!(a.games, u64::from(u32::MAX) + 2 + 5);
        let mut q = Players::default();
        q.merge(&p);
        q.merge(&p);
        assert_eq!(q.get("A").unwrap().wins, 2 * (u64::from(u32::MAX) + 2));
    }
}
