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
    /// Not readable as a date.
    Unreadable,
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// Reads a `Date` tag value.
pub fn parse_date(raw: &str) -> DateValue {
    // (nearly every Date tag: read before any trimming or scanning; no other reading of
    // such a value applies, so one that is no date is unreadable)
    if let Some(date) = canonical(raw.as_bytes()).or_else(|| european(raw.as_bytes())) {
        return date.map_or(DateValue::Unreadable, DateValue::Date);
    }
    parse_with(raw, parse_single)
}

/// [`parse_date`] past its shortcut, with `single` reading one date (of a value, or of
/// each side of a range).
fn parse_with(raw: &str, single: impl Fn(&str) -> Option<PartialDate>) -> DateValue {
    let s = raw.trim();
    if s.is_empty() || s.chars().all(|c| matches!(c, '?' | '.' | '-' | '/' | ' ')) {
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

/// One part: a number, or `?`/`??`/`????` for unknown. `Err` when it is neither.
fn part(p: &str) -> Result<Option<u32>, ()> {
    let p = p.trim();
    if !p.is_empty() && p.chars().all(|c| c == '?') {
        return Ok(None);
    }
    if p.is_empty() || p.len() > 4 || !p.bytes().all(|b| b.is_ascii_digit()) {
        return Err(());
    }
    p.parse().map(Some).map_err(|_| ())
}

fn parse_single(s: &str) -> Option<PartialDate> {
    let s = s.trim().trim_end_matches(['.', ',']);
    match canonical(s.as_bytes()) {
        Some(date) => date,
        None => parse_split(s),
    }
}

/// The canonical `YYYY.MM.DD` of nearly every Date tag, without splitting: `Some` of what
/// [`parse_split`] reads of it when `s` has that shape (`None` inside for no valid date).
#[inline]
fn canonical(s: &[u8]) -> Option<Option<PartialDate>> {
    let [y0, y1, y2, y3, b'.', m0, m1, b'.', d0, d1] = *s else {
        return None;
    };
    let digits = [y0, y1, y2, y3, m0, m1, d0, d1];
    if !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = |ds: &[u8]| ds.iter().fold(0u32, |v, &c| v * 10 + u32::from(c - b'0'));
    let (y, m, d) = (n(&digits[..4]), n(&digits[4..6]), n(&digits[6..]));
    Some(valid(Some(y as u16), Some(m as u8), Some(d as u8)))
}

/// The `D.M.YYYY` of the European files (one or two digits for the day and the month,
/// four for the year, dots between), without splitting: `Some` of what [`parse_split`]
/// reads of it when `s` has that shape. No other reading applies to such a value (it has
/// no range separator): [`parse_date`] takes it so, as the canonical shape.
#[inline]
fn european(s: &[u8]) -> Option<Option<PartialDate>> {
    let digits = |p: &[u8], lengths: std::ops::RangeInclusive<usize>| {
        lengths.contains(&p.len()) && p.iter().all(u8::is_ascii_digit)
    };
    let mut parts = s.split(|&c| c == b'.');
    let (day, month, year) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some()
        || !(digits(day, 1..=2) && digits(month, 1..=2) && digits(year, 4..=4))
    {
        return None;
    }
    let n = |ds: &[u8]| ds.iter().fold(0u32, |v, &c| v * 10 + u32::from(c - b'0'));
    Some(valid(
        Some(n(year) as u16),
        Some(n(month) as u8),
        Some(n(day) as u8),
    ))
}

/// [`parse_single`] for any shape (`s` trimmed), without allocating: nearly every Date
/// tag of some real files (`1.1.1965`) is read so, twice a game when it is checked.
fn parse_split(s: &str) -> Option<PartialDate> {
    // "17 april 2009", "april 17, 2009"
    if s.bytes().any(|c| c.is_ascii_alphabetic()) {
        return parse_words(s);
    }
    // (no shape below has more than three parts)
    let (mut parts, mut count) = ([""; 3], 0);
    for p in s.split(['.', '-', '/']) {
        if count == parts.len() || p.len() > 4 {
            return None;
        }
        parts[count] = p;
        count += 1;
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
    if n.iter().skip(1).flatten().any(|&v| v > 99) && !(n.len() == 3 && parts[2].trim().len() == 4)
    {
        return None;
    }
    let year_first = parts[0].trim().len() == 4;
    let y = |v: Option<u32>| v.map(|v| v as u16);
    let b = |v: Option<u32>| v.and_then(|v| u8::try_from(v).ok());
    match (n.len(), year_first) {
        (1, true) => valid(y(n[0]), None, None),
        (2, true) => valid(y(n[0]), b(n[1]), None),
        (3, true) => valid(y(n[0]), b(n[1]), b(n[2])),
        // D.M.YYYY and D-M-YYYY: the European order used by every such file we have seen
        (3, false) if parts[2].trim().len() == 4 => valid(y(n[2]), b(n[1]), b(n[0])),
        // M.YYYY
        (2, false) if parts[1].trim().len() == 4 => valid(y(n[1]), b(n[0]), None),
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

    /// The splitting reading as it was first written (a `Vec` a step): what the tests hold
    /// [`parse_split`]'s splitting to.
    fn parse_split_collecting(s: &str) -> Option<PartialDate> {
        // "17 april 2009", "april 17, 2009"
        if s.chars().any(|c| c.is_ascii_alphabetic()) {
            return parse_words(s);
        }
        let parts: Vec<&str> = s.split(['.', '-', '/']).collect();
        if parts.iter().any(|p| p.len() > 4) {
            return None;
        }
        let nums: Vec<Result<Option<u32>, ()>> = parts.iter().map(|p| part(p)).collect();
        if nums.iter().any(|n| n.is_err()) {
            return None;
        }
        let n: Vec<Option<u32>> = nums.into_iter().map(|n| n.unwrap_or(None)).collect();
        // (the parts read, what they are read as is the same)
        date_of_parts(&parts, &n)
    }

    /// [`parse_date`] as first written, without its shortcuts, over
    /// [`parse_split_collecting`].
    fn parse_date_as_first_written(raw: &str) -> DateValue {
        parse_with(raw, |s| {
            parse_split_collecting(s.trim().trim_end_matches(['.', ',']))
        })
    }

    #[test]
    fn dates_are_read_as_the_collecting_reading_read_them() {
        let pieces = [
            "1", "12", "1965", "2007", "0", "99", "123", "12345", ".", "-", "/", "?", "??", "????",
            " ", " - ", " to ", "ж", "a", "april", ",", "\t",
        ];
        let mut rng = pdnkit_gen::SplitMix64::new(44);
        for _ in 0..100_000 {
            let n = 1 + rng.below(7) as usize;
            let s: String = (0..n).map(|_| *rng.pick(&pieces)).collect();
            assert_eq!(parse_split(&s), parse_split_collecting(&s), "{s:?}");
            assert_eq!(parse_date(&s), parse_date_as_first_written(&s), "{s:?}");
        }
        // every `D.M.YYYY` shape, which the European shortcut reads
        for day in ["0", "1", "9", "00", "01", "31", "32", "99"] {
            for month in ["0", "1", "12", "13", "07", "99"] {
                for year in ["0999", "1965", "2999", "3000"] {
                    let s = format!("{day}.{month}.{year}");
                    assert!(european(s.as_bytes()).is_some(), "{s}");
                    assert_eq!(parse_date(&s), parse_date_as_first_written(&s), "{s}");
                }
            }
        }
    }

    #[test]
    fn the_canonical_shortcut_agrees_with_splitting() {
        let mut checked = 0;
        for y in ["0999", "1000", "1965", "2999", "3000", "0000"] {
            for m in ["00", "01", "07", "12", "13", "99"] {
                for d in ["00", "01", "28", "31", "32", "99"] {
                    let s = format!("{y}.{m}.{d}");
                    assert_eq!(parse_single(&s), parse_split(&s), "{s}");
                    // a whole Date tag so written: no range separator, not all unknown,
                    // so what splitting reads or nothing
                    let whole = parse_split(&s).map_or(DateValue::Unreadable, DateValue::Date);
                    assert_eq!(parse_date(&s), whole, "{s}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 216);
        assert_eq!(
            parse_single("1965.01.02"),
            Some(PartialDate {
                year: Some(1965),
                month: Some(1),
                day: Some(2)
            })
        );
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
    fn display_is_pdn_form() {
        let DateValue::Date(d) = parse_date("1.1.1965") else {
            panic!()
        };
        assert_eq!(d.to_string(), "1965.01.01");
    }
}
