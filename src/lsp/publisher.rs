//! Pushing diagnostics (DESIGN §6.7). Handlers only mark a document as changed; one task
//! publishes, in order, the diagnostics of the latest state of each marked document with its
//! version. Edits that arrive faster than diagnostics are published are coalesced, a publish
//! for an old version can never overtake a newer one, and diagnostics converted for a state of
//! the document that has changed since are not sent. Of the diagnostics the settings'
//! `diagnostics.minSeverity` and `diagnostics.ignore` keep, and the project's `pgn-lsp.toml`
//! too, at most `diagnostics.limit` are published per document, the most severe first; a note
//! says how many more there are.
//!
//! Converting diagnostics to LSP positions and encoding them as JSON is the costly part of a
//! publish in a large document, so the conversions and the JSON of the last publish are kept
//! game by game: a game whose analysis is the same (an edit elsewhere keeps its `Arc`) and that
//! starts at the start of a line keeps them, its conversions moved by as many lines as were
//! added or removed before it (and its JSON then made again). Only the edited games are
//! converted again; the others cost a copy of their JSON.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tower_lsp::lsp_types::notification::{Notification as _, PublishDiagnostics};
use tower_lsp::lsp_types::{self as lsp, DiagnosticSeverity, Url};

use super::convert::ConvertedDiagnostic;
use super::documents::{Documents, Snapshot};
use super::message::ArrayMessage;
use super::project_config::ProjectConfigs;
use super::settings::Settings;
use super::transport::Notifier;
use crate::ide::{GameAnalysis, guard};
use crate::syntax::DiagnosticFilter;
use crate::text::PositionEncoding;

pub struct Publisher {
    changed: UnboundedSender<Url>,
}

/// What the publishing task reads.
pub struct Sources {
    pub notifier: Notifier,
    pub documents: Arc<Documents>,
    pub settings: Arc<Mutex<Settings>>,
    pub projects: Arc<ProjectConfigs>,
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
            let doc = sources.documents.snapshot(&uri);
            let (version, generation) = match &doc {
                Some(doc) => (doc.version, Some(doc.generation)),
                None => (None, None),
            };
            let mut message = ArrayMessage::publish_diagnostics(&uri, version);
            let count = match doc {
                Some(doc) => {
                    let settings =
                        sources.settings.lock().unwrap_or_else(PoisonError::into_inner).clone();
                    // Read outside the lock.
                    let project = sources.projects.for_document(&uri);
                    let limit = settings.diagnostics.limit;
                    let filter = settings.diagnostic_filter_with(project.as_ref());
                    let cache = converted.entry(uri.clone()).or_default();
                    let shown = Shown { limit, filter: &filter };
                    let encode =
                        || cache.publish(&doc, &uri, sources.encoding, shown, &mut message);
                    guard::catch("converting diagnostics", encode).unwrap_or_else(|_| {
                        // Whatever was pushed before the failure is not published.
                        message.clear();
                        0
                    })
                }
                None => {
                    converted.remove(&uri);
                    0
                }
            };
            let converted_in = started.elapsed();
            // The document changed (or was closed, or opened again) while its diagnostics were
            // converted: they would show the client places that have moved, and the new state
            // is marked for a publish of its own.
            if !sources.documents.is_current(&uri, generation) {
                tracing::debug!("{uri} version {version:?}: not sent, the document changed");
                continue;
            }
            sources.notifier.send(PublishDiagnostics::METHOD, message.finish()).await;
            tracing::debug!(
                "{uri} version {version:?}: {count} diagnostics converted in {converted_in:?}, sent in {:?}",
                started.elapsed()
            );
        }
    }
}

/// Which diagnostics a publish shows: at most `limit` of those `filter` keeps.
#[derive(Clone, Copy)]
struct Shown<'a> {
    limit: usize,
    filter: &'a DiagnosticFilter,
}

/// The converted diagnostics of the games of one document published last time, by the address
/// of their (shared, immutable) analysis, which the entry keeps alive, and the document's line
/// break then (the lines a fix adds end with it: another drops them all).
#[derive(Default)]
struct ConvertedGames {
    games: HashMap<usize, ConvertedGame>,
    line_break: &'static str,
}

struct ConvertedGame {
    /// Keeps the analysis, and so its address, alive.
    _game: Arc<GameAnalysis>,
    /// The line the game started on.
    first_line: u32,
    /// Every diagnostic of the game.
    diagnostics: Vec<ConvertedDiagnostic>,
    /// The JSON of each diagnostic once it has been published from these lines.
    encoded: Vec<Option<Box<str>>>,
}

impl ConvertedGame {
    /// The JSON of diagnostic `i`, encoded the first time it is asked for.
    fn encoded(&mut self, i: usize) -> &str {
        let diagnostics = &self.diagnostics;
        self.encoded[i].get_or_insert_with(|| {
            let json = serde_json::to_string(&diagnostics[i].to_lsp());
            json.expect("a diagnostic serialises").into_boxed_str()
        })
    }

    /// Move the game down by `delta` lines (up when negative).
    fn shift_lines(&mut self, delta: i64) {
        self.diagnostics.iter_mut().for_each(|d| d.shift_lines(delta));
        self.encoded.iter_mut().for_each(|e| *e = None);
        self.first_line = (i64::from(self.first_line) + delta) as u32;
    }
}

impl ConvertedGames {
    /// Push the diagnostics to publish for a document into `message`, with a note on those
    /// left out; returns how many were pushed.
    fn publish(
        &mut self,
        doc: &Snapshot,
        uri: &Url,
        encoding: PositionEncoding,
        Shown { limit, filter }: Shown,
        message: &mut ArrayMessage,
    ) -> usize {
        let positions = doc.positions(encoding);
        if self.line_break != positions.line_break() {
            self.games.clear();
            self.line_break = positions.line_break();
        }
        let selected = doc.analysis.diagnostics(limit, filter);
        let mut kept = HashMap::with_capacity(selected.games.len());
        let mut count = 0;
        for chosen in &selected.games {
            let key = Arc::as_ptr(&chosen.game) as usize;
            // A game that does not start a line has columns that depend on the text before it:
            // it is converted afresh, and not kept.
            let first_line = chosen.first_line;
            let mut game = match (self.games.remove(&key), first_line) {
                (Some(mut game), Some(line)) => {
                    if line != game.first_line {
                        game.shift_lines(i64::from(line) - i64::from(game.first_line));
                    }
                    game
                }
                _ => {
                    let diagnostics: Vec<_> = chosen
                        .game
                        .diagnostics
                        .iter()
                        .map(|d| positions.convert(uri, &d.shifted(chosen.start)))
                        .collect();
                    ConvertedGame {
                        _game: Arc::clone(&chosen.game),
                        first_line: first_line.unwrap_or_default(),
                        encoded: vec![None; diagnostics.len()],
                        diagnostics,
                    }
                }
            };
            for &i in &chosen.chosen {
                message.push_encoded(game.encoded(i));
            }
            count += chosen.chosen.len();
            if first_line.is_some() {
                kept.insert(key, game);
            }
        }
        self.games = kept;
        if selected.omitted > 0 {
            message.push(&lsp::Diagnostic {
                severity: Some(DiagnosticSeverity::INFORMATION),
                source: Some("pgn-lsp".to_owned()),
                message: format!(
                    "{} more diagnostics are not shown: at most {limit} are (setting diagnostics.limit); `pgn-lsp check` lists them all",
                    selected.omitted
                ),
                ..lsp::Diagnostic::default()
            });
            count += 1;
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use tower_lsp::lsp_types::{Position, Range, TextDocumentContentChangeEvent};

    use super::*;
    use crate::syntax::{Code, Severity};

    const TEXT: &str = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 0-1\n\n\
                        [Event \"b\"]\n\n1. d4 {é♘𝄞} 1. d5 1/2\n\n1. c4 c5 2. Qxf7 *\n";

    /// What a publish gives without the cache.
    fn fresh(doc: &Snapshot, uri: &Url, encoding: PositionEncoding, shown: Shown) -> Vec<u8> {
        kept(&mut ConvertedGames::default(), doc, uri, encoding, shown)
    }

    /// What a publish gives with `cache`.
    fn kept(
        cache: &mut ConvertedGames,
        doc: &Snapshot,
        uri: &Url,
        encoding: PositionEncoding,
        shown: Shown,
    ) -> Vec<u8> {
        let mut message = ArrayMessage::publish_diagnostics(uri, doc.version);
        cache.publish(doc, uri, encoding, shown, &mut message);
        message.finish()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// After any edits, the diagnostics converted with the kept conversions are the ones a
        /// conversion from scratch gives.
        #[test]
        fn kept_conversions_equal_fresh_ones(
            edits in proptest::collection::vec(
                (0..8u32, 0..30u32, prop_oneof![Just("\n"), Just("\r\n"), Just("\r"), Just(""), Just("x "), Just("é"), Just("2. Nf3 ")]),
                1..10,
            ),
            limit in prop_oneof![Just(2usize), Just(1000)],
            warnings_but_move_numbers in any::<bool>(),
            encoding in prop_oneof![Just(PositionEncoding::Utf8), Just(PositionEncoding::Utf16)],
        ) {
            let uri = Url::parse("file:///cache.pgn").unwrap();
            let documents = Documents::default();
            documents.open(uri.clone(), TEXT.to_owned(), 1);
            let mut cache = ConvertedGames::default();
            let filter = if warnings_but_move_numbers {
                DiagnosticFilter { min_severity: Severity::Warning, ignored: vec![Code::MoveNumber] }
            } else {
                DiagnosticFilter::default()
            };
            let shown = Shown { limit, filter: &filter };
            for (i, (line, character, insert)) in edits.into_iter().enumerate() {
                let at = Position::new(line, character);
                let change = TextDocumentContentChangeEvent {
                    range: Some(Range::new(at, at)),
                    range_length: None,
                    text: insert.to_owned(),
                };
                documents.change(&uri, i as i32 + 2, vec![change], encoding);
                let doc = documents.snapshot(&uri).unwrap();
                let kept = kept(&mut cache, &doc, &uri, encoding, shown);
                prop_assert_eq!(kept, fresh(&doc, &uri, encoding, shown));
            }
        }
    }
}
