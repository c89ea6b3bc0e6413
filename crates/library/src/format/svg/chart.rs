//! `--svg FILE`: the results by seat (a bar chart) and the game lengths (a
//! histogram) of one run, or of two runs one above the other on the same
//! scales, as a plain SVG file that any browser or viewer shows.
//!
//! Each seat's bar is a `<rect class="seat">`, the draws a
//! `<rect class="draws">`, each histogram bin a `<rect class="bin">`.

use std::fmt::Write;

use super::esc;
use crate::lab::stats::share;
use crate::lab::Run;

const WIDTH: f64 = 820.0;
const PANEL: f64 = 320.0;
/// The bar chart's plot area, left to right.
const BARS: (f64, f64) = (70.0, 370.0);
/// The histogram's plot area, left to right.
const HIST: (f64, f64) = (470.0, 790.0);
/// The plot area's top and bottom, within a panel.
const TOP: f64 = 60.0;
const BOTTOM: f64 = 250.0;
const COLOURS: &[&str] = &[
    "#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#b07aa1", "#76b7b2", "#edc948", "#9c755f",
];
const DRAW_COLOUR: &str = "#9d9d9d";
const BIN_COLOUR: &str = "#6b8fb5";

/// The histogram's bins: `count` bins of `width` plies from `lo`.
struct Bins {
    lo: u32,
    width: u32,
    count: usize,
}

impl Bins {
    fn for_runs(runs: &[&Run]) -> Bins {
        let played = || runs.iter().map(|r| &r.summary).filter(|s| s.games > 0);
        let lo = played().map(|s| s.min).min().unwrap_or(0);
        let hi = played().map(|s| s.max).max().unwrap_or(0);
        let n = runs.iter().map(|r| r.summary.games).max().unwrap_or(0);
        let want = ((n as f64).sqrt().ceil() as u32).clamp(1, 24);
        let width = ((hi - lo) / want + 1).max(1);
        Bins {
            lo,
            width,
            count: ((hi - lo) / width + 1) as usize,
        }
    }

    fn counts(&self, run: &Run) -> Vec<usize> {
        let mut c = vec![0; self.count];
        for &(plies, games) in &run.summary.lengths {
            let i = (plies.saturating_sub(self.lo) / self.width) as usize;
            if let Some(x) = c.get_mut(i) {
                *x += games as usize;
            }
        }
        c
    }
}

/// The chart of the runs.
pub fn svg(runs: &[&Run]) -> String {
    let height = PANEL * runs.len().max(1) as f64;
    let mut o = String::new();
    let _ = writeln!(
        o,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="12">
<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="white"/>"#
    );
    let bins = Bins::for_runs(runs);
    let top_count = nice_top(runs.iter().flat_map(|r| bins.counts(r)).max().unwrap_or(0));
    for (i, run) in runs.iter().enumerate() {
        let y0 = PANEL * i as f64;
        let tag = match (runs.len(), i) {
            (1, _) => String::new(),
            (_, 0) => "A: ".into(),
            _ => "B: ".into(),
        };
        let _ = writeln!(o, r#"<g transform="translate(0,{y0})">"#);
        let _ = writeln!(
            o,
            r#"<text x="20" y="24" font-size="15" font-weight="bold">{}</text>"#,
            esc(&format!(
                "{tag}{} ({}), {}",
                run.info.title,
                run.info.label,
                crate::words::count(run.summary.games as u64, "game")
            ))
        );
        bars(&mut o, run);
        histogram(&mut o, run, &bins, top_count);
        let _ = writeln!(o, "</g>");
    }
    o.push_str("</svg>\n");
    o
}

/// The smallest top of an axis of four grid steps that is at least `max`,
/// each step 1, 2, 2.5 or 5 times a power of ten (rounded down to a whole
/// number).
fn nice_top(max: usize) -> usize {
    let mut unit = 1;
    loop {
        for step in [unit, 2 * unit, 5 * unit / 2, 5 * unit] {
            if 4 * step >= max {
                return 4 * step;
            }
        }
        unit *= 10;
    }
}

/// The y axis of a plot from 0 to `top`, with `steps` grid lines.
fn axis(o: &mut String, (x0, x1): (f64, f64), top: f64, steps: usize, fmt: &dyn Fn(f64) -> String) {
    for k in 0..=steps {
        let v = top * k as f64 / steps as f64;
        let y = BOTTOM - (BOTTOM - TOP) * k as f64 / steps as f64;
        let _ = writeln!(
            o,
            r##"<line x1="{x0}" y1="{y:.1}" x2="{x1}" y2="{y:.1}" stroke="#dddddd"/><text x="{:.1}" y="{:.1}" text-anchor="end" fill="#555555">{}</text>"##,
            x0 - 6.0,
            y + 4.0,
            esc(&fmt(v))
        );
    }
    let _ = writeln!(
        o,
        r##"<line x1="{x0}" y1="{BOTTOM}" x2="{x1}" y2="{BOTTOM}" stroke="#333333"/>"##
    );
}

/// Wins by seat and draws, as shares of the games.
fn bars(o: &mut String, run: &Run) {
    let s = &run.summary;
    let n = s.games;
    let _ = writeln!(
        o,
        r#"<text x="{}" y="46" text-anchor="middle">results by seat (share of games)</text>"#,
        (BARS.0 + BARS.1) / 2.0
    );
    axis(o, BARS, 100.0, 4, &|v| format!("{v:.0}%"));
    let items = s.wins.len() + 1;
    let slot = (BARS.1 - BARS.0) / items as f64;
    let w = slot * 0.6;
    for k in 0..items {
        let (count, class, colour, name, agent) = if k < s.wins.len() {
            (
                s.wins[k],
                "seat",
                COLOURS[k % COLOURS.len()],
                run.info.seats.get(k).map_or("?", String::as_str),
                run.info.agents.get(k).map_or("", String::as_str),
            )
        } else {
            (s.draws, "draws", DRAW_COLOUR, "draws", "")
        };
        let p = share(count, n);
        let h = (BOTTOM - TOP) * p;
        let x = BARS.0 + slot * k as f64 + (slot - w) / 2.0;
        let _ = writeln!(
            o,
            r#"<rect class="{class}" x="{x:.1}" y="{:.1}" width="{w:.1}" height="{h:.1}" fill="{colour}"><title>{}</title></rect>"#,
            BOTTOM - h,
            esc(&format!("{name}: {count} of {n}"))
        );
        let agent = if agent.is_empty() {
            String::new()
        } else {
            format!("({agent})")
        };
        let cx = x + w / 2.0;
        // The share above its bar, or inside the top of a bar that reaches
        // so high that the share would touch the plot's title.
        let (share_y, share_fill) = if BOTTOM - h - 5.0 < TOP {
            (BOTTOM - h + 14.0, r#" fill="white""#)
        } else {
            (BOTTOM - h - 5.0, "")
        };
        let _ = writeln!(
            o,
            r#"<text x="{cx:.1}" y="{share_y:.1}" text-anchor="middle"{share_fill}>{:.1}%</text>"#,
            100.0 * p
        );
        // The side above its agent; slanted where the bars stand close, and
        // then cut short enough to end inside the panel (never reaching
        // the title of the panel below).
        let y = BOTTOM + 16.0;
        let (anchor, turn, name, agent) = if slot < 64.0 {
            (
                "end",
                format!(r#" transform="rotate(-30 {cx:.1} {y:.1})""#),
                slanted(name, 0.0),
                slanted(&agent, 14.0),
            )
        } else {
            ("middle", String::new(), name.to_string(), agent)
        };
        let _ = writeln!(
            o,
            r#"<text x="{cx:.1}" y="{y:.1}" text-anchor="{anchor}"{turn}>{}<tspan x="{cx:.1}" dy="14">{}</tspan></text>"#,
            esc(&name),
            esc(&agent)
        );
    }
}

/// A label slanted 30 degrees up to the left of its end, `dy` below the
/// first line, cut (ending in `…`) so that it ends above the bottom of the
/// panel: its width taken as 0.6 em a character, the most a sans-serif
/// face's average letter takes, and 0.25 em below the line.
fn slanted(text: &str, dy: f64) -> String {
    const EM: f64 = 12.0;
    // Going left along the line by `l` drops the text by l * sin 30°; the
    // bottom of the line drops by (dy + 0.25 em) * cos 30°.
    let room = PANEL - 2.0 - (BOTTOM + 16.0) - (dy + 0.25 * EM) * 0.866;
    let fits = (2.0 * room / (0.6 * EM)).floor().max(1.0) as usize;
    if text.chars().count() <= fits {
        return text.to_string();
    }
    // An agent in brackets keeps its brackets.
    if let Some(inner) = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        let keep = fits.saturating_sub(3).max(1);
        return format!("({}…)", inner.chars().take(keep).collect::<String>());
    }
    let mut cut: String = text.chars().take(fits.saturating_sub(1).max(1)).collect();
    cut.push('…');
    cut
}

/// The game lengths.
fn histogram(o: &mut String, run: &Run, bins: &Bins, top: usize) {
    let _ = writeln!(
        o,
        r#"<text x="{}" y="46" text-anchor="middle">game length (plies): mean {:.1}, median {}</text>"#,
        (HIST.0 + HIST.1) / 2.0,
        run.summary.length.mean,
        run.summary.median
    );
    axis(o, HIST, top as f64, 4, &|v| format!("{v:.0}"));
    let counts = bins.counts(run);
    let w = (HIST.1 - HIST.0) / bins.count.max(1) as f64;
    for (i, &c) in counts.iter().enumerate() {
        let h = (BOTTOM - TOP) * c as f64 / top as f64;
        let x = HIST.0 + w * i as f64;
        let from = bins.lo + bins.width * i as u32;
        let _ = writeln!(
            o,
            r##"<rect class="bin" x="{x:.1}" y="{:.1}" width="{:.1}" height="{h:.1}" fill="{BIN_COLOUR}" stroke="white"><title>{from}-{} plies: {}</title></rect>"##,
            BOTTOM - h,
            w.max(1.0),
            from + bins.width - 1,
            crate::words::count(c as u64, "game")
        );
    }
    let ticks = bins.count.clamp(1, 4);
    let per = bins.count.div_ceil(ticks);
    for k in (0..=bins.count).step_by(per.max(1)) {
        let x = HIST.0 + w * k as f64;
        let label = bins.lo + bins.width * k as u32;
        let _ = writeln!(
            o,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{label}</text>"#,
            BOTTOM + 16.0
        );
    }
    let _ = writeln!(
        o,
        r#"<text x="{}" y="{:.1}" text-anchor="middle">plies</text><text x="{:.1}" y="{:.1}" text-anchor="middle" transform="rotate(-90 {:.1} {:.1})">games</text>"#,
        (HIST.0 + HIST.1) / 2.0,
        BOTTOM + 34.0,
        HIST.0 - 42.0,
        (TOP + BOTTOM) / 2.0,
        HIST.0 - 42.0,
        (TOP + BOTTOM) / 2.0
    );
}
