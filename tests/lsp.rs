//! `rulebook lsp`: a test client drives the real binary over stdio through
//! a whole session, and a seeded fuzz drives the server's entry with
//! prefixes and junk.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use rulebook::lsp::analysis::{check, expected_at, outline, Context};
use rulebook::lsp::docs::Grammar;
use serde_json::{json, Value};

/// A client talking to `rulebook lsp` over its stdin and stdout.
struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
    /// Notifications read while waiting for a response.
    pending: Vec<Value>,
}

/// The messages the server writes to `stdout`, parsed, as they come (a
/// thread of their own reads the framing); the channel closes with the
/// stream.
pub(crate) fn messages(stdout: std::process::ChildStdout) -> Receiver<serde_json::Value> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        loop {
            let mut length = None;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(n) = line.strip_prefix("Content-Length: ") {
                    length = n.parse::<usize>().ok();
                }
            }
            let mut body = vec![0; length.unwrap()];
            reader.read_exact(&mut body).unwrap();
            if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                return;
            }
        }
    });
    rx
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rulebook"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let rx = messages(stdout);
        Client {
            child,
            stdin,
            messages: rx,
            next_id: 0,
            pending: Vec::new(),
        }
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn next(&mut self) -> Value {
        self.messages
            .recv_timeout(Duration::from_secs(30))
            .expect("the server answered within 30 s")
    }

    /// Sends a request and returns its result (and how long it took).
    fn request(&mut self, method: &str, params: Value) -> (Value, Duration) {
        self.next_id += 1;
        let id = self.next_id;
        let start = Instant::now();
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let m = self.next();
            if m.get("id") == Some(&json!(id)) {
                assert!(m.get("error").is_none(), "{method}: {m}");
                return (m["result"].clone(), start.elapsed());
            }
            self.pending.push(m);
        }
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        if let Some(i) = self.pending.iter().position(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        }) {
            let m = self.pending.remove(i);
            return m["params"]["diagnostics"].as_array().unwrap().clone();
        }
        loop {
            let m = self.next();
            if m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri {
                return m["params"]["diagnostics"].as_array().unwrap().clone();
            }
        }
    }
}

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
}

/// The 0-based line and column of the first `needle` in `text` (plus `skip`
/// characters).
fn find(text: &str, needle: &str, skip: u32) -> (u32, u32) {
    let offset = text.find(needle).unwrap();
    let line = text[..offset].matches('\n').count() as u32;
    let col = (offset - text[..offset].rfind('\n').map_or(0, |i| i + 1)) as u32;
    (line, col + skip)
}

#[test]
fn a_whole_session_over_stdio() {
    let dir = std::env::temp_dir().join(format!("rulebook-lsp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("house.rules");
    let text = std::fs::read_to_string("games/draughts.rules").unwrap();
    std::fs::write(&path, &text).unwrap();
    let uri = format!("file://{}", path.display());

    let mut c = Client::start();
    let (init, _) = c.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    let caps = &init["capabilities"];
    for cap in [
        "hoverProvider",
        "completionProvider",
        "definitionProvider",
        "referencesProvider",
        "documentSymbolProvider",
        "documentFormattingProvider",
        "codeActionProvider",
    ] {
        assert!(!caps[cap].is_null(), "{cap} in {caps}");
    }
    c.notify("initialized", json!({}));

    // Open: a correct file has no diagnostics.
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "rulebook", "version": 1, "text": text}}),
    );
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());

    // Change to an error: the same code, message, place and hint as `check`.
    let broken = text.replacen("jump short diagonal", "jump short diagnal", 1);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2},
               "contentChanges": [{"text": broken}]}),
    );
    let diags = c.diagnostics(&uri);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let d = &diags[0];
    assert_eq!(d["code"], "E002");
    assert_eq!(d["severity"], 1);
    let (line, col) = find(&broken, "diagnal", 0);
    assert_eq!(d["range"]["start"], json!({"line": line, "character": col}));
    assert_eq!(
        d["range"]["end"],
        json!({"line": line, "character": col + 7})
    );
    let message = d["message"].as_str().unwrap();
    assert!(
        message.starts_with("unknown direction `diagnal`"),
        "{message}"
    );
    assert!(
        message.contains("help: did you mean `diagonal`?"),
        "{message}"
    );
    std::fs::write(&path, &broken).unwrap();
    let (_, _, rendered) = crate::common::run(&["check", path.to_str().unwrap()]);
    assert!(
        rendered.contains("error[E002]: unknown direction `diagnal`"),
        "{rendered}"
    );
    assert!(
        rendered.contains(&format!("house.rules:{}:{}", line + 1, col + 1)),
        "{rendered}"
    );

    // The hint as a code action.
    let (actions, _) = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": d["range"],
               "context": {"diagnostics": [d]}}),
    );
    let edit = &actions[0]["edit"]["changes"][&uri][0];
    assert_eq!(edit["newText"], "diagonal");
    assert_eq!(edit["range"], d["range"]);

    // And back: no diagnostics.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3},
               "contentChanges": [{"text": text}]}),
    );
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());

    // Hover: a zone's squares, a direction set per side, a keyword's doc.
    let mut slowest = Duration::ZERO;
    let (l, ch) = find(&text, "promote king at far", 17);
    let (hover, took) = c.request("textDocument/hover", at(&uri, l, ch));
    slowest = slowest.max(took);
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(value.contains("**zone** `far`"), "{value}");
    assert!(value.contains("for `white`: 1 2 3 4"), "{value}");
    assert!(value.contains("for `black`: 29 30 31 32"), "{value}");
    let (l, ch) = find(&text, "step forward-diagonal", 7);
    let (hover, took) = c.request("textDocument/hover", at(&uri, l, ch));
    slowest = slowest.max(took);
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(
        value.contains("for `white`: nw ne") || value.contains("for `white`: ne nw"),
        "{value}"
    );
    assert!(
        value.contains("for `black`: se sw") || value.contains("for `black`: sw se"),
        "{value}"
    );
    let (l, ch) = find(&text, "crown mid-chain", 1);
    let (hover, _) = c.request("textDocument/hover", at(&uri, l, ch));
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(
        value.contains("`crown mid-chain stay|continue|stop`"),
        "{value}"
    );

    // Completion: statement keywords on a new line; zones after `at`.
    let (l, _) = find(&text, "setup man at home", 0);
    let (items, took) = c.request("textDocument/completion", at(&uri, l, 0));
    slowest = slowest.max(took);
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    for want in ["piece", "zone", "setup", "capture", "end"] {
        assert!(labels.contains(&want), "{want} in {labels:?}");
    }
    let (l, ch) = find(&text, "setup man at home", 13);
    let (items, _) = c.request("textDocument/completion", at(&uri, l, ch));
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(
        labels.contains(&"home") && labels.contains(&"far"),
        "{labels:?}"
    );
    assert!(!labels.contains(&"man"), "{labels:?}");

    // Go to definition and find references.
    let (def_line, def_col) = find(&text, "zone far", 5);
    let (l, ch) = find(&text, "promote king at far", 17);
    let (location, took) = c.request("textDocument/definition", at(&uri, l, ch));
    slowest = slowest.max(took);
    assert_eq!(location["uri"], uri.as_str());
    assert_eq!(
        location["range"]["start"],
        json!({"line": def_line, "character": def_col})
    );
    let (l, ch) = find(&text, "setup man", 7);
    let mut refs = c.request(
        "textDocument/references",
        json!({"textDocument": {"uri": uri}, "position": {"line": l, "character": ch},
               "context": {"includeDeclaration": true}}),
    );
    let refs = refs.0.as_array_mut().unwrap();
    // `piece man`, `setup man`, `move-of man`.
    assert_eq!(refs.len(), 3, "{refs:?}");

    // The outline.
    let (symbols, _) = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    let names: Vec<&str> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    for want in [
        "white",
        "black",
        "home",
        "far",
        "man",
        "king",
        "capture compulsory",
    ] {
        assert!(names.contains(&want), "{want} in {names:?}");
    }

    // Formatting: a messy copy comes back as the formatted file.
    let messy = text.replace("board 8 x 8", "board   8 x 8");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 4},
               "contentChanges": [{"text": messy}]}),
    );
    let (edits, _) = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert_eq!(edits.as_array().unwrap().len(), 1, "{edits}");
    assert_eq!(edits[0]["newText"], text.as_str());

    // A variant: `extends` leads to the bundled file, opened read-only, and
    // inherited names are found there.
    let variant_path = dir.join("variant.rules");
    let variant = "extends \"draughts\"\ngame \"Corner\"\nzone corner = 29\non end at corner convert to man\n";
    std::fs::write(&variant_path, variant).unwrap();
    let vuri = format!("file://{}", variant_path.display());
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": vuri, "languageId": "rulebook", "version": 1, "text": variant}}),
    );
    let diags = c.diagnostics(&vuri);
    assert!(diags.iter().all(|d| d["severity"] != 1), "{diags:?}");
    let (location, _) = c.request("textDocument/definition", at(&vuri, 0, 10));
    let target = location["uri"].as_str().unwrap();
    assert!(target.ends_with("/draughts.rules"), "{target}");
    let bundled = std::path::PathBuf::from(target.strip_prefix("file://").unwrap());
    assert_eq!(std::fs::read_to_string(&bundled).unwrap(), text);
    assert!(std::fs::metadata(&bundled)
        .unwrap()
        .permissions()
        .readonly());
    let (location, _) = c.request("textDocument/definition", at(&vuri, 3, 29));
    assert_eq!(location["uri"], target);
    let (hover, _) = c.request("textDocument/hover", at(&vuri, 3, 29));
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(
        value.contains("**piece** `man`") && value.contains("inherited"),
        "{value}"
    );

    // Half-typed: a syntax error is reported and hover and completion go on.
    let half = format!("{text}\npiece queen \"Queen\" {{\n  step diag");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 5},
               "contentChanges": [{"text": half}]}),
    );
    let diags = c.diagnostics(&uri);
    assert_eq!(diags[0]["code"], "E001", "{diags:?}");
    let last = half.lines().count() as u32 - 1;
    let (items, _) = c.request("textDocument/completion", at(&uri, last, 11));
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(
        labels.contains(&"diagonal") && labels.contains(&"forward-diagonal"),
        "{labels:?}"
    );

    println!("slowest hover/completion/definition answer on draughts: {slowest:?}");
    let (shutdown, _) = c.request("shutdown", Value::Null);
    assert_eq!(shutdown, Value::Null);
    c.notify("exit", Value::Null);
    let status = c.child.wait().unwrap();
    assert!(status.success(), "{status}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Seeded fuzz of the server's entry: every bundled and test rule file, cut
/// at random places and with random junk put in, sent as changes; after each,
/// hover, completion, definition, references, outline and formatting at
/// random places. The server must answer every request and never stop.
#[test]
fn the_server_survives_prefixes_and_junk() {
    use lsp_server::{Connection, Message, Notification, Request};
    let (server, client) = Connection::memory();
    let handle = std::thread::spawn(move || rulebook::lsp::serve(&server));
    let send = |m: Message| client.sender.send(m).unwrap();
    send(Message::Request(Request::new(
        0.into(),
        "initialize".to_string(),
        json!({"capabilities": {}}),
    )));
    let _ = client
        .receiver
        .recv_timeout(Duration::from_secs(10))
        .unwrap();
    send(Message::Notification(Notification::new(
        "initialized".to_string(),
        json!({}),
    )));
    let uri = "file:///nonexistent-dir/fuzz.rules";
    send(Message::Notification(Notification::new(
        "textDocument/didOpen".to_string(),
        json!({"textDocument": {"uri": uri, "languageId": "rulebook", "version": 0, "text": ""}}),
    )));
    let mut texts: Vec<String> = Vec::new();
    for dir in [
        "games",
        "games/variants",
        "tests/fixtures/errors",
        "tests/fixtures/games",
    ] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "rules") {
                texts.push(std::fs::read_to_string(p).unwrap());
            }
        }
    }
    texts.sort();
    let mut rng = rulebook::rng::Rng::new(2026);
    let junk = [
        "{",
        "}",
        "\"",
        "(",
        "-",
        "é",
        "\u{0}",
        "//",
        "piece",
        "at",
        "x",
        "\n",
        "9999999999",
    ];
    let methods = [
        "textDocument/hover",
        "textDocument/completion",
        "textDocument/definition",
        "textDocument/references",
        "textDocument/documentSymbol",
        "textDocument/formatting",
    ];
    let mut id = 1i32;
    let mut answered = 0;
    for round in 0..400 {
        let base = &texts[rng.below(texts.len() as u64) as usize];
        let mut text: String = base
            .chars()
            .take(rng.below(base.len() as u64 + 1) as usize)
            .collect();
        if round % 2 == 1 {
            for _ in 0..1 + rng.below(4) {
                let cut = rng.below(text.chars().count() as u64 + 1) as usize;
                let at_byte = text.char_indices().nth(cut).map_or(text.len(), |(i, _)| i);
                text.insert_str(at_byte, junk[rng.below(junk.len() as u64) as usize]);
            }
        }
        send(Message::Notification(Notification::new(
            "textDocument/didChange".to_string(),
            json!({"textDocument": {"uri": uri, "version": round + 1},
                   "contentChanges": [{"text": text}]}),
        )));
        let lines = text.lines().count() as u64 + 2;
        let method = methods[round as usize % methods.len()];
        let position = json!({"line": rng.below(lines), "character": rng.below(60)});
        let mut params = json!({"textDocument": {"uri": uri}, "position": position});
        if method == "textDocument/references" {
            params["context"] = json!({"includeDeclaration": true});
        }
        if method == "textDocument/formatting" {
            params = json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}});
        }
        if method == "textDocument/documentSymbol" {
            params = json!({"textDocument": {"uri": uri}});
        }
        send(Message::Request(Request::new(
            id.into(),
            method.to_string(),
            params,
        )));
        loop {
            match client
                .receiver
                .recv_timeout(Duration::from_secs(10))
                .unwrap()
            {
                Message::Response(r) if r.id == id.into() => {
                    assert!(r.error.is_none(), "{method} on {text:?}: {:?}", r.error);
                    answered += 1;
                    break;
                }
                _ => {}
            }
        }
        id += 1;
    }
    assert_eq!(answered, 400);
    send(Message::Request(Request::new(
        id.into(),
        "shutdown".to_string(),
        Value::Null,
    )));
    send(Message::Notification(Notification::new(
        "exit".to_string(),
        Value::Null,
    )));
    assert_eq!(handle.join().unwrap(), Ok(0));
}

#[test]
fn completion_after_at_offers_zones_and_squares() {
    use std::collections::HashMap;
    use std::path::Path;
    let text = rulebook::bundled::get("draughts").unwrap();
    let path = Path::new("/nonexistent/draughts.rules");
    let open = HashMap::new();
    let checked = check(path, text, &open);
    let own = outline(text);
    let grammar = Grammar::load();
    let cx = Context {
        path,
        text,
        outline: &own,
        chain: &[],
        game: checked.board().map(|t| t.game()),
        grammar: &grammar,
    };
    let at = text.find("setup man at home").unwrap() + 13;
    println!("{:?}", expected_at(&text[..at]));
    let labels: Vec<String> = cx.completions(at).into_iter().map(|c| c.0).collect();
    assert!(labels.contains(&"home".to_string()), "{labels:?}");
    assert!(labels.contains(&"far".to_string()), "{labels:?}");
    assert!(labels.contains(&"32".to_string()), "{labels:?}");
    assert!(!labels.contains(&"man".to_string()), "{labels:?}");
}
