//! The server's own stdio transport: reads the `Content-Length` framing of
//! the language server protocol with a bound on every header line and on
//! the message size (docs/limits.md) before anything is allocated, and
//! feeds the messages into an in-memory `lsp_server::Connection`. A message
//! past the limit is skipped (streamed past, never held) and answered with
//! a JSON-RPC error; a stream that can't be followed any more ends the
//! session cleanly.

use std::io::{BufRead, Read, Write};
use std::thread::JoinHandle;

use lsp_server::{Connection, Message};

/// The largest message read, in bytes: far more than any rule file (1 MiB)
/// sent as JSON with every character escaped.
pub const MAX_MESSAGE: u64 = 64 << 20;

/// The longest header line read, in bytes.
pub const MAX_HEADER_LINE: u64 = 4096;

/// What one read from the stream gave.
#[derive(Debug)]
pub enum Incoming {
    /// A message.
    Message(Message),
    /// A message that was read past (too large, or not a JSON-RPC
    /// message): the reason, to answer with an error. The stream is still
    /// in step.
    Refused(String),
    /// The end of the stream, between messages.
    End,
}

/// Reads the next message of at most `max` bytes. `Err` is a stream that
/// can't be followed any more (a header that is not one, a line past
/// [`MAX_HEADER_LINE`], the stream ending inside a message, a read error).
pub fn read_message(r: &mut impl BufRead, max: u64) -> Result<Incoming, String> {
    let mut length: Option<u64> = None;
    let mut first = true;
    loop {
        let mut line = Vec::new();
        let n = r
            .by_ref()
            .take(MAX_HEADER_LINE + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("can't read the client's message: {e}"))?;
        if n == 0 {
            return if first {
                Ok(Incoming::End)
            } else {
                Err("the stream ended inside a message's header".to_string())
            };
        }
        first = false;
        if line.last() != Some(&b'\n') {
            return Err(format!(
                "a header line is longer than {MAX_HEADER_LINE} bytes"
            ));
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end_matches('\n').trim_end_matches('\r');
        if line.is_empty() {
            break;
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(format!("`{}` is not a header", crate::shown::shown(line)));
        };
        if name.trim().eq_ignore_ascii_case("Content-Length") {
            let value = value.trim();
            length = Some(value.parse::<u64>().map_err(|_| {
                format!(
                    "the Content-Length `{}` is not a whole number of bytes up to {}",
                    crate::shown::shown(value),
                    u64::MAX
                )
            })?);
        }
    }
    let length = length.ok_or("a message has no Content-Length")?;
    if length > max {
        // Read past it without keeping it.
        let skipped = std::io::copy(&mut r.by_ref().take(length), &mut std::io::sink())
            .map_err(|e| format!("can't read the client's message: {e}"))?;
        if skipped < length {
            return Err(format!(
                "the stream ended inside a message of {length} bytes (too large anyway)"
            ));
        }
        return Ok(Incoming::Refused(format!(
            "a message of {length} bytes was skipped: a message may be at most {} MiB ({max} bytes)",
            max >> 20
        )));
    }
    let mut body = Vec::new();
    r.by_ref()
        .take(length)
        .read_to_end(&mut body)
        .map_err(|e| format!("can't read the client's message: {e}"))?;
    if (body.len() as u64) < length {
        return Err(format!(
            "the stream ended inside a message of {length} bytes"
        ));
    }
    Ok(match serde_json::from_slice::<Message>(&body) {
        Ok(m) => Incoming::Message(m),
        Err(e) => Incoming::Refused(format!("a message is not a JSON-RPC message: {e}")),
    })
}

/// A JSON-RPC error with no id (the message it answers could not be read),
/// framed for the stream.
pub fn error_frame(code: i32, message: &str) -> String {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": { "code": code, "message": message },
    })
    .to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len())
}

/// The JSON-RPC code of an invalid request.
const INVALID_REQUEST: i32 = -32600;

/// The threads that carry the messages between stdio and the connection.
pub struct IoThreads {
    reader: JoinHandle<()>,
    writer: JoinHandle<()>,
}

impl IoThreads {
    /// Waits for both threads.
    pub fn join(self) -> Result<(), String> {
        self.reader
            .join()
            .map_err(|_| "error: the reader thread failed".to_string())?;
        self.writer
            .join()
            .map_err(|_| "error: the writer thread failed".to_string())
    }
}

/// A connection over stdin and stdout, read through [`read_message`].
pub fn stdio() -> Result<(Connection, IoThreads), String> {
    let (server, client) = Connection::memory();
    let Connection {
        sender: to_server,
        receiver: from_server,
    } = client;
    let writer = std::thread::Builder::new()
        .name("lsp-writer".to_string())
        .spawn(move || {
            for message in from_server {
                let mut out = std::io::stdout().lock();
                if message.write(&mut out).is_err() {
                    return;
                }
            }
        })
        .map_err(|e| format!("error: can't start a thread: {e}"))?;
    let reader = std::thread::Builder::new()
        .name("lsp-reader".to_string())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            loop {
                match read_message(&mut input, MAX_MESSAGE) {
                    Ok(Incoming::Message(m)) => {
                        let exit = matches!(&m, Message::Notification(n) if n.method == "exit");
                        if to_server.send(m).is_err() || exit {
                            return;
                        }
                    }
                    Ok(Incoming::Refused(why)) => {
                        eprintln!("rulebook lsp: {why}");
                        let mut out = std::io::stdout().lock();
                        let _ = out.write_all(error_frame(INVALID_REQUEST, &why).as_bytes());
                        let _ = out.flush();
                    }
                    Ok(Incoming::End) => return,
                    Err(why) => {
                        eprintln!("rulebook lsp: {why}; the session ends");
                        let mut out = std::io::stdout().lock();
                        let _ = out.write_all(error_frame(INVALID_REQUEST, &why).as_bytes());
                        let _ = out.flush();
                        return;
                    }
                }
            }
        })
        .map_err(|e| format!("error: can't start a thread: {e}"))?;
    Ok((server, IoThreads { reader, writer }))
}
