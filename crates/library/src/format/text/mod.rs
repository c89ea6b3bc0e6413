//! Text for people: the lab's reports, one run (`simulate`, `merge`) or
//! two side by side (`compare`), a board position ([`board`]) and a race
//! track ([`race`]).

pub mod board;
pub mod race;

use crate::agents::Strength;
use crate::lab::compare::{measures, Value};
use crate::lab::stats::{share, wilson};
use crate::lab::Run;

/// `text` wrapped at `width` columns: words moved whole to the next line
/// (a word longer than the line stands alone on its own); a line break of
/// the text is a space, an empty line a paragraph, kept.
pub fn wrap(text: &str, width: usize) -> String {
    let width = width.max(20);
    let mut out = String::new();
    let paragraphs = text.split("\n\n").map(str::trim).filter(|p| !p.is_empty());
    for (i, paragraph) in paragraphs.enumerate() {
        if i > 0 {
            out.push_str("\n\n");
        }
        let mut column = 0;
        for word in paragraph.split_whitespace() {
            let n = word.chars().count();
            if column > 0 && column + 1 + n > width {
                out.push('\n');
                column = 0;
            } else if column > 0 {
                out.push(' ');
                column += 1;
            }
            out.push_str(word);
            column += n;
        }
    }
    out
}

/// A game's rules as `rules` prints them: the title, the description and
/// the options the rule file declares (the default first), wrapped at
/// `width` columns.
pub fn rules(
    title: &str,
    description: &str,
    options: &[(String, Vec<String>)],
    width: usize,
) -> String {
    let mut o = format!("{}\n{}\n", wrap(title, width), wrap(description, width));
    if !options.is_empty() {
        let each: Vec<String> = options
            .iter()
            .map(|(name, values)| format!("--option {name}={}", values.join("|")))
            .collect();
        o.push_str(&wrap(
            &format!(
                "options: {} (the first value is the default)",
                each.join(", ")
            ),
            width,
        ));
        o.push('\n');
    }
    o
}

/// A percentage with one decimal.
pub fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A share with its 95% interval: `45.0% [38.1%, 52.1%]`.
pub fn with_ci(k: usize, n: usize) -> String {
    let (lo, hi) = wilson(k, n);
    format!("{:>6} [{}, {}]", pct(share(k, n)), pct(lo), pct(hi))
}

/// The line that says what was played: `games` games (each, for more than
/// one run), the agents, each with the effort it was given (`mcts (300
/// playouts), random`), and the seed.
pub fn heading(games: usize, seed: u64, strength: &Strength, runs: &[&Run]) -> String {
    let agents = runs
        .first()
        .map(|r| {
            r.info
                .agents
                .iter()
                .map(|a| format!("{a}{}", effort(a, strength)))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default();
    format!(
        "{}{}, agents {agents}, seed {seed}",
        crate::words::count(games as u64, "game"),
        if runs.len() > 1 { " each" } else { "" },
    )
}

/// The effort an agent was given, as it uses it: playouts and time for
/// mcts, depth and time for alphabeta, nothing for the others.
fn effort(agent: &str, strength: &Strength) -> String {
    let mut words = Vec::new();
    if agent == "mcts" {
        if let Some(p) = strength.playouts {
            words.push(crate::words::count(p.into(), "playout"));
        }
    }
    if agent == "alphabeta" {
        if let Some(d) = strength.depth {
            words.push(format!("depth {d}"));
        }
    }
    if agent == "mcts" || agent == "alphabeta" {
        if let Some(t) = strength.think {
            words.push(format!("{} ms a move", t.as_millis()));
        }
    }
    if words.is_empty() {
        String::new()
    } else {
        format!(" ({})", words.join(", "))
    }
}

/// The points of a run, in a game whose rules score a win (empty
/// otherwise): the games of each score, each seat's points and mean, the
/// mean points a game.
pub fn points_report(run: &Run) -> String {
    let p = &run.summary.points;
    if p.games == 0 {
        return String::new();
    }
    let mut o = String::from("points                      games   share  95% interval\n");
    for &(points, games) in &p.scores {
        let worth = format!("{points} point{}", if points == 1 { "" } else { "s" });
        let what = match p.name(points) {
            Some(name) => format!("{name} ({worth})"),
            None => worth,
        };
        o.push_str(&format!(
            "  {what:<25} {games:>5}  {}\n",
            with_ci(games, p.games)
        ));
    }
    for (i, seat) in run.info.seats.iter().enumerate() {
        let who = format!(
            "{seat} ({}) points",
            run.info.agents.get(i).map_or("?", String::as_str)
        );
        o.push_str(&format!(
            "  {who:<25} {:>5}  mean {:.3} a game\n",
            p.by_seat.get(i).copied().unwrap_or(0),
            p.seat_mean(i)
        ));
    }
    o.push_str(&format!(
        "  {:<25} {:>11.3}\n\n",
        "mean points a game",
        p.mean()
    ));
    o
}

/// The text report of one run under its heading.
pub fn run_report(heading: &str, run: &Run) -> String {
    let s = &run.summary;
    let n = s.games;
    let mut o = String::new();
    o.push_str(&format!("{} ({})\n", run.info.title, run.info.label));
    o.push_str(&format!("{heading}\n\n"));
    o.push_str("results                     games   share  95% interval\n");
    for (i, seat) in run.info.seats.iter().enumerate() {
        let who = format!(
            "{seat} ({}) wins",
            run.info.agents.get(i).map_or("?", String::as_str)
        );
        let wins = s.wins.get(i).copied().unwrap_or(0);
        o.push_str(&format!("  {who:<25} {wins:>5}  {}\n", with_ci(wins, n)));
    }
    o.push_str(&format!(
        "  {:<25} {:>5}  {}\n\n",
        "draws",
        s.draws,
        with_ci(s.draws, n)
    ));
    o.push_str(&format!(
        "game length (plies): mean {:.1}, median {}, sd {:.1}, min {}, max {}\n\n",
        s.length.mean,
        s.median,
        s.length.sd(),
        s.min,
        s.max
    ));
    o.push_str("how games ended\n");
    for (why, c) in &s.endings {
        o.push_str(&format!("  {why:<25} {c:>5}  {:>6}\n", pct(share(*c, n))));
    }
    o.push('\n');
    o.push_str(&points_report(run));
    o.push_str("rule events per game         mean      sd\n");
    let mut any = false;
    for (name, m) in s.fired() {
        any = true;
        o.push_str(&format!("  {name:<25} {:>7.2} {:>7.2}\n", m.mean, m.sd()));
    }
    if !any {
        o.push_str("  none fired\n");
    }
    o.push('\n');
    o.push_str("metrics\n");
    let shares: Vec<String> = run
        .info
        .seats
        .iter()
        .enumerate()
        .map(|(i, seat)| format!("{seat} {}", pct(s.score_share(i))))
        .collect();
    o.push_str(&format!(
        "  {:<25} {:>7.3}  (score shares: {})\n",
        "balance",
        s.balance(),
        shares.join(", ")
    ));
    o.push_str(&format!(
        "  {:<25} {:>7}\n",
        "decisiveness",
        pct(s.decisiveness())
    ));
    o.push_str(&format!(
        "  {:<25} {:>7}\n",
        "drawishness",
        pct(s.drawishness())
    ));
    o.push_str(&format!(
        "  {:<25} {:>7.1}  plies\n",
        "duration", s.length.mean
    ));
    o.push_str(&format!(
        "  {:<25} {:>7.2}  per game\n",
        "lead changes", s.lead_changes.mean
    ));
    o.push_str(&format!(
        "  {:<25} {:>7}\n",
        "turns lost to passes",
        pct(s.skip_share())
    ));
    o
}

/// A compared value as shown.
fn shown(v: &Value) -> String {
    match *v {
        Value::Share { k, n } => with_ci(k, n),
        Value::Percent { k, n } => pct(share(k, n)),
        Value::Mean(m) => format!("{:.2} (sd {:.2})", m.mean, m.sd()),
        Value::Fraction(x) => pct(x),
        Value::Number(x) => format!("{x:.3}"),
    }
}

/// A difference as shown, in the unit of its values.
fn shown_difference(v: &Value, d: f64) -> String {
    match v {
        Value::Share { .. } | Value::Percent { .. } | Value::Fraction(_) => {
            format!("{:+.1}%", 100.0 * d)
        }
        Value::Mean(_) => format!("{d:+.2}"),
        Value::Number(_) => format!("{d:+.3}"),
    }
}

/// The text report of two runs side by side under their heading.
pub fn compare_report(heading: &str, a: &Run, b: &Run) -> String {
    let rows: Vec<(String, String, String, String, &str)> = measures(a, b)
        .iter()
        .map(|m| {
            (
                m.name.clone(),
                shown(&m.a),
                shown(&m.b),
                shown_difference(&m.a, m.difference()),
                if m.significant() { " *" } else { "" },
            )
        })
        .collect();
    let wa = rows.iter().map(|r| r.1.len()).max().unwrap_or(0).max(1);
    let wb = rows.iter().map(|r| r.2.len()).max().unwrap_or(0).max(1);
    let mut o = String::new();
    o.push_str(&format!("{heading}\n"));
    o.push_str(&format!("A: {} ({})\n", a.info.title, a.info.label));
    o.push_str(&format!("B: {} ({})\n\n", b.info.title, b.info.label));
    o.push_str(&format!("{:<24}  {:<wa$}  {:<wb$}  B - A\n", "", "A", "B"));
    for (name, va, vb, diff, mark) in &rows {
        o.push_str(&format!("{name:<24}  {va:<wa$}  {vb:<wb$}  {diff}{mark}\n"));
    }
    // The footnote explains the mark: only when a row has it.
    if rows.iter().any(|r| !r.4.is_empty()) {
        o.push_str(
            "\n* the difference is significant at the 5% level (shares: two-proportion z test; means: Welch)\n",
        );
    }
    o
}
