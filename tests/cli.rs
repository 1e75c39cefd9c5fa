//! End-to-end tests of `pgn-lsp check`: the real binary on the fixtures in `tests/fixtures/cli/`
//! and on `examples/`, with the human and JSON outputs kept as insta snapshots.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

const FIXTURES: &str = "tests/fixtures/cli";

/// What one run of `pgn-lsp check` gave.
struct Run {
    status: i32,
    stdout: String,
    stderr: String,
}

/// Run `pgn-lsp check ARGS` from the crate root, with `stdin` as standard input.
fn check(args: &[&str], stdin: Option<Vec<u8>>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pgn-lsp"))
        .arg("check")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let writer = stdin.map(|input| {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        std::thread::spawn(move || pipe.write_all(&input).expect("stdin is written"))
    });
    let output = child.wait_with_output().expect("the binary runs");
    if let Some(writer) = writer {
        writer.join().expect("the stdin writer finishes");
    }
    Run {
        status: output.status.code().expect("the binary exits with a status, not a signal"),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// `path` relative to the crate root, with `/` separators, as the binary prints it.
fn relative(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rel = path.strip_prefix(root).expect("fixtures are inside the crate");
    rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

fn fixture(name: &str) -> String {
    format!("{FIXTURES}/{name}")
}

fn snapshot_text(run: &Run) -> String {
    format!("exit status: {}\n\n{}", run.status, run.stdout)
}

/// The JSON lines of a run, each checked to hold exactly the documented fields.
fn json_records(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).expect("each line is one JSON object");
            let object = v.as_object().expect("each line is an object");
            let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
            keys.sort_unstable();
            assert_eq!(
                keys,
                ["code", "column", "end_column", "end_line", "file", "line", "message", "severity"],
                "{line}"
            );
            for key in ["file", "code", "severity", "message"] {
                assert!(v[key].is_string(), "{key} in {line}");
            }
            for key in ["line", "column", "end_line", "end_column"] {
                assert!(v[key].as_u64().is_some_and(|n| n >= 1), "{key} in {line}");
            }
            v
        })
        .collect()
}

/// `(code, line, column, end_line, end_column)` of every JSON record.
fn json_positions(stdout: &str) -> Vec<(String, u64, u64, u64, u64)> {
    json_records(stdout)
        .iter()
        .map(|v| {
            let n = |key: &str| v[key].as_u64().expect("a number");
            let code = v["code"].as_str().expect("a string").to_owned();
            (code, n("line"), n("column"), n("end_line"), n("end_column"))
        })
        .collect()
}

#[test]
fn human_output_of_fixtures() {
    insta::glob!("fixtures/cli/*.pgn", |path| {
        let run = check(&["--color", "never", &relative(path)], None);
        assert_eq!(run.stderr, "");
        insta::assert_snapshot!(snapshot_text(&run));
    });
}

#[test]
fn json_output_of_fixtures() {
    insta::glob!("fixtures/cli/*.pgn", |path| {
        let run = check(&["--format", "json", &relative(path)], None);
        json_records(&run.stdout);
        insta::assert_snapshot!(snapshot_text(&run));
    });
}

#[test]
fn human_output_of_examples() {
    insta::glob!("../examples", "*.pgn", |path| {
        let run = check(&["--color", "never", &relative(path)], None);
        insta::assert_snapshot!(snapshot_text(&run));
    });
}

#[test]
fn clean_examples_have_no_diagnostics() {
    for name in ["examples/annotated.pgn", "examples/messy.pgn"] {
        let run = check(&["--format", "json", name], None);
        assert_eq!((run.status, run.stdout.as_str()), (0, ""), "{name}");
    }
}

/// The README's first command shows one of each common mistake.
#[test]
fn the_mistakes_example_shows_each_kind_of_mistake() {
    let run = check(&["--format", "json", "examples/mistakes.pgn"], None);
    assert_eq!(run.status, 1);
    let mut codes: Vec<String> =
        json_positions(&run.stdout).into_iter().map(|(code, ..)| code).collect();
    codes.dedup();
    assert_eq!(
        codes,
        [
            "illegal-move",
            "ambiguous-move",
            "non-canonical-san",
            "move-number",
            "result-mismatch",
            "missing-result",
            "check-suffix",
            "result-contradicts-position"
        ]
    );
}

/// The `--> file:line:col` headers of the human output and the JSON positions agree.
#[test]
fn human_and_json_positions_agree() {
    insta::glob!("fixtures/cli/*.pgn", |path| {
        let file = relative(path);
        let human = check(&["--color", "never", &file], None).stdout;
        let headers: Vec<(String, u64, u64)> = human
            .lines()
            .filter_map(|line| line.trim_start().strip_prefix("--> "))
            .map(|location| {
                let mut parts = location.rsplitn(3, ':');
                let column = parts.next().and_then(|c| c.parse().ok()).expect("a column");
                let line = parts.next().and_then(|l| l.parse().ok()).expect("a line");
                (parts.next().expect("a file").to_owned(), line, column)
            })
            .collect();
        let json = check(&["--format", "json", &file], None).stdout;
        let records: Vec<(String, u64, u64)> = json_records(&json)
            .iter()
            .map(|v| {
                let file = v["file"].as_str().expect("a string").to_owned();
                (file, v["line"].as_u64().expect("line"), v["column"].as_u64().expect("col"))
            })
            .collect();
        assert_eq!(headers, records, "{file}");
    });
}

/// `--format github` gives one GitHub Actions workflow command per diagnostic, at the JSON
/// output's positions, with its code as the title and its severity as the level (information
/// and hints as notices), then the summary line; the exit status is the same.
#[test]
fn github_annotations_agree_with_json() {
    insta::glob!("fixtures/cli/*.pgn", |path| {
        let file = relative(path);
        let github = check(&["--format", "github", &file], None);
        let human = check(&["--color", "never", &file], None);
        let lines: Vec<&str> = github.stdout.lines().collect();
        let (summary, commands) = lines.split_last().expect("a summary line");
        assert_eq!(Some(*summary), human.stdout.lines().last(), "{file}");
        assert_eq!(github.status, human.status, "{file}");
        let annotations: Vec<(String, String, String)> = commands
            .iter()
            .map(|command| {
                let command = command.strip_prefix("::").expect("a workflow command");
                let (head, message) = command.split_once("::").expect("a message");
                let (level, properties) = head.split_once(' ').expect("properties");
                (level.to_owned(), properties.to_owned(), message.to_owned())
            })
            .collect();
        let json = check(&["--format", "json", &file], None).stdout;
        let expected: Vec<(String, String, String)> = json_records(&json)
            .iter()
            .map(|v| {
                let level = match v["severity"].as_str().expect("a severity") {
                    "error" => "error",
                    "warning" => "warning",
                    _ => "notice",
                };
                let properties = format!(
                    "file={},line={},col={},endLine={},endColumn={},title={}",
                    v["file"].as_str().expect("a file"),
                    v["line"],
                    v["column"],
                    v["end_line"],
                    v["end_column"],
                    v["code"].as_str().expect("a code"),
                );
                let message = v["message"].as_str().expect("a message").replace('%', "%25");
                (level.to_owned(), properties, message)
            })
            .collect();
        assert_eq!(annotations, expected, "{file}");
    });
}

#[test]
fn exit_status_is_0_without_errors_and_1_with_one() {
    assert_eq!(check(&[&fixture("clean.pgn")], None).status, 0);
    assert_eq!(check(&[&fixture("warnings.pgn")], None).status, 0);
    assert_eq!(check(&[&fixture("long-line.pgn")], None).status, 0);
    assert_eq!(check(&[&fixture("syntax-errors.pgn")], None).status, 1);
    // One failing file fails the run.
    assert_eq!(check(&[&fixture("clean.pgn"), &fixture("crlf.pgn")], None).status, 1);
}

#[test]
fn deny_warnings_fails_on_warnings_but_not_on_hints() {
    assert_eq!(check(&["--deny-warnings", &fixture("warnings.pgn")], None).status, 1);
    assert_eq!(check(&["--deny-warnings", &fixture("long-line.pgn")], None).status, 0);
    assert_eq!(check(&["--deny-warnings", &fixture("clean.pgn")], None).status, 0);
}

#[test]
fn a_missing_file_exits_2_after_checking_the_others() {
    let missing = fixture("no-such-file.pgn");
    let run = check(&[&missing, &fixture("crlf.pgn")], None);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains(&missing), "{}", run.stderr);
    assert!(run.stdout.contains("crlf.pgn:4:17"), "{}", run.stdout);
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["--format", "xml", "x.pgn"][..],
        &["--ignore", "no-such-code", "x.pgn"],
        &["--min-severity", "fatal", "x.pgn"],
        &["--jobs", "0", "x.pgn"],
        &["--no-such-flag"],
    ] {
        let run = check(args, None);
        assert_eq!(run.status, 2, "{args:?}");
        assert!(!run.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn stdin_gives_the_same_diagnostics_as_the_file() {
    let file = fixture("syntax-errors.pgn");
    let from_file = check(&["--color", "never", &file], None);
    let bytes = std::fs::read(&file).expect("the fixture exists");
    let from_stdin = check(&["--color", "never", "-"], Some(bytes));
    assert_eq!(from_stdin.status, from_file.status);
    assert_eq!(from_stdin.stdout, from_file.stdout.replace(&file, "<stdin>"));
}

/// Standard input is read a piece at a time: the same diagnostics, positions and encodings.
#[test]
fn stdin_gives_the_same_json_as_the_file_in_every_encoding() {
    let names = ["crlf.pgn", "bom.pgn", "latin1.pgn", "latin1-bom.pgn", "syntax-errors.pgn"];
    let utf16 = ["utf16le.pgn", "utf16be.pgn", "utf16-invalid.pgn"];
    for name in names.into_iter().chain(utf16) {
        let file = fixture(name);
        let from_file = check(&["--format", "json", &file], None);
        let from_stdin = check(&["--format", "json", "-"], Some(std::fs::read(&file).unwrap()));
        assert_eq!(from_stdin.status, from_file.status, "{name}");
        let expected = from_file.stdout.replace(&format!("\"{file}\""), "\"<stdin>\"");
        assert_eq!(from_stdin.stdout, expected, "{name}");
    }
}

/// A named pipe (as `<(zstdcat archive.pgn.zst)` gives) is read as it comes, not mapped.
#[cfg(unix)]
#[test]
fn a_named_pipe_is_read_as_a_stream() {
    let dir = tempfile::tempdir().unwrap();
    let pipe = dir.path().join("games.pgn");
    let made = Command::new("mkfifo").arg(&pipe).status().expect("mkfifo runs");
    assert!(made.success());
    let file = fixture("syntax-errors.pgn");
    let bytes = std::fs::read(&file).unwrap();
    let writer = {
        let pipe = pipe.clone();
        std::thread::spawn(move || std::fs::write(pipe, bytes).expect("the pipe is written"))
    };
    let pipe = pipe.to_str().unwrap();
    let from_pipe = check(&["--format", "json", pipe], None);
    writer.join().unwrap();
    let from_file = check(&["--format", "json", &file], None);
    assert_eq!(from_pipe.status, from_file.status);
    assert_eq!(from_pipe.stdout, from_file.stdout.replace(&file, pipe));
}

#[test]
fn columns_count_characters_with_crlf_bom_latin1_and_utf16() {
    let positions = |name: &str| {
        let run = check(&["--format", "json", "--ignore", "missing-tag", &fixture(name)], None);
        json_positions(&run.stdout)
    };
    // `)` after "1. e4 e5 2. Nf3 " on line 4 of a CRLF file.
    assert_eq!(positions("crlf.pgn"), [("unexpected-token".to_owned(), 4, 17, 4, 18)]);
    // The byte-order mark is not counted, as editors do not show it.
    assert_eq!(positions("bom.pgn"), [("unexpected-token".to_owned(), 1, 7, 1, 8)]);
    // Latin-1 "ü" is one character; so are é ♘ 𝄞 in the syntax-errors fixture.
    let latin1 = positions("latin1.pgn");
    assert!(latin1.contains(&("not-utf8".to_owned(), 2, 10, 2, 11)), "{latin1:?}");
    assert!(latin1.contains(&("unexpected-token".to_owned(), 5, 16, 5, 17)), "{latin1:?}");
    let wide = positions("syntax-errors.pgn");
    assert!(wide.contains(&("unexpected-token".to_owned(), 6, 17, 6, 18)), "{wide:?}");
    // A UTF-8 byte-order mark before Latin-1 is a mark all the same, not three characters.
    assert_eq!(
        positions("latin1-bom.pgn"),
        [("not-utf8".to_owned(), 1, 12, 1, 13), ("illegal-move".to_owned(), 9, 20, 9, 24)]
    );
    // In UTF-16, 𝄞 (two units) is one character too; its mark is not counted either.
    for name in ["utf16le.pgn", "utf16be.pgn"] {
        let expected =
            [("not-utf8".to_owned(), 1, 1, 1, 1), ("illegal-move".to_owned(), 9, 19, 9, 23)];
        assert_eq!(positions(name), expected, "{name}");
    }
    let invalid = positions("utf16-invalid.pgn");
    assert_eq!(
        invalid,
        [("not-utf8".to_owned(), 1, 1, 1, 1), ("not-utf8".to_owned(), 4, 9, 4, 10)]
    );
}

#[test]
fn min_severity_and_ignore_filter_what_is_shown_and_counted() {
    let file = fixture("syntax-errors.pgn");
    let errors = check(&["--format", "json", "--min-severity", "error", &file], None);
    let records = json_records(&errors.stdout);
    assert!(!records.is_empty());
    assert!(records.iter().all(|v| v["severity"] == "error"), "{}", errors.stdout);

    let ignoring =
        check(&["--format", "json", "--ignore", "unexpected-token,malformed-tag", &file], None);
    let codes: Vec<String> =
        json_positions(&ignoring.stdout).into_iter().map(|(code, ..)| code).collect();
    assert!(codes.iter().all(|c| c != "unexpected-token" && c != "malformed-tag"), "{codes:?}");
    assert!(codes.iter().any(|c| c == "unclosed-variation"), "{codes:?}");

    // Hiding the only failing diagnostics makes the run pass.
    let warnings = fixture("warnings.pgn");
    let hidden = check(&["--deny-warnings", "--min-severity", "error", &warnings], None);
    assert_eq!((hidden.status, hidden.stdout.as_str()), (0, "no problems in 1 game\n"));
}

#[test]
fn explain_prints_the_summary_of_a_code() {
    let run = check(&["--explain", "empty-variation"], None);
    assert_eq!(run.status, 0);
    assert_eq!(run.stdout, "empty-variation (warning): A variation with no moves: ().\n");
}

#[test]
fn colour_is_used_only_when_asked_or_on_a_terminal() {
    let file = fixture("crlf.pgn");
    let always = check(&["--color", "always", &file], None);
    assert!(always.stdout.contains("\u{1b}["), "{}", always.stdout);
    // Standard output is a pipe here, so `auto` means no colour.
    let auto = check(&[&file], None);
    assert!(!auto.stdout.contains('\u{1b}'), "{}", auto.stdout);
}

/// Many games, several batches: the output is the same whatever the number of threads, in
/// file order.
#[test]
fn parallel_checking_keeps_file_order() {
    let text: String = (1..=4500)
        .map(|i| {
            let close = if i % 3 == 0 { ")" } else { "" };
            format!("[Event \"{i}\"]\n[Result \"*\"]\n\n1. e4 {close} e5 *\n\n")
        })
        .collect();
    let one = check(&["--format", "json", "--jobs", "1", "-"], Some(text.clone().into_bytes()));
    let three = check(&["--format", "json", "--jobs", "3", "-"], Some(text.into_bytes()));
    assert_eq!(one.stdout, three.stdout);
    let lines: Vec<u64> = json_records(&one.stdout)
        .iter()
        .filter(|v| v["code"] == "unexpected-token")
        .map(|v| v["line"].as_u64().expect("a line"))
        .collect();
    let expected: Vec<u64> =
        (1..=4500u64).filter(|i| i % 3 == 0).map(|i| (i - 1) * 5 + 4).collect();
    assert_eq!(lines, expected);
}

#[test]
fn an_empty_file_has_no_games() {
    let run = check(&[&fixture("empty.pgn")], None);
    assert_eq!((run.status, run.stdout.as_str()), (0, "no problems in 0 games\n"));
}

/// A directory stands for its PGN files and those of its subdirectories (`*.pgn` in any case),
/// in name order, without hidden ones or those an `.ignore` file names
/// (`tests/fixtures/cli-tree/`: `.hidden/`, `skipped/` and `notes.txt` hold illegal moves).
#[test]
fn a_directory_stands_for_its_pgn_files() {
    let run = check(&["--color", "never", "tests/fixtures/cli-tree"], None);
    assert_eq!(run.stderr, "");
    insta::assert_snapshot!(snapshot_text(&run));
    // GitHub finds annotated files by their paths from the repository's root, without `./`.
    let github = check(&["--format", "github", "./tests/fixtures/cli-tree/sub"], None);
    let annotation = "::warning file=tests/fixtures/cli-tree/sub/b.pgn,line=9,col=10,endLine=9,\
                      endColumn=12,title=move-number::move number 3: this is move 2 (White to \
                      move); write 2.\n";
    assert_eq!(github.stdout, format!("{annotation}0 errors, 1 warning in 1 game\n"));
    // A file named on the command line is read whatever its name and wherever it is.
    for file in ["skipped/skipped.pgn", ".hidden/hidden.pgn", "notes.txt"] {
        let run = check(&["--format", "json", &format!("tests/fixtures/cli-tree/{file}")], None);
        assert_eq!(json_positions(&run.stdout), [("illegal-move".to_owned(), 9, 13, 9, 16)]);
    }
}

#[test]
fn a_directory_without_pgn_files_exits_2_after_checking_the_others() {
    let run = check(&["tests/fixtures/cli-tree/text-only", &fixture("crlf.pgn")], None);
    assert_eq!(run.status, 2);
    assert_eq!(run.stderr, "pgn-lsp: no PGN files in tests/fixtures/cli-tree/text-only\n");
    assert!(run.stdout.contains("crlf.pgn:4:17"), "{}", run.stdout);
}

/// In a Git repository, what `.gitignore` ignores is left out (build output, dependencies).
#[test]
fn a_directory_in_a_git_repository_leaves_out_what_gitignore_ignores() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let root = dir.path();
    std::fs::create_dir_all(root.join(".git")).expect("the repository's folder");
    std::fs::create_dir_all(root.join("node_modules/chess")).expect("a dependency's folder");
    std::fs::write(root.join(".gitignore"), "node_modules/\n").expect(".gitignore");
    let illegal = "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke4 *\n";
    std::fs::write(root.join("node_modules/chess/test.pgn"), illegal).expect("an ignored file");
    std::fs::write(root.join("games.pgn"), "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 *\n")
        .expect("a game");
    let root = root.to_str().expect("a UTF-8 temporary path");
    let run = check(&["--format", "json", "--min-severity", "warning", root], None);
    assert_eq!((run.status, run.stdout.as_str(), run.stderr.as_str()), (0, "", ""));
    let run = check(&["--format", "json", &format!("{root}/node_modules/chess/test.pgn")], None);
    assert_eq!(run.status, 1);
}

/// The `[diagnostics]` of the `pgn-lsp.toml` nearest a file choose what is shown of it, with
/// the flags: a diagnostic is shown when both keep it; `--fix` fixes only what is shown; a
/// settings file that cannot be read is an error for the files under it.
#[test]
fn the_nearest_pgn_lsp_toml_chooses_the_diagnostics_shown_with_the_flags() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let games = dir.path().join("games");
    std::fs::create_dir(&games).expect("a folder");
    let settings = dir.path().join("pgn-lsp.toml");
    let config = "[diagnostics]\nmin-severity = \"warning\"\nignore = [\"move-number\"]\n";
    std::fs::write(&settings, config).expect("pgn-lsp.toml");
    // A missing tag (information), a wrong move number (a warning) and an illegal move.
    let text = "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 e5 3. Nf3 Ke7 Ke3 *\n";
    let file = games.join("game.pgn");
    std::fs::write(&file, text).expect("a game");
    let file = file.to_str().expect("a UTF-8 temporary path");
    let codes = |args: &[&str]| {
        let run = check(&[&["--format", "json"], args, &[file]].concat(), None);
        let codes: Vec<String> = json_positions(&run.stdout).into_iter().map(|p| p.0).collect();
        (run.status, codes)
    };
    assert_eq!(codes(&[]), (1, vec!["illegal-move".to_owned()]));
    assert_eq!(codes(&["--ignore", "illegal-move"]), (0, vec![]));
    assert_eq!(codes(&["--min-severity", "error"]), (1, vec!["illegal-move".to_owned()]));
    // The flags cannot show what the file leaves out.
    assert_eq!(codes(&["--min-severity", "hint"]), (1, vec!["illegal-move".to_owned()]));
    let run = check(&["--fix", file], None);
    assert_eq!(run.stderr, "", "nothing shown is fixable");
    assert_eq!(std::fs::read_to_string(file).expect("the game"), text);
    std::fs::write(&settings, "[diagnostics]\nignore = [\"no-such-code\"]\n").expect("toml");
    let run = check(&[file], None);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("pgn-lsp.toml: unknown diagnostic code"), "{}", run.stderr);
}
