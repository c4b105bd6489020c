//! Tag hygiene: the roster tags, dates, the Result tag, duplicates.

use std::borrow::Cow;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

use crate::date::{DateValue, parse_date};
use crate::diag::Rule;
use crate::diag::codes::{self, RuleSet};

/// The seven roster tags of PDN, in their standard order.
pub const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// A finding about the tags of one game; `tag` is the index of the tag it concerns (in
/// file order), `None` for a finding about the whole tag section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagFinding {
    pub rule: &'static Rule,
    pub message: String,
    pub tag: Option<usize>,
}

/// The Result tag values PDN allows (both scales; see RULES.md §4), plus `½-½`.
pub fn is_result_value(v: &str) -> bool {
    matches!(
        v.trim(),
        "1-0" | "0-1" | "1/2-1/2" | "2-0" | "0-2" | "1-1" | "0-0" | "*" | "½-½"
    )
}

/// The rules of the findings about tags, none of which is an error (a check that
/// reports none of them need not look at the tags: a test holds this).
pub const RULES: RuleSet = RuleSet::EMPTY
    .with("T101")
    .with("T102")
    .with("T103")
    .with("T104");

/// Checks a game's tags, given as (name, decoded value) in file order.
pub fn check_tags<'a>(tags: impl IntoIterator<Item = (&'a str, &'a str)>) -> Vec<TagFinding> {
    check_tags_up_to(tags, usize::MAX).0
}

/// Findings about single tags that [`check_tags_up_to`] counted and did not make.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unmade {
    /// How many.
    pub findings: usize,
    /// How many of them are errors.
    pub errors: usize,
}

/// [`check_tags`], making at most `max` findings about single tags (in file order, so
/// the first ones) and only counting the rest; the finding about the whole tag section
/// is always made. A game of 10,000 repeated tags, within the reader's limits, made and
/// dropped 10,000 messages and megabytes of vectors in the check, which reports only its
/// first findings ([`super::MAX_GAME_FINDINGS`]).
pub fn check_tags_up_to<'a>(
    tags: impl IntoIterator<Item = (&'a str, &'a str)>,
    max: usize,
) -> (Vec<TagFinding>, Unmade) {
    check_tags_reporting(tags, max, &RuleSet::ALL)
}

/// [`check_tags_up_to`] for the rules of `report` only: the findings of the others are
/// neither made nor counted (and the tags not looked at when it has none of [`RULES`],
/// none of which is an error).
pub fn check_tags_reporting<'a>(
    tags: impl IntoIterator<Item = (&'a str, &'a str)>,
    max: usize,
    report: &RuleSet,
) -> (Vec<TagFinding>, Unmade) {
    if !report.meets(&RULES) {
        return Default::default();
    }
    let tags: Vec<(&str, &str)> = tags.into_iter().collect();
    let mut findings = Vec::new();
    let mut unmade = Unmade::default();
    // A finding about tag `i`: made, or past `max` counted (its message never formatted).
    let mut add = |findings: &mut Vec<TagFinding>,
                   rule: &'static Rule,
                   i: usize,
                   message: &dyn Fn() -> String| {
        if !report.contains(rule) {
            // (not reported: neither made nor counted)
        } else if findings.len() < max {
            findings.push(TagFinding {
                rule,
                message: message(),
                tag: Some(i),
            });
        } else {
            unmade.findings += 1;
            unmade.errors += usize::from(rule.severity == crate::diag::Severity::Error);
        }
    };
    // Each tag's first occurrence by name: looked up in a map past a few tags, so that a
    // game of many tags (up to the reader's item limit, which a user may raise) does not
    // cost a comparison per pair of them.
    let mut firsts: HashMap<&str, usize> = HashMap::new();
    let many = tags.len() > 16;
    for (i, (name, value)) in tags.iter().enumerate() {
        let first = if many {
            match firsts.entry(name) {
                Entry::Occupied(first) => Some(*first.get()),
                Entry::Vacant(slot) => {
                    slot.insert(i);
                    None
                }
            }
        } else {
            tags[..i].iter().position(|(n, _)| n == name)
        };
        if let Some(first) = first {
            add(&mut findings, &codes::DUPLICATE_TAG, i, &|| {
                format!(
                    "tag {name} appears again (first value \"{}\", this one \"{value}\"); the first is used",
                    tags[first].1
                )
            });
            continue;
        }
        match *name {
            "Date" if parse_date(value) == DateValue::Unreadable => {
                add(&mut findings, &codes::INVALID_DATE, i, &|| {
                    format!(
                        "Date \"{value}\" is not a date pdnkit can read (PDN wants YYYY.MM.DD, ?? for unknown parts)"
                    )
                })
            }
            "Result" if !value.trim().is_empty() && !is_result_value(value) => {
                add(&mut findings, &codes::INVALID_RESULT_TAG, i, &|| {
                    format!(
                        "Result \"{value}\" is not one of 1-0, 0-1, 1/2-1/2, 2-0, 0-2, 1-1, 0-0, *"
                    )
                })
            }
            _ => {}
        }
    }
    let missing = ROSTER
        .iter()
        .enumerate()
        .filter(|(_, r)| !tags.iter().any(|(n, _)| n == *r))
        .fold(0u8, |mask, (k, _)| mask | 1 << k);
    if missing != 0 && report.contains(&codes::MISSING_TAG) {
        findings.push(missing_roster(missing));
    }
    (findings, unmade)
}

/// The finding about the roster tags missing from a game: those of the bits of `missing`
/// (one each in [`ROSTER`] order; not all zero).
pub(crate) fn missing_roster(missing: u8) -> TagFinding {
    // (pushed, not formatted: nearly every game of a real file has this finding)
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
    TagFinding {
        rule: &codes::MISSING_TAG,
        message,
        tag: None,
    }
}

/// `true` when [`check_tags`] finds nothing in `tags`, answered without allocating or
/// formatting (the quick lane asks it for every game, and most games are clean); `false`
/// when it finds something, and for games with more than 16 tags outside the roster,
/// which are left to [`check_tags`].
pub fn tags_surely_clean<'a>(tags: impl IntoIterator<Item = (&'a str, &'a str)>) -> bool {
    let mut screen = TagScreen::default();
    for (name, value) in tags {
        screen.add(name, || Cow::Borrowed(value));
        if screen.spoiled {
            return false;
        }
    }
    screen.clean()
}

/// [`tags_surely_clean`] one tag at a time, as a reader meets them: the check's quick lane
/// screens each tag as it is read and keeps no copy of the tags it is not asked for.
#[derive(Clone, Debug, Default)]
pub(crate) struct TagScreen {
    /// The roster tags met, one bit each in [`ROSTER`] order.
    roster_seen: u8,
    /// The other names met, back to back; `other_ends` says where each ends.
    others: String,
    other_ends: Vec<usize>,
    /// Something [`check_tags`] would report, or more names than this follows.
    spoiled: bool,
}

impl TagScreen {
    /// Names other than the roster's compared for duplicates; more spoil the screen.
    const OTHERS: usize = 16;

    /// Starts a game's tags (the buffers stay).
    pub(crate) fn clear(&mut self) {
        self.roster_seen = 0;
        self.others.clear();
        self.other_ends.clear();
        self.spoiled = false;
    }

    /// The next tag, its decoded value asked of `value` only for the tags whose value
    /// [`check_tags`] looks at (`Date`, `Result`).
    pub(crate) fn add<'v>(&mut self, name: &str, value: impl FnOnce() -> Cow<'v, str>) {
        let roster = match name {
            "Event" => Some(0),
            "Site" => Some(1),
            "Date" => Some(2),
            "Round" => Some(3),
            "White" => Some(4),
            "Black" => Some(5),
            "Result" => Some(6),
            _ => None,
        };
        debug_assert_eq!(roster, ROSTER.iter().position(|&r| r == name));
        match roster {
            Some(k) => {
                if self.roster_seen & (1 << k) != 0 {
                    self.spoiled = true; // a duplicate
                    return;
                }
                self.roster_seen |= 1 << k;
            }
            None => {
                let mut start = 0;
                for &end in &self.other_ends {
                    if &self.others[start..end] == name {
                        self.spoiled = true; // a duplicate
                        return;
                    }
                    start = end;
                }
                if self.other_ends.len() == Self::OTHERS {
                    self.spoiled = true; // more names than this follows
                    return;
                }
                self.others.push_str(name);
                self.other_ends.push(self.others.len());
                return;
            }
        }
        let clean = match name {
            "Date" => parse_date(&value()) != DateValue::Unreadable,
            "Result" => {
                let value = value();
                value.trim().is_empty() || is_result_value(&value)
            }
            _ => true,
        };
        self.spoiled |= !clean;
    }

    /// Whether [`check_tags`] finds nothing in the tags added since [`clear`](Self::clear).
    pub(crate) fn clean(&self) -> bool {
        !self.spoiled && self.roster_seen == (1 << ROSTER.len()) - 1
    }

    /// When all [`check_tags`] finds in the tags added is that roster tags are missing
    /// (most real games lack one, and have nothing else to report about their tags): the
    /// missing ones, a bit each as [`missing_roster`] takes them. `None` when it finds
    /// nothing, or more.
    pub(crate) fn only_missing(&self) -> Option<u8> {
        let missing = !self.roster_seen & ((1 << ROSTER.len()) - 1);
        (!self.spoiled && missing != 0).then_some(missing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn findings_past_the_maximum_are_counted_not_made() {
        let mut t = vec![("Date", "someday")];
        t.extend([("a", "1"); 6]);
        let all = check_tags(t.clone());
        // the date, five duplicates, the missing roster tags
        assert_eq!(all.len(), 7);
        let (made, unmade) = check_tags_up_to(t.clone(), 3);
        // the first three about single tags, then the one about the whole section
        assert_eq!(made[..3], all[..3]);
        assert_eq!(made[3], all[6]);
        assert_eq!(made.len(), 4);
        assert_eq!(
            unmade,
            Unmade {
                findings: 3,
                errors: 0
            }
        );
        assert_eq!(check_tags_up_to(t, 6).0, all);
    }

    #[test]
    fn only_the_rules_reported_are_made_and_counted() {
        let mut t = vec![("Date", "garbage"), ("Result", "9-9")];
        t.extend(std::iter::repeat_n(("Date", "again"), 5));
        let dates = RuleSet::EMPTY.with("T102");
        let (made, unmade) = check_tags_reporting(t.clone(), 10, &dates);
        assert_eq!(made.len(), 1);
        assert_eq!(made[0].rule, &codes::INVALID_DATE);
        assert_eq!(unmade, Unmade::default());
        // the duplicates alone, past a maximum of 2: counted as before
        let (made, unmade) = check_tags_reporting(t.clone(), 2, &RuleSet::EMPTY.with("T104"));
        assert_eq!((made.len(), unmade.findings), (2, 3));
        // everything, as check_tags_up_to
        assert_eq!(
            check_tags_reporting(t.clone(), 4, &RuleSet::ALL),
            check_tags_up_to(t, 4)
        );
    }

    #[test]
    fn the_tag_rules_are_those_made_and_none_is_an_error() {
        for rule in codes::ALL {
            let is_tag_rule = ["T101", "T102", "T103", "T104"].contains(&rule.code);
            assert_eq!(RULES.contains(rule), is_tag_rule, "{}", rule.code);
            if is_tag_rule {
                assert_ne!(rule.severity, crate::diag::Severity::Error, "{}", rule.code);
            }
        }
        // every kind of finding the check makes, made for a game that has them all
        let t = vec![("Date", "x"), ("Date", "y"), ("Result", "z")];
        for f in check_tags(t) {
            assert!(RULES.contains(f.rule), "{}", f.rule.code);
        }
    }

    #[test]
    fn a_complete_roster_is_clean() {
        assert!(check_tags(full()).is_empty());
        assert!(tags_surely_clean(full()));
    }

    #[test]
    fn the_quick_answer_agrees_with_the_findings() {
        // every subset of a roster with an extra tag, each tag's value good or bad, and
        // each tag once or twice: the quick answer is exactly "no findings"
        let good = full();
        let extra = [("GameType", "25"), ("Annotator", "x")];
        let bad = ["", "", "last tuesday", "", "", "", "white"];
        let mut cases = 0;
        // (one screen for every case: clearing it must forget the case before)
        let mut screen = TagScreen::default();
        for mask in 0u32..(1 << 9) {
            for twice in [None, Some(0), Some(7), Some(8)] {
                let mut t: Vec<(&str, &str)> = Vec::new();
                for (i, &(name, value)) in good.iter().chain(&extra).enumerate() {
                    if mask & (1 << i) == 0 {
                        continue;
                    }
                    let broken = i < 7 && mask & (1 << ((i + 3) % 9)) != 0 && !bad[i].is_empty();
                    t.push((name, if broken { bad[i] } else { value }));
                    if twice == Some(i) {
                        t.push((name, value));
                    }
                }
                let clean = check_tags(t.clone()).is_empty();
                assert_eq!(tags_surely_clean(t.clone()), clean, "{t:?}");
                // a tag at a time, every tag added whatever came before
                screen.clear();
                for &(name, value) in &t {
                    screen.add(name, || Cow::Borrowed(value));
                }
                assert_eq!(screen.clean(), clean, "{t:?}");
                // and when only roster tags are missing, the finding about them
                let findings = check_tags(t.clone());
                match screen.only_missing() {
                    Some(missing) => assert_eq!(findings, [missing_roster(missing)], "{t:?}"),
                    None => assert!(
                        clean || findings.iter().any(|f| f.rule != &codes::MISSING_TAG),
                        "{t:?}"
                    ),
                }
                cases += 1;
            }
        }
        assert_eq!(cases, 2048);
        // more names outside the roster than the quick answer follows: left to check_tags
        let many: Vec<String> = (0..17).map(|i| format!("X{i}")).collect();
        let mut t = full();
        t.extend(many.iter().map(|n| (n.as_str(), "v")));
        assert!(check_tags(t.clone()).is_empty());
        assert!(!tags_surely_clean(t));
    }

    #[test]
    fn missing_tags_are_listed_in_one_finding() {
        let f = check_tags(vec![("Event", "x"), ("Result", "*")]);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].rule.name, "missing-tag");
        assert_eq!(
            f[0].message,
            "missing roster tags: Site, Date, Round, White, Black"
        );
        assert_eq!(missing_roster(1 << 3).message, "missing roster tag: Round");
        assert_eq!(
            missing_roster(0x7f).message,
            "missing roster tags: Event, Site, Date, Round, White, Black, Result"
        );
        assert_eq!(
            check_tags(Vec::new())[0].message,
            missing_roster(0x7f).message
        );
    }

    #[test]
    fn duplicates_dates_and_results() {
        let mut t = full();
        t[2].1 = "last tuesday";
        t[6].1 = "white";
        t.push(("Event", "again"));
        let f = check_tags(t);
        let names: Vec<_> = f.iter().map(|f| (f.rule.name, f.tag)).collect();
        assert_eq!(
            names,
            [
                ("invalid-date", Some(2)),
                ("invalid-result-tag", Some(6)),
                ("duplicate-tag", Some(7))
            ]
        );
    }

    #[test]
    fn lenient_dates_and_padded_results_pass() {
        let mut t = full();
        t[2].1 = "1.1.1965";
        t[6].1 = " 0-1";
        assert!(check_tags(t).is_empty());
    }
}
