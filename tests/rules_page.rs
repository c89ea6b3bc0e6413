//! The rules page of a game (`format::rules_html`): the page of every
//! bundled game made from its compiled game (title, description, a diagram
//! of each kind's moves, the capture and end rules, the track and its cell
//! rules), the text of three pages as snapshots, `rules GAME --html FILE`
//! and its refusals, the web server's `GET /rules`, and every page printed
//! by headless Chromium on at most two A4 pages (with a screenshot of a
//! board and a race page under target/rules-screenshots/).

use axum::body::Body;
use axum::http::{Request, StatusCode};
use rulebook::board::game::Moves;
use rulebook::cli::FsLoader;
use rulebook::format::rules_html::page;
use rulebook::load::{check, Loaded};
use rulebook::web::{router, Library};

use crate::common::{run, scratch};

/// The page of a bundled game with its default options, and the game.
fn page_of(name: &str) -> (String, Loaded) {
    let checked = check(&FsLoader, name, &[]);
    let loaded = checked
        .loaded
        .unwrap_or_else(|| panic!("{name} does not load"));
    (page(&loaded, &checked.options, &[]), loaded)
}

/// Text as the page writes it in HTML.
fn html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The words of a page as a reader sees them: the style left out, each
/// picture one line `[picture]`, the markup removed, one line per block.
fn text_of(page: &str) -> String {
    let mut s = page.to_string();
    for (open, close, instead) in [("<style>", "</style>", ""), ("<svg", "</svg>", "[picture]")] {
        while let Some(a) = s.find(open) {
            let b = s[a..].find(close).map(|b| a + b + close.len()).unwrap();
            s.replace_range(a..b, instead);
        }
    }
    let mut out = String::new();
    let mut in_tag = false;
    let mut tag = String::new();
    for c in s.chars() {
        match c {
            '<' => {
                in_tag = true;
                tag.clear();
            }
            '>' if in_tag => {
                in_tag = false;
                // A cell of a table: a tab between name and value.
                if tag == "td" && !out.ends_with('\n') {
                    out.push(' ');
                }
            }
            _ if in_tag => tag.push(c),
            _ => out.push(c),
        }
    }
    let out = out
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&");
    out.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// Whether a kind has any move at all.
fn moves_at_all(m: &Moves) -> bool {
    !(m.step.is_empty()
        && m.slide.is_empty()
        && m.short_jump.is_empty()
        && m.long_jump.is_empty()
        && m.step_capture.is_empty()
        && m.slide_capture.is_empty())
}

#[test]
fn every_bundled_game_has_a_page_of_its_own_rules() {
    assert!(rulebook::bundled::GAMES.len() >= 10);
    for (name, _) in rulebook::bundled::GAMES {
        let (page, loaded) = page_of(name);
        assert!(page.starts_with("<!DOCTYPE html>"), "{name}");
        assert!(page.ends_with("</html>\n"), "{name}");
        assert!(
            page.contains(&format!("<h1>{}</h1>", html(loaded.title()))),
            "{name}: the title"
        );
        let first = loaded.description().split("\n\n").next().unwrap().trim();
        assert!(!first.is_empty(), "{name} has a description");
        assert!(page.contains(&html(first)), "{name}: the description");
        // Self-contained: nothing loaded from elsewhere, printable.
        for outside in ["<script", "<link", "src=", "url(http", "@import"] {
            assert!(!page.contains(outside), "{name}: {outside}");
        }
        assert!(page.contains("@media print"), "{name}");
        assert!(page.contains("@page{size:A4"), "{name}");
        assert!(page.contains("<h2>End of the game</h2>"), "{name}");
        let text = text_of(&page);
        match &loaded {
            Loaded::Board(t) => {
                let g = t.game();
                // The setup drawn: one piece drawn per piece of the setup.
                let setup = page.split("<figure class=\"setup\">").nth(1).unwrap();
                let setup = setup.split("</figure>").next().unwrap();
                assert_eq!(
                    setup.matches("<circle class=\"piece ").count(),
                    g.setup.len(),
                    "{name}: the setup"
                );
                // One block per kind, with its diagrams of moves and
                // captures and its moves in words.
                assert_eq!(
                    page.matches("<div class=\"kind\"").count(),
                    g.kinds.len(),
                    "{name}"
                );
                for kind in &g.kinds {
                    let block = page
                        .split(&format!("data-kind=\"{}\"", html(&kind.id)))
                        .nth(1)
                        .unwrap_or_else(|| panic!("{name}: no block for {}", kind.id));
                    let block = block.split("<div class=\"kind\"").next().unwrap();
                    let m = &kind.moves[0];
                    let diagrams = block.matches("<svg class=\"moves\"").count();
                    let plain = !(m.step.is_empty() && m.slide.is_empty());
                    let takes = moves_at_all(&Moves {
                        step: Vec::new(),
                        slide: Vec::new(),
                        ..m.clone()
                    });
                    assert_eq!(
                        diagrams,
                        usize::from(plain) + usize::from(takes),
                        "{name}: diagrams of {}",
                        kind.id
                    );
                    if !m.step.is_empty() {
                        assert!(
                            block.contains("Steps one square")
                                || block.contains("Moves in one leap"),
                            "{name} {}",
                            kind.id
                        );
                        assert!(block.contains("class=\"to\""), "{name} {}", kind.id);
                    }
                    if !m.short_jump.is_empty() || !m.long_jump.is_empty() {
                        assert!(block.contains("Jumps"), "{name} {}", kind.id);
                        assert!(block.contains("class=\"land\""), "{name} {}", kind.id);
                        assert!(block.contains("class=\"enemy\""), "{name} {}", kind.id);
                    }
                    if let Some((to, _)) = &kind.promotion {
                        let new = g.kinds[usize::from(to.0)].name.to_lowercase();
                        assert!(
                            text.contains(&format!(
                                "A {} that ends its move on its crowning squares becomes a {new}",
                                kind.name.to_lowercase()
                            )),
                            "{name}: the promotion of {}",
                            kind.id
                        );
                    }
                }
                // Every end rule, one line each, in order.
                let end = text.split("the first decides.\n").nth(1).unwrap();
                let lines: Vec<&str> = end.lines().take(g.end.rules.len()).collect();
                assert_eq!(lines.len(), g.end.rules.len(), "{name}");
                for line in lines {
                    assert!(
                        line.starts_with("When ") || line.starts_with("After "),
                        "{name}: {line}"
                    );
                }
            }
            Loaded::Race(game) => {
                assert!(
                    page.contains("<figure class=\"track\"><svg")
                        || page.contains("<figure class=\"track\">\n<svg"),
                    "{name}: the track"
                );
                let legend = rulebook::narrate::legend::Legend::of(game);
                for entry in &legend.entries {
                    assert!(
                        text.contains(&format!("{} {}", entry.mark, entry.text(" to "))),
                        "{name}: the cell rule {}",
                        entry.name
                    );
                }
                for roll in &legend.rolls {
                    assert!(text.contains(roll.as_str()), "{name}: {roll}");
                }
                assert!(
                    text.contains(&format!("{} per player", game.pieces)),
                    "{name}"
                );
                if game.sticks {
                    assert!(text.contains(&format!("{} sticks", game.dice)), "{name}");
                } else {
                    assert!(text.contains(&format!("of {} faces", game.faces)), "{name}");
                }
                assert!(text.contains("A piece off the track may enter"), "{name}");
            }
        }
        let checked = check(&FsLoader, name, &[]);
        for (option, values) in &checked.options {
            assert!(
                text.contains(&format!("{option}: {}", values.join(" | "))),
                "{name}: the option {option}"
            );
        }
    }
}

#[test]
fn a_house_rule_shows_its_own_description_not_its_parents() {
    let (parent, parent_game) = page_of("draughts");
    for name in ["variants/english", "variants/giveaway", "variants/russian"] {
        let (page, loaded) = page_of(name);
        assert_ne!(loaded.description(), parent_game.description(), "{name}");
        assert!(page.contains(&html(
            loaded.description().split("\n\n").next().unwrap().trim()
        )));
        assert!(
            !page.contains(&html(parent_game.description().trim())),
            "{name} shows the description of the game it extends"
        );
        assert_ne!(page, parent);
    }
}

#[test]
fn the_text_of_a_board_page_reads_as_rules() {
    insta::assert_snapshot!(text_of(&page_of("draughts").0));
}

#[test]
fn the_text_of_a_custodian_page_reads_as_rules() {
    insta::assert_snapshot!(text_of(&page_of("other/hasami-shogi").0));
}

#[test]
fn the_text_of_a_race_page_reads_as_rules() {
    insta::assert_snapshot!(text_of(&page_of("other/ludo").0));
}

#[test]
fn an_option_given_is_the_one_the_page_shows() {
    let options = vec![("three-sixes".to_string(), "yes".to_string())];
    let checked = check(&FsLoader, "other/ludo", &options);
    let loaded = checked.loaded.unwrap();
    let page = page(&loaded, &checked.options, &options);
    assert!(page.contains("three-sixes: no | <span class=\"chosen\">yes</span>"));
    // The game compiled with the option has its rule of the roll.
    let legend = rulebook::narrate::legend::Legend::of(match &loaded {
        Loaded::Race(g) => g,
        Loaded::Board(_) => panic!("a race game"),
    });
    assert!(!legend.rolls.is_empty());
    assert!(page.contains("<h2>Rules of the roll</h2>"));
    assert!(!page_of("other/ludo")
        .0
        .contains("<h2>Rules of the roll</h2>"));
}

#[test]
fn rules_html_writes_the_page_to_the_file() {
    let dir = scratch();
    let file = dir.path().join("draughts.html");
    let f = file.to_str().unwrap();
    let (code, out, err) = run(&["rules", "draughts", "--option", "kings=short", "--html", f]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("wrote {f}\n"));
    let written = std::fs::read_to_string(&file).unwrap();
    let options = vec![("kings".to_string(), "short".to_string())];
    let checked = check(&FsLoader, "draughts", &options);
    assert_eq!(
        written,
        page(checked.loaded.as_ref().unwrap(), &checked.options, &options)
    );
    assert!(written.contains("kings: flying | <span class=\"chosen\">short</span>"));
    // Written again over the old page: replaced whole.
    let (code, _, err) = run(&["rules", "other/ludo", "--html", f]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        page_of("other/ludo").0
    );
    // Without --html: the text, as before.
    let (code, out, _) = run(&["rules", "draughts"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("Draughts\n"));
    assert!(!out.contains('<'));
}

#[test]
fn rules_html_refuses_a_folder_a_missing_folder_and_the_rule_file() {
    let dir = scratch();
    let d = dir.path().to_str().unwrap();
    let (code, out, err) = run(&["rules", "draughts", "--html", d]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(out, "");
    assert!(
        err.starts_with(&format!("error: can't write {d}: ")),
        "{err}"
    );
    assert!(err.contains("is a folder"), "{err}");
    assert!(dir.path().is_dir());
    let missing = dir.path().join("no/such/page.html");
    let (code, _, err) = run(&["rules", "draughts", "--html", missing.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.starts_with("error: can't write "), "{err}");
    assert!(!missing.exists());
    // The rule file itself is never overwritten.
    let rules = dir.path().join("mine.rules");
    let text = rulebook::bundled::get("draughts").unwrap();
    std::fs::write(&rules, text).unwrap();
    let r = rules.to_str().unwrap();
    let (code, _, err) = run(&["rules", r, "--html", r]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("would be overwritten"), "{err}");
    assert_eq!(std::fs::read_to_string(&rules).unwrap(), text);
    // A game that isn't there: nothing written.
    let out_file = dir.path().join("x.html");
    let (code, _, err) = run(&[
        "rules",
        "no-such-game",
        "--html",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(!out_file.exists());
}

/// A GET request to the web application: status, content type, body.
fn get(uri: &str) -> (StatusCode, String, String) {
    let app = router(Library::new(None).unwrap());
    let rt = crate::web::runtime();
    let (status, kind, body) = rt.block_on(crate::web::send_async(
        &app,
        Request::get(uri)
            .header("host", "127.0.0.1")
            .body(Body::empty())
            .unwrap(),
    ));
    (status, kind, String::from_utf8(body).unwrap())
}

#[test]
fn the_web_server_serves_the_page_and_a_list_of_the_pages() {
    let (status, kind, body) = get("/rules?name=other/ludo");
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/html"), "{kind}");
    assert_eq!(body, page_of("other/ludo").0);
    let (status, _, body) = get("/rules?name=draughts");
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, page_of("draughts").0);
    let (status, kind, list) = get("/rules");
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/html"), "{kind}");
    for (name, _) in rulebook::bundled::GAMES {
        assert!(
            list.contains(&format!("<a href=\"/rules?name={name}\">{name}</a>")),
            "{name}"
        );
    }
    let (status, _, body) = get("/rules?name=no-such-game");
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    // The start page links to the list.
    let (_, _, start) = get("/");
    assert!(start.contains("<a href=\"/rules\">"));
}

/// Prints `page` with headless Chromium: the PDF's bytes.
fn chromium(args: &[&str], html_file: &std::path::Path) {
    let status = std::process::Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
        ])
        .args(args)
        .arg(format!("file://{}", html_file.display()))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap_or_else(|e| panic!("can't start chromium ({e}): .ci/run installs it"));
    assert!(
        status.success(),
        "chromium failed on {}",
        html_file.display()
    );
}

/// The pages of a PDF file: its `/Type /Page` objects (not `/Pages`).
fn pdf_pages(pdf: &[u8]) -> usize {
    let text = String::from_utf8_lossy(pdf);
    let mut n = 0;
    for pattern in ["/Type /Page", "/Type/Page"] {
        let mut rest = text.as_ref();
        while let Some(i) = rest.find(pattern) {
            rest = &rest[i + pattern.len()..];
            if !rest.starts_with('s') {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn every_page_prints_on_at_most_two_a4_pages() {
    let dir = scratch();
    let shots = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/rules-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    for (name, _) in rulebook::bundled::GAMES {
        let stem = name.replace('/', "-");
        let file = dir.path().join(format!("{stem}.html"));
        std::fs::write(&file, page_of(name).0).unwrap();
        let pdf = dir.path().join(format!("{stem}.pdf"));
        chromium(
            &[
                "--no-pdf-header-footer",
                &format!("--print-to-pdf={}", pdf.display()),
            ],
            &file,
        );
        let pages = pdf_pages(&std::fs::read(&pdf).unwrap());
        assert!((1..=2).contains(&pages), "{name} prints on {pages} pages");
        if *name == "draughts" || *name == "other/ludo" {
            for (size, tag) in [("1280,800", "desktop"), ("390,844", "phone")] {
                let png = shots.join(format!("rules-{stem}-{tag}.png"));
                chromium(
                    &[
                        "--hide-scrollbars",
                        &format!("--window-size={size}"),
                        &format!("--screenshot={}", png.display()),
                    ],
                    &file,
                );
                assert!(std::fs::metadata(&png).unwrap().len() > 1000);
            }
        }
    }
}
