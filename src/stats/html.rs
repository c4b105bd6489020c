//! `stats --format html`: the report's tables (the sections of [`render`](super::render),
//! laid out in HTML) under its [charts](super::chart), in one self-contained page.

use super::chart::Chart;
use super::render::{Layout, write_report};
use super::report::{Length, Report};
use crate::html::{Escaped, page_end, page_start};
use std::io::{self, Write};

const STYLE: &str = "
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(640px, 100%), 1fr)); gap: 1em; align-items: start; }
.charts figure { margin: 0; }
.charts svg { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 6px; }
p.line { margin: .2em 0; }
";

/// The HTML layout of the report's sections.
struct Html;

impl Layout for Html {
    fn heading(&mut self, out: &mut dyn Write, title: &str) -> io::Result<()> {
        writeln!(out, "<h2>{}</h2>", Escaped(title))
    }

    fn table(&mut self, out: &mut dyn Write, rows: &[Vec<String>], header: bool) -> io::Result<()> {
        out.write_all(b"<table>\n")?;
        for (i, row) in rows.iter().enumerate() {
            let cell = if header && i == 0 { "th" } else { "td" };
            out.write_all(b"<tr>")?;
            for text in row {
                write!(out, "<{cell}>{}</{cell}>", Escaped(text))?;
            }
            out.write_all(b"</tr>\n")?;
        }
        out.write_all(b"</table>\n")
    }

    fn line(&mut self, out: &mut dyn Write, text: &str) -> io::Result<()> {
        writeln!(out, "<p class=\"line\">{}</p>", Escaped(text))
    }

    fn histogram(&mut self, _out: &mut dyn Write, _l: &Length) -> io::Result<()> {
        // (the chart of lengths above draws it)
        Ok(())
    }
}

/// Writes the page of `report`: its charts, then its tables.
pub fn write_html(out: &mut dyn Write, report: &Report) -> io::Result<()> {
    page_start(out, "pdnkit stats", STYLE)?;
    out.write_all(b"<h1>pdnkit stats</h1>\n<section class=\"charts\">\n")?;
    for chart in Chart::ALL {
        writeln!(out, "<figure id=\"chart-{}\">", chart.as_str())?;
        out.write_all(chart.svg(report).as_bytes())?;
        out.write_all(b"</figure>\n")?;
    }
    out.write_all(b"</section>\n<section class=\"tables\">\n")?;
    write_report(out, report, &mut Html)?;
    out.write_all(b"</section>\n")?;
    page_end(out, "")
}
