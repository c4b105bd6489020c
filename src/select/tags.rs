//! Criteria on a game's tags: `NAME OP VALUE` tests, dates as dates, numbers as numbers.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use regex::Regex;

use super::ParseCriterionError;
use crate::check::checker::TagEntry;
use crate::date::{DateValue, PartialDate, parse_date};

/// How a [`TagTest`] compares a tag's value with its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagOp {
    /// `=`: equal (as numbers, as dates: within the date given, or as text).
    Eq,
    /// `!=`: present and not equal.
    Ne,
    /// `~`: the regular expression finds a match in the value.
    Match,
    /// `<`, `<=`, `>`, `>=`: ordered as numbers, as dates, or as text (byte order).
    Lt,
    Le,
    Gt,
    Ge,
    /// `NAME` alone: the game has the tag.
    Present,
    /// `!NAME`: the game has no such tag.
    Absent,
}

impl TagOp {
    /// The operators as written, longest first (so that `<=` is not read as `<`).
    const WRITTEN: [(&'static str, TagOp); 7] = [
        ("!=", TagOp::Ne),
        ("<=", TagOp::Le),
        (">=", TagOp::Ge),
        ("=", TagOp::Eq),
        ("~", TagOp::Match),
        ("<", TagOp::Lt),
        (">", TagOp::Gt),
    ];

    /// Whether the operator holds for values ordered `order`.
    fn holds(self, order: Ordering) -> bool {
        match self {
            TagOp::Eq => order.is_eq(),
            TagOp::Ne => order.is_ne(),
            TagOp::Lt => order.is_lt(),
            TagOp::Le => order.is_le(),
            TagOp::Gt => order.is_gt(),
            TagOp::Ge => order.is_ge(),
            TagOp::Match | TagOp::Present | TagOp::Absent => false,
        }
    }
}

/// A test of one tag: `Event ~ ^Чемпионат`, `Round >= 3`, `Date < 1970`, `FEN`, `!FEN`.
///
/// The tag is found by its name in any case (the first, when a game repeats it). A game
/// without the tag fails every test but `!NAME`, as SQL's `NULL` does: `Event != X` keeps
/// only games that have an Event. Values compare:
/// - as dates when the tag is `Date` or its name ends in `Date` (`EventDate`)
///   ([`crate::date`]): a partial date stands for the days it may be, and a test holds
///   when it holds for every one of them. `Date = 1965` holds for `1965.03.12` and
///   `1965.??.??`, `Date < 1965` for dates that end before 1965, `Date >= 1965.06` for
///   dates from June 1965 on; `1965.??.??` is neither `< 1965.06` nor `>= 1965.06`. A
///   date whose year is unknown, or that cannot be read, fails every test;
/// - as numbers when both values are numbers (`Round = 3` holds for `03`); a value that
///   is no number is neither less nor greater than a number (`Round > 0` fails for `?`);
/// - else as text, exactly (byte order for `<` and `>`).
///
/// `~` is a regular expression of the `regex` crate, found anywhere in the value
/// (`(?i)` for any case, `^…$` for the whole value).
///
/// ```
/// use pdnkit::select::TagTest;
/// let t: TagTest = "Date >= 1965.06".parse().unwrap();
/// assert_eq!(t.name(), "Date");
/// assert!("Round > 2".parse::<TagTest>().is_ok());
/// assert!("Event ~ (".parse::<TagTest>().is_err());
/// ```
#[derive(Clone, Debug)]
pub struct TagTest {
    name: String,
    op: TagOp,
    value: String,
    regex: Option<Regex>,
    number: Option<f64>,
    date: Option<Days>,
}

/// The first and last day a date may be, as `yyyymmdd` numbers.
type Days = (u32, u32);

impl TagTest {
    /// The tag's name as given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The test that holds when the tag `name` contains `text` in any case (`--white`,
    /// `--event`).
    pub fn contains(name: &str, text: &str) -> TagTest {
        let pattern = format!("(?i){}", regex::escape(text.trim()));
        TagTest {
            name: name.to_string(),
            op: TagOp::Match,
            value: text.to_string(),
            // (an escaped text is a valid expression)
            regex: Regex::new(&pattern).ok(),
            number: None,
            date: None,
        }
    }

    /// Whether the game whose tags are `tags` passes.
    pub fn test(&self, tags: &[TagEntry]) -> bool {
        let found = tags
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(&self.name));
        let Some(tag) = found else {
            return self.op == TagOp::Absent;
        };
        let value = tag.value.as_str();
        match self.op {
            TagOp::Present => true,
            TagOp::Absent => false,
            TagOp::Match => self.regex.as_ref().is_some_and(|r| r.is_match(value)),
            op => self.compares(op, value),
        }
    }

    /// Whether the tag's `value` stands to the test's as `op` says.
    fn compares(&self, op: TagOp, value: &str) -> bool {
        if let Some((first, last)) = self.date {
            // (for every day the tag's date may be)
            let Some((a, b)) = date_days(value) else {
                return false;
            };
            return match op {
                TagOp::Eq => a >= first && b <= last,
                TagOp::Ne => b < first || a > last,
                TagOp::Lt => b < first,
                TagOp::Le => b <= last,
                TagOp::Gt => a > last,
                TagOp::Ge => a >= first,
                TagOp::Match | TagOp::Present | TagOp::Absent => false,
            };
        }
        let order = match (self.number, number(value)) {
            (Some(want), Some(have)) => have.partial_cmp(&want),
            // (a value that is no number is on neither side of one)
            (Some(_), None) if !matches!(op, TagOp::Eq | TagOp::Ne) => None,
            _ => Some(value.trim().cmp(self.value.as_str())),
        };
        order.is_some_and(|o| op.holds(o))
    }
}

/// Whether a tag of this name holds a date.
fn is_date_tag(name: &str) -> bool {
    name.len() >= 4 && name[name.len() - 4..].eq_ignore_ascii_case("date")
}

/// A number, as a tag value or a test's value is one.
fn number(text: &str) -> Option<f64> {
    let t = text.trim();
    // ("inf", "NaN" and the like are words, not numbers)
    if !t.bytes().any(|c| c.is_ascii_digit())
        || !t
            .bytes()
            .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'-' | b'+'))
    {
        return None;
    }
    t.parse().ok()
}

/// The days a date value may be (the first and the last, as `yyyymmdd`); `None` when
/// its year is unknown or it cannot be read.
pub(crate) fn date_days(raw: &str) -> Option<Days> {
    let span = |d: PartialDate| -> Option<Days> {
        let y = u32::from(d.year?) * 10_000;
        Some(match (d.month, d.day) {
            (Some(m), Some(day)) => {
                let v = y + u32::from(m) * 100 + u32::from(day);
                (v, v)
            }
            (Some(m), None) => (y + u32::from(m) * 100 + 1, y + u32::from(m) * 100 + 31),
            (None, _) => (y + 101, y + 1231),
        })
    };
    match parse_date(raw) {
        DateValue::Date(d) => span(d),
        DateValue::Range(a, b) => Some((span(a)?.0, span(b)?.1)),
        DateValue::Unknown | DateValue::NotADay | DateValue::Unreadable => None,
    }
}

impl FromStr for TagTest {
    type Err = ParseCriterionError;

    /// `NAME OP VALUE` (spaces around OP optional), `NAME` or `!NAME`.
    fn from_str(s: &str) -> Result<TagTest, ParseCriterionError> {
        let err = |reason: String| ParseCriterionError::new("--tag", s, reason);
        let text = s.trim();
        let name_end = text
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '!'))
            .unwrap_or(text.len());
        let (name, rest) = text.split_at(name_end);
        let rest = rest.trim_start();
        if rest.is_empty() {
            let (op, name) = match name.strip_prefix('!') {
                Some(n) => (TagOp::Absent, n),
                None => (TagOp::Present, name),
            };
            check_name(name).map_err(err)?;
            return Ok(TagTest {
                name: name.to_string(),
                op,
                value: String::new(),
                regex: None,
                number: None,
                date: None,
            });
        }
        // (`Event!=x`: the `!` ends the name)
        let (name, rest) = match name.strip_suffix('!') {
            Some(n) if rest.starts_with('=') => (n, &text[n.len()..]),
            _ => (name, rest),
        };
        check_name(name).map_err(err)?;
        let Some(&(written, op)) = TagOp::WRITTEN.iter().find(|(w, _)| rest.starts_with(w)) else {
            return Err(err(format!(
                "after the tag name `{name}` comes an operator: =, !=, ~, <, <=, > or >="
            )));
        };
        let value = unquote(rest[written.len()..].trim()).to_string();
        let mut test = TagTest {
            name: name.to_string(),
            op,
            value,
            regex: None,
            number: None,
            date: None,
        };
        match op {
            TagOp::Match => {
                let regex = Regex::new(&test.value)
                    .map_err(|e| err(format!("not a regular expression: {e}")))?;
                test.regex = Some(regex);
            }
            _ if is_date_tag(name) => {
                let days = date_days(&test.value).ok_or_else(|| {
                    err(format!(
                        "`{}` is not a date with a year (1965, 1965.03, 1965.03.12)",
                        test.value
                    ))
                })?;
                test.date = Some(days);
            }
            _ => test.number = number(&test.value),
        }
        Ok(test)
    }
}

fn check_name(name: &str) -> Result<(), String> {
    match name.is_empty() || name.contains('!') {
        true => Err("a tag name (letters, digits, `_`) comes first".to_string()),
        false => Ok(()),
    }
}

/// `"text"` without its quotes.
fn unquote(text: &str) -> &str {
    text.strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(text)
}

impl fmt::Display for TagTest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = match self.op {
            TagOp::Present => return f.write_str(&self.name),
            TagOp::Absent => return write!(f, "!{}", self.name),
            op => TagOp::WRITTEN
                .iter()
                .find(|w| w.1 == op)
                .map_or("?", |w| w.0),
        };
        write!(f, "{} {op} {}", self.name, self.value)
    }
}

/// `--date FROM..TO`: games whose Date lies within these days (either end may be left
/// open; a single date is the days it may be).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DateRange {
    first: u32,
    last: u32,
}

impl DateRange {
    /// Whether the date value `raw` lies within the range (a date whose year is unknown,
    /// or that cannot be read, does not).
    pub fn contains(&self, raw: &str) -> bool {
        date_days(raw).is_some_and(|(a, b)| a >= self.first && b <= self.last)
    }
}

impl FromStr for DateRange {
    type Err = ParseCriterionError;

    /// `1960..1970`, `1965.03..`, `..1970`, `1965`.
    fn from_str(s: &str) -> Result<DateRange, ParseCriterionError> {
        let err = |reason: String| ParseCriterionError::new("--date", s, reason);
        let date = |t: &str| {
            date_days(t).ok_or_else(|| {
                err(format!(
                    "`{t}` is not a date with a year (1965, 1965.03, 1965.03.12)"
                ))
            })
        };
        let (from, to) = match s.split_once("..") {
            Some((a, b)) => (a.trim(), b.trim()),
            None => (s.trim(), s.trim()),
        };
        if from.is_empty() && to.is_empty() {
            return Err(err("FROM..TO, one of them at least".to_string()));
        }
        let first = if from.is_empty() { 0 } else { date(from)?.0 };
        let last = if to.is_empty() { u32::MAX } else { date(to)?.1 };
        if first > last {
            return Err(err("the range ends before it starts".to_string()));
        }
        Ok(DateRange { first, last })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdn::Span;

    fn tags(pairs: &[(&str, &str)]) -> Vec<TagEntry> {
        pairs
            .iter()
            .map(|(n, v)| TagEntry {
                name: (*n).into(),
                value: (*v).into(),
                span: Span { start: 0, end: 0 },
                value_span: Span { start: 0, end: 0 },
            })
            .collect()
    }

    fn holds(test: &str, pairs: &[(&str, &str)]) -> bool {
        test.parse::<TagTest>().unwrap().test(&tags(pairs))
    }

    #[test]
    fn text_numbers_and_regular_expressions() {
        let g = [
            ("Event", "Чемпионат СССР"),
            ("Round", "03"),
            ("White", "Иванов"),
        ];
        assert!(holds("Event = Чемпионат СССР", &g));
        assert!(holds("Event=\"Чемпионат СССР\"", &g));
        assert!(!holds("Event = Чемпионат", &g));
        assert!(holds("Event != Кубок", &g));
        assert!(holds("Event ~ ^Чемп", &g));
        assert!(holds("event ~ (?i)ссср", &g));
        assert!(holds("Round = 3", &g));
        assert!(holds("Round < 10", &g), "as numbers, not as text");
        assert!(holds("Round>=3", &g));
        assert!(!holds("Round > 3", &g));
        assert!(holds("White < Петров", &g));
        assert!(!holds("Round > 0", &[("Round", "?")]) && !holds("Round < 9", &[("Round", "?")]));
        assert!(holds("Round != 1", &[("Round", "?")]));
        assert!(holds("White", &g));
        assert!(holds("!FEN", &g));
        assert!(!holds("!White", &g));
        // a game without the tag fails every test but !NAME
        assert!(!holds("Site != x", &g));
        assert!(!holds("Site ~ .", &g));
    }

    #[test]
    fn dates_compare_as_the_days_they_may_be() {
        let g = |d: &'static str| [("Date", d)];
        assert!(holds("Date = 1965", &g("1965.03.12")));
        assert!(holds("Date = 1965", &g("1965.??.??")));
        assert!(!holds("Date = 1965.03.12", &g("1965.??.??")));
        assert!(holds("Date < 1966", &g("1965.12.31")));
        assert!(!holds("Date < 1965", &g("1965.01.01")));
        assert!(holds("Date <= 1965", &g("1965.06.01")));
        assert!(holds("Date >= 1965.06", &g("1965.06.01")));
        assert!(!holds("Date >= 1965.06", &g("1965.05.31")));
        assert!(holds("Date > 1965", &g("12.01.1966")));
        assert!(!holds("Date > 1965", &g("1965")));
        assert!(holds("Date = 2004", &g("2004.10.27 - 2004.11.01")));
        // a date that may be on either side is on neither
        assert!(!holds("Date < 1965.06", &g("1965")) && !holds("Date >= 1965.06", &g("1965")));
        assert!(holds("Date <= 1965.06", &g("1965.06")) && !holds("Date != 1965", &g("1965.06")));
        assert!(holds("Date != 1965", &g("1966.01")));
        assert!(!holds("Date < 2000", &g("????.??.??")));
        assert!(holds("EventDate = 1970", &[("EventDate", "1970.05.01")]));
        assert!("Date < yesterday".parse::<TagTest>().is_err());
    }

    #[test]
    fn date_ranges() {
        let r: DateRange = "1960..1970".parse().unwrap();
        assert!(r.contains("1960.01.01") && r.contains("1970.12.31") && r.contains("1965"));
        assert!(!r.contains("1959.12.31") && !r.contains("1971") && !r.contains("?"));
        let open: DateRange = "1965.03..".parse().unwrap();
        assert!(open.contains("1965.03.01") && open.contains("2024") && !open.contains("1965"));
        assert!("..1970".parse::<DateRange>().unwrap().contains("1900"));
        assert!("1965".parse::<DateRange>().unwrap().contains("1965.07"));
        for bad in ["..", "1970..1960", "x..1970"] {
            assert!(bad.parse::<DateRange>().is_err(), "{bad}");
        }
    }

    #[test]
    fn bad_tests_say_why() {
        for bad in ["", "= x", "Event ? x", "Event ~ (", "Date >= soon"] {
            assert!(bad.parse::<TagTest>().is_err(), "{bad}");
        }
        assert_eq!(
            "Round>=3".parse::<TagTest>().unwrap().to_string(),
            "Round >= 3"
        );
        assert!(holds("Event!=x", &[("Event", "y")]));
    }

    #[test]
    fn contains_is_any_case() {
        let t = TagTest::contains("White", "иван");
        assert!(t.test(&tags(&[("White", "Иванов И.")])));
        assert!(!t.test(&tags(&[("Black", "Иванов И.")])));
        assert!(TagTest::contains("Event", "a.b").test(&tags(&[("Event", "xa.b")])));
        assert!(!TagTest::contains("Event", "a.b").test(&tags(&[("Event", "axb")])));
    }
}
