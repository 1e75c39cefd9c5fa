//! The `LanguageServer` implementation: document notifications are applied synchronously
//! before any `.await` (DESIGN §6.1); requests work on a snapshot, inside a panic boundary
//! (§6.4); long work runs on the blocking pool. The transport applies the notifications that
//! carry text and answers formatting requests itself, with what the server gives it.

use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use serde_json::Value;
use tower_lsp::LanguageServer;
use tower_lsp::jsonrpc::{Error, Result};
use tower_lsp::lsp_types::*;

use super::board::{PositionParams, PositionResult, position_result};
use super::convert::{encoding_kind, negotiate_encoding};
use super::disk_files::{self, FileParams};
use super::documents::{Documents, Snapshot};
use super::editing::{self, ClientSupport};
use super::formatting::{FormatJob, FormatRequest};
use super::outline;
use super::project_config::{self, ProjectConfigs};
use super::publisher::{Publisher, Sources};
use super::settings::Settings;
use super::transport::Notifier;
use crate::ide::{self, guard};
use crate::text::PositionEncoding;

pub struct Server {
    /// For the server's own messages to the client.
    lsp_client: tower_lsp::Client,
    notifier: Notifier,
    documents: Arc<Documents>,
    /// Negotiated in `initialize`.
    encoding: OnceLock<PositionEncoding>,
    /// Read from the client's capabilities in `initialize`.
    client: OnceLock<ClientSupport>,
    settings: Arc<Mutex<Settings>>,
    /// The `initializationOptions`, under the settings of every `didChangeConfiguration`.
    initialization_options: OnceLock<Value>,
    /// Started in `initialize`, once the encoding is known.
    publisher: OnceLock<Publisher>,
    /// The projects' `pgn-lsp.toml` files.
    projects: Arc<ProjectConfigs>,
    /// Whether the client can watch files, from `initialize`, for `initialized`.
    watches_files: OnceLock<bool>,
}

impl Server {
    pub fn new(client: tower_lsp::Client, notifier: Notifier) -> Self {
        Server {
            projects: Arc::new(ProjectConfigs::new(client.clone())),
            lsp_client: client,
            watches_files: OnceLock::new(),
            notifier,
            documents: Arc::default(),
            encoding: OnceLock::new(),
            client: OnceLock::new(),
            settings: Arc::default(),
            initialization_options: OnceLock::new(),
            publisher: OnceLock::new(),
        }
    }

    fn encoding(&self) -> PositionEncoding {
        self.encoding.get().copied().unwrap_or_default()
    }

    fn client(&self) -> ClientSupport {
        self.client.get().copied().unwrap_or_default()
    }

    fn mark_changed(&self, uri: Url) {
        if let Some(publisher) = self.publisher.get() {
            publisher.mark_changed(uri);
        }
    }

    /// Publish every open document's diagnostics again (the settings that choose them changed).
    fn mark_all_changed(&self) {
        for uri in self.documents.uris() {
            self.mark_changed(uri);
        }
    }

    /// Read the settings of `change` (`null` in `initialize`) over the `initializationOptions`.
    fn set_settings(&self, change: Value) {
        let base = self.initialization_options.get().cloned().unwrap_or_default();
        match Settings::from_json_over(base, change) {
            Ok(settings) => {
                *self.settings.lock().unwrap_or_else(PoisonError::into_inner) = settings
            }
            Err(e) => tracing::warn!("ignoring settings: {e}"),
        }
    }

    fn settings(&self) -> Settings {
        self.settings.lock().unwrap_or_else(PoisonError::into_inner).clone()
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

    /// [`Server::read`] on the blocking pool, for work over a whole document (which may be
    /// 100 MB).
    async fn read_blocking<T: Send + 'static>(
        &self,
        uri: &Url,
        what: &'static str,
        f: impl FnOnce(&Snapshot) -> Option<T> + Send + 'static,
    ) -> Result<Option<T>> {
        let Some(doc) = self.documents.snapshot(uri) else {
            return Ok(None);
        };
        match tokio::task::spawn_blocking(move || guard::catch(what, || f(&doc))).await {
            Ok(Ok(result)) => Ok(result),
            Ok(Err(_)) | Err(_) => Err(Error::internal_error()),
        }
    }
}

#[tower_lsp::async_trait]
impl LanguageServer for Server {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let offered =
            params.capabilities.general.as_ref().and_then(|g| g.position_encodings.as_deref());
        let encoding = *self.encoding.get_or_init(|| negotiate_encoding(offered));
        self.client.get_or_init(|| ClientSupport::of(&params.capabilities));
        self.publisher.get_or_init(|| {
            Publisher::spawn(Sources {
                notifier: self.notifier.clone(),
                documents: Arc::clone(&self.documents),
                settings: Arc::clone(&self.settings),
                projects: Arc::clone(&self.projects),
                encoding,
            })
        });
        let _ = self.watches_files.set(project_config::can_watch(&params.capabilities));
        // Options that are no settings are ignored as a whole, and so not kept as the base
        // of later configuration changes, which are then read over the defaults.
        if let Some(options) = params.initialization_options {
            match Settings::from_json_over(options.clone(), Value::Null) {
                Ok(settings) => {
                    let _ = self.initialization_options.set(options);
                    *self.settings.lock().unwrap_or_else(PoisonError::into_inner) = settings;
                }
                Err(e) => tracing::warn!("ignoring initializationOptions: {e}"),
            }
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
            document_symbol_provider: Some(OneOf::Left(true)),
            workspace_symbol_provider: Some(OneOf::Left(true)),
            folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
            semantic_tokens_provider: Some(
                SemanticTokensServerCapabilities::SemanticTokensOptions(SemanticTokensOptions {
                    legend: outline::semantic_tokens_legend(),
                    range: Some(true),
                    full: Some(SemanticTokensFullOptions::Bool(true)),
                    ..SemanticTokensOptions::default()
                }),
            ),
            inlay_hint_provider: Some(OneOf::Left(true)),
            selection_range_provider: Some(SelectionRangeProviderCapability::Simple(true)),
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

    async fn initialized(&self, _: InitializedParams) {
        if self.watches_files.get() == Some(&true) {
            self.projects.watch();
        }
    }

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        self.open_document(params);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        self.change_document(params);
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        self.documents.close(&params.text_document.uri);
        self.mark_changed(params.text_document.uri);
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        self.set_settings(params.settings);
        // The diagnostics settings may have changed.
        self.mark_all_changed();
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        let settings_files: Vec<_> =
            params.changes.iter().filter(|c| project_config::is_settings_file(&c.uri)).collect();
        for change in &settings_files {
            self.projects.changed(&change.uri);
        }
        if !settings_files.is_empty() {
            self.mark_all_changed();
        }
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let at = params.text_document_position_params;
        let (encoding, markdown) = (self.encoding(), self.client().markdown_hovers);
        self.read(&at.text_document.uri, "hover", |doc| {
            let positions = doc.positions(encoding);
            let offset = positions.offset(at.position) as u32;
            let hover = ide::hover(&doc.analysis, &doc.rope, offset)?;
            let contents = if markdown {
                MarkupContent { kind: MarkupKind::Markdown, value: hover.markdown }
            } else {
                MarkupContent { kind: MarkupKind::PlainText, value: hover.plain_text() }
            };
            Some(Hover {
                contents: HoverContents::Markup(contents),
                range: Some(positions.range(hover.range)),
            })
        })
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri;
        let (encoding, client) = (self.encoding(), self.client());
        let (settings, project) = (self.settings(), self.projects.for_document(&uri));
        let (options, shown) = (
            settings.format_options_with(project.as_ref()),
            settings.diagnostic_filter_with(project.as_ref()),
        );
        self.read(&uri, "code actions", |doc| {
            let range = doc.positions(encoding).text_range(params.range);
            let wanted = |kind| editing::wants(&params.context, kind);
            let actions =
                ide::code_actions(&doc.analysis, &doc.rope, range, &options, &shown, &wanted);
            Some(
                actions
                    .into_iter()
                    .map(|a| editing::code_action(doc, &uri, encoding, client, a))
                    .collect(),
            )
        })
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let at = params.text_document_position;
        let (encoding, client) = (self.encoding(), self.client());
        self.read(&at.text_document.uri, "completion", |doc| {
            let offset = doc.positions(encoding).offset(at.position) as u32;
            let items = ide::completions(&doc.analysis, &doc.rope, offset, ide::Date::today());
            Some(CompletionResponse::List(editing::completion_list(doc, encoding, client, items)))
        })
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let encoding = self.encoding();
        self.read_blocking(&params.text_document.uri, "document symbols", move |doc| {
            let positions = doc.positions(encoding);
            let symbols = ide::document_symbols(&doc.analysis, &doc.rope);
            let symbols = symbols.iter().map(|s| outline::document_symbol(&positions, s));
            Some(DocumentSymbolResponse::Nested(symbols.collect()))
        })
        .await
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<Vec<SymbolInformation>>> {
        let encoding = self.encoding();
        let documents: Vec<(Url, Snapshot)> = self
            .documents
            .uris()
            .into_iter()
            .filter_map(|uri| Some((uri.clone(), self.documents.snapshot(&uri)?)))
            .collect();
        let work = tokio::task::spawn_blocking(move || {
            guard::catch("workspace symbols", || {
                let sources = documents.iter().enumerate().map(|(i, (_, doc))| {
                    (i, &doc.analysis, &doc.rope as &dyn crate::syntax::TextSource)
                });
                let limit = outline::WORKSPACE_SYMBOL_LIMIT;
                let found = ide::workspace_symbols(sources, &params.query, limit);
                found
                    .iter()
                    .map(|game| {
                        let (uri, doc) = &documents[game.document];
                        outline::workspace_symbol(uri, doc, encoding, game)
                    })
                    .collect()
            })
        });
        match work.await {
            Ok(Ok(symbols)) => Ok(Some(symbols)),
            Ok(Err(_)) | Err(_) => Err(Error::internal_error()),
        }
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        let encoding = self.encoding();
        self.read_blocking(&params.text_document.uri, "folding ranges", move |doc| {
            let positions = doc.positions(encoding);
            let folds = ide::folding_ranges(&doc.analysis, &doc.rope);
            Some(folds.iter().map(|f| outline::folding_range(&positions, f)).collect())
        })
        .await
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let encoding = self.encoding();
        self.read_blocking(&params.text_document.uri, "semantic tokens", move |doc| {
            if doc.rope.len_bytes() > outline::FULL_SEMANTIC_TOKENS_MAX_BYTES {
                return None;
            }
            let tokens = outline::semantic_tokens(doc, encoding, None);
            Some(SemanticTokensResult::Tokens(tokens))
        })
        .await
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        let encoding = self.encoding();
        self.read(&params.text_document.uri, "semantic tokens", |doc| {
            let tokens = outline::semantic_tokens(doc, encoding, Some(params.range));
            Some(SemanticTokensRangeResult::Tokens(tokens))
        })
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        let encoding = self.encoding();
        self.read(&params.text_document.uri, "inlay hints", |doc| {
            let positions = doc.positions(encoding);
            let range = positions.text_range(params.range);
            let hints = ide::inlay_hints(&doc.analysis, &doc.rope, range);
            Some(hints.iter().map(|h| outline::inlay_hint(&positions, h)).collect())
        })
    }

    async fn selection_range(
        &self,
        params: SelectionRangeParams,
    ) -> Result<Option<Vec<SelectionRange>>> {
        let encoding = self.encoding();
        self.read(&params.text_document.uri, "selection ranges", |doc| {
            let positions = doc.positions(encoding);
            let offsets: Vec<u32> =
                params.positions.iter().map(|&p| positions.offset(p) as u32).collect();
            let ranges = ide::selection_ranges(&doc.analysis, &doc.rope, &offsets);
            let chains = ranges.iter().zip(&params.positions).map(|(ranges, &at)| {
                outline::selection_range(&positions, ranges)
                    .unwrap_or(SelectionRange { range: Range::new(at, at), parent: None })
            });
            Some(chains.collect())
        })
    }
}

/// What the transport handles itself: the document notifications that carry text, decoded
/// there and applied here directly (the `LanguageServer` methods do the same), and formatting
/// requests (`lsp::formatting`).
impl Server {
    /// Whether `initialize` was answered: from then on notifications are applied.
    pub fn is_initialized(&self) -> bool {
        self.publisher.get().is_some()
    }

    pub fn open_document(&self, params: DidOpenTextDocumentParams) {
        let doc = params.text_document;
        self.documents.open(doc.uri.clone(), doc.text, doc.version);
        self.mark_changed(doc.uri);
    }

    pub fn change_document(&self, params: DidChangeTextDocumentParams) {
        let doc = params.text_document;
        if self.documents.change(&doc.uri, doc.version, params.content_changes, self.encoding()) {
            self.mark_changed(doc.uri);
        } else {
            tracing::warn!("change for a document that is not open: {}", doc.uri);
        }
    }

    /// What a formatting request works on: a snapshot of its document as it is now.
    pub fn format_job(&self, request: FormatRequest) -> FormatJob {
        FormatJob {
            id: request.id,
            doc: self.documents.snapshot(&request.uri),
            encoding: self.encoding(),
            options: self
                .settings()
                .format_options_with(self.projects.for_document(&request.uri).as_ref()),
            range: request.range,
        }
    }
}

/// Custom requests and notifications, registered in `lsp::serve`.
impl Server {
    /// `pgn/position`: the live board at a position of a document.
    pub async fn position(&self, params: PositionParams) -> Result<Option<PositionResult>> {
        let at = params.at;
        let orientation = params.orientation.map_or(shakmaty::Color::White, Into::into);
        let encoding = self.encoding();
        self.read(&at.text_document.uri, "live board", |doc| {
            let positions = doc.positions(encoding);
            let offset = positions.offset(at.position) as u32;
            let board = ide::board_position(&doc.analysis, &doc.rope, offset, orientation)?;
            Some(position_result(board, &positions))
        })
    }

    /// `pgn/openFile`: read a file from disk as a document (`disk_files`), applied before the
    /// next message as a `didOpen` is.
    pub async fn open_file(&self, params: FileParams) {
        let uri = params.text_document.uri;
        match disk_files::read(&uri) {
            Ok(text) => {
                if self.documents.open_from_disk(uri.clone(), text) {
                    self.mark_changed(uri);
                } else {
                    // The client sent it too (a file near the editor's limit, say): its text is
                    // the one that counts.
                    tracing::debug!("{}: {uri} is open in the editor", disk_files::OPEN_METHOD);
                }
            }
            Err(e) => {
                tracing::warn!("{}: {e}", disk_files::OPEN_METHOD);
                self.lsp_client.show_message(MessageType::WARNING, e).await;
            }
        }
    }

    /// `pgn/closeFile`: forget a file read from disk; its diagnostics are cleared.
    pub async fn close_file(&self, params: FileParams) {
        let uri = params.text_document.uri;
        if self.documents.close_from_disk(&uri) {
            self.mark_changed(uri);
        }
    }
}
