//! Self-contained HTML pages: `lint --format html` (the emitter of
//! [`crate::diag::emit`]), the game viewer of `show --format html` ([`viewer`]) and the
//! charts of `stats --format html` ([`crate::stats::html`]).
//!
//! A page needs nothing but itself: its style, its pictures (SVG) and its script are
//! inline, and it loads nothing from the network. Every text that comes from a PDN file
//! (tags, comments, moves, paths, messages) is escaped here before it is written.

pub mod viewer;

use serde::Serialize;
use std::borrow::Cow;
use std::fmt;
use std::io::{self, Write};

/// `text` made safe as HTML text or as a quoted attribute value: `&`, `<`, `>`, `"` and
/// `'` are written as character references.
///
/// ```
/// assert_eq!(pdnkit::html::escape("</script><b a='1'>&"), "&lt;/script&gt;&lt;b a=&#39;1&#39;&gt;&amp;");
/// ```
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.contains(['&', '<', '>', '"', '\'']) {
        return Cow::Borrowed(text);
    }
    let mut s = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&#39;"),
            c => s.push(c),
        }
    }
    Cow::Owned(s)
}

/// Text written escaped by [`escape`] when displayed.
pub struct Escaped<'a>(pub &'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&escape(self.0))
    }
}

/// `value` as JSON that can stand inside a `<script>` element: every `<` is written
/// `\u003c`, so that no text of it closes the element or opens a comment.
pub fn script_json<T: Serialize + ?Sized>(value: &T) -> String {
    let json = serde_json::to_string(value).unwrap_or_else(|_| "null".to_string());
    json.replace('<', "\\u003c")
}

/// The style every page shares.
const STYLE: &str = "
:root { color-scheme: light; --fg: #1b1b1b; --muted: #666; --line: #ddd; --error: #c62828;
  --warning: #b26a00; --info: #1565c0; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, sans-serif; color: var(--fg); margin: 0 auto; padding: 1em 1.5em;
  max-width: 72em; }
h1 { font-size: 1.5em; margin: .2em 0 .6em; }
h2 { font-size: 1.2em; margin: 1.2em 0 .4em; border-bottom: 1px solid var(--line); }
table { border-collapse: collapse; margin: .4em 0 1em; }
th, td { padding: .15em .7em; border-bottom: 1px solid var(--line); text-align: right; }
td.text, th.text { text-align: left; }
th:first-child, td:first-child { text-align: left; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
code { white-space: nowrap; }
.muted { color: var(--muted); }
.error { color: var(--error); } .warning { color: var(--warning); } .info { color: var(--info); }
";

/// Writes the start of a page titled `title` (escaped here), with the shared style and
/// `style` after it, up to the opening of `<body>`.
pub fn page_start(out: &mut dyn Write, title: &str, style: &str) -> io::Result<()> {
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"pdnkit {}\">\n<title>{}</title>\n<style>{STYLE}{style}</style>\n</head>\n<body>\n",
        env!("CARGO_PKG_VERSION"),
        Escaped(title)
    )
}

/// Writes the end of a page: `script` (trusted text of pdnkit's, never data) and the
/// closing tags.
pub fn page_end(out: &mut dyn Write, script: &str) -> io::Result<()> {
    if !script.is_empty() {
        writeln!(out, "<script>{script}</script>")?;
    }
    out.write_all(b"</body>\n</html>\n")
}

/// A hidden `<svg>` that holds the frame of every board of a page (squares,
/// coordinates, arrow heads: [`Diagram::svg_frame`](crate::diagram::Diagram::svg_frame))
/// once, as the symbol `#board-frame`; [`board_svg`] draws boards over it.
pub fn board_frame_symbol() -> String {
    let size = crate::diagram::SIZE;
    format!(
        "<svg class=\"frames\" width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\"><defs><symbol id=\"board-frame\" viewBox=\"0 0 {size} {size}\">{}</symbol></defs></svg>\n",
        crate::diagram::Diagram::svg_frame()
    )
}

/// A board of a page that holds [`board_frame_symbol`]: the frame by reference, then the
/// pieces and arrows of `diagram`.
/// Another variant's board holds its own frame.
pub fn board_svg(diagram: &crate::diagram::Diagram) -> String {
    let size = diagram.shape.size();
    format!(
        "<svg class=\"board\" viewBox=\"0 0 {size} {size}\" role=\"img\">{}{}</svg>",
        frame_of(diagram.shape),
        diagram.svg_pieces()
    )
}

/// What draws the frame of a board of `shape` on a page that holds
/// [`board_frame_symbol`]: a reference to it for Russian's, the frame itself for another.
pub fn frame_of(shape: crate::diagram::Shape) -> std::borrow::Cow<'static, str> {
    if shape == crate::diagram::Shape::default() {
        Cow::Borrowed("<use href=\"#board-frame\"/>")
    } else {
        Cow::Owned(crate::diagram::Diagram::svg_frame_of(shape))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_leaves_plain_text_borrowed() {
        assert!(matches!(escape("Иванов, 1-0"), Cow::Borrowed(_)));
        assert_eq!(escape("a<b"), "a&lt;b");
    }

    #[test]
    fn script_json_never_closes_a_script() {
        let json = script_json(&["</script><script>alert(1)", "<!--"]);
        assert!(!json.contains('<'));
        let back: Vec<String> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, ["</script><script>alert(1)", "<!--"]);
    }
}
