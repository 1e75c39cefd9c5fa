//! Decoding one message body (JSON-RPC 2.0). The notifications that carry document text
//! (`textDocument/didOpen`, `textDocument/didChange`) are read straight from the bytes into their
//! typed params, never held as a `serde_json::Value`; the text of a `didOpen` is decoded inside
//! the body's own buffer (`json_string`), which becomes its `String`, so a 100 MB document
//! costs one buffer of its size, not three (the body, serde_json's scratch buffer for a string
//! with escapes, and the `String`). Every other message becomes tower-lsp's `Request` or `Response`,
//! read as tower-lsp reads them; a message that is neither becomes the JSON-RPC error response it
//! deserves (-32700 parse error, or -32600 invalid request with the message's id).
//!
//! Encoding the messages to the client: a message as a whole (`encode`), or one holding a large
//! array element by element (`ArrayMessage`: formatting answers, published diagnostics).

use std::borrow::Cow;

use serde::de::{Deserializer, IgnoredAny};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;
use tower_lsp::jsonrpc::{Error, ErrorCode, Id, Request, Response};
use tower_lsp::lsp_types::notification::{
    DidChangeTextDocument, DidOpenTextDocument, Notification,
};
use tower_lsp::lsp_types::{
    DidChangeTextDocumentParams, DidOpenTextDocumentParams, TextDocumentItem, Url,
};

use super::json_string;

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

/// The params of a `didOpen` with the document's text as it is in the message.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawOpenParams<'a> {
    #[serde(borrow)]
    text_document: RawTextDocumentItem<'a>,
}

/// A `TextDocumentItem` whose text is left as it is in the message.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawTextDocumentItem<'a> {
    uri: Url,
    language_id: String,
    version: i32,
    #[serde(borrow)]
    text: &'a RawValue,
}

/// A notification that carries document text.
enum DocumentNotification {
    Open,
    Change,
}

/// Decode one message body.
pub fn decode(body: Vec<u8>) -> Incoming {
    let decoded = match document_notification(&body) {
        Some(DocumentNotification::Open) => return open(body),
        Some(DocumentNotification::Change) => {
            serde_json::from_slice::<Params<_>>(&body).ok().map(|p| Incoming::Change(p.params))
        }
        None => None,
    };
    decoded.unwrap_or_else(|| general(&body))
}

/// Which document notification `body` is, if it is one.
fn document_notification(body: &[u8]) -> Option<DocumentNotification> {
    let envelope: Envelope = serde_json::from_slice(body).ok()?;
    if envelope.jsonrpc.as_deref() != Some("2.0") || envelope.id {
        return None;
    }
    match envelope.method.as_deref()? {
        DidOpenTextDocument::METHOD => Some(DocumentNotification::Open),
        DidChangeTextDocument::METHOD => Some(DocumentNotification::Change),
        _ => None,
    }
}

/// A `didOpen` with typed params, its text decoded in `body`'s buffer. Params of the wrong
/// shape are left to the general path, which treats them as tower-lsp does; a text that is not
/// a valid JSON string (a lone surrogate, say) makes the message a parse error, as it is for
/// serde_json.
fn open(body: Vec<u8>) -> Incoming {
    let Ok(Params { params }) = serde_json::from_slice::<Params<RawOpenParams>>(&body) else {
        return general(&body);
    };
    let RawTextDocumentItem { uri, language_id, version, text } = params.text_document;
    let Some(content) = string_content(&body, text) else {
        return general(&body);
    };
    match json_string::decode_in_place(body, content) {
        Ok(text) => Incoming::Open(DidOpenTextDocumentParams {
            text_document: TextDocumentItem { uri, language_id, version, text },
        }),
        Err(why) => {
            invalid(Id::Null, ErrorCode::ParseError, format!("the document text has {why}"))
        }
    }
}

/// Where in `body` the inside of the JSON string `raw` (a part of `body`) is; `None` if `raw`
/// is not a string.
fn string_content(body: &[u8], raw: &RawValue) -> Option<std::ops::Range<usize>> {
    let raw = raw.get();
    let start = (raw.as_ptr() as usize).checked_sub(body.as_ptr() as usize)?;
    let inside = raw.strip_prefix('"')?.strip_suffix('"')?;
    (start + raw.len() <= body.len()).then_some(start + 1..start + 1 + inside.len())
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

/// A message holding one array, encoded element by element as they come: the elements are
/// never held together other than as JSON. Either a successful response whose result is the
/// array, or a `textDocument/publishDiagnostics` notification whose diagnostics it is.
pub struct ArrayMessage {
    body: Vec<u8>,
    /// Where the first element goes.
    elements_start: usize,
    /// What follows the array.
    tail: Vec<u8>,
}

impl ArrayMessage {
    /// The response to the request `id`, with no elements yet.
    pub fn response(id: &Id) -> Self {
        let mut body = br#"{"jsonrpc":"2.0","id":"#.to_vec();
        serde_json::to_writer(&mut body, id).expect("a JSON-RPC id serialises");
        body.extend_from_slice(br#","result":["#);
        ArrayMessage { elements_start: body.len(), body, tail: b"]}".to_vec() }
    }

    /// The diagnostics of `uri` at `version`, none yet; the fields in the order of
    /// `lsp_types::PublishDiagnosticsParams`.
    pub fn publish_diagnostics(uri: &Url, version: Option<i32>) -> Self {
        let mut body =
            br#"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"#
                .to_vec();
        serde_json::to_writer(&mut body, uri).expect("a URI serialises");
        body.extend_from_slice(br#","diagnostics":["#);
        let tail = match version {
            Some(version) => format!(r#"],"version":{version}}}}}"#).into_bytes(),
            None => b"]}}".to_vec(),
        };
        ArrayMessage { elements_start: body.len(), body, tail }
    }

    pub fn push(&mut self, element: &impl Serialize) {
        self.separate();
        serde_json::to_writer(&mut self.body, element).expect("an array element serialises");
    }

    /// Push an element already encoded as JSON.
    pub fn push_encoded(&mut self, json: &str) {
        self.separate();
        self.body.extend_from_slice(json.as_bytes());
    }

    fn separate(&mut self) {
        if self.body.len() > self.elements_start {
            self.body.push(b',');
        }
    }

    /// Drop the elements pushed so far.
    pub fn clear(&mut self) {
        self.body.truncate(self.elements_start);
    }

    /// The encoded message.
    pub fn finish(mut self) -> Vec<u8> {
        self.body.extend_from_slice(&self.tail);
        self.body
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn decoded(message: &str) -> Incoming {
        decode(message.as_bytes().to_vec())
    }

    #[test]
    fn array_responses_read_as_tower_lsp_writes_them() {
        let elements = [json!({ "a": [1, "é\n\""] }), json!(null), json!("x")];
        for id in [Id::Number(7), Id::String("q\"".to_owned()), Id::Null] {
            for count in 0..=elements.len() {
                let mut response = ArrayMessage::response(&id);
                elements[..count].iter().for_each(|e| response.push(e));
                let expected = Response::from_ok(id.clone(), json!(elements[..count]));
                let body = response.finish();
                assert_eq!(serde_json::from_slice::<Response>(&body).unwrap(), expected);
            }
            let mut cleared = ArrayMessage::response(&id);
            cleared.push(&elements[0]);
            cleared.clear();
            cleared.push(&elements[2]);
            let expected = Response::from_ok(id.clone(), json!([elements[2]]));
            assert_eq!(serde_json::from_slice::<Response>(&cleared.finish()).unwrap(), expected);
        }
    }

    #[test]
    fn diagnostics_notifications_read_as_their_typed_params_write_them() {
        use tower_lsp::lsp_types::{Diagnostic, Position, PublishDiagnosticsParams, Range};
        let uri = Url::parse("file:///a%20b/\u{e9}.pgn").unwrap();
        let at = |line| Range::new(Position::new(line, 0), Position::new(line, 2));
        let diagnostics = [
            Diagnostic::new_simple(at(0), "é\n\"".into()),
            Diagnostic::new_simple(at(7), "x".into()),
        ];
        for version in [Some(3), None] {
            for count in 0..=diagnostics.len() {
                let mut message = ArrayMessage::publish_diagnostics(&uri, version);
                for d in &diagnostics[..count] {
                    message.push_encoded(&serde_json::to_string(d).unwrap());
                }
                let params = PublishDiagnosticsParams::new(
                    uri.clone(),
                    diagnostics[..count].to_vec(),
                    version,
                );
                #[derive(Serialize)]
                struct Typed<'a> {
                    jsonrpc: &'a str,
                    method: &'a str,
                    params: &'a PublishDiagnosticsParams,
                }
                let method = "textDocument/publishDiagnostics";
                let typed = Typed { jsonrpc: "2.0", method, params: &params };
                // The same bytes as the typed params give, field order included.
                assert_eq!(message.finish(), serde_json::to_vec(&typed).unwrap());
            }
        }
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
    fn an_opened_text_decodes_as_serde_json_decodes_it() {
        let text = "[Event \"\\u00e9\"]\r\n\t1. e4 {\\ud834\\udd1e\\/} *\u{1}\u{8}\u{c}\u{1f}♞";
        let item =
            json!({ "uri": "file:///b.pgn", "languageId": "pgn", "version": 1, "text": text });
        let message = json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": { "textDocument": item.clone() } })
        .to_string();
        let Incoming::Open(params) = decoded(&message) else { panic!("not an open") };
        assert_eq!(params.text_document, serde_json::from_value(item).unwrap());
    }

    #[test]
    fn an_opened_text_that_is_not_a_json_string_is_a_parse_error() {
        let open = |text: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{{"textDocument":
                {{"uri":"file:///c.pgn","languageId":"pgn","version":1,"text":{text}}}}}}}"#
            )
        };
        for text in [r#""1. e4 \ud834 *""#, r#""\udd1e""#, r#""\ud834\u0041""#] {
            let Incoming::Invalid(response) = decoded(&open(text)) else { panic!("{text}") };
            let response = serde_json::to_value(response).unwrap();
            assert_eq!(
                (&response["error"]["code"], &response["id"]),
                (&json!(-32700), &Value::Null)
            );
        }
        let mut not_utf8 = open(r#""a?b""#).into_bytes();
        let at = not_utf8.iter().position(|&b| b == b'?').unwrap();
        not_utf8[at] = 0xff;
        let Incoming::Invalid(response) = decode(not_utf8) else { panic!("not UTF-8") };
        assert_eq!(serde_json::to_value(response).unwrap()["error"]["code"], -32700);
        // A text that is not a string is a wrong shape of params, read as tower-lsp reads it.
        let Incoming::Request(request) = decoded(&open("7")) else { panic!("not a request") };
        assert_eq!(request.method(), "textDocument/didOpen");
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
        let answer = |body: &[u8]| match decode(body.to_vec()) {
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
