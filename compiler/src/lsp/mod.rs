//! `gamec lsp`: a language server for `.game` and `.board` files on standard input and output.
//!
//! Diagnostics as `gamec check` gives them (a game and a board open together checked as a
//! pair), hover (a keyword's reference, a diagnostic code's explanation, a name's declaration),
//! go to definition, find references, completion, and the last build's size as an inlay hint.
//! The server keeps the open files' texts (full synchronisation) and works on them alone.

mod completion;
mod diagnostics;
mod hover;
mod keywords;
mod names;
mod navigate;
mod positions;
mod sizes;

use crate::Error;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{notification as note, request as req, TextDocumentPositionParams, Uri};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Whether a file is a game or a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Game,
    Board,
}

/// An open file: its text as the editor has it, saved or not.
#[derive(Debug)]
pub struct Doc {
    pub uri: Uri,
    pub text: String,
    pub kind: FileKind,
}

impl Doc {
    /// The kind by the file's extension, else by its first word (`board NAME {`).
    fn new(uri: Uri, text: String) -> Doc {
        let kind = match uri.as_str().rsplit('.').next() {
            Some("board") => FileKind::Board,
            Some("game") => FileKind::Game,
            _ if text.trim_start().starts_with("board") => FileKind::Board,
            _ => FileKind::Game,
        };
        Doc { uri, text, kind }
    }
}

/// Runs the server until the editor says `exit` or closes the connection.
pub fn run() -> Result<(), Error> {
    let failed = |e: String| Error::Io { path: "the editor's connection".into(), source: std::io::Error::other(e) };
    let (connection, io_threads) = Connection::stdio();
    let capabilities = serde_json::to_value(capabilities()).map_err(|e| failed(e.to_string()))?;
    let init = connection.initialize(capabilities).map_err(|e| failed(e.to_string()))?;
    let params: lsp_types::InitializeParams = serde_json::from_value(init).unwrap_or_default();
    let mut server = Server { docs: BTreeMap::new(), root: root(&params), closed: Vec::new(), dirty: false };
    let shut_down = server.serve(&connection).map_err(|e| failed(e.to_string()))?;
    drop(connection);
    io_threads.join().map_err(|e| failed(e.to_string()))?;
    // The protocol's word: an `exit` without a `shutdown` before it ends with an error.
    if shut_down {
        Ok(())
    } else {
        Err(failed("the editor left without a `shutdown` request".into()))
    }
}

fn capabilities() -> lsp_types::ServerCapabilities {
    use lsp_types::*;
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions::default()),
        inlay_hint_provider: Some(OneOf::Left(true)),
        ..Default::default()
    }
}

/// The workspace's folder: its first folder, else its root.
fn root(params: &lsp_types::InitializeParams) -> Option<PathBuf> {
    let folder = params.workspace_folders.as_ref().and_then(|f| f.first()).map(|f| &f.uri);
    #[allow(deprecated)] // The root is what older clients send.
    let uri = folder.or(params.root_uri.as_ref())?;
    path_of(uri)
}

/// A `file:` URI's path, its `%XX` escapes decoded.
fn path_of(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    let path = &rest[rest.find('/')?..];
    let mut bytes = Vec::new();
    let mut i = 0;
    while i < path.len() {
        let hex = path.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok());
        match (path.as_bytes()[i], hex) {
            (b'%', Some(b)) => (bytes.push(b), i += 3),
            (c, _) => (bytes.push(c), i += 1),
        };
    }
    Some(PathBuf::from(String::from_utf8(bytes).ok()?))
}

struct Server {
    docs: BTreeMap<String, Doc>,
    root: Option<PathBuf>,
    /// Files closed since the last check, whose diagnostics are to be cleared.
    closed: Vec<Uri>,
    /// Whether a file changed since the last check.
    dirty: bool,
}

impl Server {
    /// Serves until `shutdown` and `exit` (true), or an `exit` alone or the connection's end.
    fn serve(&mut self, connection: &Connection) -> Result<bool, lsp_server::ProtocolError> {
        while let Ok(message) = connection.receiver.recv() {
            match message {
                Message::Request(request) => {
                    if connection.handle_shutdown(&request)? {
                        return Ok(true);
                    }
                    let _ = connection.sender.send(self.answer(request).into());
                }
                Message::Notification(n) if n.method == note::Exit::METHOD => return Ok(false),
                Message::Notification(n) => self.notified(n),
                Message::Response(_) => {}
            }
            // A check waits for the queue to empty: a burst of keystrokes costs one check.
            if self.dirty && connection.receiver.is_empty() {
                self.publish(connection);
            }
        }
        Ok(false)
    }

    fn docs(&self) -> Vec<&Doc> {
        self.docs.values().collect()
    }

    /// Checks every open file and sends each its diagnostics.
    fn publish(&mut self, connection: &Connection) {
        self.dirty = false;
        let mut results = diagnostics::check_all(&self.docs());
        results.extend(self.closed.drain(..).map(|uri| (uri, Vec::new())));
        for (uri, diagnostics) in results {
            let params = lsp_types::PublishDiagnosticsParams { uri, diagnostics, version: None };
            let _ = connection.sender.send(Notification::new(note::PublishDiagnostics::METHOD.into(), params).into());
        }
    }

    fn notified(&mut self, n: Notification) {
        match n.method.as_str() {
            note::DidOpenTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(n.params) {
                    let doc = Doc::new(p.text_document.uri, p.text_document.text);
                    self.docs.insert(doc.uri.as_str().to_string(), doc);
                    self.dirty = true;
                }
            }
            note::DidChangeTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(n.params) {
                    if let Some(doc) = self.docs.get_mut(p.text_document.uri.as_str()) {
                        for change in p.content_changes {
                            apply(&mut doc.text, change);
                        }
                        self.dirty = true;
                    }
                }
            }
            note::DidCloseTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(n.params) {
                    if self.docs.remove(p.text_document.uri.as_str()).is_some() {
                        self.closed.push(p.text_document.uri);
                        self.dirty = true;
                    }
                }
            }
            _ => {}
        }
    }

    /// The answer to a request; a bug in a handler answers with an error, the server goes on.
    fn answer(&self, request: Request) -> Response {
        let id = request.id.clone();
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.dispatch(request)));
        run.unwrap_or_else(|_| Response::new_err(id, ErrorCode::InternalError as i32, "gamec lsp failed".into()))
    }

    fn dispatch(&self, request: Request) -> Response {
        let json = |v: Result<serde_json::Value, _>| v.ok();
        match request.method.as_str() {
            req::HoverRequest::METHOD => {
                self.at(request, |docs, doc, at, _| json(serde_json::to_value(hover::hover(docs, doc, at)?)))
            }
            req::GotoDefinition::METHOD => {
                self.at(request, |docs, doc, at, _| json(serde_json::to_value(navigate::definition(docs, doc, at))))
            }
            req::References::METHOD => self.at(request, |docs, doc, at, params| {
                let with_declaration = params["context"]["includeDeclaration"].as_bool().unwrap_or(true);
                json(serde_json::to_value(navigate::references(docs, doc, at, with_declaration)))
            }),
            req::Completion::METHOD => {
                self.at(request, |_, doc, at, _| json(serde_json::to_value(completion::complete(doc, at))))
            }
            req::InlayHintRequest::METHOD => self.inlay_hints(request),
            _ => Response::new_err(request.id, ErrorCode::MethodNotFound as i32, format!("no {}", request.method)),
        }
    }

    /// Answers a request about a position in an open file with `f(open files, the file, byte
    /// offset, the request's parameters)`; `None` is the protocol's `null`.
    fn at(
        &self,
        request: Request,
        f: impl Fn(&[&Doc], &Doc, usize, &serde_json::Value) -> Option<serde_json::Value>,
    ) -> Response {
        let Ok(p) = serde_json::from_value::<TextDocumentPositionParams>(request.params.clone()) else {
            return Response::new_err(
                request.id,
                ErrorCode::InvalidParams as i32,
                "expected a file and a position".into(),
            );
        };
        let result = self.docs.get(p.text_document.uri.as_str()).and_then(|doc| {
            let offset = positions::LineIndex::new(&doc.text).offset(p.position);
            f(&self.docs(), doc, offset, &request.params)
        });
        Response::new_ok(request.id, result.unwrap_or(serde_json::Value::Null))
    }

    fn inlay_hints(&self, request: Request) -> Response {
        let Ok(p) = serde_json::from_value::<lsp_types::InlayHintParams>(request.params) else {
            return Response::new_err(
                request.id,
                ErrorCode::InvalidParams as i32,
                "expected a file and a range".into(),
            );
        };
        let doc = self.docs.get(p.text_document.uri.as_str()).filter(|d| d.kind == FileKind::Game);
        let hint = doc.and_then(|d| sizes::hint(d, path_of(&d.uri).as_deref(), self.root.as_deref()));
        let hints: Vec<_> =
            hint.filter(|h| (p.range.start.line..=p.range.end.line).contains(&h.position.line)).into_iter().collect();
        Response::new_ok(request.id, hints)
    }
}

/// One change of a file: the whole new text, or (from a client that sends ranges all the same)
/// a range replaced.
fn apply(text: &mut String, change: lsp_types::TextDocumentContentChangeEvent) {
    match change.range {
        None => *text = change.text,
        Some(range) => {
            let index = positions::LineIndex::new(text);
            let (start, end) = (index.offset(range.start), index.offset(range.end));
            text.replace_range(start..end.max(start), &change.text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every request at every few bytes of every shipped file, cut short and garbled, answers
    /// without a panic: a file being typed is the usual input.
    #[test]
    fn no_request_on_a_broken_file_panics() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let files = ["games", "boards"].iter().flat_map(|d| std::fs::read_dir(root.join(d)).unwrap());
        for (i, path) in files.map(|e| e.unwrap().path()).enumerate() {
            let full = std::fs::read_to_string(&path).unwrap();
            // Each file cut at other places.
            for cut in (i % 89..full.len()).step_by(89).filter(|&c| full.is_char_boundary(c)) {
                let text = format!("{}é\"{{", &full[..cut]);
                let doc = Doc::new(format!("file:///tmp/{}", path.display()).parse().unwrap(), text);
                let docs = [&doc];
                for at in (cut % 43..doc.text.len() + 2).step_by(43) {
                    let _ = hover::hover(&docs, &doc, at);
                    let _ = navigate::definition(&docs, &doc, at);
                    let _ = navigate::references(&docs, &doc, at, true);
                    let _ = completion::complete(&doc, at);
                }
                let _ = diagnostics::check_all(&docs);
            }
        }
    }

    #[test]
    fn a_file_uri_becomes_its_path() {
        let uri: Uri = "file:///home/a%20b/x.game".parse().unwrap();
        assert_eq!(path_of(&uri), Some(PathBuf::from("/home/a b/x.game")));
        assert_eq!(path_of(&"untitled:1".parse().unwrap()), None);
    }
}
