//! A small LSP client that drives the server, either the real `pgn-lsp` binary over stdio or
//! one running in the test process over pipes: Content-Length framing, requests and
//! notifications, and waiting for an expected message with a timeout (never a sleep). Shared
//! by the LSP tests and the benchmark.

#![allow(dead_code)] // Each test crate that includes this module uses a different part of it.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long to wait for a message before the test fails.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// Capabilities of a VS Code-like client: UTF-16 positions only.
pub fn vscode_capabilities() -> Value {
    json!({
        "general": { "positionEncodings": ["utf-16"] },
        "workspace": { "workspaceEdit": { "documentChanges": true } },
        "textDocument": {
            "publishDiagnostics": { "relatedInformation": true, "versionSupport": true },
            "completion": { "completionItem": { "snippetSupport": true } },
            "hover": { "contentFormat": ["markdown", "plaintext"] }
        }
    })
}

/// Capabilities of a Neovim 0.11-like client: UTF-8 preferred.
pub fn neovim_capabilities() -> Value {
    json!({
        "general": { "positionEncodings": ["utf-8", "utf-16", "utf-32"] },
        "workspace": { "workspaceEdit": { "documentChanges": true } },
        "textDocument": {
            "publishDiagnostics": { "relatedInformation": true },
            "completion": { "completionItem": { "snippetSupport": true } }
        }
    })
}

pub struct Client {
    /// The server process, when the server is the binary.
    child: Option<Child>,
    /// The server's input; `None` once closed.
    stdin: Option<Box<dyn Write + Send>>,
    incoming: Receiver<Value>,
    /// Messages received while waiting for another one.
    backlog: VecDeque<Value>,
    next_id: i64,
}

impl Client {
    /// Start the server binary with `args`.
    pub fn spawn(binary: &str, args: &[&str]) -> Client {
        Client::start(Command::new(binary).args(args).stderr(Stdio::inherit()))
    }

    /// Start the server binary with debug logs written to `log`.
    pub fn spawn_logging_to(binary: &str, log: std::fs::File) -> Client {
        Client::start(Command::new(binary).env("PGN_LSP_LOG", "pgn_lsp=debug").stderr(log))
    }

    fn start(command: &mut Command) -> Client {
        let mut child =
            command.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("start the server");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut client = Client::connect(stdin, stdout);
        client.child = Some(child);
        client
    }

    /// A client talking to a server through `input` (the server's input) and `output`.
    pub fn connect(
        input: impl Write + Send + 'static,
        output: impl Read + Send + 'static,
    ) -> Client {
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(output);
            while let Some(message) = read_message(&mut reader) {
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        let stdin: Box<dyn Write + Send> = Box::new(input);
        Client { child: None, stdin: Some(stdin), incoming, backlog: VecDeque::new(), next_id: 1 }
    }

    pub fn send(&mut self, message: &Value) {
        let body = serde_json::to_vec(message).expect("serialise");
        let mut framed = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        framed.extend_from_slice(&body);
        self.send_raw(&framed);
    }

    /// Write `bytes` to the server as they are (headers included, or not).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write");
        stdin.flush().expect("flush");
    }

    /// Send a request and return its id.
    pub fn request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        id
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// The first message (from the backlog, then from the server) that `matches` accepts;
    /// panics after [`TIMEOUT`] or when the server stops, naming `what`.
    pub fn wait_for(&mut self, what: &str, matches: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.backlog.iter().position(&matches) {
            return self.backlog.remove(i).expect("index in range");
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.incoming.recv_timeout(left) {
                Ok(message) if matches(&message) => return message,
                Ok(message) => self.backlog.push_back(message),
                Err(RecvTimeoutError::Timeout) => panic!("timed out waiting for {what}"),
                Err(RecvTimeoutError::Disconnected) => panic!("server stopped before {what}"),
            }
        }
    }

    /// The response to request `id` (result or error).
    pub fn response(&mut self, id: i64) -> Value {
        self.wait_for(&format!("the response to request {id}"), |m| {
            m.get("id") == Some(&json!(id)) && m.get("method").is_none()
        })
    }

    /// Send a request and return its result; panics on an error response.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.request(method, params);
        let response = self.response(id);
        assert!(response.get("error").is_none(), "{method} failed: {response}");
        response["result"].clone()
    }

    /// `initialize` with these client capabilities, then `initialized`; returns the result.
    pub fn initialize(&mut self, capabilities: Value, options: Value) -> Value {
        let result = self.call(
            "initialize",
            json!({ "processId": null, "rootUri": null, "capabilities": capabilities,
                    "initializationOptions": options }),
        );
        self.notify("initialized", json!({}));
        result
    }

    pub fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "pgn", "version": 1, "text": text } }),
        );
    }

    /// The `publishDiagnostics` of `uri` for `version`, skipping earlier ones.
    pub fn diagnostics(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let mut message = self.wait_for(&format!("diagnostics of {uri} version {version}"), |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == version
        });
        match message["params"]["diagnostics"].take() {
            Value::Array(diagnostics) => diagnostics,
            _ => Vec::new(),
        }
    }

    /// Wait until the server closes its output, then for the process to end.
    pub fn wait_for_exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.incoming.recv_timeout(left) {
                Ok(message) => self.backlog.push_back(message),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => panic!("the server did not stop"),
            }
        }
        self.child.as_mut().expect("a server process").wait().expect("wait for the server")
    }

    /// Close the server's stdin (the end of the session without `exit`).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The server's process id (for the benchmark's memory figure).
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("a server process").id()
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        // A failed test must not leave a server behind.
        if let Some(child) = &mut self.child
            && matches!(child.try_wait(), Ok(None))
        {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// One framed message, or `None` at the end of the stream.
fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length:") {
            length = value.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// A UTF-8, UTF-16 or UTF-32 position of byte `offset` in `text` (a test's own expectation,
/// computed independently of the server).
pub fn position(text: &str, offset: usize, encoding: &str) -> Value {
    let line = line_starts(text).take_while(|&start| start <= offset).count() - 1;
    let line_start = line_starts(text).nth(line).unwrap();
    let prefix = &text[line_start..offset];
    let character = match encoding {
        "utf-8" => prefix.len(),
        "utf-16" => prefix.encode_utf16().count(),
        "utf-32" => prefix.chars().count(),
        other => panic!("unknown encoding {other}"),
    };
    json!({ "line": line, "character": character })
}

/// The byte offset of an LSP position in `text`, read as the protocol says: lines end at `\n`,
/// `\r\n` or `\r`, and a character past the end of its line is the line's end, before its
/// line break.
pub fn offset(text: &str, pos: &Value, encoding: &str) -> usize {
    let line = pos["line"].as_u64().unwrap() as usize;
    let character = pos["character"].as_u64().unwrap() as usize;
    let Some(line_start) = line_starts(text).nth(line) else { return text.len() };
    let mut units = 0;
    for (i, c) in text[line_start..].char_indices() {
        if units >= character || c == '\n' || c == '\r' {
            return line_start + i;
        }
        units += match encoding {
            "utf-8" => c.len_utf8(),
            "utf-16" => c.len_utf16(),
            _ => 1,
        };
    }
    text.len()
}

/// Where the lines of `text` start, lines ending at `\n`, `\r\n` or `\r`.
fn line_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    let breaks = text.char_indices().filter_map(|(i, c)| match c {
        '\n' => Some(i + 1),
        '\r' if !text[i + 1..].starts_with('\n') => Some(i + 1),
        _ => None,
    });
    std::iter::once(0).chain(breaks)
}

/// `text` with LSP `TextEdit`s applied.
pub fn apply_edits(text: &str, edits: &Value, encoding: &str) -> String {
    let mut edits: Vec<(usize, usize, &str)> = edits
        .as_array()
        .expect("an array of edits")
        .iter()
        .map(|e| {
            let start = offset(text, &e["range"]["start"], encoding);
            let end = offset(text, &e["range"]["end"], encoding);
            (start, end, e["newText"].as_str().unwrap())
        })
        .collect();
    edits.sort_by_key(|&(start, _, _)| std::cmp::Reverse(start));
    let mut out = text.to_owned();
    for (start, end, new_text) in edits {
        out.replace_range(start..end, new_text);
    }
    out
}
