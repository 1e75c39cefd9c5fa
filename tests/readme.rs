//! The README tells the truth: its table of diagnostic codes is the registry's, and its sample
//! outputs are what the binary prints.

use std::process::Command;

use pgn_lsp::syntax::Code;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md is readable")
}

fn table_row(code: Code) -> String {
    format!("| `{}` | {} | {} |", code.as_str(), code.default_severity().as_str(), code.summary())
}

#[test]
fn code_table_matches_the_registry() {
    let readme = readme();
    const HEADER: &str = "| code | severity | meaning |\n|---|---|---|\n";
    let table =
        &readme[readme.find(HEADER).expect("the README has the code table") + HEADER.len()..];
    let rows: Vec<&str> = table.lines().take_while(|line| line.starts_with('|')).collect();
    let expected: Vec<String> = Code::ALL.iter().map(|&code| table_row(code)).collect();
    assert_eq!(
        rows,
        expected,
        "the README's code table differs from the registry; it should read:\n\n{HEADER}{}\n",
        expected.join("\n")
    );
}

/// The first fenced `text`/`json` block of the README after `after`.
fn fenced_block<'a>(readme: &'a str, fence: &str, after: &str) -> &'a str {
    let from = readme.find(after).expect("the anchor is in the README");
    let start = readme[from..].find(fence).expect("the block is in the README") + from;
    let body = &readme[start + fence.len()..];
    &body[..body.find("```").expect("the block is closed")]
}

fn check(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_pgn-lsp"))
        .arg("check")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    String::from_utf8(output.stdout).expect("the output is UTF-8")
}

#[test]
fn sample_outputs_are_real() {
    let readme = readme();
    let human = fenced_block(&readme, "```text\n", "# pgn-lsp");
    let output = check(&["--color", "never", "examples/mistakes.pgn"]);
    assert!(output.starts_with(human), "README sample:\n{human}\nreal output:\n{output}");

    let json = fenced_block(&readme, "```json\n", "**JSON lines:**");
    let output = check(&["--format", "json", "examples/mistakes.pgn"]);
    assert!(output.lines().any(|line| format!("{line}\n") == json), "{json}\nnot in\n{output}");
}
