//! Formatter tests. Fixtures: every `tests/fixtures/fmt/<options>/*.pgn` is formatted with the
//! options its directory names and the output is compared with an insta snapshot; each output
//! is also checked by [`formatted_and_checked`]. Each fixture's first line says what it shows.
//! The property tests (`fmt/properties.rs`) and the command tests (`fmt/cli.rs`) are modules of
//! this test crate.

#[path = "fmt/cli.rs"]
mod cli;
mod common;
#[path = "fmt/properties.rs"]
mod properties;

use pgn_lsp::fmt::content::compare_texts;
use pgn_lsp::fmt::{FormatOptions, FormattedGame, GameOutput, format_games, format_text};
use pgn_lsp::syntax::is_tag_line;

/// The options a fixture directory stands for.
fn options_for(dir: &str) -> FormatOptions {
    let default = FormatOptions::default();
    match dir {
        "default" => default,
        "comments-kept" => FormatOptions { reflow_comments: false, ..default },
        "reduced" => FormatOptions { reduced: true, ..default },
        "no-missing-tags" => FormatOptions { add_missing_tags: false, ..default },
        "width-40" => FormatOptions { line_width: 40, ..default },
        other => panic!("no options for fixture directory {other}"),
    }
}

#[test]
fn fixtures() {
    insta::glob!("fixtures/fmt/*/*.pgn", |path| {
        let dir = path.parent().and_then(std::path::Path::file_name).unwrap().to_str().unwrap();
        let input = std::fs::read_to_string(path).unwrap();
        let output = formatted_and_checked(&input, &options_for(dir));
        insta::assert_snapshot!(output);
    });
}

/// Format `input` and check the result: formatting it again changes nothing, its content is
/// the input's (games with structural errors byte for byte), and its formatted games keep the
/// layout rules.
pub fn formatted_and_checked(input: &str, options: &FormatOptions) -> String {
    let games: Vec<FormattedGame<'_>> = format_games(input, options).collect();
    let output: String = games.iter().map(FormattedGame::text).collect();
    let again = format_text(&output, options);
    assert_eq!(again, output, "formatting the output again changed it; input:\n{input}");
    if let Err(e) = compare_texts(input, &output, options) {
        panic!("content changed: {e}\ninput:\n{input}\noutput:\n{output}");
    }
    let broken: Vec<&str> = games
        .iter()
        .filter_map(|g| match &g.output {
            GameOutput::Formatted(text) => Some(text),
            GameOutput::Kept(_) => None,
        })
        .flat_map(|text| layout_errors(text, options))
        .collect();
    assert!(broken.is_empty(), "layout: {broken:#?}\noutput:\n{output}");
    output
}

/// Lines of a formatted game that break a layout rule: LF line ends only; no line starts or
/// ends with a space; no line is wider than the width allows unless it cannot be broken (a tag
/// pair, an escape or `;` comment line, or a single word with its braces and commands). Lines
/// inside comments kept as written are their authors'.
fn layout_errors<'a>(text: &'a str, options: &FormatOptions) -> Vec<&'a str> {
    let mut errors = Vec::new();
    if options.reflow_comments {
        let mut offset = 0;
        for line in text.split('\n') {
            let edge_space = line.starts_with(' ') || line.ends_with(' ') && !line.starts_with('%');
            let too_wide = line.chars().count() > options.line_width - 1
                && !line.starts_with(['[', '%', ';'])
                && has_break_opportunity(line, &text[offset..]);
            offset += line.len() + 1;
            if line.contains('\r') || edge_space || too_wide {
                errors.push(line);
            }
        }
    }
    errors
}

/// Whether the line has a space where a line could break: not inside `{ ` or ` }`, nor inside
/// an embedded `[%command ...]`, nor before comment text that would read as a tag pair at the
/// start of a line (the text that follows, `rest`, with its line ends as spaces).
fn has_break_opportunity(line: &str, rest: &str) -> bool {
    let bytes = line.as_bytes();
    let starts_tag_line = |at: usize| {
        let after: String = rest[at..].chars().take(300).collect();
        is_tag_line(after.replace('\n', " ").as_bytes())
    };
    let mut in_command = false;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'[' if bytes.get(i + 1) == Some(&b'%') => in_command = true,
            b']' => in_command = false,
            b' ' if !in_command
                && i > 0
                && bytes[i - 1] != b'{'
                && bytes.get(i + 1) != Some(&b'}')
                && !starts_tag_line(i + 1) =>
            {
                return true;
            }
            _ => {}
        }
    }
    false
}
