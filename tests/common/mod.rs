//! What several test files share: the command line run in-process, a
//! scratch folder of the test's own, the shards of a lab run, seeded random
//! games, the browser window's size, the play page's measures, the
//! screenshots of docs/ (tests/web_browser.rs drives the browser), the
//! web application in process, and the driver of the kernels' tests
//! (`kernels`).
// Each test file uses only some of these.
#![allow(dead_code)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use rulebook::board::{Match, Position, Tables};
use rulebook::rng::Rng;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

use crate::web_browser::Browser;

pub mod kernels;

/// What a run of the command line gave: its exit code, standard output and
/// standard error.
pub struct Run {
    pub code: i32,
    pub out: String,
    pub err: String,
}

impl Run {
    /// (exit code, stdout, stderr).
    pub fn parts(self) -> (i32, String, String) {
        (self.code, self.out, self.err)
    }
}

/// Runs `rulebook ARGS` in-process, `input` as what is typed and `term` as
/// the terminal it believes it has: the one way every test runs the command
/// line (the others below are this one with defaults).
pub fn run_on(args: &[&str], input: &mut dyn std::io::BufRead, term: rulebook::cli::Term) -> Run {
    let mut all = vec!["rulebook"];
    all.extend_from_slice(args);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = rulebook::cli::run_with(all, input, &mut out, &mut err, term);
    Run {
        code,
        out: String::from_utf8_lossy(&out).into_owned(),
        err: String::from_utf8_lossy(&err).into_owned(),
    }
}

/// Runs the command line in-process with nothing to read; returns (exit
/// code, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    run_input(args, "")
}

/// Runs the command line in-process with `input` typed; returns (exit
/// code, stdout, stderr).
pub fn run_input(args: &[&str], input: impl AsRef<[u8]>) -> (i32, String, String) {
    run_on(args, &mut input.as_ref(), rulebook::cli::Term::default()).parts()
}

/// Runs the command line, which must succeed; returns stdout.
pub fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

/// A fresh folder for one test, of a name no other run uses (two test runs
/// at once don't share it), removed when the value is dropped.
pub fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("rulebook-test-")
        .tempdir()
        .unwrap()
}

/// A path as an argument of the command line.
pub fn path_arg(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Plays `count` shards of the `simulate` run `run` into `dir` (`--shard
/// I/N --parquet`); returns their files.
pub fn shards(dir: &Path, run: &[&str], count: usize) -> Vec<PathBuf> {
    (0..count)
        .map(|i| {
            let file = dir.join(format!("shard-{i}.parquet"));
            let shard = format!("{i}/{count}");
            let mut args = run.to_vec();
            args.extend(["--quiet", "--shard", &shard, "--parquet", path_arg(&file)]);
            ok(&args);
            file
        })
        .collect()
}

/// A game played to its end, or to `max_plies`, with seeded random moves
/// from `start`.
pub fn random_game<'t>(t: &'t Tables, start: &Position, seed: u64, max_plies: u32) -> Match<'t> {
    let mut m = Match::new(t, start.clone());
    let mut rng = Rng::new(seed);
    while m.outcome().is_none() && m.plies < max_plies {
        let n = m.legal().len() as u64;
        let mv = m.legal()[rng.below(n) as usize].clone();
        m.play(&mv);
    }
    m
}

/// Random play of `game` by `rulebook simulate` (with `simulate_args`, its
/// rows written as CSV) against an independent simulator (`python3 script
/// script_args`, printing `mean_rolls`, `sd_rolls` and `first_wins` as
/// JSON): the mean turns a game and the first seat's win rate agree within
/// 2 standard errors of the difference. Returns the figures, in words.
pub fn agrees_with_simulator(
    game: &str,
    games: usize,
    simulate_args: &[&str],
    script: &str,
    script_args: &[&str],
) -> String {
    let dir = scratch();
    let csv = dir.path().join("games.csv");
    let g = games.to_string();
    let mut args = vec![
        "simulate",
        game,
        "--games",
        &g,
        "--agents",
        "random",
        "--max-plies",
        "100000",
        "--quiet",
        "--csv",
        csv.to_str().unwrap(),
    ];
    args.extend_from_slice(simulate_args);
    let (code, _, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let rows = std::fs::read_to_string(&csv).unwrap();
    let header: Vec<&str> = rows.lines().next().unwrap().split(',').collect();
    let plies = header.iter().position(|h| *h == "plies").unwrap();
    let seat_col = header.iter().position(|h| *h == "seat").unwrap();
    let mut lengths = Vec::new();
    let mut first = 0usize;
    for row in rows.lines().skip(1) {
        let cells: Vec<&str> = row.split(',').collect();
        lengths.push(cells[plies].parse::<f64>().unwrap());
        first += usize::from(cells[seat_col] == "1");
    }
    let n = lengths.len();
    assert_eq!(n, games);
    let ours_mean = lengths.iter().sum::<f64>() / n as f64;
    let ours_sd =
        (lengths.iter().map(|x| (x - ours_mean).powi(2)).sum::<f64>() / (n as f64 - 1.0)).sqrt();

    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new("python3")
        .arg(root.join(script))
        .args(script_args)
        .output()
        .expect("python3 runs the independent simulator");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let their_mean = v["mean_rolls"].as_f64().unwrap();
    let their_sd = v["sd_rolls"].as_f64().unwrap();
    let their_first = v["first_wins"].as_f64().unwrap();

    let se = (ours_sd.powi(2) / n as f64 + their_sd.powi(2) / games as f64).sqrt();
    let report = format!(
        "{games} games each: mean turns ours {ours_mean:.2} (sd {ours_sd:.2}), the simulator's {their_mean:.2} (sd {their_sd:.2}); first seat wins ours {first}, the simulator's {their_first}"
    );
    assert!(
        (ours_mean - their_mean).abs() <= 2.0 * se,
        "mean turns differ by more than 2 standard errors ({se:.2}): {report}"
    );
    let (a, b) = (first as f64 / n as f64, their_first / games as f64);
    let se_rate = (a * (1.0 - a) / n as f64 + b * (1.0 - b) / games as f64).sqrt();
    assert!(
        (a - b).abs() <= 2.0 * se_rate,
        "the first seat's win rates differ by more than 2 standard errors ({se_rate:.4}): {report}"
    );
    report
}

/// The tables of a bundled board game with options (`name=value` pairs);
/// the checker's report is the panic message when it isn't one.
pub fn board_game(name: &str, options: &[(&str, &str)]) -> Tables {
    let options: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let checked = rulebook::load::check(&rulebook::load::BundledLoader, name, &options);
    match checked.board().cloned() {
        Some(t) => t,
        None => panic!("{name}: {}", checked.render()),
    }
}

/// The tables of a board rule file given as text (it may extend bundled
/// games); the checker's report is the panic message when it isn't one.
pub fn board_text(text: &str) -> Tables {
    let checked = rulebook::load::check_source(
        rulebook::load::Source {
            name: "test.rules".to_string(),
            text: text.to_string(),
        },
        &rulebook::load::BundledLoader,
        &[],
    );
    match checked.board().cloned() {
        Some(t) => t,
        None => panic!("{}", checked.render()),
    }
}

/// Runs the independent program `tests/independent/SCRIPT` with python3,
/// `args` on its command line and `input` on its stdin; it must succeed.
/// Its standard output.
pub fn independent_program(script: &str, args: &[&str], input: &str) -> String {
    use std::io::Write;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/independent")
        .join(script);
    let mut child = std::process::Command::new("python3")
        .arg(path)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs the independent program");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{script} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

// ------------------------------------------------------------------ the play page

/// Resizes the browser window so that the page is `w` x `h` CSS pixels
/// (the window's frame, if any, made up for).
pub fn page_size(b: &Browser, w: u32, h: u32) {
    let want = json!([w, h]);
    let (mut ow, mut oh) = (w, h);
    for _ in 0..30 {
        b.rt.block_on(b.c().set_window_size(ow, oh)).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(300));
        let inner = b.js("return [window.innerWidth, window.innerHeight];");
        if inner == want {
            return;
        }
        let (iw, ih) = (inner[0].as_u64().unwrap(), inner[1].as_u64().unwrap());
        ow = (i64::from(ow) + i64::from(w) - iw as i64).max(100) as u32;
        oh = (i64::from(oh) + i64::from(h) - ih as i64).max(100) as u32;
    }
    let inner = b.js("return [window.innerWidth, window.innerHeight];");
    assert_eq!(inner, want, "the page's size");
}

/// A screenshot for docs/ (docs/web.md): also saved as
/// target/web-screenshots/docs/DOC, to be looked at and copied to docs/ by
/// hand (a test run leaves the tracked files alone).
pub fn doc_shot(b: &Browser, what: &str, doc: &str) {
    let file = b.shot(what);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/web-screenshots/docs");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(&file, dir.join(doc)).unwrap();
}

/// The element's box: [top, bottom, left, right, height].
pub(crate) fn rect(b: &Browser, css: &str) -> Vec<f64> {
    let v = b.js(&format!(
        "const r = document.querySelector({}).getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right, r.height];",
        json!(css)
    ));
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// Opens GAME on the play page with a person in the first seat.
pub(crate) fn open(b: &Browser, game: &str) {
    b.goto(&format!("/?game={game}"));
    b.wait("document.querySelectorAll('[data-side]').length >= 2", 10);
    b.js("document.getElementById('seed').value = '7';");
    b.click("#start");
    b.wait("document.body.dataset.turn === 'roll'", 30);
}

/// How many elements of the play page `css` selects.
pub(crate) fn count(b: &Browser, css: &str) -> u64 {
    b.js(&format!(
        "return document.querySelectorAll({}).length;",
        json!(css)
    ))
    .as_u64()
    .unwrap()
}

/// The track's drawing on the play page fits a window `w` CSS pixels
/// wide, and the page doesn't scroll sideways.
pub(crate) fn assert_track_fits(b: &Browser, w: u32) {
    let track = rect(b, "#track-svg svg");
    assert!(track[2] >= 0.0 && track[3] <= f64::from(w), "{track:?}");
    let wide = b.js("return document.documentElement.scrollWidth;");
    assert!(wide.as_u64().unwrap() <= u64::from(w), "{wide} px wide");
}

/// Clicks Roll on the play page and waits for the state it brings.
pub(crate) fn roll_on_page(b: &Browser) {
    let before = b.js("return state.version;");
    b.click("#roll");
    b.wait(&format!("state.version !== {before}"), 10);
}

/// Clicks the first choice on the play page and waits for the turn played.
pub(crate) fn choose_first_on_page(b: &Browser) {
    let before = b.js("return state.turns.length;");
    b.click("#choices .choice");
    b.wait(&format!("state.turns.length > {before}"), 10);
}

/// The web application in process, as the tests of its API speak to it.
pub(crate) struct WebApp {
    rt: tokio::runtime::Runtime,
    app: axum::Router,
}

impl WebApp {
    /// The application with the bundled games and no folder of its own.
    pub(crate) fn new() -> WebApp {
        WebApp {
            rt: crate::web::runtime(),
            app: rulebook::web::router(rulebook::web::Library::new(None).unwrap()),
        }
    }

    /// The status and the body as text.
    pub(crate) fn send(
        &self,
        method: &str,
        uri: &str,
        body: Option<Value>,
    ) -> (StatusCode, String) {
        let mut req = Request::builder().method(method).uri(uri);
        if body.is_some() {
            req = req.header("content-type", "application/json");
        }
        let body = body.map_or_else(Body::empty, |b| Body::from(b.to_string()));
        let (status, _, bytes) = self
            .rt
            .block_on(crate::web::send_async(&self.app, req.body(body).unwrap()));
        (status, String::from_utf8(bytes).unwrap())
    }

    /// The status and the body read as JSON.
    pub(crate) fn json(&self, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
        let (status, text) = self.send(method, uri, body);
        (status, serde_json::from_str(&text).unwrap())
    }

    /// Opens a game; its id and state.
    pub(crate) fn open(&self, body: Value) -> (String, Value) {
        let (s, v) = self.json("POST", "/api/games", Some(body));
        assert_eq!(s, StatusCode::CREATED, "{v}");
        (v["id"].as_str().unwrap().to_string(), v)
    }

    /// A refusal's status and error text.
    pub(crate) fn refusal(
        &self,
        method: &str,
        uri: &str,
        body: Option<Value>,
    ) -> (StatusCode, String) {
        let (s, v) = self.json(method, uri, body);
        (s, v["error"].as_str().unwrap_or_default().to_string())
    }
}
