//! A guard in front of tower-lsp's reader. tower-lsp 0.20 stops reading at the first message it
//! cannot decode (a body that is not JSON, not JSON-RPC, not UTF-8, or a broken header), and the
//! server then ends: one bad message from a client would end the session. So the input is
//! framed here first (`Content-Length` headers, §"Base Protocol" of the LSP specification);
//! every message tower-lsp can decode is passed on unchanged, and every other one is replaced by
//! a request for [`INVALID_MESSAGE`], which the service layer answers with the JSON-RPC error
//! the message deserves (-32700 parse error, or -32600 invalid request with the message's id).

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tower_lsp::jsonrpc::{Error, ErrorCode, Id, Request, Response};

/// The method that stands for a message that could not be decoded; its params are the error.
pub const INVALID_MESSAGE: &str = "$/pgn-lsp/invalidMessage";

/// Room in the pipe between the framing task and tower-lsp.
const PIPE_BYTES: usize = 64 * 1024;

/// `input` as tower-lsp may read it: only messages it can decode. Reads `input` in a task of
/// the current tokio runtime, which ends with `input`.
pub fn guarded(input: impl AsyncRead + Unpin + Send + 'static) -> DuplexStream {
    let (mut pipe, reader) = tokio::io::duplex(PIPE_BYTES);
    tokio::spawn(async move {
        let mut input = BufReader::new(input);
        while let Some(frame) = next_frame(&mut input).await {
            let body = match frame {
                Frame::Body(body) => checked(body),
                Frame::BadHeader(why) => invalid(Id::Null, ErrorCode::ParseError, why),
            };
            let header = format!("Content-Length: {}\r\n\r\n", body.len());
            let written = async {
                pipe.write_all(header.as_bytes()).await?;
                pipe.write_all(&body).await
            };
            if written.await.is_err() {
                break; // tower-lsp stopped reading.
            }
        }
    });
    reader
}

/// What the framing found next.
#[derive(Debug, PartialEq)]
enum Frame {
    Body(Vec<u8>),
    /// A header block without a usable `Content-Length` (the body cannot be found).
    BadHeader(String),
}

/// The next frame of `input`; `None` at its end.
async fn next_frame(input: &mut (impl AsyncBufReadExt + Unpin)) -> Option<Frame> {
    let mut length: Option<Result<usize, String>> = None;
    let mut problem: Option<String> = None;
    let mut in_header = false;
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line).await.ok()? == 0 {
            return None;
        }
        // Text before a `Content-Length` on the same line is what is left of something else.
        let start = memchr::memmem::find(&line, b"Content-Length:").unwrap_or(0);
        let text = String::from_utf8_lossy(&line[start..]);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if !in_header {
                continue; // Blank lines between messages.
            }
            break;
        }
        in_header = true;
        match text.split_once(':') {
            Some(("Content-Length", value)) => {
                length =
                    Some(value.trim().parse().map_err(|_| format!("bad Content-Length {value:?}")))
            }
            Some(("Content-Type", value)) => {
                let charset =
                    value.split(';').skip(1).find_map(|p| p.trim().strip_prefix("charset="));
                if !matches!(charset, None | Some("utf-8" | "utf8")) {
                    problem = Some(format!("unsupported Content-Type {value:?}"));
                }
            }
            Some(_) => {} // Other headers are ignored, as tower-lsp does.
            None => problem = Some(format!("not a header: {:?}", crate::syntax::excerpt(text))),
        }
    }
    match (problem, length) {
        (Some(why), _) => Some(Frame::BadHeader(why)),
        (None, None) => Some(Frame::BadHeader("no Content-Length".to_owned())),
        (None, Some(Err(why))) => Some(Frame::BadHeader(why)),
        (None, Some(Ok(length))) => {
            let mut body = vec![0; length];
            input.read_exact(&mut body).await.ok()?;
            Some(Frame::Body(body))
        }
    }
}

/// `body` when tower-lsp can decode it, else the request that stands for it.
fn checked(body: Vec<u8>) -> Vec<u8> {
    let Ok(text) = std::str::from_utf8(&body) else {
        return invalid(Id::Null, ErrorCode::ParseError, "the message is not UTF-8".to_owned());
    };
    // tower-lsp reads a message as a response or else a request.
    if serde_json::from_str::<Response>(text).is_ok()
        || serde_json::from_str::<Request>(text).is_ok()
    {
        return body;
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

/// The request for [`INVALID_MESSAGE`] that stands for a message with this id and error.
fn invalid(id: Id, code: ErrorCode, message: String) -> Vec<u8> {
    tracing::warn!("invalid message from the client: {message}");
    let params = json!({ "code": code.code(), "message": message });
    let request =
        json!({ "jsonrpc": "2.0", "id": id, "method": INVALID_MESSAGE, "params": params });
    serde_json::to_vec(&request).expect("a JSON value serialises")
}

/// The error response to an [`INVALID_MESSAGE`] request.
pub fn error_response(request: Request) -> Response {
    let (_, id, params) = request.into_parts();
    let params = params.unwrap_or_default();
    let code = params["code"].as_i64().map_or(ErrorCode::ParseError, ErrorCode::from);
    let message = params["message"].as_str().unwrap_or("invalid message").to_owned();
    let error = Error { code, message: message.into(), data: None };
    Response::from_error(id.unwrap_or(Id::Null), error)
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn frames(input: &[u8]) -> Vec<Frame> {
        let mut reader = BufReader::new(input);
        let mut out = Vec::new();
        while let Some(frame) = next_frame(&mut reader).await {
            out.push(frame);
        }
        out
    }

    fn body(text: &str) -> Frame {
        Frame::Body(text.as_bytes().to_vec())
    }

    #[tokio::test]
    async fn frames_are_found_after_blank_lines_garbage_and_bad_headers() {
        let input =
            b"Content-Length: 2\r\n\r\n{}\r\n\r\nContent-Type: application/vscode-jsonrpc; \
            charset=utf-8\r\nContent-Length: 4\r\n\r\nnullgarbage\r\n\r\nContent-Length: x\r\n\r\n\
            junkContent-Length: 2\r\n\r\n[]Content-Length: 3\r\n\r\n12";
        let found = frames(input).await;
        assert_eq!(found[0], body("{}"));
        assert_eq!(found[1], body("null"));
        assert!(matches!(&found[2], Frame::BadHeader(why) if why.starts_with("not a header")));
        assert!(
            matches!(&found[3], Frame::BadHeader(why) if why.starts_with("bad Content-Length"))
        );
        assert_eq!(found[4], body("[]"));
        // A body cut short by the end of the input is not a frame.
        assert_eq!(found.len(), 5);
    }

    #[test]
    fn messages_tower_lsp_reads_pass_unchanged() {
        for message in [
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
            r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":"a","method":"shutdown"}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":null}"#,
        ] {
            assert_eq!(checked(message.as_bytes().to_vec()), message.as_bytes());
        }
    }

    #[test]
    fn other_messages_become_errors_with_their_id() {
        let answer = |body: &[u8]| {
            let request: Request = serde_json::from_slice(&checked(body.to_vec())).unwrap();
            assert_eq!(request.method(), INVALID_MESSAGE);
            serde_json::to_value(error_response(request)).unwrap()
        };
        let parse_error = answer(b"{not json");
        assert_eq!(
            (parse_error["error"]["code"].as_i64(), &parse_error["id"]),
            (Some(-32700), &Value::Null)
        );
        assert_eq!(answer(b"\xff\xfe")["error"]["code"], -32700);
        let no_version = answer(br#"{"id":7,"method":"textDocument/hover"}"#);
        assert_eq!(
            (no_version["error"]["code"].as_i64(), &no_version["id"]),
            (Some(-32600), &json!(7))
        );
        assert_eq!(answer(b"[1, 2]")["error"]["code"], -32600);
        assert_eq!(answer(br#"{"jsonrpc":"1.0","id":"x","method":"m"}"#)["id"], "x");
    }
}
