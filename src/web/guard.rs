//! What every request of `rulebook serve` passes on its way in and out:
//! the `Host` it names must be one the server listens as (a page of another
//! site whose name is made to resolve to this machine, DNS rebinding, is
//! refused), a request that changes anything must come from no other
//! site's page (its `Origin`), and every error answer of the API is JSON
//! `{"error": text}`, whatever part of the stack refused the request.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// The longest error text of a lower layer kept when it is turned into
/// JSON (its own texts are a line).
const MAX_ERROR_TEXT: usize = 16 * 1024;

/// The host names a server answers to: `127.0.0.1`, `localhost`, `[::1]`
/// and the host it was told to listen on; when that is every address
/// (`0.0.0.0`, `::`), any address written as numbers too (a name that
/// is numbers can't be made to resolve elsewhere).
#[derive(Clone, Debug)]
pub struct Hosts {
    names: Vec<String>,
    any_address: bool,
}

impl Hosts {
    /// The names of a server listening on `host` (as `--host` gives it).
    pub fn new(host: &str) -> Hosts {
        let mut names: Vec<String> = ["127.0.0.1", "localhost", "[::1]"]
            .iter()
            .map(|s| (*s).to_string())
            .collect();
        let host = host.trim().to_ascii_lowercase();
        let ip = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<std::net::IpAddr>();
        let any_address = ip.as_ref().is_ok_and(|ip| ip.is_unspecified());
        let written = match ip {
            Ok(std::net::IpAddr::V6(v6)) => format!("[{v6}]"),
            Ok(std::net::IpAddr::V4(v4)) => v4.to_string(),
            Err(_) => host,
        };
        if !written.is_empty() && !names.contains(&written) {
            names.push(written);
        }
        Hosts { names, any_address }
    }

    /// Whether `authority` (`NAME`, `NAME:PORT`, `[V6]:PORT`) names this
    /// server, whatever the port.
    pub fn allows(&self, authority: &str) -> bool {
        let Some(name) = host_of(authority) else {
            return false;
        };
        let name = name.to_ascii_lowercase();
        if self.names.contains(&name) {
            return true;
        }
        self.any_address
            && name
                .trim_start_matches('[')
                .trim_end_matches(']')
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| name.starts_with('[') == ip.is_ipv6())
    }

    /// Whether an `Origin` header (`http://NAME:PORT`) is a page of this
    /// server.
    fn allows_origin(&self, origin: &str) -> bool {
        let rest = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"));
        rest.is_some_and(|authority| self.allows(authority))
    }
}

/// The host name of an authority: without its port, an IPv6 address in
/// its brackets; None when it is not of that form.
fn host_of(authority: &str) -> Option<&str> {
    let (name, port) = if authority.starts_with('[') {
        let end = authority.find(']')?;
        let (name, rest) = authority.split_at(end + 1);
        match rest.strip_prefix(':') {
            Some(port) => (name, port),
            None if rest.is_empty() => (name, ""),
            None => return None,
        }
    } else {
        match authority.split_once(':') {
            Some((name, port)) => (name, port),
            None => (authority, ""),
        }
    };
    let name_ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '[' | ']' | ':'));
    (name_ok && port.chars().all(|c| c.is_ascii_digit())).then_some(name)
}

fn refuse(status: StatusCode, text: String) -> Response {
    (status, Json(json!({ "error": text }))).into_response()
}

/// Refuses a request whose `Host` is not a name of this server (421), and
/// one that changes anything (any method but GET, HEAD, OPTIONS) sent
/// from a page of another site, its `Origin` not this server's (403). A
/// request without `Host` (HTTP/1.0; a browser always sends one) and a
/// change without `Origin` (a script, `curl`) pass. Cross-site forms are
/// also kept out by the API itself: its bodies must be
/// `application/json`, which another site's page can't send unasked.
pub async fn hosts_and_origins(
    State(hosts): State<Arc<Hosts>>,
    req: Request,
    next: Next,
) -> Response {
    if let Some(host) = req.headers().get(header::HOST) {
        let named = host.to_str().unwrap_or_default();
        if !hosts.allows(named) {
            return refuse(
                StatusCode::MISDIRECTED_REQUEST,
                format!(
                    "this server does not answer to the host `{}`: open it as \
                     http://127.0.0.1 or http://localhost (or the --host it was given)",
                    crate::shown::shown(named)
                ),
            );
        }
    }
    let reads = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if !reads {
        if let Some(origin) = req.headers().get(header::ORIGIN) {
            let from = origin.to_str().unwrap_or_default();
            if !hosts.allows_origin(from) {
                return refuse(
                    StatusCode::FORBIDDEN,
                    format!(
                        "a page of `{}` may not change anything here: only this \
                         server's own pages may",
                        crate::shown::shown(from)
                    ),
                );
            }
        }
    }
    next.run(req).await
}

/// Turns every error answer of the API (`/api/...`) that is not JSON yet
/// into `{"error": text}`, with the same status: the refusals of axum's
/// extractors (a malformed JSON body, a missing content type, a body too
/// large, a bad query string), an unknown route, a method a route has not.
pub async fn json_errors(req: Request, next: Next) -> Response {
    let api = req.uri().path().starts_with("/api/");
    let res = next.run(req).await;
    let status = res.status();
    let failed = status.is_client_error() || status.is_server_error();
    let is_json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|k| k.starts_with("application/json"));
    if !api || !failed || is_json {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let text = match axum::body::to_bytes(body, MAX_ERROR_TEXT).await {
        Ok(bytes) => String::from_utf8_lossy(&bytes).trim().to_string(),
        Err(_) => String::new(),
    };
    let text = if text.is_empty() {
        status
            .canonical_reason()
            .unwrap_or("the request failed")
            .to_lowercase()
    } else {
        text
    };
    let body = json!({ "error": text }).to_string();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, Body::from(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_names_with_and_without_ports() {
        let h = Hosts::new("127.0.0.1");
        for ok in [
            "127.0.0.1",
            "127.0.0.1:80",
            "LOCALHOST:1",
            "[::1]",
            "[::1]:8080",
        ] {
            assert!(h.allows(ok), "{ok}");
        }
        for no in [
            "",
            "evil.example",
            "localhost.evil.example",
            "::1",
            "[::1]x",
            "127.0.0.1:x",
            "127.0.0.2",
            "a b",
        ] {
            assert!(!h.allows(no), "{no}");
        }
        let any = Hosts::new("0.0.0.0");
        assert!(any.allows("192.168.1.9:8080"));
        assert!(any.allows("[fe80::1]:8080"));
        assert!(!any.allows("box.lan:8080"));
        let v6 = Hosts::new("::1");
        assert!(v6.allows("[::1]:1"));
        let named = Hosts::new("Box.Lan");
        assert!(named.allows("box.lan:9"));
        assert!(!Hosts::new("127.0.0.1").allows("192.168.1.9"));
    }

    #[test]
    fn origins() {
        let h = Hosts::new("127.0.0.1");
        assert!(h.allows_origin("http://127.0.0.1:8080"));
        assert!(h.allows_origin("https://localhost"));
        for no in [
            "null",
            "127.0.0.1",
            "http://evil.example",
            "file://",
            "http://",
        ] {
            assert!(!h.allows_origin(no), "{no}");
        }
    }
}
