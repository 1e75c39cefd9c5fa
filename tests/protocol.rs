//! Protocol robustness of the real server over stdio: whatever a client sends (malformed JSON,
//! broken headers, unknown methods, requests before `initialize` or after `shutdown`, positions
//! out of range, stale versions, changes to documents that are not open, a burst of a thousand
//! changes, cancellations), the server answers every request with valid JSON-RPC, keeps serving,
//! and ends only on `exit` (or the end of its input), with status 0 after `shutdown` and 1
//! otherwise. Every wait is for an expected message, with a timeout.

mod lsp_client;

use lsp_client::{Client, apply_edits, vscode_capabilities};
use pgn_lsp::fmt::{FormatOptions, format_text};
use pgn_lsp::syntax::parse_games;
use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_pgn-lsp");
const URI: &str = "file:///game.pgn";

fn started() -> Client {
    let mut client = Client::spawn(BINARY, &[]);
    client.initialize(vscode_capabilities(), Value::Null);
    client
}

/// A body framed with its `Content-Length`.
fn framed(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

/// The server is still serving: a request on an unknown document is answered with `null`.
fn assert_serving(client: &mut Client) {
    let hover = json!({ "textDocument": { "uri": "file:///none.pgn" },
                        "position": { "line": 0, "character": 0 } });
    assert_eq!(client.call("textDocument/hover", hover), Value::Null);
}

/// The next error response with this id (an error to a message without one has id `null`).
fn error_for(client: &mut Client, id: Value) -> Value {
    let what = format!("an error response with id {id}");
    let response = client.wait_for(&what, |m| m.get("error").is_some() && m["id"] == id);
    assert_eq!(response["jsonrpc"], "2.0");
    response["error"].clone()
}

fn hover_params(line: u64, character: u64) -> Value {
    json!({ "textDocument": { "uri": URI }, "position": { "line": line, "character": character } })
}

fn formatting_params() -> Value {
    json!({ "textDocument": { "uri": URI }, "options": { "tabSize": 4, "insertSpaces": true } })
}

fn change(version: i64, changes: Value) -> Value {
    json!({ "textDocument": { "uri": URI, "version": version }, "contentChanges": changes })
}

/// The codes of published diagnostics, sorted.
fn codes(diagnostics: &[Value]) -> Vec<String> {
    let mut codes: Vec<String> =
        diagnostics.iter().map(|d| d["code"].as_str().unwrap_or("").to_owned()).collect();
    codes.sort();
    codes
}

/// The diagnostic codes `check` gives for `text` (the library's parse and analysis), sorted.
fn expected_codes(text: &str) -> Vec<String> {
    let mut codes = Vec::new();
    for (start, game) in parse_games(text) {
        let src = &text[start as usize..(start + game.len) as usize];
        let all = pgn_lsp::chess::analyze(&game, src).with_syntax_diagnostics(game.diagnostics);
        codes.extend(all.iter().map(|d| d.code.as_str().to_owned()));
    }
    codes.sort();
    codes
}

#[test]
fn malformed_messages_are_answered_with_errors_and_the_server_goes_on() {
    let mut client = started();
    for (body, code, id) in [
        (&b"{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\""[..], -32700, Value::Null),
        (b"\xff\xfe not UTF-8", -32700, Value::Null),
        (b"[1, 2, 3]", -32600, Value::Null),
        (b"{\"id\": 41, \"method\": \"textDocument/hover\"}", -32600, json!(41)),
        (b"{\"jsonrpc\": \"1.0\", \"id\": \"v\", \"method\": \"shutdown\"}", -32600, json!("v")),
        (b"", -32700, Value::Null),
    ] {
        client.send_raw(&framed(body));
        assert_eq!(error_for(&mut client, id)["code"], code, "{}", String::from_utf8_lossy(body));
        assert_serving(&mut client);
    }
    // Broken headers: none at all, a length that is no number, a charset that is not UTF-8.
    for bytes in [
        &b"{\"jsonrpc\": \"2.0\", \"id\": 9, \"method\": \"shutdown\"}\r\n\r\n"[..],
        b"Content-Length: twelve\r\n\r\n",
        b"Content-Type: application/vscode-jsonrpc; charset=latin1\r\nContent-Length: 2\r\n\r\n{}",
    ] {
        client.send_raw(bytes);
        assert_eq!(error_for(&mut client, Value::Null)["code"], -32700);
        assert_serving(&mut client);
    }
}

#[test]
fn unknown_methods_and_bad_params_are_answered() {
    let mut client = started();
    let id = client.request("pgn/noSuchMethod", json!({}));
    assert_eq!(client.response(id)["error"]["code"], -32601);
    // Requests whose method starts with `$/` too (LSP 3.17, "$ Notifications and Requests");
    // `$/cancelRequest` sent as a request is not one.
    let id = client.request("$/noSuchRequest", json!({}));
    assert_eq!(client.response(id)["error"]["code"], -32601);
    let id = client.request("$/cancelRequest", json!({ "id": 999 }));
    assert_eq!(client.response(id)["error"]["code"], -32600);
    // Unknown notifications, `$/` ones included, are ignored.
    client.notify("pgn/noSuchNotification", json!({ "x": 1 }));
    client.notify("$/noSuchNotification", Value::Null);
    // Params of the wrong shape: an error for a request, nothing for a notification.
    let id = client.request("textDocument/hover", json!({ "position": "here" }));
    assert_eq!(client.response(id)["error"]["code"], -32602);
    let id = client.request("textDocument/hover", hover_params(0, 0).to_string().into());
    assert_eq!(client.response(id)["error"]["code"], -32602);
    // Formatting requests, which the server answers outside tower-lsp, are refused the same way.
    let id = client.request("textDocument/formatting", json!({ "textDocument": URI }));
    assert_eq!(client.response(id)["error"]["code"], -32602);
    let id = client.request("textDocument/rangeFormatting", formatting_params());
    assert_eq!(client.response(id)["error"]["code"], -32602);
    client.notify("textDocument/didOpen", json!({ "textDocument": { "uri": 7 } }));
    client.notify("textDocument/didChange", json!([1, 2]));
    assert_serving(&mut client);
}

#[test]
fn before_initialize_requests_are_refused_and_exit_ends_with_1() {
    let mut client = Client::spawn(BINARY, &[]);
    let id = client.request("textDocument/hover", hover_params(0, 0));
    assert_eq!(client.response(id)["error"]["code"], -32002);
    let id = client.request("textDocument/formatting", formatting_params());
    assert_eq!(client.response(id)["error"]["code"], -32002);
    let id = client.request("shutdown", Value::Null);
    assert_eq!(client.response(id)["error"]["code"], -32002);
    // A document opened before initialize is not kept; one opened after is.
    client.open(URI, "1. e4 *\n");
    client.initialize(vscode_capabilities(), Value::Null);
    assert_eq!(client.call("textDocument/hover", hover_params(0, 3)), Value::Null);
    client.open(URI, "1. e4 *\n");
    assert_eq!(codes(&client.diagnostics(URI, 1)), ["missing-tag"]);
    client.notify("exit", Value::Null);
    assert_eq!(client.wait_for_exit().code(), Some(1));
}

#[test]
fn out_of_range_positions_and_ranges_are_answered() {
    let mut client = started();
    let text = "[Event \"é\"]\r\n\r\n1. e4 {♘ 𝄞} e5 *\r\n";
    client.open(URI, text);
    client.diagnostics(URI, 1);
    let max = u64::from(u32::MAX);
    for (line, character) in [(0, max), (max, 0), (max, max), (2, 9), (2, 10)] {
        let result = client.call("textDocument/hover", hover_params(line, character));
        assert!(result.is_null() || result["contents"].is_object(), "{result}");
    }
    // Negative and fractional positions are not positions.
    let id = client.request(
        "textDocument/hover",
        hover_params(0, 0).tap(|p| p["position"]["line"] = json!(-1)),
    );
    assert_eq!(client.response(id)["error"]["code"], -32602);
    let id = client.request(
        "textDocument/hover",
        hover_params(0, 0).tap(|p| p["position"]["character"] = json!(1.5)),
    );
    assert_eq!(client.response(id)["error"]["code"], -32602);
    // A range past the end and a range that ends before it starts.
    let far = json!({ "line": max, "character": max });
    let start = json!({ "line": 2, "character": 5 });
    let end = json!({ "line": 0, "character": 3 });
    for range in [json!({ "start": far, "end": far }), json!({ "start": start, "end": end })] {
        let result = client.call(
            "textDocument/rangeFormatting",
            json!({ "textDocument": { "uri": URI }, "range": range,
                    "options": { "tabSize": 4, "insertSpaces": true } }),
        );
        assert!(result.is_null() || result.is_array(), "{result}");
        let actions = client.call(
            "textDocument/codeAction",
            json!({ "textDocument": { "uri": URI }, "range": range, "context": { "diagnostics": [] } }),
        );
        assert!(actions.is_null() || actions.is_array(), "{actions}");
    }
    // Changes with such ranges: clamped, never a crash; the document stays usable.
    client.notify(
        "textDocument/didChange",
        change(2, json!([{ "range": { "start": far, "end": far }, "text": "\n1. d4 *\n" }])),
    );
    client.diagnostics(URI, 2);
    client.notify(
        "textDocument/didChange",
        change(3, json!([{ "range": { "start": start, "end": end }, "text": "x" }])),
    );
    client.diagnostics(URI, 3);
    assert!(client.call("textDocument/formatting", formatting_params()).is_array());
}

/// `tap` for building a value and changing one field of it in place.
trait Tap: Sized {
    fn tap(self, f: impl FnOnce(&mut Self)) -> Self;
}

impl Tap for Value {
    fn tap(mut self, f: impl FnOnce(&mut Self)) -> Self {
        f(&mut self);
        self
    }
}

#[test]
fn a_stale_version_is_applied_and_published_as_sent() {
    let mut client = started();
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": URI, "languageId": "pgn", "version": 10, "text": "1. e4 *\n" } }),
    );
    assert_eq!(codes(&client.diagnostics(URI, 10)), ["missing-tag"]);
    // Version 5 after 10: the change is still the client's latest word.
    let end = json!({ "line": 1, "character": 0 });
    client.notify(
        "textDocument/didChange",
        change(5, json!([{ "range": { "start": end, "end": end }, "text": "1. e4 e4 *\n" }])),
    );
    assert_eq!(codes(&client.diagnostics(URI, 5)), expected_codes("1. e4 *\n1. e4 e4 *\n"));
    client.notify("textDocument/didChange", change(11, json!([{ "text": "1. d4 *\n" }])));
    assert_eq!(codes(&client.diagnostics(URI, 11)), ["missing-tag"]);
}

#[test]
fn documents_that_are_not_open_are_left_alone() {
    let mut client = started();
    let other = "file:///other.pgn";
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": other, "version": 2 }, "contentChanges": [{ "text": "1. e4 *" }] }),
    );
    client.notify("textDocument/didClose", json!({ "textDocument": { "uri": other } }));
    client.notify("textDocument/didSave", json!({ "textDocument": { "uri": other } }));
    let hover =
        json!({ "textDocument": { "uri": other }, "position": { "line": 0, "character": 3 } });
    assert_eq!(client.call("textDocument/hover", hover.clone()), Value::Null);
    // Opened, closed, then changed: the change is ignored and the diagnostics stay cleared.
    client.open(URI, "1. e4 *\n");
    client.diagnostics(URI, 1);
    client.notify("textDocument/didClose", json!({ "textDocument": { "uri": URI } }));
    let cleared = client.wait_for("diagnostics cleared on close", |m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == URI
            && m["params"]["diagnostics"] == json!([])
    });
    assert_eq!(cleared["params"]["diagnostics"], json!([]));
    client.notify("textDocument/didChange", change(2, json!([{ "text": "1. Ke5 *\n" }])));
    assert_eq!(client.call("textDocument/hover", hover_params(0, 3)), Value::Null);
    assert_serving(&mut client);
}

#[test]
fn a_burst_of_a_thousand_changes_is_applied_in_order() {
    let mut client = started();
    let mut text = String::from("[Event \"burst\"]\n\n");
    client.open(URI, &text);
    client.diagnostics(URI, 1);
    // Each change types one more token at the end; the last one ends the game.
    let moves = ["Nf3", "Nf6", "Ng1", "Ng8"];
    for i in 0..1000usize {
        let number = i / 2 + 1;
        let token = match i {
            999 => "*".to_owned(),
            _ if i % 2 == 0 => format!("{number}. {}", moves[i % 4]),
            _ => moves[i % 4].to_owned(),
        };
        let inserted = if i % 12 == 11 { format!("{token}\n") } else { format!("{token} ") };
        let line = text.matches('\n').count();
        let character = text.len() - text.rfind('\n').map_or(0, |n| n + 1);
        let at = json!({ "line": line, "character": character });
        client.notify(
            "textDocument/didChange",
            change(
                i as i64 + 2,
                json!([{ "range": { "start": at, "end": at }, "text": inserted }]),
            ),
        );
        text.push_str(&inserted);
    }
    let published = client.diagnostics(URI, 1001);
    assert_eq!(codes(&published), expected_codes(&text));
    let edits = client.call("textDocument/formatting", formatting_params());
    let formatted = apply_edits(&text, &edits, "utf-16");
    assert_eq!(formatted, format_text(&text, &FormatOptions::default()));
}

#[test]
fn cancelled_requests_get_one_answer_and_stray_cancels_are_ignored() {
    let mut client = started();
    let game = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {a comment} 4. Ba4 Nf6 *\n\n";
    let text = game.repeat(20_000);
    client.open(URI, &text);
    client.diagnostics(URI, 1);
    let id = client.request("textDocument/formatting", formatting_params());
    client.notify("$/cancelRequest", json!({ "id": id }));
    let response = client.response(id);
    assert!(
        response["error"]["code"] == -32800 || response["result"].is_array(),
        "cancelled or done: {response}"
    );
    // Cancelling what is done, what never was, and with nonsense, changes nothing.
    for params in [
        json!({ "id": id }),
        json!({ "id": 123_456 }),
        json!({ "id": "no" }),
        json!({}),
        Value::Null,
    ] {
        client.notify("$/cancelRequest", params);
    }
    assert_serving(&mut client);
    let again = client.request("textDocument/formatting", formatting_params());
    assert!(client.response(again)["result"].is_array());
}

#[test]
fn shutdown_then_exit_without_params_ends_with_0_and_only_on_exit() {
    let mut client = started();
    client.send(&json!({ "jsonrpc": "2.0", "id": 90, "method": "shutdown" }));
    assert_eq!(client.response(90)["result"], Value::Null);
    // Still running after shutdown: later requests are refused, not dropped.
    let id = client.request("textDocument/hover", hover_params(0, 0));
    assert_eq!(client.response(id)["error"]["code"], -32600);
    let id = client.request("textDocument/formatting", formatting_params());
    assert_eq!(client.response(id)["error"]["code"], -32600);
    client.send_raw(&framed(b"not json"));
    assert_eq!(error_for(&mut client, Value::Null)["code"], -32700);
    client.send(&json!({ "jsonrpc": "2.0", "method": "exit" }));
    assert_eq!(client.wait_for_exit().code(), Some(0));
}

#[test]
fn shutdown_and_exit_with_null_params_end_with_0() {
    let mut client = started();
    assert_eq!(client.call("shutdown", Value::Null), Value::Null);
    client.notify("exit", Value::Null);
    assert_eq!(client.wait_for_exit().code(), Some(0));
}

#[test]
fn the_end_of_input_after_shutdown_ends_with_0_and_without_it_with_1() {
    for (shutdown, code) in [(true, 0), (false, 1)] {
        let mut client = started();
        if shutdown {
            client.call("shutdown", Value::Null);
        }
        client.close_stdin();
        assert_eq!(client.wait_for_exit().code(), Some(code), "shutdown first: {shutdown}");
    }
}
