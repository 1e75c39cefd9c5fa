//! Pushing diagnostics (DESIGN §6.7). Handlers only mark a document as changed; one task
//! publishes, in order, the diagnostics of the latest state of each marked document with its
//! version. Edits that arrive faster than diagnostics are published are coalesced, and a
//! publish for an old version can never overtake a newer one.

use std::sync::Arc;

use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tower_lsp::Client;
use tower_lsp::lsp_types::Url;

use super::documents::Documents;
use crate::ide::guard;
use crate::text::PositionEncoding;

pub struct Publisher {
    changed: UnboundedSender<Url>,
}

impl Publisher {
    /// Start the publishing task (on the current tokio runtime).
    pub fn spawn(client: Client, documents: Arc<Documents>, encoding: PositionEncoding) -> Self {
        let (changed, rx) = unbounded_channel();
        tokio::spawn(publish_loop(client, documents, encoding, rx));
        Publisher { changed }
    }

    /// Publish the diagnostics of `uri` soon (nothing if the document is closed by then:
    /// an empty list, which clears them in the client).
    pub fn mark_changed(&self, uri: Url) {
        // The task lives as long as the server; a send can only fail during shutdown.
        let _ = self.changed.send(uri);
    }
}

async fn publish_loop(
    client: Client,
    documents: Arc<Documents>,
    encoding: PositionEncoding,
    mut changed: UnboundedReceiver<Url>,
) {
    while let Some(uri) = changed.recv().await {
        let mut batch = vec![uri];
        while let Ok(uri) = changed.try_recv() {
            if !batch.contains(&uri) {
                batch.push(uri);
            }
        }
        for uri in batch {
            let (diagnostics, version) = match documents.snapshot(&uri) {
                Some(doc) => {
                    let convert = || {
                        let positions = doc.positions(encoding);
                        doc.analysis.diagnostics().map(|d| positions.diagnostic(&uri, &d)).collect()
                    };
                    let diagnostics = guard::catch("converting diagnostics", convert);
                    (diagnostics.unwrap_or_default(), Some(doc.version))
                }
                None => (Vec::new(), None),
            };
            client.publish_diagnostics(uri, diagnostics, version).await;
        }
    }
}
