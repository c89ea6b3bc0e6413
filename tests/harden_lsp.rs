//! Hardening of the language server and the parser (issue 25): message
//! framing bounded before anything is allocated, bundled copies kept out of
//! reach of links planted in the shared temporary folder, syntax-error
//! recovery linear and capped, and extended files read through the one
//! bounded reader.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::HashMap;
use std::io::{Cursor, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::Duration;

use rulebook::lsp::transport::{read_message, Incoming, MAX_MESSAGE};
use rulebook::source::FileId;
use serde_json::{json, Value};

/// A client of `rulebook lsp` over stdio.
struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    messages: Receiver<Value>,
}

impl Client {
    fn start(tmpdir: Option<&Path>) -> Client {
        let mut command = Command::new(env!("CARGO_BIN_EXE_rulebook"));
        command
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(t) = tmpdir {
            command.env("TMPDIR", t);
        }
        let mut child = command.spawn().unwrap();
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let rx = crate::lsp::messages(stdout);
        Client {
            child,
            stdin,
            messages: rx,
        }
    }

    fn raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        self.raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    fn next(&mut self) -> Value {
        self.messages
            .recv_timeout(Duration::from_secs(120))
            .expect("the server answered in time")
    }

    /// The response to request `id` (notifications before it are skipped).
    fn response(&mut self, id: i64) -> Value {
        loop {
            let m = self.next();
            if m.get("id") == Some(&json!(id)) {
                return m;
            }
        }
    }

    fn initialize(&mut self) {
        self.send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"processId": null, "rootUri": null, "capabilities": {}}}));
        assert!(self.response(1)["result"]["capabilities"].is_object());
        self.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    }

    /// Closes stdin and waits for the exit: (exit code, stderr).
    fn finish(mut self) -> (Option<i32>, String) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        let mut err = String::new();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        (status.code(), err)
    }
}

/// The peak memory of a process, in kB (Linux).
fn peak_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

// Item 9: one header line must not abort, panic or hold gigabytes.

#[test]
fn lengths_past_the_limit_are_read_past_not_allocated() {
    for length in ["4000000000", "18446744073709551615", "2000000000"] {
        let input = format!("Content-Length: {length}\r\n\r\n{{}}");
        let result = read_message(&mut Cursor::new(input), MAX_MESSAGE);
        let err = result.expect_err(length);
        assert!(err.contains("too large anyway"), "{length}: {err}");
    }
    // A length past u64 is no number: the stream can't be followed.
    let input = "Content-Length: 18446744073709551616\r\n\r\n{}";
    let err = read_message(&mut Cursor::new(input), MAX_MESSAGE).unwrap_err();
    assert!(err.contains("is not a whole number"), "{err}");
    // A header line without end is not read past its limit.
    let input = format!("Content-Length: {}", "9".repeat(100_000));
    let err = read_message(&mut Cursor::new(input), MAX_MESSAGE).unwrap_err();
    assert!(err.contains("longer than 4096 bytes"), "{err}");
    // A message past the limit is skipped whole, and the next is read.
    let next = r#"{"jsonrpc":"2.0","id":7,"method":"shutdown"}"#;
    let input = format!(
        "Content-Length: 100\r\n\r\n{}Content-Length: {}\r\n\r\n{next}",
        " ".repeat(100),
        next.len()
    );
    let mut input = Cursor::new(input);
    match read_message(&mut input, 50).unwrap() {
        Incoming::Refused(why) => assert!(why.contains("100 bytes"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        read_message(&mut input, 50).unwrap(),
        Incoming::Message(lsp_server::Message::Request(r)) if r.method == "shutdown"
    ));
    assert!(matches!(
        read_message(&mut input, 50).unwrap(),
        Incoming::End
    ));
    // Not JSON-RPC: refused, in step.
    let mut input = Cursor::new("Content-Length: 3\r\n\r\n{]}");
    assert!(matches!(
        read_message(&mut input, 50).unwrap(),
        Incoming::Refused(_)
    ));
}

#[test]
fn the_server_exits_cleanly_on_a_length_it_cannot_follow() {
    for length in ["4000000000", "18446744073709551615", "2000000000"] {
        let mut c = Client::start(None);
        c.initialize();
        c.raw(format!("Content-Length: {length}\r\n\r\n{{\"jsonrpc\":").as_bytes());
        let pid = c.child.id();
        let peak = peak_kb(pid);
        assert!(peak < 200_000, "{length}: {peak} kB");
        let (code, err) = c.finish();
        // Exit code 1 (no shutdown), not a signal; no panic.
        assert_eq!(code, Some(1), "{length}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(err.contains(length), "{err}");
    }
}

#[test]
fn the_server_answers_an_oversized_message_and_stays_up() {
    let mut c = Client::start(None);
    c.initialize();
    let length = MAX_MESSAGE + 1;
    c.raw(format!("Content-Length: {length}\r\n\r\n").as_bytes());
    let chunk = vec![b' '; 1 << 20];
    for _ in 0..64 {
        c.raw(&chunk);
    }
    c.raw(b" ");
    let refused = c.next();
    assert_eq!(refused["id"], Value::Null, "{refused}");
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.contains(&length.to_string()) && message.contains("64 MiB"),
        "{message}"
    );
    // The 64 MiB were never held.
    let peak = peak_kb(c.child.id());
    assert!(peak < 60_000, "{peak} kB");
    // Still up: a request is answered.
    c.send(json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
    assert!(c.response(2).get("error").is_none());
    c.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    let (code, err) = c.finish();
    assert_eq!(code, Some(0), "{err}");
}

// Item 2: bundled copies are written in a private folder, never through a link.

#[test]
#[cfg(unix)]
fn a_link_planted_where_bundled_games_were_written_is_not_followed() {
    use std::os::unix::fs::PermissionsExt;
    let scratch = common::scratch();
    let tmp = scratch.path().join("tmp");
    std::fs::create_dir_all(tmp.join("rulebook-bundled")).unwrap();
    let victim = scratch.path().join("victim.txt");
    std::fs::write(&victim, "mine\n").unwrap();
    std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o644)).unwrap();
    // Where the server used to write `extends "draughts"`'s copy.
    std::os::unix::fs::symlink(&victim, tmp.join("rulebook-bundled/draughts.rules")).unwrap();

    let doc = scratch.path().join("house.rules");
    let text = "extends \"draughts\"\ngame \"House\"\n";
    std::fs::write(&doc, text).unwrap();
    let uri = format!("file://{}", doc.display());
    let mut c = Client::start(Some(&tmp));
    c.initialize();
    c.send(
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params":
        {"textDocument": {"uri": uri, "languageId": "rulebook", "version": 1, "text": text}}}),
    );
    c.send(
        json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/definition", "params":
        {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 11}}}),
    );
    let found = c.response(2);
    let target = found["result"]["uri"].as_str().expect("a location");
    let path = target.strip_prefix("file://").unwrap();
    // The copy is the bundled game, in a folder only this user may enter.
    let copy = std::fs::read_to_string(path).unwrap();
    assert_eq!(copy, rulebook::bundled::get("draughts").unwrap());
    let folder = Path::new(path).parent().unwrap();
    assert!(folder.starts_with(&tmp), "{path}");
    assert_ne!(folder, tmp.join("rulebook-bundled"));
    let meta = std::fs::symlink_metadata(folder).unwrap();
    assert!(meta.is_dir());
    assert_eq!(meta.permissions().mode() & 0o777, 0o700);
    // The link's target is untouched: its text and its mode.
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "mine\n");
    let mode = std::fs::metadata(&victim).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o644);
    c.send(json!({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}));
    c.response(3);
    c.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    let (code, err) = c.finish();
    assert_eq!(code, Some(0), "{err}");
    // The private folder goes with the server.
    assert!(!folder.exists());
}

// Item 11: recovery is linear, and the errors reported are capped.

fn zone_lines(n: usize) -> String {
    "zone\n".repeat(n)
}

#[test]
fn two_hundred_thousand_bad_lines_give_a_capped_list() {
    let text = zone_lines(200_000);
    let (tree, diagnostics) = rulebook::syntax::parse(&text, FileId(0));
    assert!(tree.is_none());
    assert_eq!(
        diagnostics.len(),
        rulebook::syntax::MAX_SYNTAX_ERRORS + 1,
        "{:?}",
        diagnostics.last()
    );
    let last = diagnostics.last().unwrap();
    assert_eq!(last.message, "and 199,900 more syntax errors");
    assert!(diagnostics[..100]
        .iter()
        .all(|d| d.message == "expected a name, found `zone`"));
    // It comes after the 100 listed (it points at the first not listed).
    let first_unlisted = text.match_indices('\n').nth(100).unwrap().0 + 1;
    assert_eq!(last.primary_span().unwrap().begin as usize, first_unlisted);
}

#[test]
fn recovery_work_grows_with_the_text_not_its_square() {
    let work = |n: usize| {
        let text = zone_lines(n);
        let before = rulebook::syntax::recovery_work();
        let (_, diagnostics) = rulebook::syntax::parse(&text, FileId(0));
        assert_eq!(diagnostics.len(), 101);
        rulebook::syntax::recovery_work() - before
    };
    let (small, large) = (work(10_000), work(40_000));
    // Four times the lines: four times the work (it was sixteen).
    assert!(large <= 5 * small, "{small} -> {large}");
    // And a bounded number of bytes per line of text.
    assert!(large <= 200 * 40_000 * 5, "{large}");
}

#[test]
fn check_lists_the_capped_errors() {
    let scratch = common::scratch();
    let file = scratch.path().join("zones.rules");
    std::fs::write(&file, zone_lines(2_000)).unwrap();
    let (code, out, err) = common::run(&["check", file.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    let all = format!("{out}{err}");
    assert!(all.contains("and 1,900 more syntax errors"), "{all}");
    assert!(
        all.contains("only the first 100 syntax errors are listed"),
        "{all}"
    );
    assert_eq!(all.matches("error[E001]").count(), 101, "{all}");
}

#[test]
fn the_server_does_not_check_a_document_past_the_size_of_a_rule_file() {
    let scratch = common::scratch();
    let doc = scratch.path().join("big.rules");
    let uri = format!("file://{}", doc.display());
    let text = format!("game \"Big\"\n{}", "// padding\n".repeat(100_000));
    let mut c = Client::start(None);
    c.initialize();
    c.send(
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params":
        {"textDocument": {"uri": uri, "languageId": "rulebook", "version": 1, "text": text}}}),
    );
    let published = loop {
        let m = c.next();
        if m["method"] == "textDocument/publishDiagnostics" {
            break m;
        }
    };
    let diags = published["params"]["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{diags:?}");
    let message = diags[0]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("{} bytes", text.len())) && message.contains("at most 1 MiB"),
        "{message}"
    );
    c.send(
        json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params":
        {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}}}),
    );
    assert_eq!(c.response(2)["result"], Value::Null);
    let (code, err) = c.finish();
    assert_eq!(code, Some(1), "{err}");
}

// Item 15: what a document extends is read through the bounded reader.

#[test]
fn an_extended_file_past_1_mib_is_refused_unread() {
    let scratch = common::scratch();
    let big = scratch.path().join("big.rules");
    let file = std::fs::File::create(&big).unwrap();
    // 200 MB, sparse: nothing is written, and nothing may be read.
    file.set_len(200_000_000).unwrap();
    let doc = scratch.path().join("house.rules");
    let open = HashMap::new();
    let checked = rulebook::lsp::analysis::check(&doc, "extends \"big\"\ngame \"House\"\n", &open);
    let d = checked
        .diagnostics
        .iter()
        .find(|d| d.code.as_str() == "E021")
        .expect("E021");
    let all = format!("{} {:?}", d.message, d.labels);
    assert!(
        all.contains("200000000 bytes") && all.contains("at most 1 MiB"),
        "{all}"
    );
    // A device is refused too, not read.
    let checked =
        rulebook::lsp::analysis::check(&doc, "extends \"/dev/zero\"\ngame \"House\"\n", &open);
    let all: Vec<String> = checked
        .diagnostics
        .iter()
        .map(|d| format!("{} {:?}", d.message, d.labels))
        .collect();
    assert!(
        all.iter().any(|m| m.contains("not a regular file")),
        "{all:?}"
    );
}
