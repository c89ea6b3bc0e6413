//! `rulebook serve` in a real browser: headless Chromium (Debian's
//! `chromium` and `chromium-driver`, installed by .ci/run) driven through
//! WebDriver with fantoccini. The tests click and type as a person would:
//! a whole draughts game against `random` to its end, an illegal move and
//! its explanation, a race game's roll and choice, a rule file edited to an
//! error and back, then played. Each page is saved as a PNG under
//! target/web-screenshots/ for review. Without chromium or chromedriver the
//! tests fail; they never skip.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

/// One browser at a time: two cores are shared, and Chromium is heavy.
pub(crate) static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The web server of these tests, started once, on a free port, serving
/// the bundled games and a games folder.
fn server() -> &'static str {
    static ADDR: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ADDR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("rulebook-browser-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("house.rules"),
            rulebook::bundled::get("draughts").unwrap(),
        )
        .unwrap();
        let (tx, rx) = std::sync::mpsc::channel::<SocketAddr>();
        std::thread::spawn(move || {
            let library = rulebook::web::Library::new(Some(&dir)).unwrap();
            rulebook::web::serve(library, "127.0.0.1", 0, move |addr| {
                tx.send(addr).unwrap();
            })
            .unwrap();
        });
        let addr = rx.recv_timeout(Duration::from_secs(30)).unwrap();
        format!("http://{addr}")
    })
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// chromedriver, stopped when dropped.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A browser on the server's pages; screenshots go to
/// target/web-screenshots/NAME-N-WHAT.png.
pub(crate) struct Browser {
    pub(crate) rt: tokio::runtime::Runtime,
    client: Option<Client>,
    _driver: Driver,
    base: String,
    name: &'static str,
    shots: std::cell::Cell<usize>,
}

impl Browser {
    pub(crate) fn new(name: &'static str) -> Browser {
        let base = server().to_string();
        let port = free_port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "can't start chromedriver ({e}): .ci/run installs chromium and chromium-driver"
                )
            });
        let driver = Driver(child);
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let mut caps = serde_json::Map::new();
        let mut chrome = json!({
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1200,900"],
        });
        if std::path::Path::new("/usr/bin/chromium").exists() {
            chrome["binary"] = json!("/usr/bin/chromium");
        }
        caps.insert("goog:chromeOptions".into(), chrome);
        let client = rt
            .block_on(async {
                ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                    .capabilities(caps)
                    .connect(&format!("http://127.0.0.1:{port}"))
                    .await
            })
            .unwrap_or_else(|e| panic!("chromium did not start: {e}"));
        Browser {
            rt,
            client: Some(client),
            _driver: driver,
            base,
            name,
            shots: std::cell::Cell::new(0),
        }
    }

    pub(crate) fn c(&self) -> &Client {
        self.client.as_ref().unwrap()
    }

    pub(crate) fn goto(&self, path: &str) {
        let url = format!("{}{path}", self.base);
        self.rt.block_on(self.c().goto(&url)).unwrap();
    }

    /// Runs JavaScript in the page (`return ...` for a value).
    pub(crate) fn js(&self, script: &str) -> Value {
        self.rt
            .block_on(self.c().execute(script, vec![]))
            .unwrap_or_else(|e| panic!("{script}: {e}"))
    }

    /// Waits until a JavaScript expression is true.
    pub(crate) fn wait(&self, expr: &str, secs: u64) {
        let start = Instant::now();
        loop {
            if self.js(&format!("return !!({expr});")) == json!(true) {
                return;
            }
            if start.elapsed() > Duration::from_secs(secs) {
                self.shot("timeout");
                panic!(
                    "waited {secs} s for `{expr}`; message: {}",
                    self.text("#message")
                );
            }
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// A real click on the element found by a CSS selector (found again
    /// when the page redrew it between finding and clicking).
    pub(crate) fn click(&self, css: &str) {
        let mut tries = 0;
        loop {
            let done = self.rt.block_on(async {
                let e = self.c().find(Locator::Css(css)).await?;
                e.click().await
            });
            match done {
                Ok(()) => return,
                Err(e) if tries < 5 && e.to_string().contains("stale") => tries += 1,
                Err(e) => panic!("click {css}: {e}"),
            }
        }
    }

    /// Keys typed into the element found by a CSS selector.
    pub(crate) fn type_into(&self, css: &str, keys: &str) {
        self.rt
            .block_on(async {
                let e = self.c().find(Locator::Css(css)).await?;
                e.send_keys(keys).await
            })
            .unwrap_or_else(|e| panic!("type into {css}: {e}"));
    }

    pub(crate) fn text(&self, css: &str) -> String {
        let v = self.js(&format!(
            "const e = document.querySelector({}); return e ? e.textContent : '';",
            json!(css)
        ));
        v.as_str().unwrap_or_default().to_string()
    }

    /// Saves a screenshot of the page.
    pub(crate) fn shot(&self, what: &str) -> PathBuf {
        self.shots.set(self.shots.get() + 1);
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/web-screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(format!("{}-{}-{what}.png", self.name, self.shots.get()));
        let png = self.rt.block_on(self.c().screenshot()).unwrap();
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        std::fs::write(&file, png).unwrap();
        file
    }

    /// Picks `value` in the select element `css` and says it changed.
    pub(crate) fn select(&self, css: &str, value: &str) {
        self.js(&format!(
            "const s = document.querySelector({}); s.value = {}; s.dispatchEvent(new Event('change'));",
            json!(css),
            json!(value)
        ));
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if let Some(c) = self.client.take() {
            let _ = self.rt.block_on(c.close());
        }
    }
}

/// The squares of the move a person would pick: the one taking the most
/// pieces, else the first.
pub(crate) fn pick(legal: &[Value]) -> Vec<String> {
    let best = legal
        .iter()
        .max_by_key(|m| m["captured"].as_array().map_or(0, Vec::len))
        .unwrap();
    best["squares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// Plays one move by clicking its squares in turn, until the page has
/// sent it (the ply count grows).
pub(crate) fn click_move(b: &Browser, squares: &[String]) {
    let before = b.js("return Number(document.body.dataset.ply);");
    for s in squares {
        b.click(&format!("#board rect.hit[data-square=\"{s}\"]"));
        if b.js("return Number(document.body.dataset.ply);") != before {
            return;
        }
    }
    b.wait(
        &format!("Number(document.body.dataset.ply) !== {before}"),
        10,
    );
}

#[test]
fn a_whole_draughts_game_by_clicks_against_random() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::new("draughts");
    b.goto("/?game=draughts");
    b.wait("document.querySelectorAll('[data-side]').length === 2", 10);
    // The setup page names the sides as the rule file does.
    let labels = b.text("#side-choice");
    assert!(!labels.contains("Side 1"), "{labels}");
    b.select("[data-side='1']", "random");
    b.shot("setup");
    b.click("#start");
    b.wait("document.body.dataset.turn", 10);
    let mut moves = 0;
    loop {
        b.wait("['human', 'over'].includes(document.body.dataset.turn)", 30);
        if b.js("return document.body.dataset.turn;") == json!("over") {
            break;
        }
        let legal = b.js("return state.legal;");
        let squares = pick(legal.as_array().unwrap());
        // The piece clicked first lights up with its destinations.
        b.click(&format!("#board rect.hit[data-square=\"{}\"]", squares[0]));
        assert_eq!(
            b.js("return document.querySelectorAll('#board .mark-from').length;"),
            json!(1)
        );
        assert!(
            b.js("return document.querySelectorAll('#board .mark-to').length;")
                .as_u64()
                .unwrap()
                >= 1
        );
        if moves == 0 {
            b.shot("piece-picked");
        }
        click_move(&b, &squares[1..]);
        moves += 1;
        if moves == 10 {
            b.shot("middle");
        }
        assert!(moves < 1000, "the game did not end");
    }
    let status = b.text("#status");
    assert!(status.starts_with("Game over:"), "{status}");
    // A line per move as players number them (`1. 22-18 9-13`): at least
    // one per move of the person, each numbered by its move.
    let listed = b.js("return document.querySelectorAll('#moves li').length;");
    assert!(listed.as_u64().unwrap() >= moves, "{listed}");
    let first = b.js("return document.querySelector('#moves li').value + '. ' + document.querySelector('#moves li').textContent;");
    let first = first.as_str().unwrap_or("").to_string();
    assert!(
        first.starts_with("1. ") && first.split(' ').count() == 3,
        "{first}"
    );
    b.shot("over");
    eprintln!("draughts by clicks: {moves} moves of the person; {status}");
}

#[test]
fn an_illegal_move_is_explained() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::new("illegal");
    b.goto("/?game=draughts");
    b.wait("document.querySelectorAll('[data-side]').length === 2", 10);
    b.select("[data-side='1']", "human");
    b.click("#start");
    b.wait("document.body.dataset.turn === 'human'", 10);
    // A piece of the side not to move: on the rank farthest from the
    // pieces that can move.
    let target = b.js(
        "const starts = new Set(state.legal.map((m) => m.squares[0]));
         const rank = (n) => state.squares.find((q) => q.name === n).rank;
         const mean = [...starts].reduce((a, n) => a + rank(n), 0) / starts.size;
         let best = null;
         for (const q of state.squares) {
           if (!best || Math.abs(q.rank - mean) > Math.abs(best.rank - mean)) best = q;
         }
         return best.name;",
    );
    let target = target.as_str().unwrap();
    b.click(&format!("#board rect.hit[data-square=\"{target}\"]"));
    b.wait("document.getElementById('message').textContent !== ''", 10);
    let why = b.text("#message");
    b.shot("not-yours");
    assert!(why.contains("to move"), "{why}");
    // A piece that can move, sent to a square it can't reach.
    let (from, to) = {
        let v = b.js(
            "const m = state.legal[0];
             const ends = new Set(state.legal.filter((x) => x.squares[0] === m.squares[0]).map((x) => x.squares[x.squares.length - 1]));
             const starts = new Set(state.legal.map((x) => x.squares[0]));
             const q = state.squares.find((q) => !ends.has(q.name) && !starts.has(q.name) && q.name !== m.squares[0]);
             return [m.squares[0], q.name];",
        );
        (
            v[0].as_str().unwrap().to_string(),
            v[1].as_str().unwrap().to_string(),
        )
    };
    b.js("document.getElementById('message').textContent = '';");
    b.click(&format!("#board rect.hit[data-square=\"{from}\"]"));
    b.click(&format!("#board rect.hit[data-square=\"{to}\"]"));
    b.wait("document.getElementById('message').textContent !== ''", 10);
    let why2 = b.text("#message");
    b.shot("cannot-go-there");
    assert!(!why2.is_empty());
    assert_eq!(b.js("return state.moves.length;"), json!(0));
    eprintln!("illegal: {target}: {why}\n{from}-{to}: {why2}");
}

#[test]
fn a_rule_file_edited_to_an_error_and_back_then_played() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::new("editor");
    b.goto("/editor");
    b.wait("document.querySelectorAll('#file option').length > 0", 10);
    b.select("#file", "house.rules");
    b.wait(
        "window.editorView && window.editorView.state.doc.length > 100 && document.getElementById('summary').textContent === 'no problems'",
        10,
    );
    b.shot("opened");
    // Type a line that is no rule at the end of the text.
    b.js("const v = window.editorView; v.focus(); v.dispatch({selection: {anchor: v.state.doc.length}});");
    b.type_into(".cm-content", "\nwat\n");
    b.wait(
        "document.getElementById('summary').textContent.includes('error')",
        10,
    );
    let diags = b.text("#diagnostics");
    b.shot("error");
    assert!(diags.contains("house.rules:"), "{diags}");
    assert!(diags.contains("error["), "{diags}");
    assert!(diags.contains("help"), "{diags}");
    assert_eq!(
        b.js("return document.getElementById('play').disabled;"),
        json!(true)
    );
    // Clicking the diagnostic selects its span in the text.
    b.click("#diagnostics .diag");
    let selected = b.js("const v = window.editorView; const s = v.state.selection.main; return v.state.sliceDoc(s.from, s.to);");
    assert!(selected.as_str().unwrap().contains("wat"), "{selected}");
    // Take it back with the backspace key: no problem any more.
    b.js("const v = window.editorView; v.focus(); v.dispatch({selection: {anchor: v.state.doc.length}});");
    b.type_into(".cm-content", &"\u{E003}".repeat(5));
    b.wait(
        "document.getElementById('summary').textContent === 'no problems'",
        10,
    );
    b.shot("fixed");
    b.click("#play");
    b.wait("document.querySelectorAll('[data-side]').length === 2", 10);
    b.select("[data-side='1']", "random");
    b.click("#start");
    b.wait("document.body.dataset.turn === 'human'", 10);
    let legal = b.js("return state.legal;");
    let squares = pick(legal.as_array().unwrap());
    b.click(&format!("#board rect.hit[data-square=\"{}\"]", squares[0]));
    click_move(&b, &squares[1..]);
    b.wait("Number(document.body.dataset.ply) >= 2", 20);
    b.shot("played");
    assert_eq!(b.js("return state.game;"), json!("house.rules"));
}

#[test]
fn a_race_game_turn_with_a_roll_and_a_choice() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::new("race");
    b.goto("/?game=slow-and-steady");
    b.wait("document.querySelectorAll('[data-side]').length >= 2", 10);
    let labels = b.text("#side-choice");
    assert!(!labels.contains("Side 1"), "{labels}");
    b.select("[data-side='1']", "random");
    b.js("document.getElementById('seed').value = '11';");
    b.shot("setup");
    b.click("#start");
    b.wait("document.body.dataset.turn === 'roll'", 10);
    // Every choice chosen by a click here, a forced one too.
    b.click("#auto-forced");
    assert!(b.text("#seed-shown").contains("seed 11"));
    b.shot("before-roll");
    let mut turns = 0;
    let mut clicked = 0;
    let mut moved_shot = false;
    while turns < 12 {
        b.wait(
            "['roll', 'choose', 'over'].includes(document.body.dataset.turn)",
            20,
        );
        match b.js("return document.body.dataset.turn;").as_str().unwrap() {
            "over" => break,
            "roll" => {
                b.click("#roll");
                b.wait("document.body.dataset.turn !== 'roll'", 10);
            }
            _ => {
                let dice = b.text("#dice");
                assert!(dice.starts_with("rolled "), "{dice}");
                b.wait(
                    "document.querySelectorAll('#choices .choice').length > 0",
                    10,
                );
                // The cells of each choice are outlined on the track.
                let outlined = b.js(
                    "return document.querySelectorAll('#track-svg .choice-from, #track-svg .choice-to').length;",
                );
                let moves = b.js("return state.choices.filter((c) => c.to !== null).length;");
                assert!(
                    outlined.as_u64().unwrap() >= moves.as_u64().unwrap(),
                    "{outlined} {moves}"
                );
                if turns == 0 {
                    b.shot("choices");
                }
                if !moved_shot
                    && b.js("return state.choices.some((c) => c.cell !== null && c.to !== null);")
                        == json!(true)
                {
                    // A piece on the track can move: for docs/web-race.png.
                    b.shot("track-move");
                    moved_shot = true;
                }
                let before = b.js("return state.turns.length;");
                // A click on the track plays the choice of that cell (the
                // first turn with a choice on the track, then every other);
                // else a button.
                let on_track =
                    b.js("return document.querySelectorAll('#track-svg rect.hit').length;");
                let chosen = if on_track.as_u64().unwrap() > 0 && (clicked == 0 || turns % 2 == 1) {
                    if clicked == 0 {
                        b.shot("track-choices");
                    }
                    let choice = b
                        .js("return document.querySelector('#track-svg rect.hit').dataset.choice;");
                    b.click("#track-svg rect.hit");
                    clicked += 1;
                    choice
                } else {
                    let choice =
                        b.js("return document.querySelector('#choices .choice').dataset.choice;");
                    b.click("#choices .choice");
                    choice
                };
                b.wait(&format!("state.turns.length > {before}"), 10);
                assert_eq!(
                    b.js(&format!("return state.turns[{before}].choice;")),
                    chosen
                );
                // The turn played is listed with its rule events in words.
                let listed = b.text("#moves");
                assert!(listed.contains("rolls"), "{listed}");
                turns += 1;
            }
        }
    }
    // The computer's turns came through the event stream.
    b.wait(
        "state.turns.some((t) => t.seat === 1) || document.body.dataset.turn === 'over'",
        20,
    );
    b.shot("after-turns");
    let log = b.text("#moves");
    eprintln!("race log:\n{log}");
    assert!(clicked > 0, "no choice was on the track");
    // The track is the picture of `show --svg`: a hundred cells, the legend.
    assert_eq!(
        b.js("return document.querySelectorAll('#track-svg rect.cell').length;"),
        json!(100)
    );
    assert!(b.text("#track-svg").contains("contains 7: back 3"));
}

#[test]
fn race_undo_redo_hint_then_the_record_downloaded_and_loaded() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::new("race-undo");
    b.goto("/?game=slow-and-steady");
    b.wait("document.querySelectorAll('[data-side]').length >= 2", 10);
    b.select("[data-side='1']", "random");
    b.js("document.getElementById('seed').value = '11';");
    b.click("#start");
    b.wait("state && document.body.dataset.turn", 10);
    b.click("#auto-forced");
    // Roll and choose by clicks until three turns of the person are played.
    let mine = || {
        b.js("return state.turns.filter((t) => t.seat === 0).length;")
            .as_u64()
            .unwrap()
    };
    while mine() < 3 {
        b.wait(
            "['roll', 'choose'].includes(document.body.dataset.turn)",
            20,
        );
        if b.js("return document.body.dataset.turn;") == json!("roll") {
            b.click("#roll");
            b.wait("document.body.dataset.turn !== 'roll'", 10);
        } else {
            let before = b.js("return state.turns.length;");
            b.click("#choices .choice");
            b.wait(&format!("state.turns.length > {before}"), 10);
        }
    }
    b.wait("document.body.dataset.turn === 'roll'", 20);
    // The hint names one of the choices of the roll.
    b.click("#roll");
    b.wait("document.body.dataset.turn === 'choose'", 10);
    b.click("#hint");
    b.wait(
        "document.getElementById('message').textContent.startsWith('hint: ')",
        10,
    );
    let hint = b.text("#message");
    assert_eq!(
        b.js("return document.querySelectorAll('#choices .choice.hinted').length;"),
        json!(1),
        "{hint}"
    );
    b.shot("hint");
    // Undo: the person's last turn again, with its dice.
    let turns = b.js("return state.turns;");
    let last = turns
        .as_array()
        .unwrap()
        .iter()
        .rposition(|t| t["seat"] == 0)
        .unwrap();
    b.click("#undo");
    b.wait(&format!("state.turns.length === {last}"), 10);
    assert_eq!(b.js("return document.body.dataset.turn;"), json!("choose"));
    assert_eq!(
        b.text("#dice"),
        format!(
            "rolled {}",
            turns[last]["dice"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        )
    );
    b.shot("undone");
    // Redo: the same choice again; the computer's turns come back.
    b.click("#redo");
    b.wait(&format!("state.turns.length > {last}"), 10);
    assert_eq!(b.js(&format!("return state.turns[{last}];")), turns[last]);
    b.wait("document.body.dataset.turn === 'roll'", 20);
    // The record downloaded, then loaded on the setup page: the same game
    // goes on, its dice from the record's seed.
    let record = b
        .rt
        .block_on(
            b.c()
                .execute_async(
                    "const done = arguments[0]; fetch(document.getElementById('record').href).then((r) => r.text()).then(done);",
                    vec![],
                ),
        )
        .unwrap();
    let record = record.as_str().unwrap().to_string();
    let header: Value = serde_json::from_str(record.lines().next().unwrap()).unwrap();
    assert_eq!(header["seed"], 11);
    let played = b.js("return state.turns.length;");
    assert_eq!(record.lines().count() as u64 - 1, played.as_u64().unwrap());
    let file = std::env::temp_dir().join(format!("rulebook-race-{}.jsonl", std::process::id()));
    std::fs::write(&file, &record).unwrap();
    b.goto("/?game=slow-and-steady");
    b.wait("document.querySelectorAll('[data-side]').length >= 2", 10);
    b.select("[data-side='1']", "random");
    b.type_into("#load-file", file.to_str().unwrap());
    b.click("#load");
    b.wait("state && state.kind === 'race'", 10);
    assert_eq!(b.js("return state.turns.length;"), played);
    assert_eq!(b.js("return state.seed;"), json!("11"));
    b.wait("document.body.dataset.turn === 'roll'", 10);
    b.shot("loaded");
    let _ = std::fs::remove_file(&file);
    eprintln!("race: {hint}; {played} turns saved and loaded");
}
