//! The real binary over stdio: initialize like VS Code (UTF-16) and Neovim (UTF-8),
//! diagnostics, hover, the end of a session, edit ordering, multibyte columns, and requests
//! the server must survive. Every wait is for an expected message, with a timeout.

mod lsp_client;

use lsp_client::{Client, apply_edits, neovim_capabilities, position, vscode_capabilities};
use serde_json::{Value, json};
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{Chess, EnPassantMode, Position};

const BINARY: &str = env!("CARGO_BIN_EXE_pgn-lsp");
const URI: &str = "file:///game.pgn";

fn start(args: &[&str], capabilities: Value) -> Client {
    let mut client = Client::spawn(BINARY, args);
    client.initialize(capabilities, Value::Null);
    client
}

/// The FEN after playing `moves` (SAN) from the initial position, computed by shakmaty alone.
fn fen_after(moves: &[&str]) -> String {
    let mut pos = Chess::default();
    for san in moves {
        let m = san.parse::<San>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
    }
    Fen::from_position(&pos, EnPassantMode::Legal).to_string()
}

fn hover(client: &mut Client, text: &str, offset: usize, encoding: &str) -> Value {
    let at = position(text, offset, encoding);
    client.call("textDocument/hover", json!({ "textDocument": { "uri": URI }, "position": at }))
}

fn codes(diagnostics: &[Value]) -> Vec<&str> {
    diagnostics.iter().map(|d| d["code"].as_str().unwrap()).collect()
}

#[test]
fn initialize_like_vscode_negotiates_utf16() {
    let mut client = Client::spawn(BINARY, &["--stdio"]);
    let result = client.initialize(vscode_capabilities(), Value::Null);
    let capabilities = &result["capabilities"];
    assert_eq!(capabilities["positionEncoding"], "utf-16");
    assert_eq!(capabilities["textDocumentSync"]["change"], 2, "incremental sync");
    assert_eq!(capabilities["hoverProvider"], true);
    assert_eq!(capabilities["documentFormattingProvider"], true);
    assert_eq!(capabilities["documentRangeFormattingProvider"], true);
    assert_eq!(result["serverInfo"]["name"], "pgn-lsp");
}

#[test]
fn initialize_like_neovim_negotiates_utf8() {
    let mut client = Client::spawn(BINARY, &[]);
    let result = client.initialize(neovim_capabilities(), Value::Null);
    assert_eq!(result["capabilities"]["positionEncoding"], "utf-8");
}

#[test]
fn an_illegal_move_a_bad_move_number_and_a_result_mismatch_give_exactly_those_diagnostics() {
    let text = include_str!("fixtures/lsp/three-problems.pgn");
    let mut client = start(&["--stdio"], vscode_capabilities());
    client.open(URI, text);
    let diagnostics = client.diagnostics(URI, 1);
    assert_eq!(codes(&diagnostics), ["move-number", "illegal-move", "result-mismatch"]);
    let range = |needle: &str, len: usize| {
        let start = text.find(needle).unwrap();
        json!({ "start": position(text, start, "utf-16"),
                "end": position(text, start + len, "utf-16") })
    };
    // The `3.` of `3. Nc6` (Black's move needs `2...`), the queen move, the marker.
    let expected = [(range("3. Nc6", 2), 2), (range("Qxf7+", 5), 1), (range("0-1", 3), 1)];
    for (d, (range, severity)) in diagnostics.iter().zip(expected) {
        assert_eq!(d["range"], range, "{d}");
        assert_eq!(d["severity"], severity, "{d}");
        assert_eq!(d["source"], "pgn-lsp");
    }
    let related = &diagnostics[2]["relatedInformation"][0];
    assert_eq!(related["location"]["uri"], URI);
    assert_eq!(related["location"]["range"], range("[Result \"1-0\"]", 14));
    let fixes = diagnostics[2]["data"]["fixes"].as_array().expect("fix data");
    assert!(!fixes.is_empty());
}

#[test]
fn hover_in_a_nested_variation_gives_the_fen_after_the_move() {
    let text = "[Event \"?\"]\n\n1. e4 e5 2. Nf3 (2. f4 exf4 (2... d5 3. exd5 Qxd5 (3... e4 4. Nc3)\n4. Nc3 Qa5)) 2... Nc6 *\n";
    let mut client = start(&[], neovim_capabilities());
    client.open(URI, text);
    let result = hover(&mut client, text, text.find("Qa5").unwrap() + 1, "utf-8");
    let markdown = result["contents"]["value"].as_str().unwrap();
    let fen = fen_after(&["e4", "e5", "f4", "d5", "exd5", "Qxd5", "Nc3", "Qa5"]);
    assert!(markdown.contains(&format!("```text\n{fen}\n```")), "{markdown}");
    assert!(markdown.starts_with("**4... Qa5**"), "{markdown}");
    assert_eq!(result["range"]["start"], position(text, text.find("Qa5").unwrap(), "utf-8"));
    // A move deeper in: 4. Nc3 of the depth-3 variation.
    let result = hover(&mut client, text, text.find("4. Nc3)").unwrap() + 3, "utf-8");
    let fen = fen_after(&["e4", "e5", "f4", "d5", "exd5", "e4", "Nc3"]);
    assert!(result["contents"]["value"].as_str().unwrap().contains(&fen), "{result}");
}

#[test]
fn formatting_gives_export_format() {
    let text = include_str!("fixtures/lsp/messy.pgn");
    let mut client = start(&[], vscode_capabilities());
    client.open(URI, text);
    let options = json!({ "tabSize": 4, "insertSpaces": true });
    let edits = client.call(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": URI }, "options": options }),
    );
    let formatted = apply_edits(text, &edits, "utf-16");
    assert_eq!(formatted, include_str!("fixtures/lsp/messy.formatted.pgn"));
}

#[test]
fn shutdown_with_null_params_then_exit_ends_the_process_with_stdin_open() {
    let mut client = start(&[], vscode_capabilities());
    // Emacs Eglot sends `"params": null`.
    client.send(&json!({ "jsonrpc": "2.0", "id": 99, "method": "shutdown", "params": null }));
    let response = client.response(99);
    assert_eq!(response.get("error"), None, "{response}");
    assert_eq!(response["result"], Value::Null);
    client.notify("exit", Value::Null);
    let status = client.wait_for_exit();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn exit_without_shutdown_ends_the_process_with_code_1() {
    let mut client = start(&[], vscode_capabilities());
    client.notify("exit", Value::Null);
    assert_eq!(client.wait_for_exit().code(), Some(1));
}

#[test]
fn the_end_of_stdin_ends_the_process() {
    let mut client = start(&[], vscode_capabilities());
    client.close_stdin();
    assert_eq!(client.wait_for_exit().code(), Some(1));
}

#[test]
fn forty_rapid_edits_are_applied_in_order() {
    // Typed one character per change, each right after the previous one: applied out of
    // order, they would give another text, and other moves.
    let typed = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6";
    assert_eq!(typed.len(), 40);
    let mut client = start(&[], vscode_capabilities());
    client.open(URI, " *\n");
    for (i, c) in typed.chars().enumerate() {
        client.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": URI, "version": i + 2 },
                "contentChanges": [{
                    "range": { "start": { "line": 0, "character": i }, "end": { "line": 0, "character": i } },
                    "text": c.to_string()
                }]
            }),
        );
    }
    let text = format!("{typed} *\n");
    let result = hover(&mut client, &text, text.find("Nf6").unwrap(), "utf-16");
    let fen = fen_after(&["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"]);
    assert!(result["contents"]["value"].as_str().unwrap().contains(&fen), "{result}");
    // A game without tags: only the note that the Seven Tag Roster is missing.
    assert_eq!(codes(&client.diagnostics(URI, 41)), ["missing-tag"]);
}

#[test]
fn columns_are_right_for_multibyte_text_in_every_encoding() {
    // `é` is 2 bytes (1 UTF-16 unit), `♘` 3 bytes (1 unit), `𝄞` 4 bytes (2 units); CRLF lines.
    let text = "[Event \"é♘𝄞\"]\r\n\r\n1. e4 {é ♘ 𝄞} Ke3 {é} *\r\n";
    for encoding in ["utf-8", "utf-16", "utf-32"] {
        let capabilities = json!({ "general": { "positionEncodings": [encoding] } });
        let mut client = Client::spawn(BINARY, &[]);
        let result = client.initialize(capabilities, Value::Null);
        assert_eq!(result["capabilities"]["positionEncoding"], encoding);
        client.open(URI, text);
        let diagnostics = client.diagnostics(URI, 1);
        let illegal = diagnostics.iter().find(|d| d["code"] == "illegal-move").expect("Ke3");
        let start = text.find("Ke3").unwrap();
        assert_eq!(illegal["range"]["start"], position(text, start, encoding), "{encoding}");
        assert_eq!(illegal["range"]["end"], position(text, start + 3, encoding), "{encoding}");
        let e4 = text.find("e4").unwrap();
        let result = hover(&mut client, text, e4, encoding);
        assert_eq!(result["range"]["start"], position(text, e4, encoding), "{encoding}");
        assert!(result["contents"]["value"].as_str().unwrap().starts_with("**1. e4**"));
    }
}

#[test]
fn requests_before_initialize_are_refused_and_the_server_goes_on() {
    let mut client = Client::spawn(BINARY, &[]);
    let id = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": URI }, "position": { "line": 0, "character": 0 } }),
    );
    assert_eq!(client.response(id)["error"]["code"], -32002, "server not initialized");
    client.initialize(vscode_capabilities(), Value::Null);
}

#[test]
fn unknown_documents_positions_past_the_end_and_stray_edits_are_answered() {
    let mut client = start(&[], vscode_capabilities());
    let nowhere = json!({ "uri": "file:///nowhere.pgn" });
    let far = json!({ "line": 9999, "character": 9999 });
    assert_eq!(
        client.call("textDocument/hover", json!({ "textDocument": nowhere, "position": far })),
        Value::Null
    );
    let options = json!({ "tabSize": 4, "insertSpaces": true });
    assert_eq!(
        client.call(
            "textDocument/formatting",
            json!({ "textDocument": nowhere, "options": options })
        ),
        Value::Null
    );
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": "file:///nowhere.pgn", "version": 5 },
                "contentChanges": [{ "text": "1. e4 *" }] }),
    );
    let text = "1. e4 e5 *\n";
    client.open(URI, text);
    client.diagnostics(URI, 1);
    // Past the end of a line, and past the end of the document.
    let past_line = json!({ "line": 0, "character": 500 });
    // The end of line 0 touches the marker.
    let result = client.call(
        "textDocument/hover",
        json!({ "textDocument": { "uri": URI }, "position": past_line }),
    );
    assert!(result["contents"]["value"].as_str().unwrap().starts_with("`*`"), "{result}");
    let result = client
        .call("textDocument/hover", json!({ "textDocument": { "uri": URI }, "position": far }));
    assert_eq!(result, Value::Null);
    // An edit whose range lies past the end is clamped to the end.
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": URI, "version": 2 },
                "contentChanges": [{ "range": { "start": far, "end": far }, "text": "\n1. d4 *\n" }] }),
    );
    assert_eq!(codes(&client.diagnostics(URI, 2)), ["missing-tag", "missing-tag"]);
}

#[test]
fn a_quick_fix_comes_from_the_diagnostic_fix() {
    let text = "[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2\n";
    let mut client = start(&[], vscode_capabilities());
    client.open(URI, text);
    let diagnostics = client.diagnostics(URI, 1);
    let marker = diagnostics.iter().find(|d| d["code"] == "non-standard-result").expect("1/2");
    let actions = client.call(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": URI }, "range": marker["range"],
                "context": { "diagnostics": [marker] } }),
    );
    let action = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["diagnostics"][0]["code"] == "non-standard-result")
        .expect("a fix for 1/2");
    assert_eq!(action["kind"], "quickfix");
    let change = &action["edit"]["documentChanges"][0];
    assert_eq!(change["textDocument"]["version"], 1);
    assert_eq!(change["edits"][0]["newText"], "1/2-1/2");
    assert_eq!(change["edits"][0]["range"], marker["range"]);
}

#[test]
fn a_10_mb_paste_in_one_change_is_analysed_and_long_formatting_can_be_cancelled() {
    // 10 MB of a clean game, then a game with three diagnostics, after a game with one.
    let clean = include_str!("fixtures/ide/games/4ncl-crlf.pgn");
    let copies = 10 * 1024 * 1024 / clean.len() + 1;
    let paste = clean.repeat(copies) + include_str!("fixtures/lsp/three-problems.pgn");
    let mut client = start(&[], vscode_capabilities());
    client.open(URI, "1. e4 *\n");
    assert_eq!(codes(&client.diagnostics(URI, 1)), ["missing-tag"]);
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": URI, "version": 2 },
                "contentChanges": [{ "range": { "start": { "line": 1, "character": 0 },
                                                "end": { "line": 1, "character": 0 } },
                                     "text": paste }] }),
    );
    let diagnostics = client.diagnostics(URI, 2);
    assert_eq!(
        codes(&diagnostics),
        ["missing-tag", "move-number", "illegal-move", "result-mismatch"]
    );
    let text = format!("1. e4 *\n{paste}");
    let marker = text.rfind("0-1").unwrap();
    assert_eq!(diagnostics[3]["range"]["start"], position(&text, marker, "utf-16"));
    // Formatting the whole document is long work: cancel it at once.
    let id = client.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": URI }, "options": { "tabSize": 4, "insertSpaces": true } }),
    );
    client.notify("$/cancelRequest", json!({ "id": id }));
    assert_eq!(client.response(id)["error"]["code"], -32800, "request cancelled");
    // The server goes on.
    let result = hover(&mut client, "1. e4 *\n", 3, "utf-16");
    assert!(result["contents"]["value"].as_str().unwrap().starts_with("**1. e4**"));
}
