//! SVG pictures: the lab's charts ([`chart`]), board positions ([`board`])
//! and race tracks ([`race`]),
//! plain SVG files that any browser or viewer shows.

pub mod board;
pub mod chart;
pub mod race;

/// Text for XML.
pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
