//! Lenient reading of PDN `Date` tags.
//!
//! PDN 3.0 wants `YYYY.MM.DD` with `??` for unknown parts; real files also write
//! `1.1.1965`, `25.11.2000`, `13-01-1996`, `2024-12-14`, `1970.4.2`, `1950.`, `17 april 2009`,
//! `2004.10.27 - 2004.11.01` and `2007/2008` (PDN.md §7.12). We read what can be read
//! without guessing, keep the raw text elsewhere, and say "unreadable" otherwise.

use std::fmt;

/// A date with possibly unknown month and day.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PartialDate {
    pub year: Option<u16>,
    pub month: Option<u8>,
    pub day: Option<u8>,
}

impl PartialDate {
    /// ISO 8601 as far as known: `1965-01-01`, `1965-03`, `1965`; `None` when even the year
    /// is unknown.
    pub fn iso(&self) -> Option<String> {
        let y = self.year?;
        // (digits pushed, not formatted: a CSV row of every game writes one, and the
        // formatting machinery with its padding cost more than the rest of the date)
        let mut out = String::with_capacity(10);
        push_zero_padded(&mut out, y, 4);
        if let Some(m) = self.month {
            out.push('-');
            push_zero_padded(&mut out, u16::from(m), 2);
            if let Some(d) = self.day {
                out.push('-');
                push_zero_padded(&mut out, u16::from(d), 2);
            }
        }
        Some(out)
    }
}

/// Appends `n` in decimal, with leading zeros up to `width` digits (as `{n:0width$}`).
fn push_zero_padded(out: &mut String, n: u16, width: usize) {
    let mut digits = itoa::Buffer::new();
    let digits = digits.format(n);
    for _ in digits.len()..width {
        out.push('0');
    }
    out.push_str(digits);
}

impl fmt::Display for PartialDate {
    /// PDN form `YYYY.MM.DD` with `??` for unknown parts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.year {
            Some(y) => write!(f, "{y:04}.")?,
            None => f.write_str("????.")?,
        }
        match self.month {
            Some(m) => write!(f, "{m:02}.")?,
            None => f.write_str("??.")?,
        }
        match self.day {
            Some(d) => write!(f, "{d:02}"),
            None => f.write_str("??"),
        }
    }
}

/// What a `Date` value says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DateValue {
    /// Empty, `?` or `????.??.??`: explicitly unknown.
    Unknown,
    /// A date (possibly partial).
    Date(PartialDate),
    /// A range such as `2004.10.27 - 2004.11.01` or a season `2007/2008`: the first date.
    Range(PartialDate, PartialDate),
    /// Written as a date, but not a day of the calendar (`1965.02.30`, `2023.02.29`).
    NotADay,
    /// Not readable as a date.
    Unreadable,
}

impl PartialDate {
    /// Whether the day, when known, is one of its month in its year (in some year, when
    /// the year is unknown: 29 February).
    fn is_a_day(&self) -> bool {
        let (Some(day), Some(month)) = (self.day, self.month) else {
            return true;
        };
        let days = time::Month::try_from(month).map_or(0, |m| {
            time::util::days_in_month(m, self.year.map_or(2000, i32::from))
        });
        day <= days
    }
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// Reads a `Date` tag value.
pub fn parse_date(raw: &str) -> DateValue {
    match read_date(raw) {
        DateValue::Date(d) if !d.is_a_day() => DateValue::NotADay,
        DateValue::Range(a, b) if !(a.is_a_day() && b.is_a_day()) => DateValue::NotADay,
        value => value,
    }
}

/// A Date tag value written in PDN's form ([`pdn_form`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnForm {
    /// The value as PDN writes it: `1965.01.01`, `1965.??.??`, `????.??.??`.
    pub text: String,
    /// Whether that is what the value says for certain. Not when a date written day
    /// first has a day and a month that could be either way round (`05.03.1965`): pdnkit
    /// reads the day first, as Russian and European records write dates, but the writer
    /// may have meant 3 May.
    pub certain: bool,
}

/// The Date tag value `raw` in PDN's form `YYYY.MM.DD` (with `??` for unknown parts), when
/// it is a date or says the date is unknown, written otherwise (`1.1.1965`, `2024-12-14`,
/// `17 april 2009`, `1950`, `?`). `None` when it is in PDN's form already, or is no
/// single date: a range or a season (which PDN's form cannot hold without losing an end),
/// unreadable, or no day of the calendar.
pub fn pdn_form(raw: &str) -> Option<PdnForm> {
    if is_pdn_form(raw) {
        return None;
    }
    let date = match parse_date(raw) {
        DateValue::Unknown => PartialDate {
            year: None,
            month: None,
            day: None,
        },
        DateValue::Date(d) => d,
        _ => return None,
    };
    let s = raw.trim();
    let year_first = s
        .split(['.', '-', '/'])
        .next()
        .is_some_and(|p| p.trim().len() == 4);
    let in_words = s.bytes().any(|c| c.is_ascii_alphabetic());
    let either_way = match (date.day, date.month) {
        (Some(d), Some(m)) => d <= 12 && d != m && !year_first && !in_words,
        _ => false,
    };
    Some(PdnForm {
        text: date.to_string(),
        certain: !either_way,
    })
}

/// Whether `raw` is `YYYY.MM.DD` exactly, each part digits or question marks.
pub fn is_pdn_form(raw: &str) -> bool {
    let b = raw.as_bytes();
    let part = |p: &[u8]| p.iter().all(u8::is_ascii_digit) || p.iter().all(|&c| c == b'?');
    b.len() == 10
        && b[4] == b'.'
        && b[7] == b'.'
        && part(&b[..4])
        && part(&b[5..7])
        && part(&b[8..])
}

/// [`parse_date`] before the calendar is asked.
fn read_date(raw: &str) -> DateValue {
    let single = |s: &str| parse_split(s.trim().trim_end_matches(['.', ',']));
    let s = raw.trim();
    if s.bytes()
        .all(|c| matches!(c, b'?' | b'.' | b'-' | b'/' | b' '))
    {
        return DateValue::Unknown;
    }
    if let Some(d) = single(s) {
        return DateValue::Date(d);
    }
    // ranges: "A - B", "A/B" (seasons), "A-B" where both sides are dates
    for sep in [" - ", " – ", "/", " to "] {
        if let Some((a, b)) = s.split_once(sep) {
            if let (Some(a), Some(b)) = (single(a.trim()), single(b.trim())) {
                return DateValue::Range(a, b);
            }
        }
    }
    DateValue::Unreadable
}

fn valid(y: Option<u16>, m: Option<u8>, d: Option<u8>) -> Option<PartialDate> {
    if let Some(y) = y {
        if !(1000..=2999).contains(&y) {
            return None;
        }
    }
    if let Some(m) = m {
        if !(1..=12).contains(&m) {
            return None;
        }
    }
    if let Some(d) = d {
        if !(1..=31).contains(&d) || m.is_none() {
            return None;
        }
    }
    Some(PartialDate {
        year: y,
        month: m,
        day: d,
    })
}

/// One part (trimmed): a number, or `?`/`??`/`????` for unknown. `Err` when it is neither.
fn part(p: &str) -> Result<Option<u32>, ()> {
    let p = p.as_bytes();
    if !p.is_empty() && p.iter().all(|&c| c == b'?') {
        return Ok(None);
    }
    if p.is_empty() || p.len() > 4 || !p.iter().all(u8::is_ascii_digit) {
        return Err(());
    }
    Ok(Some(p.iter().fold(0, |v, &c| v * 10 + u32::from(c - b'0'))))
}

/// One date (`s` trimmed), in any of the shapes of the module documentation.
fn parse_split(s: &str) -> Option<PartialDate> {
    // "17 april 2009", "april 17, 2009"
    if s.bytes().any(|c| c.is_ascii_alphabetic()) {
        return parse_words(s);
    }
    // (no shape below has more than three parts)
    let (mut parts, mut count, mut rest) = ([""; 3], 0, s);
    loop {
        let end =
            (rest.bytes().position(|c| matches!(c, b'.' | b'-' | b'/'))).unwrap_or(rest.len());
        if count == parts.len() || end > 4 {
            return None;
        }
        parts[count] = rest[..end].trim();
        count += 1;
        if end == rest.len() {
            break;
        }
        rest = &rest[end + 1..];
    }
    let parts = &parts[..count];
    let mut numbers = [None; 3];
    for (n, p) in numbers.iter_mut().zip(parts) {
        *n = part(p).ok()?;
    }
    date_of_parts(parts, &numbers[..count])
}

/// The date of the parts of [`parse_split`] and the numbers read from them (`None` for a
/// part of question marks); none for more than three parts.
fn date_of_parts(parts: &[&str], n: &[Option<u32>]) -> Option<PartialDate> {
    // a month or day part that does not fit a byte (`2007/2008`) makes this no single date
    if n.iter().skip(1).flatten().any(|&v| v > 99) && !(n.len() == 3 && parts[2].len() == 4) {
        return None;
    }
    let year_first = parts[0].len() == 4;
    let y = |v: Option<u32>| v.map(|v| v as u16);
    let b = |v: Option<u32>| v.and_then(|v| u8::try_from(v).ok());
    match (n.len(), year_first) {
        (1, true) => valid(y(n[0]), None, None),
        (2, true) => valid(y(n[0]), b(n[1]), None),
        (3, true) => valid(y(n[0]), b(n[1]), b(n[2])),
        // D.M.YYYY and D-M-YYYY: the European order used by every such file we have seen
        (3, false) if parts[2].len() == 4 => valid(y(n[2]), b(n[1]), b(n[0])),
        // M.YYYY
        (2, false) if parts[1].len() == 4 => valid(y(n[1]), b(n[0]), None),
        // two-digit years (`03.07.20`) are not guessed at
        _ => None,
    }
}

fn parse_words(s: &str) -> Option<PartialDate> {
    let mut year = None;
    let mut month = None;
    let mut day = None;
    for w in s
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
    {
        let lw = w.to_ascii_lowercase();
        if let Some(i) = MONTHS.iter().position(|m| lw.starts_with(m)) {
            month.replace((i + 1) as u8).map_or(Some(()), |_| None)?;
        } else if w.bytes().all(|b| b.is_ascii_digit()) {
            let v: u32 = w.parse().ok()?;
            if w.len() == 4 {
                year.replace(v as u16).map_or(Some(()), |_| None)?;
            } else if w.len() <= 2 {
                day.replace(u8::try_from(v).ok()?)
                    .map_or(Some(()), |_| None)?;
            } else {
                return None;
            }
        } else {
            return None;
        }
    }
    year?;
    valid(year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iso(raw: &str) -> Option<String> {
        match parse_date(raw) {
            DateValue::Date(d) | DateValue::Range(d, _) => d.iso(),
            _ => None,
        }
    }

    #[test]
    fn standard_and_partial() {
        assert_eq!(iso("1965.01.01").as_deref(), Some("1965-01-01"));
        for (y, m, d) in [
            (0, None, None),
            (7, Some(1), Some(9)),
            (999, Some(12), None),
        ]
        .into_iter()
        .chain([
            (1965, Some(3), Some(31)),
            (12345, Some(10), Some(5)),
            (u16::MAX, None, None),
        ]) {
            let date = PartialDate {
                year: Some(y),
                month: m,
                day: d,
            };
            let want = match (m, d) {
                (Some(m), Some(d)) => format!("{y:04}-{m:02}-{d:02}"),
                (Some(m), None) => format!("{y:04}-{m:02}"),
                _ => format!("{y:04}"),
            };
            assert_eq!(date.iso(), Some(want), "{date:?}");
        }
        assert_eq!(iso("1965.??.??").as_deref(), Some("1965"));
        assert_eq!(iso("1965.03.??").as_deref(), Some("1965-03"));
        assert_eq!(parse_date("????.??.??"), DateValue::Unknown);
        assert_eq!(parse_date("?"), DateValue::Unknown);
        assert_eq!(parse_date(""), DateValue::Unknown);
    }

    #[test]
    fn forms_seen_in_real_files() {
        assert_eq!(iso("1.1.1965").as_deref(), Some("1965-01-01"));
        assert_eq!(iso("2.12.1968").as_deref(), Some("1968-12-02"));
        assert_eq!(iso("25.11.2000").as_deref(), Some("2000-11-25"));
        assert_eq!(iso("13-01-1996").as_deref(), Some("1996-01-13"));
        assert_eq!(iso("2024-12-14").as_deref(), Some("2024-12-14"));
        assert_eq!(iso("1970.4.2").as_deref(), Some("1970-04-02"));
        assert_eq!(iso("1950.").as_deref(), Some("1950"));
        assert_eq!(iso("17 april 2009").as_deref(), Some("2009-04-17"));
        assert_eq!(iso("April 17, 2009").as_deref(), Some("2009-04-17"));
        assert_eq!(iso("2007-05-19").as_deref(), Some("2007-05-19"));
    }

    #[test]
    fn days_are_those_of_the_calendar() {
        for bad in [
            "1965.02.30",
            "2023.02.29",
            "1900.02.29",
            "1965.04.31",
            "31.06.1970",
            "30 february 1965",
        ] {
            assert_eq!(parse_date(bad), DateValue::NotADay, "{bad}");
        }
        for good in [
            "2024.02.29",
            "2000.02.29",
            "1965.12.31",
            "????.02.29",
            "29.2.1968",
        ] {
            assert!(matches!(parse_date(good), DateValue::Date(_)), "{good}");
        }
        // a range with an impossible end is no range
        assert_eq!(parse_date("1965.02.27 - 1965.02.30"), DateValue::NotADay);
        assert_eq!(parse_date("1965.02.32"), DateValue::Unreadable);
    }

    #[test]
    fn ranges_keep_both_ends() {
        let DateValue::Range(a, b) = parse_date("2004.10.27 - 2004.11.01") else {
            panic!()
        };
        assert_eq!(a.iso().unwrap(), "2004-10-27");
        assert_eq!(b.iso().unwrap(), "2004-11-01");
        assert!(matches!(parse_date("2007/2008"), DateValue::Range(..)));
    }

    #[test]
    fn unreadable_is_said_not_guessed() {
        for raw in [
            "03.07.20",
            "last tuesday",
            "1965.13.01",
            "1965.02.40",
            "99999",
            "12",
        ] {
            assert_eq!(parse_date(raw), DateValue::Unreadable, "{raw}");
        }
    }

    #[test]
    fn pdn_form_says_whether_it_is_certain() {
        let form = |raw: &str| pdn_form(raw).map(|f| (f.text, f.certain));
        let certain = |text: &str| Some((text.to_string(), true));
        for standard in ["1965.01.01", "1965.??.??", "????.??.??", "????.02.29"] {
            assert_eq!(form(standard), None, "{standard}");
        }
        assert_eq!(form("2024-12-14"), certain("2024.12.14"));
        assert_eq!(form("1970.4.2"), certain("1970.04.02"));
        assert_eq!(form("1950."), certain("1950.??.??"));
        assert_eq!(form("1950"), certain("1950.??.??"));
        assert_eq!(form("17 april 2009"), certain("2009.04.17"));
        assert_eq!(form(" 1965.01.01 "), certain("1965.01.01"));
        assert_eq!(form("?"), certain("????.??.??"));
        assert_eq!(form(""), certain("????.??.??"));
        // day first: certain where no other reading is a date, or both are the same
        assert_eq!(form("25.11.2000"), certain("2000.11.25"));
        assert_eq!(form("1.1.1965"), certain("1965.01.01"));
        assert_eq!(form("05.03.1965"), Some(("1965.03.05".into(), false)));
        assert_eq!(form("13-01-1996"), certain("1996.01.13"));
        // no single date: left as written
        for other in [
            "2004.10.27 - 2004.11.01",
            "2007/2008",
            "last tuesday",
            "1965.02.30",
        ] {
            assert_eq!(form(other), None, "{other}");
        }
    }

    #[test]
    fn display_is_pdn_form() {
        let DateValue::Date(d) = parse_date("1.1.1965") else {
            panic!()
        };
        assert_eq!(d.to_string(), "1965.01.01");
    }
}
