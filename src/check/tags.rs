//! Tag hygiene: the roster tags, dates, the Result tag, duplicates, checked tag by tag as
//! the reader gives them.

use std::collections::hash_map::Entry;

use compact_str::CompactString;

use super::checker::TagEntry;
use crate::date::{DateValue, PdnForm, is_pdn_form, parse_date};
use crate::diag::Rule;
use crate::diag::codes::{self, RuleSet};
use crate::pdn::writer::ROSTER;

/// The Result tag values PDN allows (both scales; see RULES.md §4), plus `½-½`.
pub fn is_result_value(v: &str) -> bool {
    matches!(
        v.trim(),
        "1-0" | "0-1" | "1/2-1/2" | "2-0" | "0-2" | "1-1" | "0-0" | "*" | "½-½"
    )
}

/// The rules of the findings about tags, none of which is an error (a check that
/// reports none of them need not look at the tags).
pub const RULES: RuleSet = RuleSet::EMPTY
    .with("T101")
    .with("T102")
    .with("T103")
    .with("T104")
    .with("T106");

/// Findings about single tags counted and not made (past a game's limit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unmade {
    /// How many.
    pub findings: usize,
    /// How many of them are errors.
    pub errors: usize,
}

/// What is wrong with one tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TagIssue {
    /// The name was met before, in the tag at this index.
    Duplicate(usize),
    /// A Date pdnkit cannot read.
    InvalidDate,
    /// A Date written as one but no day of the calendar.
    NotADay,
    /// A Result that is no PDN result.
    InvalidResult,
    /// A Date that is a date (or says none is known) not written in PDN's form.
    NonstandardDate,
}

impl TagIssue {
    /// The finding's rule.
    pub(crate) fn rule(self) -> &'static Rule {
        match self {
            TagIssue::Duplicate(_) => &codes::DUPLICATE_TAG,
            TagIssue::InvalidDate | TagIssue::NotADay => &codes::INVALID_DATE,
            TagIssue::InvalidResult => &codes::INVALID_RESULT_TAG,
            TagIssue::NonstandardDate => &codes::NONSTANDARD_DATE,
        }
    }

    /// The finding's message about the tag `name` with `value` (and the value of the first
    /// one of a duplicate, or a nonstandard date's PDN form).
    pub(crate) fn message(
        self,
        name: &str,
        value: &str,
        first_value: &str,
        form: Option<&PdnForm>,
    ) -> String {
        match self {
            TagIssue::Duplicate(_) => format!(
                "tag {name} appears again (first value \"{first_value}\", this one \"{value}\"); the first is used"
            ),
            TagIssue::InvalidDate => format!(
                "Date \"{value}\" is not a date pdnkit can read (PDN wants YYYY.MM.DD, ?? for unknown parts)"
            ),
            TagIssue::NotADay => format!("Date \"{value}\" is not a day of the calendar"),
            TagIssue::InvalidResult => {
                format!("Result \"{value}\" is not one of 1-0, 0-1, 1/2-1/2, 2-0, 0-2, 1-1, 0-0, *")
            }
            TagIssue::NonstandardDate => match form {
                Some(form) if !form.certain => format!(
                    "Date \"{value}\" is not written as PDN writes dates; read day first it is {} (its day and month could be either way round)",
                    form.text
                ),
                form => format!(
                    "Date \"{value}\" is not written as PDN writes dates: {}",
                    form.map_or("", |f| f.text.as_str())
                ),
            },
        }
    }
}

/// Tags of a game up to this many are compared with the names before them; past it, the
/// names are looked up in a map (a game may have thousands of tags).
const SCANNED_TAGS: usize = 16;

/// The tags of one game checked one at a time, in file order.
#[derive(Clone, Debug, Default)]
pub(crate) struct TagCheck {
    /// Once a game has more than [`SCANNED_TAGS`] tags: each name met, with its first
    /// tag's index.
    first: foldhash::HashMap<CompactString, usize>,
    /// The roster tags met, one bit each in [`ROSTER`] order.
    roster: u8,
    noted: Noted,
    /// A bit for each name met, by a hash of its length and its ends: a name whose bit is
    /// not set was not met (most names of most games), and needs no comparing.
    seen: u64,
}

/// The first tags called Result, GameType, Variant and FEN, by index: what the checker
/// looks up.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Noted {
    pub(crate) result: Option<usize>,
    pub(crate) game_type: Option<usize>,
    pub(crate) variant: Option<usize>,
    pub(crate) fen: Option<usize>,
}

impl TagCheck {
    /// Starts a game's tags (the map keeps its room).
    pub(crate) fn clear(&mut self) {
        self.first.clear();
        self.roster = 0;
        self.noted = Noted::default();
        self.seen = 0;
    }

    /// Notes the `i`-th tag of a game, called `name`: a roster tag met, or the first
    /// Result, GameType or FEN.
    pub(crate) fn note(&mut self, i: usize, name: &str) {
        let first = |slot: &mut Option<usize>| {
            slot.get_or_insert(i);
        };
        let roster = match name {
            "Event" => 0,
            "Site" => 1,
            "Date" => 2,
            "Round" => 3,
            "White" => 4,
            "Black" => 5,
            "Result" => {
                first(&mut self.noted.result);
                6
            }
            "GameType" => return first(&mut self.noted.game_type),
            "Variant" => return first(&mut self.noted.variant),
            "FEN" => return first(&mut self.noted.fen),
            _ => return,
        };
        self.roster |= 1 << roster;
    }

    /// The tags noted so far.
    pub(crate) fn noted(&self) -> Noted {
        self.noted
    }

    /// The index of the first of `tags` called as the last one, when that is not the last.
    fn first_of(&mut self, tags: &[TagEntry]) -> Option<usize> {
        let i = tags.len() - 1;
        let name = &tags[i].name;
        if i < SCANNED_TAGS {
            let b = name.as_bytes();
            let hash = b.len() ^ usize::from(b.first().map_or(0, |c| c ^ b[b.len() - 1] << 2));
            let bit = 1u64 << (hash % 64);
            if self.seen & bit == 0 {
                self.seen |= bit;
                return None;
            }
            return tags[..i].iter().position(|t| t.name == *name);
        }
        if self.first.is_empty() {
            for (k, t) in tags[..i].iter().enumerate().rev() {
                self.first.insert(t.name.clone(), k);
            }
        }
        match self.first.entry(name.clone()) {
            Entry::Occupied(e) => Some(*e.get()),
            Entry::Vacant(e) => {
                e.insert(i);
                None
            }
        }
    }

    /// What is wrong with the last of `tags` (the game's tags so far).
    pub(crate) fn check(&mut self, tags: &[TagEntry]) -> Option<TagIssue> {
        let tag = tags.last()?;
        if let Some(first) = self.first_of(tags) {
            return Some(TagIssue::Duplicate(first));
        }
        let value = tag.value.as_str();
        match tag.name.as_str() {
            "Date" => match parse_date(value) {
                DateValue::Unreadable => Some(TagIssue::InvalidDate),
                DateValue::NotADay => Some(TagIssue::NotADay),
                DateValue::Date(_) | DateValue::Unknown if !is_pdn_form(value) => {
                    Some(TagIssue::NonstandardDate)
                }
                _ => None,
            },
            "Result" if !value.trim().is_empty() && !is_result_value(value) => {
                Some(TagIssue::InvalidResult)
            }
            _ => None,
        }
    }

    /// The roster tags missing from the tags checked, in roster order.
    pub(crate) fn missing_roster_names(&self) -> impl Iterator<Item = &'static str> + use<> {
        let missing = !self.roster & ((1 << ROSTER.len()) - 1);
        (ROSTER.iter().enumerate())
            .filter(move |(k, _)| missing & (1 << k) != 0)
            .map(|(_, name)| *name)
    }

    /// The message of the finding about the roster tags missing from the tags checked, if
    /// some are.
    pub(crate) fn missing_roster(&self) -> Option<String> {
        let missing = !self.roster & ((1 << ROSTER.len()) - 1);
        if missing == 0 {
            return None;
        }
        let mut message = String::with_capacity(64);
        message.push_str(if missing.count_ones() == 1 {
            "missing roster tag: "
        } else {
            "missing roster tags: "
        });
        for (k, name) in ROSTER.iter().enumerate() {
            if missing & (1 << k) != 0 {
                if !message.ends_with(' ') {
                    message.push_str(", ");
                }
                message.push_str(name);
            }
        }
        Some(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::CheckOptions;
    use crate::check::checker::Keep;
    use crate::check::checker::testing::{check, with_tags};

    fn full() -> Vec<(&'static str, &'static str)> {
        vec![
            ("Event", "USSR ch"),
            ("Site", "Moscow"),
            ("Date", "1965.01.01"),
            ("Round", "1"),
            ("White", "A"),
            ("Black", "B"),
            ("Result", "1-0"),
        ]
    }

    /// A tag finding: the rule's name, the index of its tag, the message.
    type Found = (&'static str, Option<usize>, String);

    /// The tag findings of a game with these tags, reporting `report`, and those counted
    /// and not made.
    fn findings(tags: &[(&str, &str)], report: RuleSet) -> (Vec<Found>, Unmade) {
        let options = CheckOptions {
            report,
            ..CheckOptions::default()
        };
        let (r, _) = check(&with_tags(tags), &options, Keep::default());
        let index = |f: &crate::replay::Finding| {
            f.span
                .map(|s| r.tags.iter().position(|t| t.span == s).unwrap())
        };
        let made = r
            .tag_findings
            .iter()
            .map(|f| (f.rule.name, index(f), f.message.clone()));
        (made.collect(), r.tags_unmade)
    }

    fn all(tags: &[(&str, &str)]) -> Vec<(&'static str, Option<usize>, String)> {
        findings(tags, RuleSet::ALL).0
    }

    #[test]
    fn findings_past_the_maximum_are_counted_not_made() {
        let mut t = vec![("Date", "someday")];
        t.extend([("a", "1"); 1010]);
        let (made, unmade) = findings(&t, RuleSet::ALL);
        // the date, the first duplicates up to the limit (and one), then the one about
        // the whole section
        let max = crate::check::MAX_GAME_FINDINGS;
        assert_eq!(made.len(), max + 2);
        assert_eq!(made[0].0, "invalid-date");
        assert!(made[1..=max].iter().all(|f| f.0 == "duplicate-tag"));
        assert_eq!(made[max + 1].0, "missing-tag");
        assert_eq!(
            unmade,
            Unmade {
                findings: 1009 - max,
                errors: 0
            }
        );
    }

    #[test]
    fn only_the_rules_reported_are_made() {
        let mut t = vec![("Date", "garbage"), ("Result", "9-9")];
        t.extend(std::iter::repeat_n(("Date", "again"), 5));
        let (made, _) = findings(&t, RuleSet::EMPTY.with("T102"));
        assert_eq!(made.len(), 1);
        assert_eq!(made[0].0, "invalid-date");
        let (made, _) = findings(&t, RuleSet::EMPTY.with("T104"));
        assert_eq!(made.len(), 5);
        assert!(made.iter().all(|f| f.0 == "duplicate-tag"));
        assert!(findings(&t, RuleSet::EMPTY.with("M101")).0.is_empty());
    }

    #[test]
    fn the_tag_rules_are_those_made_and_none_is_an_error() {
        for rule in codes::ALL {
            let is_tag_rule = ["T101", "T102", "T103", "T104", "T106"].contains(&rule.code);
            assert_eq!(RULES.contains(rule), is_tag_rule, "{}", rule.code);
            if is_tag_rule {
                assert_ne!(rule.severity, crate::diag::Severity::Error, "{}", rule.code);
            }
        }
        // every kind of finding about tags, made for a game that has them all
        for (name, _, _) in all(&[("Date", "x"), ("Date", "y"), ("Result", "z")]) {
            assert!(RULES.contains(codes::find(name).unwrap()), "{name}");
        }
    }

    #[test]
    fn a_complete_roster_is_clean() {
        assert!(all(&full()).is_empty());
    }

    #[test]
    fn missing_tags_are_listed_in_one_finding() {
        let f = all(&[("Event", "x"), ("Result", "*")]);
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].0, f[0].1), ("missing-tag", None));
        assert_eq!(
            f[0].2,
            "missing roster tags: Site, Date, Round, White, Black"
        );
        let mut t = full();
        t.remove(3);
        assert_eq!(all(&t)[0].2, "missing roster tag: Round");
        let mut check = TagCheck::default();
        assert_eq!(
            check.missing_roster().unwrap(),
            "missing roster tags: Event, Site, Date, Round, White, Black, Result"
        );
        check.note(0, "Round");
        check.clear();
        assert_eq!(check.missing_roster().unwrap().len(), 67);
    }

    #[test]
    fn duplicates_dates_and_results() {
        let mut t = full();
        t[2].1 = "last tuesday";
        t[6].1 = "white";
        t.push(("Event", "again"));
        let names: Vec<_> = all(&t).into_iter().map(|f| (f.0, f.1)).collect();
        assert_eq!(
            names,
            [
                ("invalid-date", Some(2)),
                ("invalid-result-tag", Some(6)),
                ("duplicate-tag", Some(7))
            ]
        );
        assert_eq!(
            all(&t)[2].2,
            "tag Event appears again (first value \"USSR ch\", this one \"again\"); the first is used"
        );
    }

    #[test]
    fn duplicates_among_many_tags() {
        // past the names compared one by one, the names are looked up in a map: a
        // duplicate of a name before that point and of one after it are both found
        let names: Vec<String> = (0..40).map(|k| format!("X{k}")).collect();
        let mut t: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "v")).collect();
        t.push(("X3", "again"));
        t.push(("X30", "again"));
        let found: Vec<_> = all(&t).into_iter().map(|f| (f.0, f.1)).collect();
        assert_eq!(
            &found[..2],
            [("duplicate-tag", Some(40)), ("duplicate-tag", Some(41))]
        );
        let mut check = TagCheck::default();
        let mut tags = Vec::new();
        for (i, (name, value)) in t.iter().enumerate() {
            tags.push(crate::check::checker::TagEntry {
                name: (*name).into(),
                value: (*value).into(),
                span: Default::default(),
                value_span: Default::default(),
            });
            let issue = check.check(&tags);
            assert_eq!(issue.is_some(), i >= 40, "{name}");
        }
    }

    #[test]
    fn lenient_dates_and_padded_results_pass() {
        let mut t = full();
        t[6].1 = " 0-1";
        assert!(all(&t).is_empty());
        // a date read but not in PDN's form: an info with its fix, no warning
        t[2].1 = "1.1.1965";
        let found = all(&t);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].0, found[0].1), ("nonstandard-date", Some(2)));
    }
}
