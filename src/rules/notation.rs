//! Move text.
use super::{Move, Position};
/// Style.
#[derive(Default)]
pub struct Style;
/// Format.
pub fn format_move(_pos: &Position, m: &Move, _style: Style) -> String { m.to_string() }
