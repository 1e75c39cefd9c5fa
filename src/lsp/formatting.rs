//! Formatting requests (`textDocument/formatting` and `textDocument/rangeFormatting`), which the
//! transport answers itself: as the formatter hands out its edits, one by one, each is
//! converted to LSP positions and encoded into the response, so that the answer for a whole
//! 100 MB document is held once, as JSON. Through tower-lsp it would be held three times more:
//! as our edits, as `lsp_types::TextEdit`s and as a `serde_json::Value`.
//!
//! The transport hands over only requests it can serve: once the server is initialized and
//! until it is shut down, with params of the right shape; tower-lsp answers the others with the
//! error they deserve. A `$/cancelRequest` for a formatting request in progress stops the
//! formatter between two games, and the request is answered with the cancellation error.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use serde::Deserialize;
use serde_json::Value;
use tower_lsp::jsonrpc::{Error, Id, Request, Response};
use tower_lsp::lsp_types::notification::{Cancel, Notification};
use tower_lsp::lsp_types::request::{Formatting, RangeFormatting, Request as _};
use tower_lsp::lsp_types::{
    CancelParams, DocumentFormattingParams, DocumentRangeFormattingParams, Range, Url,
};

use super::documents::Snapshot;
use super::message::{self, ArrayMessage};
use crate::fmt::FormatOptions;
use crate::ide::{self, Cancelled, guard};
use crate::text::PositionEncoding;

/// A formatting request: of the whole document, or of the games overlapping `range`.
#[derive(Debug, PartialEq)]
pub struct FormatRequest {
    pub id: Id,
    pub uri: Url,
    pub range: Option<Range>,
}

impl FormatRequest {
    /// `request` as a formatting request, if it is one with an id and params of the right shape.
    pub fn from_request(request: &Request) -> Option<FormatRequest> {
        fn params<P: for<'de> Deserialize<'de>>(request: &Request) -> Option<P> {
            P::deserialize(request.params()?).ok()
        }
        let id = request.id()?.clone();
        let (uri, range) = match request.method() {
            Formatting::METHOD => {
                let params: DocumentFormattingParams = params(request)?;
                (params.text_document.uri, None)
            }
            RangeFormatting::METHOD => {
                let params: DocumentRangeFormattingParams = params(request)?;
                (params.text_document.uri, Some(params.range))
            }
            _ => return None,
        };
        Some(FormatRequest { id, uri, range })
    }
}

/// The id of the request a `$/cancelRequest` cancels, if `request` is one.
pub fn cancelled_id(request: &Request) -> Option<Id> {
    if request.method() != Cancel::METHOD {
        return None;
    }
    let params = CancelParams::deserialize(request.params()?).ok()?;
    Some(params.id.into())
}

/// The formatting requests in progress, by id, with the flag that cancels each.
#[derive(Clone, Default)]
pub struct InProgress(Arc<Mutex<HashMap<Id, Arc<AtomicBool>>>>);

impl InProgress {
    fn lock(&self) -> MutexGuard<'_, HashMap<Id, Arc<AtomicBool>>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Record that the request `id` has started; the flag says when it is cancelled.
    pub fn start(&self, id: Id) -> Arc<AtomicBool> {
        let cancelled = Arc::new(AtomicBool::new(false));
        self.lock().insert(id, Arc::clone(&cancelled));
        cancelled
    }

    pub fn finish(&self, id: &Id) {
        self.lock().remove(id);
    }

    /// Cancel the request `id`; `false` if no such request is in progress.
    pub fn cancel(&self, id: &Id) -> bool {
        let flag = self.lock().get(id).cloned();
        flag.inspect(|flag| flag.store(true, Ordering::Relaxed)).is_some()
    }
}

/// What a formatting request works on, taken when the request is read.
pub struct FormatJob {
    pub id: Id,
    /// `None` when the document is not open.
    pub doc: Option<Snapshot>,
    pub encoding: PositionEncoding,
    pub options: FormatOptions,
    pub range: Option<Range>,
}

impl FormatJob {
    /// The encoded response: the edits (`null` for a document that is not open), or the error
    /// when `cancelled` was set or the formatter panicked.
    pub fn run(self, cancelled: &AtomicBool) -> Vec<u8> {
        let FormatJob { id, doc, encoding, options, range } = self;
        let Some(doc) = doc else {
            return message::encode(&Response::from_ok(id, Value::Null));
        };
        let answer = guard::catch("formatting", || {
            let positions = doc.positions(encoding);
            let range = range.map(|r| positions.text_range(r));
            let mut response = ArrayMessage::response(&id);
            let stop = || cancelled.load(Ordering::Relaxed);
            let push = &mut |edit| response.push(&positions.text_edit(&edit));
            let (analysis, window) = (&doc.analysis, ide::WINDOW_BYTES);
            let ending = ide::for_each_format_edit(
                analysis, &doc.rope, &options, range, window, &stop, push,
            )?;
            if ending == ide::Formatting::GamesDiffer {
                response.clear();
            }
            Ok(response.finish())
        });
        let error = match answer {
            Ok(Ok(body)) => return body,
            Ok(Err(Cancelled)) => Error::request_cancelled(),
            Err(_) => Error::internal_error(),
        };
        message::encode(&Response::from_error(id, error))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn request(method: &str, id: Option<i64>, params: Value) -> Request {
        let builder = Request::build(method.to_owned()).params(params);
        match id {
            Some(id) => builder.id(id).finish(),
            None => builder.finish(),
        }
    }

    #[test]
    fn formatting_requests_are_recognised_by_method_id_and_params() {
        let document = json!({ "textDocument": { "uri": "file:///a.pgn" },
                               "options": { "tabSize": 4, "insertSpaces": true } });
        let uri = Url::parse("file:///a.pgn").unwrap();
        let whole = request("textDocument/formatting", Some(3), document.clone());
        assert_eq!(
            FormatRequest::from_request(&whole),
            Some(FormatRequest { id: Id::Number(3), uri: uri.clone(), range: None })
        );
        let mut ranged = document.clone();
        let range = Range::default();
        ranged["range"] = serde_json::to_value(range).unwrap();
        let ranged = request("textDocument/rangeFormatting", Some(4), ranged);
        assert_eq!(
            FormatRequest::from_request(&ranged),
            Some(FormatRequest { id: Id::Number(4), uri, range: Some(range) })
        );
        // Without a range, an id or a document, or of another method, it is not ours.
        for other in [
            request("textDocument/rangeFormatting", Some(5), document.clone()),
            request("textDocument/formatting", None, document.clone()),
            request("textDocument/formatting", Some(6), json!({ "options": {} })),
            request("textDocument/hover", Some(7), document),
        ] {
            assert_eq!(FormatRequest::from_request(&other), None, "{other}");
        }
    }

    #[test]
    fn cancellation_finds_the_request_in_progress() {
        let cancel = |id: Value| request("$/cancelRequest", None, json!({ "id": id }));
        assert_eq!(cancelled_id(&cancel(json!(9))), Some(Id::Number(9)));
        assert_eq!(cancelled_id(&cancel(json!("x"))), Some(Id::String("x".to_owned())));
        assert_eq!(cancelled_id(&request("$/cancelRequest", None, json!({}))), None);
        assert_eq!(cancelled_id(&request("$/progress", None, json!({ "id": 9 }))), None);

        let in_progress = InProgress::default();
        let flag = in_progress.start(Id::Number(9));
        assert!(!in_progress.cancel(&Id::Number(8)));
        assert!(!flag.load(Ordering::Relaxed));
        assert!(in_progress.cancel(&Id::Number(9)));
        assert!(flag.load(Ordering::Relaxed));
        in_progress.finish(&Id::Number(9));
        assert!(!in_progress.cancel(&Id::Number(9)));
    }
}
