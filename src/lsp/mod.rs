//! `rulebook lsp`: a language server for rule files, over stdin and stdout.
//!
//! Built on `lsp-server` (a synchronous connection: one thread reads
//! messages, this loop answers them; the stdio framing is read by
//! `transport`, which bounds it) and `lsp-types`. Everything it says
//! comes from the library: diagnostics from `load::check_source` (the same
//! codes, messages, places and hints as `rulebook check`), names from the
//! parse tree of `grammar/rules.pest`, keyword help from that grammar's doc
//! comments, formatting from `format_rules`. Diagnostics are published when
//! a document opens and, debounced, after changes stop for a moment.

pub mod analysis;
pub mod docs;
pub mod text;
pub mod transport;

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types as lt;
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;

use analysis::{chain, check, lsp_diagnostics, outline, path_to_uri, uri_to_path, Context};
use docs::Grammar;
use text::LineIndex;

/// How long after the last change diagnostics wait.
const DEBOUNCE: Duration = Duration::from_millis(150);

/// Runs the server over stdin and stdout until the client says `exit`;
/// the exit code is 0 after a `shutdown` request, 1 otherwise.
pub fn run_stdio() -> Result<i32, String> {
    let (connection, io_threads) = transport::stdio()?;
    let code = serve(&connection);
    analysis::remove_bundled_dir();
    let code = code?;
    drop(connection);
    io_threads.join()?;
    Ok(code)
}

/// One open document.
struct Document {
    uri: lt::Uri,
    text: String,
    version: i32,
    /// The last game it compiled to.
    game: Option<crate::board::game::Game>,
    /// Changed since diagnostics were last published.
    dirty: Option<Instant>,
}

/// The server's state.
struct Server {
    docs: HashMap<PathBuf, Document>,
    grammar: Grammar,
}

/// The capabilities the server offers.
pub fn capabilities() -> lt::ServerCapabilities {
    lt::ServerCapabilities {
        text_document_sync: Some(lt::TextDocumentSyncCapability::Kind(
            lt::TextDocumentSyncKind::FULL,
        )),
        hover_provider: Some(lt::HoverProviderCapability::Simple(true)),
        completion_provider: Some(lt::CompletionOptions {
            trigger_characters: Some(vec!["\"".to_string(), " ".to_string()]),
            ..lt::CompletionOptions::default()
        }),
        definition_provider: Some(lt::OneOf::Left(true)),
        references_provider: Some(lt::OneOf::Left(true)),
        document_symbol_provider: Some(lt::OneOf::Left(true)),
        document_formatting_provider: Some(lt::OneOf::Left(true)),
        code_action_provider: Some(lt::CodeActionProviderCapability::Simple(true)),
        ..lt::ServerCapabilities::default()
    }
}

/// Serves one client on `connection`: the handshake, then requests until
/// `exit`. Returns the exit code.
pub fn serve(connection: &Connection) -> Result<i32, String> {
    let caps = serde_json::to_value(capabilities()).map_err(|e| e.to_string())?;
    let handshake =
        |e: lsp_server::ProtocolError| format!("error: the client's handshake failed: {e}");
    let (id, _) = connection.initialize_start().map_err(handshake)?;
    connection
        .initialize_finish(
            id,
            serde_json::json!({
                "capabilities": caps,
                "serverInfo": { "name": "rulebook", "version": env!("CARGO_PKG_VERSION") },
            }),
        )
        .map_err(handshake)?;
    let mut server = Server {
        docs: HashMap::new(),
        grammar: Grammar::load(),
    };
    let mut shut_down = false;
    loop {
        let timeout = server
            .docs
            .values()
            .filter_map(|d| d.dirty)
            .map(|t| DEBOUNCE.saturating_sub(t.elapsed()))
            .min()
            .unwrap_or(Duration::from_secs(3600));
        match connection.receiver.recv_timeout(timeout) {
            Ok(Message::Request(req)) => {
                if req.method == lt::request::Shutdown::METHOD {
                    shut_down = true;
                    send(
                        connection,
                        Response::new_ok(req.id, serde_json::Value::Null),
                    );
                    continue;
                }
                let response = server.request(req);
                send(connection, response);
            }
            Ok(Message::Notification(n)) => {
                if n.method == lt::notification::Exit::METHOD {
                    return Ok(if shut_down { 0 } else { 1 });
                }
                server.notification(n, connection);
            }
            Ok(Message::Response(_)) => {}
            Err(crossbeam_timeout) => {
                if crossbeam_timeout.is_disconnected() {
                    return Ok(if shut_down { 0 } else { 1 });
                }
            }
        }
        server.publish_due(connection);
    }
}

fn send(connection: &Connection, message: impl Into<Message>) {
    let _ = connection.sender.send(message.into());
}

fn params<T: serde::de::DeserializeOwned>(value: serde_json::Value) -> Result<T, String> {
    serde_json::from_value(value).map_err(|e| format!("invalid parameters: {e}"))
}

impl Server {
    fn open_texts(&self) -> HashMap<PathBuf, String> {
        self.docs
            .iter()
            .map(|(p, d)| (p.clone(), d.text.clone()))
            .collect()
    }

    fn notification(&mut self, n: Notification, connection: &Connection) {
        match n.method.as_str() {
            m if m == lt::notification::DidOpenTextDocument::METHOD => {
                let Ok(p) = params::<lt::DidOpenTextDocumentParams>(n.params) else {
                    return;
                };
                let path = uri_to_path(&p.text_document.uri);
                self.docs.insert(
                    path.clone(),
                    Document {
                        uri: p.text_document.uri,
                        text: p.text_document.text,
                        version: p.text_document.version,
                        game: None,
                        dirty: None,
                    },
                );
                self.publish(&path, connection);
            }
            m if m == lt::notification::DidChangeTextDocument::METHOD => {
                let Ok(p) = params::<lt::DidChangeTextDocumentParams>(n.params) else {
                    return;
                };
                let path = uri_to_path(&p.text_document.uri);
                if let Some(doc) = self.docs.get_mut(&path) {
                    for change in p.content_changes {
                        match change.range {
                            None => doc.text = change.text,
                            Some(range) => {
                                let index = LineIndex::new(&doc.text);
                                let a = index.offset(range.start);
                                let b = index.offset(range.end).max(a);
                                doc.text.replace_range(a..b, &change.text);
                            }
                        }
                    }
                    doc.version = p.text_document.version;
                    doc.dirty = Some(Instant::now());
                }
            }
            m if m == lt::notification::DidCloseTextDocument::METHOD => {
                let Ok(p) = params::<lt::DidCloseTextDocumentParams>(n.params) else {
                    return;
                };
                let path = uri_to_path(&p.text_document.uri);
                if let Some(doc) = self.docs.remove(&path) {
                    let clear = lt::PublishDiagnosticsParams::new(doc.uri, Vec::new(), None);
                    notify::<lt::notification::PublishDiagnostics>(connection, clear);
                }
            }
            _ => {}
        }
    }

    /// Publishes the diagnostics of documents whose changes have settled.
    fn publish_due(&mut self, connection: &Connection) {
        let due: Vec<PathBuf> = self
            .docs
            .iter()
            .filter(|(_, d)| d.dirty.is_some_and(|t| t.elapsed() >= DEBOUNCE))
            .map(|(p, _)| p.clone())
            .collect();
        for path in due {
            self.publish(&path, connection);
        }
    }

    fn publish(&mut self, path: &PathBuf, connection: &Connection) {
        let open = self.open_texts();
        let Some(doc) = self.docs.get_mut(path) else {
            return;
        };
        doc.dirty = None;
        if let Some(why) = too_large(&doc.text) {
            let d = lt::Diagnostic {
                range: lt::Range::default(),
                severity: Some(lt::DiagnosticSeverity::ERROR),
                code: Some(lt::NumberOrString::String(
                    crate::diagnostic::Code::ExtendsLoad.as_str().to_string(),
                )),
                source: Some("rulebook".to_string()),
                message: why,
                ..lt::Diagnostic::default()
            };
            let p = lt::PublishDiagnosticsParams::new(doc.uri.clone(), vec![d], Some(doc.version));
            notify::<lt::notification::PublishDiagnostics>(connection, p);
            return;
        }
        let checked = check(path, &doc.text, &open);
        let diagnostics = lsp_diagnostics(&checked, &doc.text);
        if let Some(t) = checked.into_board() {
            doc.game = Some(t.into_game());
        }
        let p = lt::PublishDiagnosticsParams::new(doc.uri.clone(), diagnostics, Some(doc.version));
        notify::<lt::notification::PublishDiagnostics>(connection, p);
    }

    fn request(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        match self.answer(req) {
            Ok(value) => Response::new_ok(id, value),
            Err(message) => error(id, message),
        }
    }

    fn answer(&mut self, req: Request) -> Result<serde_json::Value, String> {
        use lt::request as r;
        let to_json = |v: serde_json::Result<serde_json::Value>| v.map_err(|e| e.to_string());
        match req.method.as_str() {
            m if m == r::HoverRequest::METHOD => {
                let p: lt::HoverParams = params(req.params)?;
                let pos = p.text_document_position_params;
                to_json(serde_json::to_value(self.with_context(
                    &pos.text_document.uri,
                    |cx, index| {
                        let (md, (a, b)) = cx.hover(index.offset(pos.position))?;
                        Some(lt::Hover {
                            contents: lt::HoverContents::Markup(lt::MarkupContent {
                                kind: lt::MarkupKind::Markdown,
                                value: md,
                            }),
                            range: Some(index.range(a, b)),
                        })
                    },
                )))
            }
            m if m == r::Completion::METHOD => {
                let p: lt::CompletionParams = params(req.params)?;
                let pos = p.text_document_position;
                let items = self.with_context(&pos.text_document.uri, |cx, index| {
                    Some(
                        cx.completions(index.offset(pos.position))
                            .into_iter()
                            .map(|(label, kind, detail)| lt::CompletionItem {
                                label,
                                kind: Some(kind),
                                detail: Some(detail),
                                ..lt::CompletionItem::default()
                            })
                            .collect::<Vec<_>>(),
                    )
                });
                to_json(serde_json::to_value(items.unwrap_or_default()))
            }
            m if m == r::GotoDefinition::METHOD => {
                let p: lt::GotoDefinitionParams = params(req.params)?;
                let pos = p.text_document_position_params;
                let found = self.with_context(&pos.text_document.uri, |cx, index| {
                    let (path, text, (a, b)) = cx.definition(index.offset(pos.position))?;
                    let uri = path_to_uri(&path)?;
                    Some(lt::Location::new(uri, LineIndex::new(&text).range(a, b)))
                });
                to_json(serde_json::to_value(
                    found.map(lt::GotoDefinitionResponse::Scalar),
                ))
            }
            m if m == r::References::METHOD => {
                let p: lt::ReferenceParams = params(req.params)?;
                let pos = p.text_document_position;
                let uri = pos.text_document.uri.clone();
                let found = self.with_context(&uri, |cx, index| {
                    Some(
                        cx.references(index.offset(pos.position))
                            .into_iter()
                            .map(|(a, b)| lt::Location::new(uri.clone(), index.range(a, b)))
                            .collect::<Vec<_>>(),
                    )
                });
                to_json(serde_json::to_value(found.unwrap_or_default()))
            }
            m if m == r::DocumentSymbolRequest::METHOD => {
                let p: lt::DocumentSymbolParams = params(req.params)?;
                let found = self.with_context(&p.text_document.uri, |cx, _| Some(cx.symbols()));
                to_json(serde_json::to_value(
                    found.map(lt::DocumentSymbolResponse::Nested),
                ))
            }
            m if m == r::Formatting::METHOD => {
                let p: lt::DocumentFormattingParams = params(req.params)?;
                let path = uri_to_path(&p.text_document.uri);
                let doc = self.docs.get(&path).ok_or("the document is not open")?;
                if let Some(why) = too_large(&doc.text) {
                    return Err(why);
                }
                let edits = match crate::format_rules::format_text(&doc.text) {
                    Ok(formatted) if formatted != doc.text => {
                        let index = LineIndex::new(&doc.text);
                        vec![lt::TextEdit::new(index.range(0, doc.text.len()), formatted)]
                    }
                    Ok(_) => Vec::new(),
                    // A file with syntax errors is left as it is; the
                    // diagnostics already say why.
                    Err(_) => Vec::new(),
                };
                to_json(serde_json::to_value(edits))
            }
            m if m == r::CodeActionRequest::METHOD => {
                let p: lt::CodeActionParams = params(req.params)?;
                let uri = p.text_document.uri;
                let actions: Vec<lt::CodeActionOrCommand> = p
                    .context
                    .diagnostics
                    .iter()
                    .filter_map(|d| {
                        let fix = crate::suggest::suggested(&d.message)?;
                        let edit = lt::TextEdit::new(d.range, fix.to_string());
                        Some(lt::CodeActionOrCommand::CodeAction(lt::CodeAction {
                            title: format!("Replace with `{fix}`"),
                            kind: Some(lt::CodeActionKind::QUICKFIX),
                            diagnostics: Some(vec![d.clone()]),
                            edit: Some(lt::WorkspaceEdit {
                                changes: Some(HashMap::from([(uri.clone(), vec![edit])])),
                                ..lt::WorkspaceEdit::default()
                            }),
                            is_preferred: Some(true),
                            ..lt::CodeAction::default()
                        }))
                    })
                    .collect();
                to_json(serde_json::to_value(actions))
            }
            other => Err(format!("unsupported request `{other}`")),
        }
    }

    /// Runs `f` on the context of an open document.
    fn with_context<T>(
        &self,
        uri: &lt::Uri,
        f: impl FnOnce(&Context<'_>, &LineIndex<'_>) -> Option<T>,
    ) -> Option<T> {
        let path = uri_to_path(uri);
        let doc = self.docs.get(&path)?;
        if too_large(&doc.text).is_some() {
            return None;
        }
        let open = self.open_texts();
        let files = chain(&path, &doc.text, &open);
        let chained: Vec<_> = files
            .into_iter()
            .map(|f| {
                let o = outline(&f.text);
                (f, o)
            })
            .collect();
        let own = outline(&doc.text);
        let cx = Context {
            path: &path,
            text: &doc.text,
            outline: &own,
            chain: &chained,
            game: doc.game.as_ref(),
            grammar: &self.grammar,
        };
        let index = LineIndex::new(&doc.text);
        f(&cx, &index)
    }
}

/// Why a document is not analysed: past the size of a rule file
/// (docs/limits.md), as `rulebook check` refuses it. Every request on a
/// document is bounded by this: the parse, its recovery and the outline
/// are linear in the text, so no request runs long.
fn too_large(text: &str) -> Option<String> {
    let max = crate::source::MAX_RULE_FILE;
    (text.len() as u64 > max).then(|| {
        format!(
            "this file is {} bytes, and a rule file may be at most {} MiB: it is not checked (see docs/limits.md)",
            text.len(),
            max >> 20
        )
    })
}

fn notify<N: lt::notification::Notification>(connection: &Connection, params: N::Params) {
    send(connection, Notification::new(N::METHOD.to_string(), params));
}

fn error(id: RequestId, message: String) -> Response {
    let code = if message.starts_with("unsupported") {
        ErrorCode::MethodNotFound
    } else {
        ErrorCode::InvalidParams
    };
    Response::new_err(id, code as i32, message)
}
