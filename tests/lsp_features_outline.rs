//! The outline features through the real binary over stdio: capabilities, document and
//! workspace symbols, folding ranges, semantic tokens (full and range, decoded in UTF-16 and
//! UTF-8 over multibyte text, and the size above which a whole document's are not sent), inlay
//! hints and selection ranges.

mod lsp_client;

use lsp_client::{Client, neovim_capabilities, offset, position, vscode_capabilities};
use pgn_lsp::lsp::FULL_SEMANTIC_TOKENS_MAX_BYTES;
use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_pgn-lsp");
const URI: &str = "file:///outline.pgn";

const TEXT: &str = "[Event \"Café ♘ 𝄞\"]\n[White \"Tal\"]\n[Black \"Botvinnik\"]\n[Result \"1-0\"]\n\n1. e4 {𝄞 [%clk 0:01:02]\né} e5 $14 (1... c5\n2. Nf3) 2. Qh5+ 1-0\n";

/// The server with `TEXT` open, and its capabilities.
fn start(capabilities: Value) -> (Client, Value) {
    let mut client = Client::spawn(BINARY, &[]);
    let result = client.initialize(capabilities, Value::Null);
    client.open(URI, TEXT);
    (client, result["capabilities"].clone())
}

fn document() -> Value {
    json!({ "uri": URI })
}

/// The text an LSP range covers.
fn text_of(range: &Value, encoding: &str) -> &'static str {
    &TEXT[offset(TEXT, &range["start"], encoding)..offset(TEXT, &range["end"], encoding)]
}

/// Semantic tokens decoded: (text, type, modifiers), with types and modifiers named by the
/// legend.
fn decode(data: &Value, legend: &Value, encoding: &str) -> Vec<(String, String, Vec<String>)> {
    let numbers: Vec<u64> = data.as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect();
    let (mut line, mut character) = (0, 0);
    let mut tokens = Vec::new();
    for token in numbers.chunks(5) {
        let [delta_line, delta_start, length, kind, modifiers] = token else {
            panic!("tokens come in fives");
        };
        if *delta_line > 0 {
            (line, character) = (line + delta_line, *delta_start);
        } else {
            character += delta_start;
        }
        let start = offset(TEXT, &json!({ "line": line, "character": character }), encoding);
        let end = offset(TEXT, &json!({ "line": line, "character": character + length }), encoding);
        let names = legend["tokenModifiers"].as_array().unwrap();
        let modifiers = (0..names.len())
            .filter(|bit| modifiers & (1 << bit) != 0)
            .map(|bit| names[bit].as_str().unwrap().to_owned())
            .collect();
        let kind = legend["tokenTypes"][*kind as usize].as_str().unwrap().to_owned();
        tokens.push((TEXT[start..end].to_owned(), kind, modifiers));
    }
    tokens
}

#[test]
fn capabilities_declare_the_outline_features() {
    let mut client = Client::spawn(BINARY, &[]);
    let result = client.initialize(vscode_capabilities(), Value::Null);
    let capabilities = &result["capabilities"];
    for provider in [
        "documentSymbolProvider",
        "workspaceSymbolProvider",
        "foldingRangeProvider",
        "inlayHintProvider",
        "selectionRangeProvider",
    ] {
        assert_eq!(capabilities[provider], true, "{provider}");
    }
    let tokens = &capabilities["semanticTokensProvider"];
    assert_eq!((&tokens["full"], &tokens["range"]), (&json!(true), &json!(true)));
    assert_eq!(
        tokens["legend"]["tokenModifiers"],
        json!(["variation", "capture", "check", "mate"])
    );
}

#[test]
fn semantic_tokens_have_the_right_columns_in_utf16_and_utf8() {
    for (capabilities, encoding) in
        [(vscode_capabilities(), "utf-16"), (neovim_capabilities(), "utf-8")]
    {
        let (mut client, capabilities) = start(capabilities);
        let legend = &capabilities["semanticTokensProvider"]["legend"];
        let full =
            client.call("textDocument/semanticTokens/full", json!({ "textDocument": document() }));
        let tokens = decode(&full["data"], legend, encoding);
        let texts: Vec<&str> = tokens.iter().map(|(t, _, _)| t.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Event",
                "\"Café ♘ 𝄞\"",
                "White",
                "\"Tal\"",
                "Black",
                "\"Botvinnik\"",
                "Result",
                "\"1-0\"",
                "1.",
                "e4",
                "{𝄞 ",
                "[%clk 0:01:02]",
                "é}",
                "e5",
                "$14",
                "1...",
                "c5",
                "2.",
                "Nf3",
                "2.",
                "Qh5+",
                "1-0",
            ],
            "{encoding}"
        );
        let kind = |text: &str| tokens.iter().find(|(t, _, _)| t == text).unwrap().clone();
        assert_eq!(kind("[%clk 0:01:02]").1, "macro");
        assert_eq!(
            kind("c5"),
            ("c5".to_owned(), "variable".to_owned(), vec!["variation".to_owned()])
        );
        assert_eq!(kind("Qh5+").2, ["check"]);
        // A range request: the tokens of the lines it covers.
        let line = |n| json!({ "line": n, "character": 0 });
        let range = client.call(
            "textDocument/semanticTokens/range",
            json!({ "textDocument": document(), "range": { "start": line(6), "end": line(7) } }),
        );
        let in_range = decode(&range["data"], legend, encoding);
        let texts: Vec<&str> = in_range.iter().map(|(t, _, _)| t.as_str()).collect();
        assert_eq!(texts, ["é}", "e5", "$14", "1...", "c5"], "{encoding}");
    }
}

#[test]
fn document_and_workspace_symbols_name_the_games() {
    let (mut client, _) = start(vscode_capabilities());
    let symbols = client.call("textDocument/documentSymbol", json!({ "textDocument": document() }));
    let game = &symbols[0];
    assert_eq!(game["name"], "Tal – Botvinnik, 1-0");
    assert_eq!(game["detail"], "Café ♘ 𝄞");
    assert_eq!(game["kind"], 24, "an event");
    assert!(text_of(&game["range"], "utf-16").ends_with("2. Qh5+ 1-0"));
    let children: Vec<(&str, &str)> = game["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["name"].as_str().unwrap(), text_of(&c["selectionRange"], "utf-16")))
        .collect();
    assert_eq!(children, [("Tags", &TEXT[..TEXT.find("\n\n").unwrap()]), ("Moves", "e4")]);

    client.open("file:///other.pgn", "[White \"Botvinnik\"]\n[Black \"Smyslov\"]\n\n1. d4 *\n");
    let found = client.call("workspace/symbol", json!({ "query": "BOTV" }));
    let mut names: Vec<(&str, &str)> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["location"]["uri"].as_str().unwrap()))
        .collect();
    names.sort();
    assert_eq!(
        names,
        [("Botvinnik – Smyslov, *", "file:///other.pgn"), ("Tal – Botvinnik, 1-0", URI)]
    );
}

#[test]
fn folding_ranges_inlay_hints_and_selection_ranges() {
    let (mut client, _) = start(neovim_capabilities());
    let folds = client.call("textDocument/foldingRange", json!({ "textDocument": document() }));
    let folds: Vec<(u64, u64, &str)> = folds
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let line = |key: &str| f[key].as_u64().unwrap();
            (line("startLine"), line("endLine"), f["kind"].as_str().unwrap())
        })
        .collect();
    assert_eq!(folds, [(0, 7, "region"), (0, 3, "region"), (5, 6, "comment"), (6, 7, "region")]);

    let whole =
        json!({ "start": position(TEXT, 0, "utf-8"), "end": position(TEXT, TEXT.len(), "utf-8") });
    let hints = client
        .call("textDocument/inlayHint", json!({ "textDocument": document(), "range": whole }));
    let hints: Vec<(usize, &str)> = hints
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (offset(TEXT, &h["position"], "utf-8"), h["label"].as_str().unwrap()))
        .collect();
    let after = |needle: &str| TEXT.find(needle).unwrap() + needle.len();
    assert_eq!(hints, [(after("0:01:02]"), "1:02 left"), (after("$14"), "⩲")]);

    let at = position(TEXT, TEXT.find("Nf3").unwrap() + 1, "utf-8");
    let chains = client.call(
        "textDocument/selectionRange",
        json!({ "textDocument": document(), "positions": [at] }),
    );
    let mut texts = Vec::new();
    let mut link = &chains[0];
    while link.is_object() {
        texts.push(text_of(&link["range"], "utf-8"));
        link = &link["parent"];
    }
    assert_eq!(texts[..3], ["Nf3", "2. Nf3", "(1... c5\n2. Nf3)"]);
    assert_eq!(texts.last(), Some(&TEXT.trim_end()));
}

/// A cursor inside a thousand nested variations gets a chain of at most 50 ranges, which
/// clients reading JSON with a nesting limit (serde_json's 128) can read: the innermost, and
/// the outermost up to the game.
#[test]
fn a_selection_range_chain_stays_within_the_nesting_clients_read() {
    let (mut client, _) = start(neovim_capabilities());
    let text = format!("1. e4 {}1. d4 {} *\n", "(1. d4 ".repeat(1000), ")".repeat(1000));
    client.open("file:///deep.pgn", &text);
    let at = position(&text, text.rfind("d4").unwrap(), "utf-8");
    let chains = client.call(
        "textDocument/selectionRange",
        json!({ "textDocument": { "uri": "file:///deep.pgn" }, "positions": [at] }),
    );
    let mut texts = Vec::new();
    let mut link = &chains[0];
    while link.is_object() {
        let range = &link["range"];
        texts.push(
            &text[offset(&text, &range["start"], "utf-8")..offset(&text, &range["end"], "utf-8")],
        );
        link = &link["parent"];
    }
    assert_eq!(texts.len(), 50);
    assert_eq!(texts[0], "d4");
    assert_eq!(texts.last(), Some(&text.trim_end()));
}

#[test]
fn full_semantic_tokens_are_sent_up_to_the_size_bound_and_ranges_beyond_it() {
    let mut client = Client::spawn(BINARY, &[]);
    let capabilities =
        client.initialize(vscode_capabilities(), Value::Null)["capabilities"].clone();
    let legend = &capabilities["semanticTokensProvider"]["legend"];
    // One game with one long comment, exactly as long as the bound.
    let (start, end) = ("1. e4 {", "} *\n");
    let filler = FULL_SEMANTIC_TOKENS_MAX_BYTES - start.len() - end.len();
    let text = format!("{start}{}{end}", "x".repeat(filler));
    assert_eq!(text.len(), FULL_SEMANTIC_TOKENS_MAX_BYTES);
    client.open(URI, &text);
    let full = || json!({ "textDocument": document() });
    let tokens = client.call("textDocument/semanticTokens/full", full());
    let kinds: Vec<String> =
        decode_kinds(&tokens["data"], legend).into_iter().map(|(_, kind)| kind).collect();
    assert_eq!(kinds, ["number", "variable", "comment", "keyword"]);
    // One byte more: no whole-document tokens, but a range still has its tokens.
    let at = json!({ "line": 0, "character": 2 });
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": URI, "version": 2 },
                "contentChanges": [{ "range": { "start": at, "end": at }, "text": " " }] }),
    );
    client.diagnostics(URI, 2);
    assert_eq!(client.call("textDocument/semanticTokens/full", full()), Value::Null);
    let range =
        json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 9 } });
    let in_range = client.call(
        "textDocument/semanticTokens/range",
        json!({ "textDocument": document(), "range": range }),
    );
    let tokens = decode_kinds(&in_range["data"], legend);
    assert_eq!(tokens[..2], [(2, "number".to_owned()), (2, "variable".to_owned())]);
    assert_eq!(tokens[2].1, "comment");
}

/// Semantic tokens as (length, type), for text that is not kept in the test.
fn decode_kinds(data: &Value, legend: &Value) -> Vec<(u64, String)> {
    let numbers: Vec<u64> = data.as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect();
    numbers
        .chunks(5)
        .map(|token| {
            (token[2], legend["tokenTypes"][token[3] as usize].as_str().unwrap().to_owned())
        })
        .collect()
}
