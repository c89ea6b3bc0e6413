//! The rule editor of `rulebook serve` (issue 30, item 5): the check past a
//! syntax error (`load::check_source_recovering`, used by `POST
//! /api/check`), the CodeMirror bundle and the TextMate grammar served by
//! the binary, and in headless Chromium (the browser of `web_browser.rs`):
//! the line numbers, the highlighting from the grammar's keywords, a mark
//! on the line of each error (underline and gutter mark, the message on
//! hover) with a syntax error and a check error at once, a click on a
//! diagnostic moving the cursor to its line, and "Play this" opening the
//! edited game. The screenshots of docs/web.md's editor are taken here
//! (target/web-screenshots/docs/).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{json, Value};

use rulebook::load::{check_source, check_source_recovering, BundledLoader, Source};

use crate::common::{doc_shot, page_size};
use crate::web::{runtime, send_async};
use crate::web_browser::{Browser, ONE_AT_A_TIME};

/// The bundled draughts with a check error on line 13 (an unknown side)
/// and a syntax error on line 38 (a word too many).
fn two_errors() -> String {
    let good = rulebook::bundled::get("draughts").unwrap();
    let lines: Vec<&str> = good.lines().collect();
    assert!(lines[12].starts_with("first white"), "{}", lines[13]);
    assert!(lines[37].starts_with("long-landing any"), "{}", lines[37]);
    good.replacen("first white", "first blue", 1).replacen(
        "long-landing any",
        "long-landing any please",
        1,
    )
}

fn source(text: &str) -> Source {
    Source {
        name: "t.rules".into(),
        text: text.into(),
    }
}

/// The codes and lines of a check's diagnostics.
fn found(checked: &rulebook::load::Checked) -> Vec<(String, usize)> {
    checked
        .diagnostics
        .iter()
        .map(|d| {
            let line = d
                .primary_span()
                .and_then(|s| checked.sources.location(s))
                .map_or(0, |(_, line, _)| line);
            (d.code.as_str().to_string(), line)
        })
        .collect()
}

#[test]
fn a_check_reports_the_errors_past_a_syntax_error() {
    let text = two_errors();
    // The plain check stops at the syntax error.
    let plain = check_source(source(&text), &BundledLoader, &[]);
    assert_eq!(found(&plain), vec![("E001".to_string(), 38)]);
    // The recovering one finds the unknown side too, in source order.
    let all = check_source_recovering(source(&text), &BundledLoader, &[]);
    assert_eq!(
        found(&all),
        vec![("E005".to_string(), 13), ("E001".to_string(), 38)]
    );
    assert!(all.loaded.is_none());
    assert_eq!(all.errors(), 2);
    let rendered = all.render();
    assert!(rendered.contains("t.rules:13:7"), "{rendered}");
    assert!(rendered.contains("t.rules:38:"), "{rendered}");
    assert!(
        rendered.contains("first blue"),
        "the text as given: {rendered}"
    );
    assert!(rendered.ends_with("error: 2 errors\n"), "{rendered}");
    // A text without syntax errors: exactly the plain check.
    for text in [
        rulebook::bundled::get("draughts").unwrap().to_string(),
        text.replacen("long-landing any please", "long-landing any", 1),
    ] {
        let a = check_source(source(&text), &BundledLoader, &[]);
        let b = check_source_recovering(source(&text), &BundledLoader, &[]);
        assert_eq!(a.diagnostics, b.diagnostics);
        assert_eq!(a.render(), b.render());
        assert_eq!(a.loaded.is_some(), b.loaded.is_some());
    }
}

#[test]
fn what_a_blanked_line_defined_is_not_reported_missing() {
    let good = rulebook::bundled::get("draughts").unwrap();
    // The zone `far` is on the faulty line: its uses are no errors, nor is
    // a game without sides when the sides' lines are faulty.
    let text = good.replacen("zone far = rank last", "zone far = rank last last", 1);
    let all = check_source_recovering(source(&text), &BundledLoader, &[]);
    assert_eq!(found(&all), vec![("E001".to_string(), 18)]);
    let text = good
        .replacen("side white \"White\" forward north", "side white White", 1)
        .replacen("side black \"Black\" forward south", "side black Black", 1);
    let all = check_source_recovering(source(&text), &BundledLoader, &[]);
    let codes: Vec<String> = found(&all).into_iter().map(|(c, _)| c).collect();
    assert_eq!(codes, vec!["E001", "E001"]);
    // Those errors are the plain check's, in its order.
    let plain = check_source(source(&text), &BundledLoader, &[]);
    assert_eq!(all.render(), plain.render());
}

/// A GET to the application in-process: status, content type, body.
fn get(
    app: &axum::Router,
    rt: &tokio::runtime::Runtime,
    uri: &str,
) -> (StatusCode, String, Vec<u8>) {
    let req = Request::builder().uri(uri).body(Body::empty()).unwrap();
    rt.block_on(send_async(app, req))
}

#[test]
fn the_check_api_and_the_assets_of_the_editor() {
    let rt = runtime();
    let app = rulebook::web::router(rulebook::web::Library::new(None).unwrap());
    let req = Request::builder()
        .method("POST")
        .uri("/api/check")
        .header("content-type", "application/json")
        .body(Body::from(
            json!({"text": two_errors(), "name": "t.rules"}).to_string(),
        ))
        .unwrap();
    let (status, _, body) = rt.block_on(send_async(&app, req));
    assert_eq!(status, StatusCode::OK);
    let v: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(v["errors"], 2);
    let at: Vec<(Value, Value)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["code"].clone(), d["at"]["line"].clone()))
        .collect();
    assert_eq!(
        at,
        vec![(json!("E005"), json!(13)), (json!("E001"), json!(38))]
    );
    // The bundle and the grammar come from the binary, nothing from the
    // network; the grammar is the file of editors/vscode, byte for byte.
    let (s, kind, js) = get(&app, &rt, "/assets/vendor/codemirror.js");
    assert_eq!(s, StatusCode::OK);
    assert!(kind.starts_with("text/javascript"), "{kind}");
    let js = String::from_utf8(js).unwrap();
    assert!(js.contains("EditorView") || js.contains("cm-editor"));
    let js = js.replace("http://www.w3.org/2000/svg", "");
    assert!(!js.contains("http://") && !js.contains("https://"));
    assert!(js.len() < 500_000, "the bundle is {} bytes", js.len());
    let (s, kind, grammar) = get(&app, &rt, "/assets/rulebook.tmLanguage.json");
    assert_eq!(s, StatusCode::OK);
    assert!(kind.starts_with("application/json"), "{kind}");
    let file = std::fs::read("editors/vscode/syntaxes/rulebook.tmLanguage.json").unwrap();
    assert_eq!(grammar, file);
    let (_, _, page) = get(&app, &rt, "/editor");
    let page = String::from_utf8(page).unwrap();
    for script in [
        "/assets/vendor/codemirror.js",
        "/assets/editor.js",
        "/assets/api.js",
    ] {
        assert!(page.contains(script), "{script}");
    }
    let (_, _, editor) = get(&app, &rt, "/assets/editor.js");
    let editor = String::from_utf8(editor).unwrap();
    assert!(editor.contains("/assets/rulebook.tmLanguage.json"));
    // The licence of what the bundle holds is beside it.
    let licence = std::fs::read_to_string("src/web/assets/vendor/codemirror.LICENSE.txt").unwrap();
    assert!(licence.contains("@codemirror/view") && licence.contains("MIT"));
}

/// The editor's text replaced, as a paste would.
fn set_text(b: &Browser, text: &str) {
    b.js(&format!(
        "const v = window.editorView; v.dispatch({{changes: {{from: 0, to: v.state.doc.length, insert: {}}}}});",
        json!(text)
    ));
}

/// The lines (1-based, sorted) of the elements found by `css` in the
/// editor, as the editor places them.
fn lines_of(b: &Browser, css: &str) -> Vec<u64> {
    let v = b.js(&format!(
        "const v = window.editorView;
         const left = v.contentDOM.getBoundingClientRect().left + 2;
         const lines = [...document.querySelectorAll({})].map((e) => {{
           const r = e.getBoundingClientRect();
           const pos = v.posAtCoords({{x: left, y: (r.top + r.bottom) / 2}});
           return v.state.doc.lineAt(pos).number;
         }});
         return [...new Set(lines)].sort((a, b) => a - b);",
        json!(css)
    ));
    v.as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect()
}

/// The line of the editor's cursor.
fn cursor_line(b: &Browser) -> u64 {
    b.js("const v = window.editorView; return v.state.doc.lineAt(v.state.selection.main.head).number;")
        .as_u64()
        .unwrap()
}

#[test]
fn the_editor_marks_each_error_on_its_line_and_plays_the_text() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::new("web-editor");
    page_size(&b, 1280, 800);
    b.goto("/editor?name=house.rules");
    b.wait(
        "window.editorView && window.editorView.state.doc.length > 100 && document.getElementById('summary').textContent === 'no problems'",
        20,
    );
    assert_eq!(
        b.js("return document.getElementById('file').value;"),
        json!("house.rules")
    );
    // Line numbers in the gutter, and the grammar's keywords highlighted.
    let numbers = b.js(
        "return [...document.querySelectorAll('.cm-lineNumbers .cm-gutterElement')].map((e) => e.textContent).filter((t) => t === '1' || t === '14');",
    );
    assert_eq!(numbers, json!(["1", "14"]));
    let classes = |word: &str| -> Value {
        b.js(&format!(
            "return [...document.querySelectorAll('.cm-line span')].filter((e) => e.textContent === {}).map((e) => e.className)[0] || '';",
            json!(word)
        ))
    };
    assert_eq!(classes("piece"), json!("rb-statement"));
    assert_eq!(classes("compulsory"), json!("rb-keyword"));
    assert_eq!(classes("\"Draughts\""), json!("rb-string"));
    assert_eq!(
        b.js("return document.querySelector('.cm-line span.rb-comment').textContent.startsWith('//');"),
        json!(true)
    );
    assert_eq!(
        b.js("return document.querySelectorAll('.cm-lint-marker-error').length;"),
        json!(0)
    );

    // A check error (line 13) and a syntax error (line 38) at once: both
    // listed, both marked on their lines.
    set_text(&b, &two_errors());
    b.wait(
        "document.getElementById('summary').textContent === '2 errors'",
        20,
    );
    b.wait(
        "document.querySelectorAll('.cm-lint-marker-error').length === 2",
        10,
    );
    assert_eq!(lines_of(&b, ".cm-lint-marker-error"), vec![13, 38]);
    assert_eq!(lines_of(&b, ".cm-lintRange-error"), vec![13, 38]);
    let listed = b.js(
        "return [...document.querySelectorAll('#diagnostics .diag')].map((e) => e.dataset.line);",
    );
    assert_eq!(listed, json!(["13", "38"]));
    let list = b.text("#diagnostics");
    assert!(list.contains("house.rules:13:7: error[E005]"), "{list}");
    assert!(list.contains("house.rules:38:"), "{list}");
    assert!(list.contains("error[E001]"), "{list}");
    assert_eq!(
        b.js("return document.getElementById('play').disabled;"),
        json!(true)
    );
    // The message on hover of the underlined text (both lines in view).
    b.js("const v = window.editorView; v.dispatch({effects: CM.EditorView.scrollIntoView(v.state.doc.line(10).from, {y: 'start'})});");
    std::thread::sleep(std::time::Duration::from_millis(200));
    b.click(".cm-lintRange-error");
    b.wait(
        "[...document.querySelectorAll('.cm-tooltip-lint')].some((e) => e.textContent.includes('blue'))",
        10,
    );
    doc_shot(&b, "two-errors", "web-editor.png");

    // A click on a diagnostic moves the cursor to its line.
    b.click("#diagnostics .diag[data-line='38']");
    assert_eq!(cursor_line(&b), 38);
    let selected = b.js(
        "const v = window.editorView; const s = v.state.selection.main; return v.state.sliceDoc(s.from, s.to);",
    );
    assert!(selected.as_str().unwrap().contains("please"), "{selected}");
    b.click("#diagnostics .diag[data-line='13']");
    assert_eq!(cursor_line(&b), 13);

    // On a phone: the text, then its problems, nothing sideways.
    page_size(&b, 390, 844);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let wide = b.js("return document.documentElement.scrollWidth;");
    assert!(wide.as_u64().unwrap() <= 390, "the page is {wide} px wide");
    let first = b.js(
        "const r = document.querySelector('#diagnostics .diag').getBoundingClientRect(); return r.height > 0 && r.top < window.innerHeight;",
    );
    assert_eq!(
        first,
        json!(true),
        "the first problem in view under the text"
    );
    doc_shot(&b, "phone", "web-editor-phone.png");
    page_size(&b, 1280, 800);

    // The title changed, the unknown side typed over: "Play this" opens a game of the edited text.
    let good = rulebook::bundled::get("draughts").unwrap().replacen(
        "game \"Draughts\"",
        "game \"Edited draughts\"",
        1,
    );
    set_text(&b, &good.replacen("first white", "first blue", 1));
    b.wait(
        "document.getElementById('summary').textContent === '1 error'",
        20,
    );
    // The click selects the unknown name: typed over.
    b.click("#diagnostics .diag[data-line='13']");
    b.type_into(".cm-content", "white");
    b.wait(
        "document.getElementById('summary').textContent === 'no problems'",
        20,
    );
    assert_eq!(
        b.js("return document.querySelectorAll('.cm-lint-marker').length;"),
        json!(0)
    );
    // "Try it": in one click, a game of the text, every side a person's;
    // Back returns to the editor and the text as it was left.
    b.click("#try");
    b.wait(
        "typeof state === 'object' && state && state.title === 'Edited draughts' && document.body.dataset.turn === 'human'",
        20,
    );
    assert_eq!(b.js("return state.game;"), json!("house.rules"));
    assert!(!b.js("return state.legal;").as_array().unwrap().is_empty());
    b.shot("tried");
    b.rt.block_on(b.c().back()).unwrap();
    b.wait(
        "window.editorView && window.editorView.state.doc.toString().includes('Edited draughts') && document.getElementById('summary').textContent === 'no problems'",
        20,
    );
    assert_eq!(
        b.js("return document.getElementById('file').value;"),
        json!("house.rules")
    );
    // "Play this": the setup page of the edited text, then Start.
    b.click("#play");
    b.wait("document.querySelectorAll('[data-side]').length === 2", 20);
    b.click("#start");
    b.wait("typeof state === 'object' && state && state.title", 20);
    assert_eq!(b.js("return state.title;"), json!("Edited draughts"));
    assert_eq!(b.js("return state.game;"), json!("house.rules"));
    b.shot("played");
}
