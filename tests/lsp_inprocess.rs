//! Wiring tests with the server running in the test process (`lsp::serve` over
//! `tokio::io::duplex`):
//! settings from `initializationOptions` and `didChangeConfiguration` (formatting, the
//! diagnostics limit and filter, the VS Code extension's section), range formatting,
//! closing a document, Markdown hovers, `shutdown` with `"params": null`, the live board's
//! `pgn/position` request; the project's `pgn-lsp.toml` (formatting and diagnostics, watched
//! for changes, broken); the files read from disk (`pgn/openFile`, `pgn/closeFile`);
//! completion and code actions (capabilities, text edits in UTF-16, kinds and the `only`
//! filter).

mod lsp_client;

use std::io::{Read, Write};

use lsp_client::{Client, apply_edits, position, vscode_capabilities};
use pgn_lsp::lsp::{ShutdownFlag, serve};
use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::runtime::Handle;

const URI: &str = "file:///inprocess.pgn";

/// One end of an in-memory connection, read and written by blocking on the server's runtime.
struct Blocking<T> {
    runtime: Handle,
    io: T,
}

impl<T: AsyncRead + Unpin> Read for Blocking<T> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.runtime.block_on(self.io.read(buf))
    }
}

impl<T: AsyncWrite + Unpin> Write for Blocking<T> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.runtime.block_on(self.io.write(buf))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.runtime.block_on(self.io.flush())
    }
}

/// A server on its own thread and runtime, connected to the client by a duplex stream and
/// initialized with VS Code's capabilities and these options.
fn start(options: Value) -> Client {
    let mut client = connect();
    client.initialize(vscode_capabilities(), options);
    client
}

/// A server on its own thread and runtime, connected to the client by a duplex stream, not yet
/// initialized.
fn connect() -> Client {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let handle = runtime.handle().clone();
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    std::thread::spawn(move || {
        let (input, output) = tokio::io::split(server_end);
        runtime.block_on(serve(input, output, ShutdownFlag::default()));
    });
    let (from_server, to_server) = tokio::io::split(client_end);
    Client::connect(
        Blocking { runtime: handle.clone(), io: to_server },
        Blocking { runtime: handle, io: from_server },
    )
}

const LONG_GAME: &str = "[Event \"Long\"]\n[Site \"?\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 *\n";

fn format(client: &mut Client, text: &str) -> String {
    format_at(client, URI, text)
}

/// The text of the document at `uri`, `text`, as the server formats it.
fn format_at(client: &mut Client, uri: &str, text: &str) -> String {
    let options = json!({ "tabSize": 4, "insertSpaces": true });
    let edits = client.call(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": uri }, "options": options }),
    );
    apply_edits(text, &edits, "utf-16")
}

fn longest_line(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

#[test]
fn settings_from_initialization_options_and_configuration_changes_are_used() {
    let mut client = start(json!({ "format": { "lineWidth": 40, "addMissingTags": false } }));
    client.open(URI, LONG_GAME);
    let narrow = format(&mut client, LONG_GAME);
    assert!(longest_line(&narrow) < 40, "{narrow}");
    assert!(!narrow.contains("[Date"), "no tags added: {narrow}");
    // Eglot's change when the workspace configures nothing keeps the initialization options.
    client.notify("workspace/didChangeConfiguration", json!({ "settings": {} }));
    assert_eq!(format(&mut client, LONG_GAME), narrow);
    // The VS Code extension's settings come in its `pgn` section, with the client's own.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "pgn": {
            "server": { "path": "" },
            "format": { "lineWidth": 60, "reflowComments": true, "addMissingTags": true },
            "trace": { "server": "off" }
        } } }),
    );
    let wide = format(&mut client, LONG_GAME);
    assert!((40..60).contains(&longest_line(&wide)), "{wide}");
    assert!(wide.contains("[Date \"????.??.??\"]"), "missing tags added again: {wide}");
    // Settings of the wrong shape are ignored: the last good ones stay.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "format": { "lineWidth": "wide" } } }),
    );
    assert_eq!(format(&mut client, LONG_GAME), wide);
}

/// Initialization options of the wrong shape are ignored as a whole, and later configuration
/// changes are read over the defaults, not over them.
#[test]
fn configuration_changes_count_after_initialization_options_of_the_wrong_shape() {
    let mut client = start(json!({ "format": { "lineWidth": 1 } }));
    client.open(URI, LONG_GAME);
    let default = format(&mut client, LONG_GAME);
    assert!((60..80).contains(&longest_line(&default)), "{default}");
    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "format": { "lineWidth": 40 } } }),
    );
    let narrow = format(&mut client, LONG_GAME);
    assert!(longest_line(&narrow) < 40, "{narrow}");
}

/// A project's `pgn-lsp.toml` wins over the editor's settings for the files under it, as for
/// `pgn-lsp fmt`, and is read again at each request; one that cannot be read is left out.
#[test]
fn the_nearest_pgn_lsp_toml_wins_over_the_editors_settings() {
    let project = tempfile::tempdir().unwrap();
    let folder = project.path().join("games");
    std::fs::create_dir(&folder).unwrap();
    let settings = project.path().join("pgn-lsp.toml");
    std::fs::write(&settings, "line-width = 40\n").unwrap();
    let uri = tower_lsp::lsp_types::Url::from_file_path(folder.join("long.pgn")).unwrap();
    let uri = uri.as_str();
    let mut client = start(json!({ "format": { "lineWidth": 70, "addMissingTags": false } }));
    client.open(uri, LONG_GAME);
    let narrow = format_at(&mut client, uri, LONG_GAME);
    assert!(longest_line(&narrow) < 40, "{narrow}");
    assert!(!narrow.contains("[Date"), "the editor's setting the file leaves alone: {narrow}");
    std::fs::write(&settings, "line-width = 60\nadd-missing-tags = true\n").unwrap();
    let wide = format_at(&mut client, uri, LONG_GAME);
    assert!((40..60).contains(&longest_line(&wide)), "{wide}");
    assert!(wide.contains("[Date \"????.??.??\"]"), "{wide}");
    std::fs::write(&settings, "line-widht = 60\n").unwrap();
    let editors = format_at(&mut client, uri, LONG_GAME);
    assert!((60..70).contains(&longest_line(&editors)), "{editors}");
    // A document that is no file (a new one, not yet saved) has the editor's settings.
    let untitled = "untitled:Untitled-1";
    client.open(untitled, LONG_GAME);
    std::fs::write(&settings, "line-width = 40\n").unwrap();
    assert_eq!(format_at(&mut client, untitled, LONG_GAME), editors);
}

/// The diagnostics published for a file are those both the editor's settings and the nearest
/// `pgn-lsp.toml` keep, read again at each publish; code actions fix only those.
#[test]
fn the_nearest_pgn_lsp_toml_chooses_the_diagnostics_published_with_the_settings() {
    let project = tempfile::tempdir().unwrap();
    let settings = project.path().join("pgn-lsp.toml");
    std::fs::write(&settings, "[diagnostics]\nignore = [\"move-number\"]\n").unwrap();
    let uri = tower_lsp::lsp_types::Url::from_file_path(project.path().join("three.pgn")).unwrap();
    let uri = uri.as_str();
    let text = include_str!("fixtures/lsp/three-problems.pgn");
    let mut client = start(json!({ "diagnostics": { "ignore": ["result-mismatch"] } }));
    client.open(uri, text);
    let codes = |diagnostics: Vec<Value>| -> Vec<String> {
        diagnostics.iter().map(|d| d["code"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(codes(client.diagnostics(uri, 1)), ["illegal-move"]);
    let wrong_number = text.find("3. Nc6").unwrap();
    let range = wrong_number..wrong_number + 2;
    let actions = code_actions_at(&mut client, uri, text, range.clone(), json!(["quickfix"]));
    assert_eq!(actions, Vec::<Value>::new(), "no fix for a diagnostic the project leaves out");
    // The file changed: the next publish reads it.
    std::fs::write(&settings, "[diagnostics]\nmin-severity = \"error\"\n").unwrap();
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [{ "text": text }] }),
    );
    assert_eq!(codes(client.diagnostics(uri, 2)), ["illegal-move"]);
    std::fs::write(&settings, "line-width = 60\n").unwrap();
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 3 }, "contentChanges": [{ "text": text }] }),
    );
    assert_eq!(codes(client.diagnostics(uri, 3)), ["move-number", "illegal-move"]);
    let actions = code_actions_at(&mut client, uri, text, range, json!(["quickfix"]));
    assert!(actions.iter().any(|a| a["title"] == "Write 2..."), "{actions:?}");
}

/// A client that watches files is asked to report changes to every `pgn-lsp.toml`; a change
/// publishes the open documents' diagnostics again at once (without an edit of the document),
/// and a broken file is shown to the user, once for each different error.
#[test]
fn a_watched_pgn_lsp_toml_that_changes_publishes_again_and_a_broken_one_is_shown() {
    let project = tempfile::tempdir().unwrap();
    let settings = project.path().join("pgn-lsp.toml");
    std::fs::write(&settings, "[diagnostics]\nignore = [\"move-number\"]\n").unwrap();
    let settings_uri = tower_lsp::lsp_types::Url::from_file_path(&settings).unwrap();
    let uri = tower_lsp::lsp_types::Url::from_file_path(project.path().join("three.pgn")).unwrap();
    let uri = uri.as_str();
    let text = include_str!("fixtures/lsp/three-problems.pgn");
    let mut capabilities = vscode_capabilities();
    capabilities["workspace"]["didChangeWatchedFiles"] = json!({ "dynamicRegistration": true });
    let mut client = connect();
    client.initialize(capabilities, json!({}));
    let request = client.wait_for("the registration of the watcher", |m| {
        m["method"] == "client/registerCapability"
    });
    let registration = &request["params"]["registrations"][0];
    assert_eq!(registration["method"], "workspace/didChangeWatchedFiles", "{request}");
    let watchers = &registration["registerOptions"]["watchers"];
    assert_eq!(watchers, &json!([{ "globPattern": "**/pgn-lsp.toml" }]), "{request}");
    client.send(&json!({ "jsonrpc": "2.0", "id": request["id"], "result": null }));

    let codes = |diagnostics: Vec<Value>| -> Vec<String> {
        diagnostics.iter().map(|d| d["code"].as_str().unwrap().to_owned()).collect()
    };
    client.open(uri, text);
    assert_eq!(codes(client.diagnostics(uri, 1)), ["illegal-move", "result-mismatch"]);
    let changed = |client: &mut lsp_client::Client| {
        client.notify(
            "workspace/didChangeWatchedFiles",
            json!({ "changes": [{ "uri": settings_uri.as_str(), "type": 2 }] }),
        );
    };
    std::fs::write(&settings, "[diagnostics]\nignore = [\"illegal-move\"]\n").unwrap();
    changed(&mut client);
    assert_eq!(codes(client.diagnostics(uri, 1)), ["move-number", "result-mismatch"]);

    // Broken: its settings are left out, and the user is told why.
    std::fs::write(&settings, "[diagnostics]\nignore = [\"illegal-mvoe\"]\n").unwrap();
    changed(&mut client);
    let shown = |client: &mut lsp_client::Client, what: &'static str| {
        let message = client.wait_for(what, |m| {
            m["method"] == "window/showMessage"
                && m["params"]["message"].as_str().is_some_and(|s| s.contains(what))
        });
        assert_eq!(message["params"]["type"], 2, "a warning: {message}");
        message["params"]["message"].as_str().unwrap().to_owned()
    };
    let message = shown(&mut client, "illegal-mvoe");
    assert!(message.contains(&settings.display().to_string()), "{message}");
    assert!(message.ends_with("its settings are not used until it is mended"), "{message}");
    assert_eq!(
        codes(client.diagnostics(uri, 1)),
        ["move-number", "illegal-move", "result-mismatch"]
    );
    // Read again at the next publish and at a formatting request: not shown again.
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [{ "text": text }] }),
    );
    assert_eq!(client.diagnostics(uri, 2).len(), 3);
    format_at(&mut client, uri, text);
    // Another error is shown; each was shown once: nothing else comes before the next publish.
    std::fs::write(&settings, "line-width = 1\n").unwrap();
    changed(&mut client);
    shown(&mut client, "line-width must be at least 2");
    assert_eq!(client.diagnostics(uri, 2).len(), 3);
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 3 }, "contentChanges": [{ "text": text }] }),
    );
    let next = client.wait_for("the next message", |m| {
        m["method"] == "window/showMessage"
            || m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == 3
    });
    assert_eq!(next["method"], "textDocument/publishDiagnostics", "shown twice: {next}");
}

#[test]
fn the_diagnostics_limit_keeps_the_most_severe_and_says_how_many_are_left_out() {
    let mut client = start(json!({ "diagnostics": { "limit": 1 } }));
    client.open(URI, include_str!("fixtures/lsp/three-problems.pgn"));
    let diagnostics = client.diagnostics(URI, 1);
    assert_eq!(diagnostics.len(), 2, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["code"], "illegal-move");
    let note = diagnostics[1]["message"].as_str().unwrap();
    assert!(note.starts_with("2 more diagnostics are not shown"), "{note}");
    // Raising the limit publishes them all again.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "diagnostics": { "limit": 100 } } }),
    );
    let all = client.wait_for("all three diagnostics", |m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["diagnostics"].as_array().is_some_and(|d| d.len() == 3)
    });
    assert_eq!(all["params"]["version"], 1);
    // Errors only, but not illegal moves: the result mismatch alone, and no note, since
    // nothing the filter keeps is left out.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "pgn": { "diagnostics": {
            "minSeverity": "error", "ignore": ["illegal-move"]
        } } } }),
    );
    let filtered = client.wait_for("the result mismatch alone", |m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["diagnostics"].as_array().is_some_and(|d| d.len() == 1)
    });
    assert_eq!(filtered["params"]["diagnostics"][0]["code"], "result-mismatch");
}

/// A CRLF document with a CR CR LF at the end of a tag line: formatting gives the formatter's
/// text in one round (an edit starting right after a `\r` gets no second one before its `\n`).
#[test]
fn formatting_after_a_cr_cr_lf_gives_the_formatters_text_at_once() {
    let text = "[Event \"a\"]\r\n[Site \"s\"]\r\r\n\r\n1. e4 e5 *\r\n";
    let expected = pgn_lsp::fmt::format_text(text, &pgn_lsp::fmt::FormatOptions::default());
    assert!(expected.starts_with("[Event \"a\"]\r\n[Site \"s\"]\r\n[Date"), "{expected:?}");
    let mut client = start(Value::Null);
    client.open(URI, text);
    assert_eq!(format(&mut client, text), expected);
}

/// In a CRLF document, the lines a fix adds end with CRLF, as `pgn-lsp check --fix` writes
/// them, in a quick fix and in "Fix all" alike.
#[test]
fn fixes_in_a_crlf_document_add_crlf_lines() {
    let text = "[Event \"x\"]\r\n[White \"A\"]\r\n\r\n1. e4 e5 3. Nf3 *\r\n";
    let mut client = start(Value::Null);
    client.open(URI, text);
    let actions = code_actions(&mut client, text, 0..0, json!(["quickfix"]));
    let add_tags = actions.iter().find(|a| a["title"] == "Add the missing tags").unwrap();
    let fixed = apply_action(text, add_tags);
    assert!(fixed.contains("[Event \"x\"]\r\n[Site \"?\"]\r\n"), "{fixed:?}");
    let fix_all = &code_actions(&mut client, text, 0..0, json!(["source.fixAll"]))[0];
    let fixed = apply_action(text, fix_all);
    assert!(fixed.contains("[Round \"?\"]\r\n[White \"A\"]\r\n"), "{fixed:?}");
    assert!(fixed.contains("2. Nf3"), "{fixed:?}");
    assert_eq!(fixed.matches('\n').count(), fixed.matches("\r\n").count(), "{fixed:?}");
}

#[test]
fn code_actions_repair_only_the_diagnostics_shown() {
    let text = include_str!("fixtures/lsp/three-problems.pgn");
    let mut client = start(json!({ "diagnostics": { "ignore": ["move-number"] } }));
    client.open(URI, text);
    let number = text.find("3. Nc6").unwrap();
    assert!(code_actions(&mut client, text, number..number, json!(["quickfix"])).is_empty());
    client.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": { "diagnostics": { "ignore": [] } } }),
    );
    let actions = code_actions(&mut client, text, number..number, json!(["quickfix"]));
    assert!(actions.iter().any(|a| a["title"] == "Write 2..."), "{actions:?}");
}

#[test]
fn range_formatting_edits_only_the_games_in_the_range() {
    let text = format!("{LONG_GAME}\n{LONG_GAME}\n{LONG_GAME}");
    let mut client = start(Value::Null);
    client.open(URI, &text);
    let second = text[1..].find("[Event").unwrap() + 1;
    let at = position(&text, second + 3, "utf-16");
    let edits = client.call(
        "textDocument/rangeFormatting",
        json!({ "textDocument": { "uri": URI }, "range": { "start": at, "end": at },
                "options": { "tabSize": 4, "insertSpaces": true } }),
    );
    let first_line = |e: &Value| e["range"]["start"]["line"].as_u64().unwrap();
    let game_lines = LONG_GAME.lines().count() as u64 + 1;
    let edits_list = edits.as_array().unwrap();
    assert!(!edits_list.is_empty());
    assert!(
        edits_list.iter().all(|e| (game_lines..2 * game_lines).contains(&first_line(e))),
        "{edits}"
    );
    let formatted = apply_edits(&text, &edits, "utf-16");
    assert!(formatted.starts_with(&text[..second]));
    assert!(formatted.ends_with(&text[text.rfind("[Event").unwrap()..]));
}

#[test]
fn formatting_a_crlf_document_gives_the_formatters_text_and_then_no_edit() {
    // The formatted games take the document's CRLF, as `pgn-lsp fmt` writes a CRLF file; the
    // edits that still end right after a `\r`, where no LSP position points, take in the whole
    // line break instead.
    let text = "1. e4 e5\r\n\r\n[Event \"x\"]\r\n\r\n1. d4 d5 *\r\n";
    let expected = pgn_lsp::fmt::format_text(text, &pgn_lsp::fmt::FormatOptions::default());
    assert_eq!(expected.matches('\n').count(), expected.matches("\r\n").count());
    let mut client = start(Value::Null);
    client.open(URI, text);
    let formatted = format(&mut client, text);
    assert_eq!(formatted, expected);
    // The whole document's edits, one game's (range formatting and its code action) alike.
    let second = text.find("[Event").unwrap();
    let at = position(text, second, "utf-16");
    let edits = client.call(
        "textDocument/rangeFormatting",
        json!({ "textDocument": { "uri": URI }, "range": { "start": at, "end": at },
                "options": { "tabSize": 4, "insertSpaces": true } }),
    );
    let second_formatted = &expected[expected.rfind("[Event").unwrap()..];
    let one_game_formatted = format!("{}{second_formatted}", &text[..second]);
    assert_eq!(apply_edits(text, &edits, "utf-16"), one_game_formatted);
    let action = &code_actions(&mut client, text, second..second, json!(["source.formatGame"]))[0];
    assert_eq!(apply_action(text, action), one_game_formatted);
    // Formatted once, the document is left as it is.
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [{ "text": formatted }] }),
    );
    let again = client.call(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": URI },
        "options": { "tabSize": 4, "insertSpaces": true } }),
    );
    assert_eq!(again, json!([]));
}

#[test]
fn diagnostics_of_a_text_replaced_while_they_were_converted_are_not_sent() {
    // Three diagnostics a game, many games: converting them takes far longer than applying
    // the replacement, in either build.
    let game = "[Event \"x\"]\n[Date \"2024.13.45\"]\n\n1. e4 e5 2. Ke3 *\n\n";
    let text = game.repeat(if cfg!(debug_assertions) { 5_000 } else { 50_000 });
    let mut client = start(json!({ "diagnostics": { "limit": 1_000_000 } }));
    client.open(URI, &text);
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": URI, "version": 2 },
                "contentChanges": [{ "text": "1. e4 *\n" }] }),
    );
    let first = client.wait_for("the first diagnostics", |m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == URI
    });
    assert_eq!(first["params"]["version"], 2);
    assert_eq!(first["params"]["diagnostics"].as_array().unwrap().len(), 1, "{first}");
}

#[test]
fn closing_a_document_clears_its_diagnostics() {
    let mut client = start(Value::Null);
    client.open(URI, "1. e4 e5 2. Ke3 *\n");
    assert!(!client.diagnostics(URI, 1).is_empty());
    client.notify("textDocument/didClose", json!({ "textDocument": { "uri": URI } }));
    let cleared = client.wait_for("diagnostics cleared", |m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == URI
            && m["params"]["version"].is_null()
    });
    assert_eq!(cleared["params"]["diagnostics"], json!([]));
}

#[test]
fn hovers_are_markdown() {
    let text = "[Event \"x\"]\n\n1. e4 $14 *\n";
    let mut client = start(Value::Null);
    client.open(URI, text);
    for (needle, expected) in
        [("Event", "**Event**"), ("$14", "`$14` ⩲: White has a slight advantage")]
    {
        let at = position(text, text.find(needle).unwrap() + 1, "utf-16");
        let hover = client
            .call("textDocument/hover", json!({ "textDocument": { "uri": URI }, "position": at }));
        assert_eq!(hover["contents"]["kind"], "markdown");
        assert!(hover["contents"]["value"].as_str().unwrap().starts_with(expected), "{hover}");
    }
}

#[test]
fn a_client_that_shows_no_markdown_gets_hovers_in_plain_text() {
    let text = "[Event \"x\"]\n\n1. e4 $14 *\n";
    let mut client = connect();
    let plain = json!({ "textDocument": { "hover": { "contentFormat": ["plaintext"] } } });
    client.initialize(plain, Value::Null);
    client.open(URI, text);
    let at = position(text, text.find("e4").unwrap(), "utf-16");
    let hover = client
        .call("textDocument/hover", json!({ "textDocument": { "uri": URI }, "position": at }));
    assert_eq!(hover["contents"]["kind"], "plaintext");
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(value.starts_with("1. e4\n\nBlack to move.\n\n8 r n b q k b n r\n"), "{value}");
    assert!(!value.contains(['`', '*']), "{value}");
}

#[test]
fn shutdown_with_null_params_is_answered() {
    let mut client = start(Value::Null);
    client.send(&json!({ "jsonrpc": "2.0", "id": 7, "method": "shutdown", "params": null }));
    assert_eq!(client.response(7), json!({ "jsonrpc": "2.0", "id": 7, "result": null }));
    // The server took it as a shutdown: other requests are now refused.
    let id = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": URI }, "position": { "line": 0, "character": 0 } }),
    );
    assert_eq!(client.response(id)["error"]["code"], -32600);
}

#[test]
fn the_live_board_request_answers_with_the_position_at_the_cursor() {
    let text = "[Event \"♘ 𝄞\"]\n\n1. e4 {é} e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
    let mut client = start(Value::Null);
    client.open(URI, text);
    let board = |client: &mut Client, offset: usize, orientation: Value| {
        let at = position(text, offset, "utf-16");
        client.call(
            "pgn/position",
            json!({ "textDocument": { "uri": URI }, "position": at, "orientation": orientation }),
        )
    };
    let mate = text.find("Qxf7#").unwrap();
    let after_mate = board(&mut client, mate + 2, Value::Null);
    assert_eq!(
        after_mate["fen"],
        "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
    );
    assert_eq!(after_mate["sideToMove"], "black");
    assert_eq!(after_mate["status"], "checkmate");
    assert_eq!(after_mate.get("ending"), None);
    assert_eq!(after_mate["depth"], 0);
    assert_eq!(after_mate["illegalMove"], Value::Null);
    let last = &after_mate["lastMove"];
    assert_eq!(last["label"], "4. Qxf7#");
    assert_eq!((&last["from"], &last["to"]), (&json!("h5"), &json!("f7")));
    let range = json!({ "start": position(text, mate, "utf-16"),
                        "end": position(text, mate + 5, "utf-16") });
    assert_eq!(last["range"], range);
    assert!(after_mate["diagram"].as_str().unwrap().starts_with("8 r . b q k b . r\n"));
    let svg = after_mate["svg"].as_str().unwrap();
    assert!(svg.starts_with("<svg ") && svg.contains("<title>Position after 4. Qxf7#"), "{svg}");

    // In the tag section: the start position. Seen from Black, a1 is the top right square.
    let start_position = board(&mut client, 3, json!("black"));
    assert_eq!(start_position["lastMove"], Value::Null);
    assert_eq!(start_position["sideToMove"], "white");
    let white_view = board(&mut client, 3, json!("white"))["svg"].clone();
    assert_ne!(start_position["svg"], white_view);
    // The multibyte comment before `e5` is counted in UTF-16 columns.
    assert_eq!(board(&mut client, text.find("e5").unwrap(), Value::Null)["lastMove"]["san"], "e5");
    // A game won by its variant's rules says how.
    let antichess = "file:///antichess.pgn";
    client.open(
        antichess,
        "[Variant \"Antichess\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/8/p7/8/P7/8 b - - 0 1\"]\n\n1... a3# 1-0\n",
    );
    let at = json!({ "line": 4, "character": 7 });
    let won = client
        .call("pgn/position", json!({ "textDocument": { "uri": antichess }, "position": at }));
    assert_eq!(won["status"], "variantEnd");
    assert_eq!(won["ending"], "a win for White by the rules of antichess");
    // A document holding only a comment has no game.
    let note = "file:///note.pgn";
    client.open(note, "{nothing}");
    let at = json!({ "line": 0, "character": 3 });
    let nothing =
        client.call("pgn/position", json!({ "textDocument": { "uri": note }, "position": at }));
    assert_eq!(nothing, Value::Null);
}

/// The `publishDiagnostics` of a file read from disk (no version) that `accept` takes.
fn disk_diagnostics(client: &mut Client, uri: &str, accept: fn(&[Value]) -> bool) -> Vec<Value> {
    let message = client.wait_for("diagnostics of a file read from disk", |m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == uri
            && m["params"].get("version").is_none()
            && m["params"]["diagnostics"].as_array().is_some_and(|d| accept(d))
    });
    message["params"]["diagnostics"].as_array().unwrap().clone()
}

#[test]
fn files_read_from_disk_are_published_read_again_and_closed() {
    let roster = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
                  [White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n";
    let (illegal, legal) =
        (format!("{roster}1. e4 e5 2. Ke3 *\n"), format!("{roster}1. e4 e5 2. Ke2 *\n"));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("large.pgn");
    let uri = tower_lsp::lsp_types::Url::from_file_path(&path).unwrap().to_string();
    let file = json!({ "textDocument": { "uri": uri } });
    let mut client = start(Value::Null);

    std::fs::write(&path, &illegal).unwrap();
    client.notify("pgn/openFile", file.clone());
    let found = disk_diagnostics(&mut client, &uri, |d| !d.is_empty());
    assert_eq!((found.len(), &found[0]["code"]), (1, &json!("illegal-move")), "{found:?}");
    assert_eq!(found[0]["range"]["start"], json!({ "line": 8, "character": 12 }));

    // Changed on disk: read again.
    std::fs::write(&path, &legal).unwrap();
    client.notify("pgn/openFile", file.clone());
    disk_diagnostics(&mut client, &uri, <[Value]>::is_empty);

    // A document the client opens is the client's: reading the file and closing it leave it.
    std::fs::write(&path, &illegal).unwrap();
    client.notify("pgn/openFile", file.clone());
    disk_diagnostics(&mut client, &uri, |d| !d.is_empty());
    client.open(&uri, &legal);
    assert!(client.diagnostics(&uri, 1).is_empty());
    client.notify("pgn/openFile", file.clone());
    client.notify("pgn/closeFile", file.clone());
    let hover =
        json!({ "textDocument": { "uri": uri }, "position": { "line": 8, "character": 13 } });
    let shown = client.call("textDocument/hover", hover.clone());
    assert!(shown["contents"]["value"].as_str().unwrap().contains("Ke2"), "{shown}");
    client.notify("textDocument/didClose", file.clone());
    disk_diagnostics(&mut client, &uri, <[Value]>::is_empty);

    // Closing a file read from disk clears its diagnostics.
    client.notify("pgn/openFile", file.clone());
    disk_diagnostics(&mut client, &uri, |d| !d.is_empty());
    client.notify("pgn/closeFile", file.clone());
    disk_diagnostics(&mut client, &uri, <[Value]>::is_empty);
    assert_eq!(client.call("textDocument/hover", hover), Value::Null);

    // A file that cannot be read is left alone, the user is told why, and the server goes on.
    let missing = json!({ "textDocument": { "uri": "file:///nonexistent/missing.pgn" } });
    client.notify("pgn/openFile", missing.clone());
    let message =
        client.wait_for("why the file was not read", |m| m["method"] == "window/showMessage");
    let text = message["params"]["message"].as_str().unwrap();
    assert!(text.starts_with("cannot read /nonexistent/missing.pgn"), "{text}");
    assert_eq!(client.call("textDocument/documentSymbol", missing), Value::Null);
}

#[test]
fn completion_and_code_action_kinds_are_declared() {
    let mut client = connect();
    let result = client.initialize(vscode_capabilities(), Value::Null);
    let capabilities = &result["capabilities"];
    let triggers = &capabilities["completionProvider"]["triggerCharacters"];
    assert_eq!(triggers, &json!([".", "(", "$", "\"", "["]));
    let kinds = &capabilities["codeActionProvider"]["codeActionKinds"];
    assert_eq!(
        kinds,
        &json!([
            "quickfix",
            "refactor.rewrite",
            "source.fixAll.pgn",
            "source.sortTags",
            "source.formatGame",
            "source.sortGames"
        ])
    );
}

#[test]
fn completion_replaces_the_typed_word_with_a_legal_move() {
    // Characters outside the BMP before the cursor: the edit's columns are UTF-16 units.
    let text = "{𝄞 ♘} 1. e4 e5 2. N";
    let mut client = start(Value::Null);
    client.open(URI, text);
    let at = position(text, text.len(), "utf-16");
    let list = client
        .call("textDocument/completion", json!({ "textDocument": { "uri": URI }, "position": at }));
    assert_eq!(list["isIncomplete"], false);
    let items = list["items"].as_array().unwrap();
    let nf3 = items.iter().find(|i| i["label"] == "Nf3").expect("Nf3 is offered");
    assert_eq!(nf3["detail"], "knight from g1");
    assert_eq!(nf3["filterText"], "Nf3");
    let completed = apply_edits(text, &json!([nf3["textEdit"]]), "utf-16");
    assert_eq!(completed, "{𝄞 ♘} 1. e4 e5 2. Nf3");
    // The order is the server's: sortText follows it.
    let sort_texts: Vec<&str> = items.iter().map(|i| i["sortText"].as_str().unwrap()).collect();
    assert!(sort_texts.windows(2).all(|w| w[0] < w[1]), "{sort_texts:?}");
    assert!(items.iter().all(|i| i["label"] != "Nc6"), "only White's moves");
}

/// The actions answering `textDocument/codeAction` at `range` with this `only` filter.
fn code_actions(
    client: &mut Client,
    text: &str,
    range: std::ops::Range<usize>,
    only: Value,
) -> Vec<Value> {
    code_actions_at(client, URI, text, range, only)
}

/// The code actions of the document at `uri`, `text`, for `range`, of the kinds `only` names.
fn code_actions_at(
    client: &mut Client,
    uri: &str,
    text: &str,
    range: std::ops::Range<usize>,
    only: Value,
) -> Vec<Value> {
    let range = json!({ "start": position(text, range.start, "utf-16"),
                        "end": position(text, range.end, "utf-16") });
    let mut context = json!({ "diagnostics": [] });
    if !only.is_null() {
        context["only"] = only;
    }
    let actions = client.call(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri }, "range": range, "context": context }),
    );
    actions.as_array().unwrap().clone()
}

/// `text` with the single document edit of a code action applied.
fn apply_action(text: &str, action: &Value) -> String {
    let changes = action["edit"]["documentChanges"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "{action}");
    assert_eq!(changes[0]["textDocument"]["uri"], URI);
    assert_eq!(changes[0]["textDocument"]["version"], 1);
    apply_edits(text, &changes[0]["edits"], "utf-16")
}

#[test]
fn a_client_without_document_changes_or_snippets_gets_plain_edits() {
    let mut client = connect();
    client.initialize(json!({}), Value::Null);
    let text = "[Event \"x\"]\n[Si\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 *\n";
    client.open(URI, text);
    let castle = text.find("0-0").unwrap();
    let fix = &code_actions(&mut client, text, castle..castle, json!(["quickfix"]))[0];
    assert!(fix["edit"].get("documentChanges").is_none(), "{fix}");
    assert!(apply_edits(text, &fix["edit"]["changes"][URI], "utf-16").contains("4. O-O *"));
    let at = position(text, text.find("[Si").unwrap() + 3, "utf-16");
    let list = client
        .call("textDocument/completion", json!({ "textDocument": { "uri": URI }, "position": at }));
    let site = list["items"].as_array().unwrap().iter().find(|i| i["label"] == "Site");
    let site = site.expect("the Site tag offered");
    assert_eq!(
        (&site["insertTextFormat"], &site["textEdit"]["newText"]),
        (&json!(1), &json!("[Site \"\"]"))
    );
}

#[test]
fn a_quick_fix_is_preferred_and_names_its_diagnostic() {
    let text = "[Event \"é\"]\n[Date \"2024.01.01\"]\n[Site \"?\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 *\n";
    let mut client = start(Value::Null);
    client.open(URI, text);
    let castle = text.find("0-0").unwrap();
    let actions = code_actions(&mut client, text, castle..castle, json!(["quickfix"]));
    assert_eq!(actions.len(), 1, "{actions:?}");
    let fix = &actions[0];
    assert_eq!(fix["kind"], "quickfix");
    assert_eq!(fix["isPreferred"], true);
    assert_eq!(fix["diagnostics"][0]["code"], "non-canonical-san");
    assert!(apply_action(text, fix).contains("4. O-O *"));

    // Source actions only when asked for: here, the tags in export order.
    let sources = code_actions(&mut client, text, castle..castle, json!(["source"]));
    let kinds: Vec<&str> = sources.iter().map(|a| a["kind"].as_str().unwrap()).collect();
    assert!(kinds.iter().all(|k| k.starts_with("source.")), "{kinds:?}");
    let sort = sources.iter().find(|a| a["kind"] == "source.sortTags").expect("sort tags");
    assert!(sort.get("isPreferred").is_none(), "{sort}");
    assert!(
        apply_action(text, sort)
            .starts_with("[Event \"é\"]\n[Site \"?\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n")
    );
    let fix_all = code_actions(&mut client, text, castle..castle, json!(["source.fixAll"]));
    assert_eq!(fix_all.len(), 1, "{fix_all:?}");
    assert_eq!(fix_all[0]["kind"], "source.fixAll.pgn");
}
