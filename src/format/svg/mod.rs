//! SVG pictures: the lab's charts ([`chart`]) and positions ([`board`]),
//! plain SVG files that any browser or viewer shows.

pub mod board;
pub mod chart;

/// Text for XML.
pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
