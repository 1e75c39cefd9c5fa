//! Decoding one message body (JSON-RPC 2.0). The notifications that carry document text
//! (`textDocument/didOpen`, `textDocument/didChange`) are read straight from the bytes into their
//! typed params, so the text of a 100 MB document is copied once, into its `String`, and never
//! held as a `serde_json::Value`. Every other message becomes tower-lsp's `Request` or `Response`,
//! read as tower-lsp reads them; a message that is neither becomes the JSON-RPC error response it
//! deserves (-32700 parse error, or -32600 invalid request with the message's id).

use std::borrow::Cow;

use serde::de::{Deserializer, IgnoredAny};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tower_lsp::jsonrpc::{Error, ErrorCode, Id, Request, Response};
use tower_lsp::lsp_types::notification::{
    DidChangeTextDocument, DidOpenTextDocument, Notification,
};
use tower_lsp::lsp_types::{DidChangeTextDocumentParams, DidOpenTextDocumentParams};

/// A decoded message from the client.
#[derive(Debug)]
pub enum Incoming {
    Open(DidOpenTextDocumentParams),
    Change(DidChangeTextDocumentParams),
    /// Any other request or notification.
    Request(Request),
    /// The client's answer to a request of the server.
    Response(Response),
    /// A message that could not be decoded, and the answer it gets.
    Invalid(Response),
}

/// The parts of a message that tell whether it is a document notification; everything else in
/// it is skipped without being copied.
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(borrow)]
    jsonrpc: Option<Cow<'a, str>>,
    #[serde(borrow)]
    method: Option<Cow<'a, str>>,
    #[serde(default, deserialize_with = "present")]
    id: bool,
}

fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    IgnoredAny::deserialize(deserializer).map(|_| true)
}

/// The params of a message, the rest skipped.
#[derive(Deserialize)]
struct Params<P> {
    params: P,
}

/// Decode one message body.
pub fn decode(body: &[u8]) -> Incoming {
    document_notification(body).unwrap_or_else(|| general(body))
}

/// `body` as a document notification with typed params, if it is one. One that does not decode
/// (params of the wrong shape) is left to the general path, which treats it as tower-lsp does.
fn document_notification(body: &[u8]) -> Option<Incoming> {
    let envelope: Envelope = serde_json::from_slice(body).ok()?;
    if envelope.jsonrpc.as_deref() != Some("2.0") || envelope.id {
        return None;
    }
    match envelope.method.as_deref()? {
        DidOpenTextDocument::METHOD => {
            serde_json::from_slice::<Params<_>>(body).ok().map(|p| Incoming::Open(p.params))
        }
        DidChangeTextDocument::METHOD => {
            serde_json::from_slice::<Params<_>>(body).ok().map(|p| Incoming::Change(p.params))
        }
        _ => None,
    }
}

/// `body` as tower-lsp reads a message (a response, or else a request), or the error it gets.
fn general(body: &[u8]) -> Incoming {
    let Ok(text) = std::str::from_utf8(body) else {
        return invalid(Id::Null, ErrorCode::ParseError, "the message is not UTF-8".to_owned());
    };
    if let Ok(response) = serde_json::from_str::<Response>(text) {
        return Incoming::Response(response);
    }
    if let Ok(request) = serde_json::from_str::<Request>(text) {
        return Incoming::Request(request);
    }
    match serde_json::from_str::<Value>(text) {
        Err(e) => invalid(Id::Null, ErrorCode::ParseError, format!("the message is not JSON: {e}")),
        Ok(value) => {
            let id = value.get("id").and_then(|id| serde_json::from_value(id.clone()).ok());
            let why = "the message is not a JSON-RPC 2.0 request, notification or response";
            invalid(id.unwrap_or(Id::Null), ErrorCode::InvalidRequest, why.to_owned())
        }
    }
}

/// The answer to a message that could not be decoded.
pub fn invalid(id: Id, code: ErrorCode, message: String) -> Incoming {
    tracing::warn!("invalid message from the client: {message}");
    Incoming::Invalid(Response::from_error(id, Error { code, message: message.into(), data: None }))
}

/// A message to the client (a response, or a request or notification of the server) as JSON.
pub fn encode(message: &impl Serialize) -> Vec<u8> {
    serde_json::to_vec(message).expect("a JSON-RPC message serialises")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn decoded(message: &str) -> Incoming {
        decode(message.as_bytes())
    }

    #[test]
    fn document_notifications_get_typed_params() {
        let open = r#"{"params":{"textDocument":{"uri":"file:///a.pgn","languageId":"pgn",
            "version":3,"text":"1. e4 \"é\" *"}},"method":"textDocument/didOpen","jsonrpc":"2.0"}"#;
        let Incoming::Open(params) = decoded(open) else { panic!("not an open") };
        assert_eq!(
            (params.text_document.text.as_str(), params.text_document.version),
            ("1. e4 \"é\" *", 3)
        );
        let change = r#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{
            "textDocument":{"uri":"file:///a.pgn","version":4},"contentChanges":[{"text":"*"}]}}"#;
        let Incoming::Change(params) = decoded(change) else { panic!("not a change") };
        assert_eq!(params.content_changes[0].text, "*");
    }

    #[test]
    fn other_messages_are_read_as_tower_lsp_reads_them() {
        for (message, method) in [
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
                "initialize",
            ),
            (r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#, "initialized"),
            (r#"{"jsonrpc":"2.0","id":"a","method":"shutdown"}"#, "shutdown"),
            // Document notifications that are not quite: params of the wrong shape, with an id.
            (
                r#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":7}}}"#,
                "textDocument/didOpen",
            ),
            (
                r#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":[1,2]}"#,
                "textDocument/didChange",
            ),
            (
                r#"{"jsonrpc":"2.0","id":null,"method":"textDocument/didChange","params":{}}"#,
                "textDocument/didChange",
            ),
        ] {
            let Incoming::Request(request) = decoded(message) else { panic!("{message}") };
            assert_eq!(request, serde_json::from_str::<Request>(message).unwrap());
            assert_eq!(request.method(), method);
        }
        let response = r#"{"jsonrpc":"2.0","id":3,"result":null}"#;
        let Incoming::Response(response) = decoded(response) else { panic!("{response}") };
        assert_eq!(response.into_parts().0, Id::Number(3));
    }

    #[test]
    fn other_messages_become_errors_with_their_id() {
        let answer = |body: &[u8]| match decode(body) {
            Incoming::Invalid(response) => serde_json::to_value(response).unwrap(),
            other => panic!("decoded: {other:?}"),
        };
        let parse_error = answer(b"{not json");
        assert_eq!(
            (parse_error["error"]["code"].as_i64(), &parse_error["id"]),
            (Some(-32700), &Value::Null)
        );
        assert_eq!(answer(b"\xff\xfe")["error"]["code"], -32700);
        assert_eq!(answer(b"")["error"]["code"], -32700);
        let no_version = answer(br#"{"id":7,"method":"textDocument/hover"}"#);
        assert_eq!(
            (no_version["error"]["code"].as_i64(), &no_version["id"]),
            (Some(-32600), &json!(7))
        );
        assert_eq!(answer(b"[1, 2]")["error"]["code"], -32600);
        assert_eq!(answer(br#"{"jsonrpc":"1.0","id":"x","method":"m"}"#)["id"], "x");
        let old_open = br#"{"jsonrpc":"1.0","method":"textDocument/didOpen","params":{}}"#;
        assert_eq!(answer(old_open)["error"]["code"], -32600);
    }
}
