//! Pushing diagnostics (DESIGN §6.7). Handlers only mark a document as changed; one task
//! publishes, in order, the diagnostics of the latest state of each marked document with its
//! version. Edits that arrive faster than diagnostics are published are coalesced, and a
//! publish for an old version can never overtake a newer one. At most `diagnostics.limit`
//! diagnostics are published per document, the most severe first; a note says how many more
//! there are.
//!
//! Converting diagnostics to LSP positions is the costly part of a publish in a large document,
//! so the conversions of the last publish are kept game by game: a game whose analysis is the
//! same (an edit elsewhere keeps its `Arc`) and that starts at the start of a line keeps them,
//! moved by as many lines as were added or removed before it. Only the edited games are
//! converted again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tower_lsp::lsp_types::notification::PublishDiagnostics;
use tower_lsp::lsp_types::{self as lsp, DiagnosticSeverity, PublishDiagnosticsParams, Url};

use super::convert::ConvertedDiagnostic;
use super::documents::{Documents, Snapshot};
use super::settings::Settings;
use super::transport::Notifier;
use crate::ide::{GameAnalysis, guard};
use crate::text::PositionEncoding;

pub struct Publisher {
    changed: UnboundedSender<Url>,
}

/// What the publishing task reads.
pub struct Sources {
    pub notifier: Notifier,
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
    let mut converted: HashMap<Url, ConvertedGames> = HashMap::new();
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
                    let cache = converted.entry(uri.clone()).or_default();
                    let convert = || cache.publishable(&doc, &uri, sources.encoding, limit);
                    let diagnostics = guard::catch("converting diagnostics", convert);
                    (diagnostics.unwrap_or_default(), Some(doc.version))
                }
                None => {
                    converted.remove(&uri);
                    (Vec::new(), None)
                }
            };
            let count = diagnostics.len();
            let converted_in = started.elapsed();
            let params = PublishDiagnosticsParams { uri, diagnostics, version };
            sources.notifier.notify::<PublishDiagnostics>(&params).await;
            let uri = params.uri;
            tracing::debug!(
                "{uri} version {version:?}: {count} diagnostics converted in {converted_in:?}, sent in {:?}",
                started.elapsed()
            );
        }
    }
}

/// The converted diagnostics of the games of one document published last time, by the address
/// of their (shared, immutable) analysis, which the entry keeps alive.
#[derive(Default)]
struct ConvertedGames(HashMap<usize, ConvertedGame>);

struct ConvertedGame {
    /// Keeps the analysis, and so its address, alive.
    _game: Arc<GameAnalysis>,
    /// The line the game started on.
    first_line: u32,
    /// Every diagnostic of the game.
    diagnostics: Vec<ConvertedDiagnostic>,
}

impl ConvertedGames {
    /// The diagnostics to publish for a document, with a note on those left out.
    fn publishable(
        &mut self,
        doc: &Snapshot,
        uri: &Url,
        encoding: PositionEncoding,
        limit: usize,
    ) -> Vec<lsp::Diagnostic> {
        let positions = doc.positions(encoding);
        let selected = doc.analysis.diagnostics(limit);
        let mut kept = HashMap::with_capacity(selected.games.len());
        let mut diagnostics = Vec::new();
        for chosen in &selected.games {
            let start = positions.position(chosen.start as usize);
            let key = Arc::as_ptr(&chosen.game) as usize;
            let game = match self.0.remove(&key) {
                Some(mut game) if start.character == 0 => {
                    let delta = i64::from(start.line) - i64::from(game.first_line);
                    if delta != 0 {
                        game.diagnostics.iter_mut().for_each(|d| d.shift_lines(delta));
                        game.first_line = start.line;
                    }
                    game
                }
                _ => ConvertedGame {
                    _game: Arc::clone(&chosen.game),
                    first_line: start.line,
                    diagnostics: chosen
                        .game
                        .diagnostics
                        .iter()
                        .map(|d| positions.convert(uri, &d.shifted(chosen.start)))
                        .collect(),
                },
            };
            diagnostics.extend(chosen.chosen.iter().map(|&i| game.diagnostics[i].to_lsp()));
            // A game that does not start a line has columns that depend on the text before it.
            if start.character == 0 {
                kept.insert(key, game);
            }
        }
        self.0 = kept;
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
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use tower_lsp::lsp_types::{Position, Range, TextDocumentContentChangeEvent};

    use super::*;

    const TEXT: &str = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 0-1\n\n\
                        [Event \"b\"]\n\n1. d4 {é♘𝄞} 1. d5 1/2\n\n1. c4 c5 2. Qxf7 *\n";

    /// What a publish gives without the cache.
    fn fresh(
        doc: &Snapshot,
        uri: &Url,
        encoding: PositionEncoding,
        limit: usize,
    ) -> Vec<lsp::Diagnostic> {
        ConvertedGames::default().publishable(doc, uri, encoding, limit)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// After any edits, the diagnostics converted with the kept conversions are the ones a
        /// conversion from scratch gives.
        #[test]
        fn kept_conversions_equal_fresh_ones(
            edits in proptest::collection::vec(
                (0..8u32, 0..30u32, prop_oneof![Just("\n"), Just("\r\n"), Just(""), Just("x "), Just("é"), Just("2. Nf3 ")]),
                1..10,
            ),
            limit in prop_oneof![Just(2usize), Just(1000)],
            encoding in prop_oneof![Just(PositionEncoding::Utf8), Just(PositionEncoding::Utf16)],
        ) {
            let uri = Url::parse("file:///cache.pgn").unwrap();
            let documents = Documents::default();
            documents.open(uri.clone(), TEXT.to_owned(), 1);
            let mut cache = ConvertedGames::default();
            for (i, (line, character, insert)) in edits.into_iter().enumerate() {
                let at = Position::new(line, character);
                let change = TextDocumentContentChangeEvent {
                    range: Some(Range::new(at, at)),
                    range_length: None,
                    text: insert.to_owned(),
                };
                documents.change(&uri, i as i32 + 2, vec![change], encoding);
                let doc = documents.snapshot(&uri).unwrap();
                let kept = cache.publishable(&doc, &uri, encoding, limit);
                prop_assert_eq!(kept, fresh(&doc, &uri, encoding, limit));
            }
        }
    }
}
