//! `rulebook compare GAME_A GAME_B`: both games simulated with the same
//! agents and the same seeds, side by side, with the differences that are
//! statistically significant marked: what does a house rule change?
//!
//! Shares (wins by seat, draws, turns lost to passes) are compared with the
//! pooled two-proportion z test, means (length, events, lead changes) with
//! Welch's statistic; `*` marks p < 0.05, each test on its own.

use std::io::Write;

use super::simulate::{json, pct, with_ci, LabArgs, Run};
use super::stats::{p_means, p_proportions, share, Moments};
use super::{Failure, GameArgs};

/// The significance level of the marks.
const ALPHA: f64 = 0.05;

/// Arguments of `compare`.
#[derive(clap::Args, Debug)]
pub(crate) struct CompareArgs {
    /// The first game: a bundled name or a rule file.
    game_a: String,
    /// The second game (often a house-rule variant of the first).
    game_b: String,
    /// Set an option of both games: `--option kings=short`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Set an option of the first game only.
    #[arg(long = "option-a", value_name = "NAME=VALUE")]
    options_a: Vec<String>,
    /// Set an option of the second game only.
    #[arg(long = "option-b", value_name = "NAME=VALUE")]
    options_b: Vec<String>,
    #[command(flatten)]
    lab: LabArgs,
}

/// One compared measure.
struct Row {
    name: String,
    a: String,
    b: String,
    diff: String,
    /// The difference as a number, for JSON.
    delta: f64,
    p: Option<f64>,
}

impl Row {
    fn mark(&self) -> &'static str {
        match self.p {
            Some(p) if p < ALPHA => " *",
            _ => "",
        }
    }
}

fn share_row(name: String, ka: usize, na: usize, kb: usize, nb: usize) -> Row {
    let d = share(kb, nb) - share(ka, na);
    Row {
        name,
        a: with_ci(ka, na),
        b: with_ci(kb, nb),
        diff: format!("{:+.1}%", 100.0 * d),
        delta: d,
        p: Some(p_proportions(ka, na, kb, nb)),
    }
}

fn mean_row(name: String, a: &Moments, b: &Moments) -> Row {
    let d = b.mean - a.mean;
    Row {
        name,
        a: format!("{:.2} (sd {:.2})", a.mean, a.sd()),
        b: format!("{:.2} (sd {:.2})", b.mean, b.sd()),
        diff: format!("{d:+.2}"),
        delta: d,
        p: Some(p_means(a, b)),
    }
}

fn plain_row(name: &str, a: f64, b: f64, as_pct: bool) -> Row {
    let f = |x: f64| {
        if as_pct {
            pct(x)
        } else {
            format!("{x:.3}")
        }
    };
    let d = b - a;
    Row {
        name: name.to_string(),
        a: f(a),
        b: f(b),
        diff: if as_pct {
            format!("{:+.1}%", 100.0 * d)
        } else {
            format!("{d:+.3}")
        },
        delta: d,
        p: None,
    }
}

/// The measures of the two runs, side by side.
fn rows(a: &Run, b: &Run) -> Vec<Row> {
    let (sa, sb) = (&a.summary, &b.summary);
    let mut rows = Vec::new();
    let seats = sa.wins.len().max(sb.wins.len());
    for i in 0..seats {
        let name = a
            .seats
            .get(i)
            .or_else(|| b.seats.get(i))
            .map_or_else(|| format!("seat {}", i + 1), Clone::clone);
        let wa = sa.wins.get(i).copied().unwrap_or(0);
        let wb = sb.wins.get(i).copied().unwrap_or(0);
        rows.push(share_row(
            format!("{name} wins"),
            wa,
            sa.games,
            wb,
            sb.games,
        ));
    }
    rows.push(share_row(
        "draws".into(),
        sa.draws,
        sa.games,
        sb.draws,
        sb.games,
    ));
    rows.push(mean_row("length (plies)".into(), &sa.length, &sb.length));
    let mut names: Vec<&'static str> = Vec::new();
    for (n, _) in sa.fired().chain(sb.fired()) {
        if !names.contains(n) {
            names.push(n);
        }
    }
    let zero = Moments::default();
    let find = |run: &Run, n: &str| {
        run.summary
            .events
            .iter()
            .find(|(e, _)| *e == n)
            .map_or(zero, |(_, m)| *m)
    };
    for n in names {
        rows.push(mean_row(format!("{n} per game"), &find(a, n), &find(b, n)));
    }
    rows.push(mean_row(
        "lead changes per game".into(),
        &sa.lead_changes,
        &sb.lead_changes,
    ));
    let skips = |s: &super::stats::Summary| (s.skips as usize, s.turns as usize);
    let ((ka, na), (kb, nb)) = (skips(sa), skips(sb));
    let mut r = share_row("turns lost to passes".into(), ka, na, kb, nb);
    r.a = pct(share(ka, na));
    r.b = pct(share(kb, nb));
    rows.push(r);
    rows.push(plain_row("balance", sa.balance(), sb.balance(), false));
    rows.push(plain_row(
        "decisiveness",
        sa.decisiveness(),
        sb.decisiveness(),
        true,
    ));
    rows
}

fn text(lab: &LabArgs, a: &Run, b: &Run) -> String {
    let rows = rows(a, b);
    let wa = rows.iter().map(|r| r.a.len()).max().unwrap_or(0).max(1);
    let wb = rows.iter().map(|r| r.b.len()).max().unwrap_or(0).max(1);
    let mut o = String::new();
    o.push_str(&format!("{}\n", lab.heading(&[a, b])));
    o.push_str(&format!("A: {} ({})\n", a.title, a.label));
    o.push_str(&format!("B: {} ({})\n\n", b.title, b.label));
    o.push_str(&format!("{:<24}  {:<wa$}  {:<wb$}  B - A\n", "", "A", "B"));
    for r in &rows {
        o.push_str(&format!(
            "{:<24}  {:<wa$}  {:<wb$}  {}{}\n",
            r.name,
            r.a,
            r.b,
            r.diff,
            r.mark()
        ));
    }
    o.push_str(
        "\n* the difference is significant at the 5% level (shares: two-proportion z test; means: Welch)\n",
    );
    o
}

fn json_rows(a: &Run, b: &Run) -> String {
    let items: Vec<String> = rows(a, b)
        .iter()
        .map(|r| {
            let p = r.p.map_or_else(
                || "null".to_string(),
                |p| format!("{}", (p * 1e6).round() / 1e6),
            );
            format!(
                "{{\"measure\":{},\"difference\":{},\"p\":{p},\"significant\":{}}}",
                super::board::json_str(&r.name),
                (r.delta * 1e6).round() / 1e6,
                r.p.is_some_and(|p| p < ALPHA)
            )
        })
        .collect();
    format!("[{}]", items.join(","))
}

/// `rulebook compare`.
pub(crate) fn run(
    args: CompareArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<i32, Failure> {
    let game_args = |game: &str, own: &[String]| GameArgs {
        game: game.to_string(),
        options: args.options.iter().chain(own).cloned().collect(),
    };
    let ga = game_args(&args.game_a, &args.options_a);
    let gb = game_args(&args.game_b, &args.options_b);
    let lab = &args.lab;
    let pool = lab.pool()?;
    let bar = lab.progress(2 * lab.games);
    let a = lab.run_game(&ga, &pool, &bar, err)?;
    let b = lab.run_game(&gb, &pool, &bar, err)?;
    bar.finish_and_clear();
    lab.write_files(&[&a, &b])?;
    if lab.json {
        writeln!(
            out,
            "{{\"a\":{},\"b\":{},\"differences\":{}}}",
            json(&a),
            json(&b),
            json_rows(&a, &b)
        )?;
    } else {
        write!(out, "{}", text(lab, &a, &b))?;
    }
    Ok(0)
}
