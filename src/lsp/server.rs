//! The `LanguageServer` implementation: document notifications are applied synchronously
//! before any `.await` (DESIGN §6.1); requests work on a snapshot, inside a panic boundary
//! (§6.4); long work runs on the blocking pool and stops when its request is cancelled.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use serde_json::Value;
use tower_lsp::jsonrpc::{Error, Result};
use tower_lsp::lsp_types::*;
use tower_lsp::{Client, LanguageServer};

use super::convert::{encoding_kind, negotiate_encoding};
use super::documents::{Documents, Snapshot};
use super::editing;
use super::publisher::{Publisher, Sources};
use super::settings::Settings;
use crate::ide::{self, guard};
use crate::text::PositionEncoding;

pub struct Server {
    client: Client,
    documents: Arc<Documents>,
    /// Negotiated in `initialize`.
    encoding: OnceLock<PositionEncoding>,
    settings: Arc<Mutex<Settings>>,
    /// Started in `initialize`, once the encoding is known.
    publisher: OnceLock<Publisher>,
}

impl Server {
    pub fn new(client: Client) -> Self {
        Server {
            client,
            documents: Arc::default(),
            encoding: OnceLock::new(),
            settings: Arc::default(),
            publisher: OnceLock::new(),
        }
    }

    fn encoding(&self) -> PositionEncoding {
        self.encoding.get().copied().unwrap_or_default()
    }

    fn mark_changed(&self, uri: Url) {
        if let Some(publisher) = self.publisher.get() {
            publisher.mark_changed(uri);
        }
    }

    fn set_settings(&self, value: Value) {
        match Settings::from_json(value) {
            Ok(settings) => {
                *self.settings.lock().unwrap_or_else(PoisonError::into_inner) = settings
            }
            Err(e) => tracing::warn!("ignoring settings: {e}"),
        }
    }

    fn settings(&self) -> Settings {
        self.settings.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Formatting edits for the games overlapping `range` (all for `None`), computed on the
    /// blocking pool; cancelling the request stops the work between two games.
    async fn format(&self, uri: &Url, range: Option<Range>) -> Result<Option<Vec<TextEdit>>> {
        let Some(doc) = self.documents.snapshot(uri) else {
            return Ok(None);
        };
        let encoding = self.encoding();
        let options = self.settings().format_options();
        let cancelled = Arc::new(AtomicBool::new(false));
        let _cancel_on_drop = CancelOnDrop(Arc::clone(&cancelled));
        let work = tokio::task::spawn_blocking(move || {
            guard::catch("formatting", || {
                let range = range.map(|r| doc.positions(encoding).text_range(r));
                let stop = || cancelled.load(Ordering::Relaxed);
                let edits = ide::format_edits(&doc.analysis, &doc.rope, &options, range, &stop)?;
                let positions = doc.positions(encoding);
                Ok(edits.iter().map(|e| positions.text_edit(e)).collect())
            })
        });
        match work.await {
            Ok(Ok(Ok(edits))) => Ok(Some(edits)),
            Ok(Ok(Err(ide::Cancelled))) => Err(Error::request_cancelled()),
            Ok(Err(_)) | Err(_) => Err(Error::internal_error()),
        }
    }

    /// Run a read request on a snapshot of `uri`, inside a panic boundary.
    fn read<T>(
        &self,
        uri: &Url,
        what: &str,
        f: impl FnOnce(&Snapshot) -> Option<T>,
    ) -> Result<Option<T>> {
        let Some(doc) = self.documents.snapshot(uri) else {
            return Ok(None);
        };
        guard::catch(what, || f(&doc)).map_err(|_| Error::internal_error())
    }
}

/// Sets its flag when dropped: when tower-lsp drops a cancelled request's future, the work it
/// started sees the flag and stops.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[tower_lsp::async_trait]
impl LanguageServer for Server {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let offered =
            params.capabilities.general.as_ref().and_then(|g| g.position_encodings.as_deref());
        let encoding = *self.encoding.get_or_init(|| negotiate_encoding(offered));
        self.publisher.get_or_init(|| {
            Publisher::spawn(Sources {
                client: self.client.clone(),
                documents: Arc::clone(&self.documents),
                settings: Arc::clone(&self.settings),
                encoding,
            })
        });
        if let Some(options) = params.initialization_options {
            self.set_settings(options);
        }
        let capabilities = ServerCapabilities {
            position_encoding: Some(encoding_kind(encoding)),
            text_document_sync: Some(TextDocumentSyncCapability::Options(
                TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::INCREMENTAL),
                    ..TextDocumentSyncOptions::default()
                },
            )),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            document_formatting_provider: Some(OneOf::Left(true)),
            document_range_formatting_provider: Some(OneOf::Left(true)),
            code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                code_action_kinds: Some(editing::declared_kinds()),
                ..CodeActionOptions::default()
            })),
            completion_provider: Some(CompletionOptions {
                trigger_characters: Some(
                    editing::COMPLETION_TRIGGERS.iter().map(|c| (*c).to_owned()).collect(),
                ),
                ..CompletionOptions::default()
            }),
            ..ServerCapabilities::default()
        };
        Ok(InitializeResult {
            capabilities,
            server_info: Some(ServerInfo {
                name: env!("CARGO_PKG_NAME").to_owned(),
                version: Some(env!("CARGO_PKG_VERSION").to_owned()),
            }),
        })
    }

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let doc = params.text_document;
        self.documents.open(doc.uri.clone(), doc.text, doc.version);
        self.mark_changed(doc.uri);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let doc = params.text_document;
        if self.documents.change(&doc.uri, doc.version, params.content_changes, self.encoding()) {
            self.mark_changed(doc.uri);
        } else {
            tracing::warn!("change for a document that is not open: {}", doc.uri);
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        self.documents.close(&params.text_document.uri);
        self.mark_changed(params.text_document.uri);
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        self.set_settings(params.settings);
        // The diagnostics limit may have changed.
        for uri in self.documents.uris() {
            self.mark_changed(uri);
        }
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let at = params.text_document_position_params;
        let encoding = self.encoding();
        self.read(&at.text_document.uri, "hover", |doc| {
            let positions = doc.positions(encoding);
            let offset = positions.offset(at.position) as u32;
            let hover = ide::hover(&doc.analysis, &doc.rope, offset)?;
            Some(Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: hover.markdown,
                }),
                range: Some(positions.range(hover.range)),
            })
        })
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        self.format(&params.text_document.uri, None).await
    }

    async fn range_formatting(
        &self,
        params: DocumentRangeFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        self.format(&params.text_document.uri, Some(params.range)).await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri;
        let encoding = self.encoding();
        let options = self.settings().format_options();
        self.read(&uri, "code actions", |doc| {
            let range = doc.positions(encoding).text_range(params.range);
            let wanted = |kind| editing::wants(&params.context, kind);
            let actions = ide::code_actions(&doc.analysis, &doc.rope, range, &options, &wanted);
            Some(
                actions.into_iter().map(|a| editing::code_action(doc, &uri, encoding, a)).collect(),
            )
        })
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let at = params.text_document_position;
        let encoding = self.encoding();
        self.read(&at.text_document.uri, "completion", |doc| {
            let offset = doc.positions(encoding).offset(at.position) as u32;
            let items = ide::completions(&doc.analysis, &doc.rope, offset, ide::Date::today());
            Some(CompletionResponse::List(editing::completion_list(doc, encoding, items)))
        })
    }
}
