//! The base protocol's framing (§"Base Protocol" of the LSP specification): messages are bodies
//! preceded by a header block with their `Content-Length`. Reading is forgiving: blank lines and
//! garbage between messages are skipped, and a header block without a usable length is reported
//! (its body cannot be found) rather than ending the session. Writing puts a message's header in
//! front of it in its buffer, written at once.

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// What the framing found next.
#[derive(Debug, PartialEq)]
pub enum Frame {
    /// A message body, read into a buffer of the size its header gave.
    Body(Vec<u8>),
    /// A header block without a usable `Content-Length` or with a body that cannot be read
    /// (a charset other than UTF-8, a length no buffer can hold): what is wrong with it.
    BadHeader(String),
}

/// The next frame of `input`; `None` at its end.
pub async fn next_frame(input: &mut (impl AsyncBufReadExt + Unpin)) -> Option<Frame> {
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
        // Header names are case-insensitive, as in HTTP.
        let start =
            memchr::memmem::find(&line.to_ascii_lowercase(), b"content-length:").unwrap_or(0);
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
            Some((name, value)) if name.eq_ignore_ascii_case("Content-Length") => {
                length =
                    Some(value.trim().parse().map_err(|_| format!("bad Content-Length {value:?}")))
            }
            Some((name, value)) if name.eq_ignore_ascii_case("Content-Type") => {
                let charset =
                    value.split(';').skip(1).find_map(|p| p.trim().strip_prefix("charset="));
                if !matches!(charset, None | Some("utf-8" | "utf8")) {
                    problem = Some(format!("unsupported Content-Type {value:?}"));
                }
            }
            Some(_) => {} // Other headers are ignored.
            None => problem = Some(format!("not a header: {:?}", crate::syntax::excerpt(text))),
        }
    }
    match (problem, length) {
        (Some(why), Some(Ok(length))) => skip(input, length).await.then_some(Frame::BadHeader(why)),
        (Some(why), _) => Some(Frame::BadHeader(why)),
        (None, None) => Some(Frame::BadHeader("no Content-Length".to_owned())),
        (None, Some(Err(why))) => Some(Frame::BadHeader(why)),
        (None, Some(Ok(length))) => read_body(input, length).await,
    }
}

/// The body of `length` bytes, read once into a buffer of that size; `None` if the input ends
/// first.
async fn read_body(input: &mut (impl AsyncBufReadExt + Unpin), length: usize) -> Option<Frame> {
    let mut body = Vec::new();
    if body.try_reserve_exact(length).is_err() {
        let why = format!("Content-Length {length} is more than the server can hold");
        return skip(input, length).await.then_some(Frame::BadHeader(why));
    }
    let read = input.take(length as u64).read_to_end(&mut body).await.ok()?;
    (read == length).then_some(Frame::Body(body))
}

/// Read past a body of `length` bytes; `false` if the input ends first.
async fn skip(input: &mut (impl AsyncBufReadExt + Unpin), length: usize) -> bool {
    let skipped = tokio::io::copy(&mut input.take(length as u64), &mut tokio::io::sink()).await;
    skipped.is_ok_and(|n| n == length as u64)
}

/// Write `body` as one message: its header put in front of it in its own buffer (a large body
/// is not copied into another), written at once, then flush.
pub async fn write_frame(
    output: &mut (impl AsyncWrite + Unpin),
    mut body: Vec<u8>,
) -> std::io::Result<()> {
    let header = format!("Content-Length: {}\r\n\r\n", body.len());
    body.splice(0..0, header.into_bytes());
    output.write_all(&body).await?;
    output.flush().await
}

#[cfg(test)]
mod tests {
    use tokio::io::BufReader;

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

    #[tokio::test]
    async fn header_names_are_read_in_any_case() {
        let input = b"content-length: 2\r\n\r\n{}CONTENT-TYPE: x; charset=utf-8\r\n\
            Content-length: 4\r\n\r\nnull";
        assert_eq!(frames(input).await, [body("{}"), body("null")]);
    }

    #[tokio::test]
    async fn bodies_that_cannot_be_read_are_skipped() {
        let input = b"Content-Type: text/plain; charset=latin1\r\nContent-Length: 5\r\n\r\n{\"a\"}\
            Content-Length: 2\r\n\r\n{}";
        let found = frames(input).await;
        assert!(matches!(&found[0], Frame::BadHeader(why) if why.contains("latin1")));
        assert_eq!(found[1..], [body("{}")]);
        let huge = format!("Content-Length: {}\r\n\r\n{{}}", usize::MAX);
        let found = frames(huge.as_bytes()).await;
        assert!(found.is_empty(), "a body longer than the input is not a frame: {found:?}");
    }

    #[tokio::test]
    async fn a_written_frame_reads_back() {
        let mut written = Vec::new();
        write_frame(&mut written, "{\"é\":1}".as_bytes().to_vec()).await.unwrap();
        assert_eq!(written, "Content-Length: 8\r\n\r\n{\"é\":1}".as_bytes());
        assert_eq!(frames(&written).await, [body("{\"é\":1}")]);
    }
}
