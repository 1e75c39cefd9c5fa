//! Pushing diagnostics (DESIGN §6.7). Handlers only mark a document as changed; one task
//! publishes, in order, the diagnostics of the latest state of each marked document with its
//! version. Edits that arrive faster than diagnostics are published are coalesced, and a
//! publish for an old version can never overtake a newer one. At most `diagnostics.limit`
//! diagnostics are published per document, the most severe first; a note says how many more
//! there are.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tower_lsp::Client;
use tower_lsp::lsp_types::{self as lsp, DiagnosticSeverity, Url};

use super::documents::{Documents, Snapshot};
use super::settings::Settings;
use crate::ide::guard;
use crate::text::PositionEncoding;

pub struct Publisher {
    changed: UnboundedSender<Url>,
}

/// What the publishing task reads.
pub struct Sources {
    pub client: Client,
    pub documents: Arc<Documents>,
    pub settings: Arc<Mutex<Settings>>,
    pub encoding: PositionEncoding,
}

impl Publisher {
    /// Start the publishing task (on the current tokio runtime).
    pub fn spawn(sources: Sources) -> Self {
        let (changed, rx) = unbounded_channel();
        tokio::spawn(publish_loop(sources, rx));
        Publisher { changed }
    }

    /// Publish the diagnostics of `uri` soon (nothing if the document is closed by then:
    /// an empty list, which clears them in the client).
    pub fn mark_changed(&self, uri: Url) {
        // The task lives as long as the server; a send can only fail during shutdown.
        let _ = self.changed.send(uri);
    }
}

async fn publish_loop(sources: Sources, mut changed: UnboundedReceiver<Url>) {
    while let Some(uri) = changed.recv().await {
        let mut batch = vec![uri];
        while let Ok(uri) = changed.try_recv() {
            if !batch.contains(&uri) {
                batch.push(uri);
            }
        }
        for uri in batch {
            let started = Instant::now();
            let (diagnostics, version) = match sources.documents.snapshot(&uri) {
                Some(doc) => {
                    let limit = sources
                        .settings
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .diagnostics
                        .limit;
                    let convert = || lsp_diagnostics(&doc, &uri, sources.encoding, limit);
                    let diagnostics = guard::catch("converting diagnostics", convert);
                    (diagnostics.unwrap_or_default(), Some(doc.version))
                }
                None => (Vec::new(), None),
            };
            let count = diagnostics.len();
            let converted = started.elapsed();
            sources.client.publish_diagnostics(uri.clone(), diagnostics, version).await;
            tracing::debug!(
                "{uri} version {version:?}: {count} diagnostics converted in {converted:?}, sent in {:?}",
                started.elapsed()
            );
        }
    }
}

/// The diagnostics to publish for a document, with a note on those left out.
fn lsp_diagnostics(
    doc: &Snapshot,
    uri: &Url,
    encoding: PositionEncoding,
    limit: usize,
) -> Vec<lsp::Diagnostic> {
    let positions = doc.positions(encoding);
    let selected = doc.analysis.diagnostics(limit);
    let mut diagnostics: Vec<lsp::Diagnostic> =
        selected.shown.iter().map(|d| positions.diagnostic(uri, d)).collect();
    if selected.omitted > 0 {
        diagnostics.push(lsp::Diagnostic {
            severity: Some(DiagnosticSeverity::INFORMATION),
            source: Some("pgn-lsp".to_owned()),
            message: format!(
                "{} more diagnostics are not shown: at most {limit} are (setting diagnostics.limit); `pgn-lsp check` lists them all",
                selected.omitted
            ),
            ..lsp::Diagnostic::default()
        });
    }
    diagnostics
}
