//! `rulebook serve` against a hostile client (issue 25, part 1): foreign
//! `Host` and `Origin` headers (DNS rebinding, cross-site requests), links
//! planted at temporary names, concurrent saves, a folder file named like
//! a bundled game, half-sent request heads, games kept alive by their
//! event stream, and error answers that must be JSON.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use rulebook::web::{app, router, router_with, Library, Settings, Store};
use serde_json::{json, Value};
use tower::ServiceExt;

use crate::web::{runtime, send_async};

/// A request with the given headers (a JSON body when there is one).
fn request(
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> Request<Body> {
    let mut req = Request::builder().method(method).uri(uri);
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    req.body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .unwrap()
}

fn send(rt: &tokio::runtime::Runtime, app: &Router, req: Request<Body>) -> (StatusCode, Value) {
    let (status, kind, bytes) = rt.block_on(send_async(app, req));
    let v: Value = serde_json::from_slice(&bytes).unwrap_or_else(|_| {
        panic!(
            "{status}: not JSON ({kind}): {}",
            String::from_utf8_lossy(&bytes)
        )
    });
    (status, v)
}

/// An error answer: JSON `{"error": text}` with a non-empty text.
fn assert_json_error(status: StatusCode, kind: &str, bytes: &[u8], want: StatusCode) {
    assert_eq!(status, want, "{}", String::from_utf8_lossy(bytes));
    assert!(
        kind.starts_with("application/json"),
        "{want}: content type {kind:?}: {}",
        String::from_utf8_lossy(bytes)
    );
    let v: Value = serde_json::from_slice(bytes).unwrap();
    let text = v["error"].as_str().unwrap_or_default();
    assert!(!text.is_empty(), "{want}: {v}");
}

#[test]
fn a_foreign_host_is_refused_and_nothing_is_written() {
    let dir = common::scratch();
    let rt = runtime();
    let app = router(Library::new(Some(dir.path())).unwrap());
    let save = json!({"name": "evil.rules", "text": "game \"Evil\"\n"});
    for host in [
        "attacker.example:8080",
        "attacker.example",
        "127.0.0.1.attacker.example",
        "localhost.attacker.example:80",
        "[::2]:8080",
    ] {
        let (s, kind, body) = rt.block_on(send_async(
            &app,
            request("POST", "/api/save", &[("host", host)], Some(save.clone())),
        ));
        assert_json_error(s, &kind, &body, StatusCode::MISDIRECTED_REQUEST);
        let (s, kind, body) = rt.block_on(send_async(
            &app,
            request("GET", "/api/games", &[("host", host)], None),
        ));
        assert_json_error(s, &kind, &body, StatusCode::MISDIRECTED_REQUEST);
    }
    assert!(!dir.path().join("evil.rules").exists());
    // The names the server listens as, with or without the port.
    for host in [
        "127.0.0.1:8080",
        "127.0.0.1",
        "localhost:8080",
        "LocalHost",
        "[::1]:8080",
        "[::1]",
    ] {
        let (s, v) = send(
            &rt,
            &app,
            request("POST", "/api/save", &[("host", host)], Some(save.clone())),
        );
        assert_eq!(s, StatusCode::OK, "{host}: {v}");
    }
    assert!(dir.path().join("evil.rules").exists());
    // The --host given is accepted too, and only where it was given.
    let lan = app_for(dir.path(), "box.lan");
    let (s, _) = send(
        &rt,
        &lan,
        request("GET", "/api/games", &[("host", "box.lan:9000")], None),
    );
    assert_eq!(s, StatusCode::OK);
    let (s, _) = send(
        &rt,
        &app,
        request("GET", "/api/games", &[("host", "box.lan:9000")], None),
    );
    assert_eq!(s, StatusCode::MISDIRECTED_REQUEST);
}

fn app_for(dir: &Path, host: &str) -> Router {
    app(Library::new(Some(dir)).unwrap(), Store::default(), host)
}

#[test]
fn a_change_from_another_origin_is_refused() {
    let dir = common::scratch();
    let rt = runtime();
    let app = router(Library::new(Some(dir.path())).unwrap());
    let save = |text: &str| json!({"name": "mine.rules", "text": text});
    let here = [("host", "127.0.0.1:8080")];
    let (s, _) = send(
        &rt,
        &app,
        request("POST", "/api/save", &here, Some(save("one"))),
    );
    assert_eq!(s, StatusCode::OK);
    let game = json!({"game": "draughts"});
    let (s, v) = send(
        &rt,
        &app,
        request("POST", "/api/games", &here, Some(game.clone())),
    );
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    for origin in [
        "http://attacker.example",
        "http://attacker.example:8080",
        "null",
        "http://127.0.0.1.attacker.example:8080",
        "not an origin",
    ] {
        let headers = [("host", "127.0.0.1:8080"), ("origin", origin)];
        for (method, uri, body) in [
            ("POST", "/api/save".to_string(), Some(save("two"))),
            ("POST", "/api/games".to_string(), Some(game.clone())),
            ("POST", format!("/api/games/{id}/resign"), None),
            ("DELETE", format!("/api/games/{id}"), None),
        ] {
            let (s, kind, bytes) =
                rt.block_on(send_async(&app, request(method, &uri, &headers, body)));
            assert_json_error(s, &kind, &bytes, StatusCode::FORBIDDEN);
        }
        // Reading is not a change (and the browser keeps another site's
        // page from reading the answer).
        let (s, _) = send(
            &rt,
            &app,
            request("GET", &format!("/api/games/{id}"), &headers, None),
        );
        assert_eq!(s, StatusCode::OK, "{origin}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("mine.rules")).unwrap(),
        "one"
    );
    let (s, v) = send(
        &rt,
        &app,
        request("GET", &format!("/api/games/{id}"), &here, None),
    );
    assert_eq!(s, StatusCode::OK);
    assert!(v["result"].is_null(), "nobody resigned: {v}");
    // The page's own origin (and no origin at all, as a script sends).
    for origin in [
        "http://127.0.0.1:8080",
        "http://localhost:8080",
        "http://[::1]:8080",
    ] {
        let headers = [("host", "127.0.0.1:8080"), ("origin", origin)];
        let (s, v) = send(
            &rt,
            &app,
            request("POST", "/api/save", &headers, Some(save(origin))),
        );
        assert_eq!(s, StatusCode::OK, "{origin}: {v}");
    }
    // The JSON body is still required of a save (a form of another site
    // can't send it without asking first): text/plain is refused.
    let req = Request::builder()
        .method("POST")
        .uri("/api/save")
        .header("content-type", "text/plain")
        .body(Body::from(save("three").to_string()))
        .unwrap();
    let (s, kind, bytes) = rt.block_on(send_async(&app, req));
    assert_json_error(s, &kind, &bytes, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("mine.rules")).unwrap(),
        "http://[::1]:8080"
    );
}

/// Links planted where a save might put its temporary file.
fn plant_links(dir: &Path, name: &str, target: &Path) -> Vec<std::path::PathBuf> {
    let pid = std::process::id();
    let mut planted = vec![dir.join(format!(".{name}.rulebook-tmp.{pid}"))];
    for guess in ["0", "1", "tmp", "000000"] {
        planted.push(dir.join(format!(".{name}.rulebook-tmp.{pid}.{guess}")));
        planted.push(dir.join(format!(".{name}.{guess}.rulebook-tmp")));
    }
    for p in &planted {
        std::os::unix::fs::symlink(target, p).unwrap();
    }
    planted
}

#[cfg(unix)]
#[test]
fn an_atomic_write_never_follows_a_link_planted_at_a_temporary_name() {
    let root = common::scratch();
    let dir = root.path().join("games");
    std::fs::create_dir(&dir).unwrap();
    let outside = root.path().join("outside.txt");
    std::fs::write(&outside, "untouched").unwrap();
    let planted = plant_links(&dir, "x.rules", &outside);
    rulebook::record::write_atomic(&dir.join("x.rules"), b"new text").unwrap();
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "untouched");
    let meta = std::fs::symlink_metadata(dir.join("x.rules")).unwrap();
    assert!(meta.is_file(), "x.rules is a regular file, not a link");
    assert_eq!(
        std::fs::read_to_string(dir.join("x.rules")).unwrap(),
        "new text"
    );
    // Written again over an existing file: the same.
    rulebook::record::write_atomic(&dir.join("x.rules"), b"newer").unwrap();
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "untouched");
    assert_eq!(
        std::fs::read_to_string(dir.join("x.rules")).unwrap(),
        "newer"
    );
    // No temporary file is left behind (the planted links aside).
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !planted.contains(p) && p.file_name().unwrap() != "x.rules")
        .map(|p| p.display().to_string())
        .collect();
    assert!(left.is_empty(), "{left:?}");

    // The same through the web front end's save.
    let rt = runtime();
    let app = router(Library::new(Some(&dir)).unwrap());
    plant_links(&dir, "y.rules", &outside);
    let (s, v) = send(
        &rt,
        &app,
        request(
            "POST",
            "/api/save",
            &[],
            Some(json!({"name": "y.rules", "text": "saved"})),
        ),
    );
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "untouched");
    assert_eq!(
        std::fs::read_to_string(dir.join("y.rules")).unwrap(),
        "saved"
    );
}

#[cfg(unix)]
#[test]
fn an_atomic_write_keeps_the_usual_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = common::scratch();
    let path = dir.path().join("r.jsonl");
    rulebook::record::write_atomic(&path, b"line\n").unwrap();
    let reference = dir.path().join("plain");
    std::fs::write(&reference, "x").unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&path), mode(&reference));
}

#[test]
fn sixteen_concurrent_saves_of_one_file_are_each_whole() {
    let dir = common::scratch();
    let rt = runtime();
    let app = router(Library::new(Some(dir.path())).unwrap());
    // Texts long enough that writes take a while, each of its own letter.
    let texts: Vec<String> = (0..16u8)
        .map(|i| {
            let c = char::from(b'a' + i);
            format!("// {c}\n{}\n", c.to_string().repeat(256 * 1024))
        })
        .collect();
    let statuses = rt.block_on(async {
        let mut tasks = Vec::new();
        for t in &texts {
            let app = app.clone();
            let req = request(
                "POST",
                "/api/save",
                &[],
                Some(json!({"name": "same.rules", "text": t})),
            );
            tasks.push(tokio::spawn(async move { send_async(&app, req).await }));
        }
        let mut out = Vec::new();
        for t in tasks {
            out.push(t.await.unwrap());
        }
        out
    });
    for (s, _, body) in &statuses {
        assert_eq!(*s, StatusCode::OK, "{}", String::from_utf8_lossy(body));
    }
    let end = std::fs::read_to_string(dir.path().join("same.rules")).unwrap();
    assert!(texts.contains(&end), "the file is one text whole");
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec!["same.rules"], "no temporary file is left");
}

#[test]
fn a_folder_file_named_like_a_bundled_game_is_the_folder_file() {
    let dir = common::scratch();
    let rt = runtime();
    let app = router(Library::new(Some(dir.path())).unwrap());
    let mine = rulebook::bundled::get("draughts")
        .unwrap()
        .replace("game \"Draughts\"", "game \"My Draughts\"");
    assert!(mine.contains("My Draughts"));
    let (s, v) = send(
        &rt,
        &app,
        request(
            "POST",
            "/api/save",
            &[],
            Some(json!({"name": "draughts.rules", "text": mine})),
        ),
    );
    assert_eq!(s, StatusCode::OK, "{v}");
    // Read back: the person's file; the bundled game by its own name.
    let (s, v) = send(
        &rt,
        &app,
        request("GET", "/api/rules?name=draughts.rules", &[], None),
    );
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["text"], mine.as_str());
    let (_, v) = send(
        &rt,
        &app,
        request("GET", "/api/rules?name=draughts", &[], None),
    );
    assert_eq!(v["text"], rulebook::bundled::get("draughts").unwrap());
    // Listed as the person's file, with its own title.
    let (_, v) = send(&rt, &app, request("GET", "/api/games", &[], None));
    let games = v["games"].as_array().unwrap();
    let find = |name: &str| games.iter().find(|g| g["name"] == name).unwrap().clone();
    assert_eq!(find("draughts.rules")["bundled"], false);
    assert_eq!(find("draughts.rules")["title"], "My Draughts");
    assert_eq!(find("draughts")["bundled"], true);
    assert_eq!(find("draughts")["title"], "Draughts");
    // Played as the person's file.
    let (s, v) = send(
        &rt,
        &app,
        request(
            "POST",
            "/api/games",
            &[],
            Some(json!({"game": "draughts.rules"})),
        ),
    );
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["title"], "My Draughts");
    let (_, v) = send(
        &rt,
        &app,
        request("POST", "/api/games", &[], Some(json!({"game": "draughts"}))),
    );
    assert_eq!(v["title"], "Draughts");
    // Without such a file, `draughts.rules` is still the bundled game.
    let other = common::scratch();
    let app = router(Library::new(Some(other.path())).unwrap());
    let (s, v) = send(
        &rt,
        &app,
        request("GET", "/api/rules?name=draughts.rules", &[], None),
    );
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["text"], rulebook::bundled::get("draughts").unwrap());
}

#[test]
fn an_open_event_stream_does_not_keep_a_game_alive() {
    let rt = runtime();
    let idle = Duration::from_millis(1500);
    let app = router_with(Library::new(None).unwrap(), Store::with_idle(idle));
    let open = |rt: &tokio::runtime::Runtime| {
        let (s, v) = send(
            rt,
            &app,
            request("POST", "/api/games", &[], Some(json!({"game": "draughts"}))),
        );
        assert_eq!(s, StatusCode::CREATED, "{v}");
        v["id"].as_str().unwrap().to_string()
    };
    let watched = open(&rt);
    let busy = open(&rt);
    rt.block_on(async {
        // The page of `watched` stays open: its stream is read all along.
        let res = app
            .clone()
            .oneshot(request(
                "GET",
                &format!("/api/games/{watched}/events"),
                &[],
                None,
            ))
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        let mut body = res.into_body().into_data_stream();
        let reader = tokio::spawn(async move {
            use futures_util::StreamExt;
            while let Some(Ok(_)) = body.next().await {}
        });
        // Meanwhile another game changes again and again (every change
        // wakes every stream), for longer than the idle time.
        let start = Instant::now();
        while start.elapsed() < idle * 2 {
            let uri = format!("/api/games/{busy}");
            let (_, _, state) = send_async(&app, request("GET", &uri, &[], None)).await;
            let state: Value = serde_json::from_slice(&state).unwrap();
            let mv = state["legal"][0]["notation"].as_str().unwrap().to_string();
            let (s, _, _) = send_async(
                &app,
                request(
                    "POST",
                    &format!("{uri}/move"),
                    &[],
                    Some(json!({ "move": mv })),
                ),
            )
            .await;
            assert_eq!(s, StatusCode::OK);
            let (s, _, _) =
                send_async(&app, request("POST", &format!("{uri}/undo"), &[], None)).await;
            assert_eq!(s, StatusCode::OK);
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        reader.abort();
    });
    // Nobody acted in `watched` for twice the idle time: it expired.
    let (s, _, _) = rt.block_on(send_async(
        &app,
        request("GET", &format!("/api/games/{watched}"), &[], None),
    ));
    assert_eq!(s, StatusCode::NOT_FOUND);
    // `busy` was acted on: still open.
    let (s, _, _) = rt.block_on(send_async(
        &app,
        request("GET", &format!("/api/games/{busy}"), &[], None),
    ));
    assert_eq!(s, StatusCode::OK);
}

/// A request (method, path, content type, body) and the status it gets.
type Case<'a> = (&'a str, &'a str, Option<&'a str>, Vec<u8>, StatusCode);

#[test]
fn every_error_of_the_api_is_json() {
    let dir = common::scratch();
    let rt = runtime();
    let app = router(Library::new(Some(dir.path())).unwrap());
    let raw = |method: &str, uri: &str, kind: Option<&str>, body: Vec<u8>| {
        let mut req = Request::builder().method(method).uri(uri);
        if let Some(k) = kind {
            req = req.header("content-type", k);
        }
        rt.block_on(send_async(&app, req.body(Body::from(body)).unwrap()))
    };
    let json_kind = Some("application/json");
    let cases: Vec<Case> = vec![
        // Malformed JSON, JSON of the wrong shape, no content type.
        (
            "POST",
            "/api/save",
            json_kind,
            b"{not json".to_vec(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "POST",
            "/api/save",
            json_kind,
            b"{\"name\": 3}".to_vec(),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            "POST",
            "/api/check",
            None,
            b"{\"text\": \"\"}".to_vec(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            "POST",
            "/api/games",
            json_kind,
            Vec::new(),
            StatusCode::BAD_REQUEST,
        ),
        // Too big a body.
        (
            "POST",
            "/api/check",
            json_kind,
            vec![b' '; 2 << 20],
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
        // A query string without its name, or of the wrong shape.
        (
            "GET",
            "/api/rules",
            None,
            Vec::new(),
            StatusCode::BAD_REQUEST,
        ),
        (
            "GET",
            "/api/rules?name=a&name=b",
            None,
            Vec::new(),
            StatusCode::BAD_REQUEST,
        ),
        // No such route, a method the route has not.
        (
            "GET",
            "/api/nothing",
            None,
            Vec::new(),
            StatusCode::NOT_FOUND,
        ),
        (
            "PUT",
            "/api/games",
            None,
            Vec::new(),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            "GET",
            "/api/games/1/move",
            None,
            Vec::new(),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
    ];
    for (method, uri, kind, body, want) in cases {
        let (s, k, bytes) = raw(method, uri, kind, body);
        assert_json_error(s, &k, &bytes, want);
    }
    // The pages and downloads keep their own types.
    let (s, k, _) = raw("GET", "/", None, Vec::new());
    assert_eq!(s, StatusCode::OK);
    assert!(k.starts_with("text/html"), "{k}");
}

/// A server on 127.0.0.1 with a short head timeout and few connections.
fn tcp_server(settings: Settings) -> (tokio::runtime::Runtime, SocketAddr) {
    let rt = runtime();
    let (tx, rx) = std::sync::mpsc::channel();
    rt.spawn(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        tx.send(listener.local_addr().unwrap()).unwrap();
        let app = router(Library::new(None).unwrap());
        let _ = rulebook::web::serve_on(listener, app, settings).await;
    });
    let addr = rx.recv_timeout(Duration::from_secs(10)).unwrap();
    (rt, addr)
}

/// A whole GET of a small page on a fresh connection: its status line.
fn get_page(addr: SocketAddr) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s.write_all(b"GET /assets/api.js HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out.lines().next().unwrap_or_default().to_string()
}

/// Opens `n` connections that each send half a request head.
fn half_heads(addr: SocketAddr, n: usize) -> Vec<TcpStream> {
    (0..n)
        .map(|_| {
            let mut s = TcpStream::connect(addr).unwrap();
            s.write_all(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                .unwrap();
            s
        })
        .collect()
}

/// Whether the server closed the connection (within the read timeout).
fn closed(s: &mut TcpStream) -> bool {
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut buf = [0u8; 512];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            // A 408 answer may come before the close.
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
    }
}

#[test]
fn half_sent_heads_time_out_and_do_not_block_others() {
    let settings = Settings {
        header_timeout: Duration::from_millis(1500),
        max_connections: 16,
    };
    let (_rt, addr) = tcp_server(settings);
    // Fewer than the limit: a normal request is answered at once.
    let mut few = half_heads(addr, 8);
    let start = Instant::now();
    assert!(get_page(addr).contains("200"), "answered");
    assert!(start.elapsed() < Duration::from_millis(1500));
    // Each half head is closed after the timeout.
    let start = Instant::now();
    for s in &mut few {
        assert!(closed(s), "a half head is closed");
    }
    let waited = start.elapsed();
    eprintln!("8 half heads closed after {waited:?}");
    assert!(waited < Duration::from_secs(5), "closed after {waited:?}");
    // More than the limit: a normal request waits for the timeouts, then
    // is answered.
    let mut many = half_heads(addr, 40);
    let start = Instant::now();
    let status = get_page(addr);
    assert!(status.contains("200"), "answered: {status}");
    let waited = start.elapsed();
    eprintln!("past the limit, a normal request was answered after {waited:?}");
    assert!(waited < Duration::from_secs(20));
    for s in &mut many {
        assert!(closed(s), "a half head is closed");
    }
    // A connection that sends nothing at all is closed too.
    let mut silent = TcpStream::connect(addr).unwrap();
    assert!(closed(&mut silent));
}

#[test]
fn stale_temporary_files_of_both_namings_are_removed() {
    let dir = common::scratch();
    let d = dir.path();
    // A process id no system gives out: its files are stale.
    let old = d.join(".g.rules.rulebook-tmp.4000000000");
    let new = d.join(".g.rules.rulebook-tmp.4000000000.Xy12ab34Cd56");
    let mine = d.join(format!(".g.rules.rulebook-tmp.{}.live", std::process::id()));
    for p in [&old, &new, &mine] {
        std::fs::write(p, "half").unwrap();
    }
    rulebook::record::write_atomic(&d.join("g.rules"), b"whole").unwrap();
    assert!(!old.exists() && !new.exists());
    assert!(mine.exists(), "a running process's file is left alone");
}
