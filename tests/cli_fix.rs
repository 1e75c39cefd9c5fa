//! End-to-end tests of `pgn-lsp check --fix`: the real binary on copies of the fixtures in
//! `tests/fixtures/fix/`, each run's file as fixed, its messages and the diagnostics left kept
//! as insta snapshots; and the guarantees around them: a second run changes nothing, a file
//! without fixes is not written, standard input goes to standard output, the filter chooses the
//! fixes, and a file keeps its encoding (Latin-1, UTF-16, a byte order mark).

mod common;

use std::path::Path;

/// What one run of `pgn-lsp check --fix` gave.
struct Run {
    status: i32,
    stdout: Vec<u8>,
    stderr: String,
}

/// Run `pgn-lsp check --fix --color never ARGS` in `dir`, with `stdin` as standard input.
fn fix(dir: &Path, args: &[&str], stdin: &[u8]) -> Run {
    let args = [&["check", "--fix", "--color", "never"], args].concat();
    let output = common::run_pgn_lsp(&args, dir, stdin);
    Run {
        status: output.status.code().expect("the binary exits with a status, not a signal"),
        stdout: output.stdout,
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// A temporary folder holding `name` with `bytes`.
fn folder_with(name: &str, bytes: &[u8]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(dir.path().join(name), bytes).expect("the file is written");
    dir
}

#[test]
fn fixtures_are_fixed() {
    insta::glob!("fixtures/fix/*.pgn", |path| {
        let name = path.file_name().unwrap().to_str().unwrap();
        let dir = folder_with(name, &std::fs::read(path).unwrap());
        let run = fix(dir.path(), &[name], b"");
        let fixed = std::fs::read_to_string(dir.path().join(name)).unwrap();
        let remaining = String::from_utf8(run.stdout).unwrap();
        insta::assert_snapshot!(format!(
            "exit status: {}\n{}\n--- the file as fixed\n{fixed}\n--- what is left\n{remaining}",
            run.status, run.stderr
        ));
        let again = fix(dir.path(), &[name], b"");
        assert_eq!(std::fs::read_to_string(dir.path().join(name)).unwrap(), fixed);
        assert_eq!(again.stderr, "", "a second run fixes nothing");
        assert_eq!(String::from_utf8(again.stdout).unwrap(), remaining);
    });
}

/// The file is neither rewritten nor replaced: the same inode, the same modification time.
#[cfg(unix)]
#[test]
fn a_file_without_fixes_is_not_written() {
    use std::os::unix::fs::MetadataExt;
    let text = "[Event \"e\"]\n[Site \"s\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"w\"]\n\
                [Black \"b\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n";
    let dir = folder_with("games.pgn", text.as_bytes());
    let file = dir.path().join("games.pgn");
    let before = std::fs::metadata(&file).unwrap();
    let run = fix(dir.path(), &["games.pgn"], b"");
    assert_eq!(run.status, 1, "the illegal move is left: {}", run.stderr);
    assert_eq!(run.stderr, "");
    assert!(String::from_utf8(run.stdout).unwrap().contains("error[illegal-move]"));
    let after = std::fs::metadata(&file).unwrap();
    assert_eq!(after.ino(), before.ino());
    assert_eq!(after.modified().unwrap(), before.modified().unwrap());
}

#[test]
fn standard_input_is_fixed_to_standard_output() {
    let text = std::fs::read("tests/fixtures/fix/moves.pgn").unwrap();
    let dir = folder_with("moves.pgn", &text);
    let in_place = fix(dir.path(), &["moves.pgn"], b"");
    let piped = fix(dir.path(), &["-"], &text);
    assert_eq!(piped.stdout, std::fs::read(dir.path().join("moves.pgn")).unwrap());
    assert_eq!(piped.status, in_place.status);
    // The diagnostics left go to standard error, after the count of fixes.
    let remaining = String::from_utf8(in_place.stdout).unwrap().replace("moves.pgn", "<stdin>");
    assert_eq!(piped.stderr, in_place.stderr.replace("moves.pgn", "<stdin>") + &remaining);
}

#[test]
fn only_the_diagnostics_shown_are_fixed() {
    let text = "[Event \"e\"]\n\n1. e4 e5 2. Ng1f3 *\n";
    let dir = folder_with("games.pgn", text.as_bytes());
    let run = fix(dir.path(), &["--ignore", "non-canonical-san", "games.pgn"], b"");
    assert_eq!(run.stderr, "pgn-lsp: games.pgn: 1 fix made\n");
    let fixed = std::fs::read_to_string(dir.path().join("games.pgn")).unwrap();
    assert!(fixed.starts_with("[Event \"e\"]\n[Site \"?\"]\n"), "{fixed}");
    assert!(fixed.ends_with("2. Ng1f3 *\n"), "{fixed}");
    let run = fix(dir.path(), &["--min-severity", "warning", "games.pgn"], b"");
    assert_eq!(run.stderr, "pgn-lsp: games.pgn: 1 fix made\n");
    let fixed = std::fs::read_to_string(dir.path().join("games.pgn")).unwrap();
    assert!(fixed.ends_with("2. Nf3 *\n"), "{fixed}");
}

#[test]
fn a_latin1_file_stays_latin1() {
    // A comment in Latin-1 (é is 0xE9), a move to write canonically, and two references: one
    // to a glyph Latin-1 has (±, 0xB1), one to a glyph it has not (∓), which is left.
    let mut bytes = b"[Event \"Caf\xE9\"]\n\n1. e4 {Caf\xE9} e5 2. Ng1f3 ".to_vec();
    bytes.extend_from_slice(b"&plusmn; &#8723; *\n");
    let dir = folder_with("games.pgn", &bytes);
    let run = fix(dir.path(), &["--min-severity", "warning", "games.pgn"], b"");
    let fixed = std::fs::read(dir.path().join("games.pgn")).unwrap();
    let mut expected = b"[Event \"Caf\xE9\"]\n\n1. e4 {Caf\xE9} e5 2. Nf3 ".to_vec();
    expected.extend_from_slice(b"\xB1 &#8723; *\n");
    assert_eq!(fixed, expected, "{}", String::from_utf8_lossy(&fixed));
    let remaining = String::from_utf8(run.stdout).unwrap();
    assert!(remaining.contains("warning[not-utf8]"), "{remaining}");
    assert!(remaining.contains("&#8723;"), "{remaining}");
}

/// The encoding a fixture's byte order mark names, and its text after the mark: decoded here,
/// not by the program, so that bytes written in another encoding than the file's show.
fn decode_by_mark(bytes: &[u8]) -> (&'static str, String) {
    let utf16 = |rest: &[u8], unit: fn([u8; 2]) -> u16| {
        assert!(rest.len().is_multiple_of(2), "an odd number of bytes in UTF-16");
        let units: Vec<u16> = rest.chunks_exact(2).map(|pair| unit([pair[0], pair[1]])).collect();
        String::from_utf16(&units).expect("valid UTF-16")
    };
    match bytes {
        [0xFF, 0xFE, rest @ ..] => ("UTF-16, little-endian", utf16(rest, u16::from_le_bytes)),
        [0xFE, 0xFF, rest @ ..] => ("UTF-16, big-endian", utf16(rest, u16::from_be_bytes)),
        [0xEF, 0xBB, 0xBF, rest @ ..] => {
            assert!(std::str::from_utf8(rest).is_err(), "the fixture is not UTF-8");
            ("Latin-1 after a UTF-8 byte order mark", rest.iter().map(|&b| char::from(b)).collect())
        }
        _ => panic!("the fixture starts with a byte order mark"),
    }
}

/// A file in Latin-1 after a UTF-8 byte order mark, or in UTF-16 of either byte order, is
/// fixed as its text in UTF-8 is, and written back in its encoding, its mark kept.
#[test]
fn files_are_fixed_in_their_encoding() {
    insta::glob!("fixtures/fix/encodings/*.pgn", |path| {
        let name = path.file_name().unwrap().to_str().unwrap();
        let (encoding, text) = decode_by_mark(&std::fs::read(path).unwrap());
        let dir = folder_with(name, &std::fs::read(path).unwrap());
        let run = fix(dir.path(), &[name], b"");
        let (written_in, fixed) = decode_by_mark(&std::fs::read(dir.path().join(name)).unwrap());
        assert_eq!(written_in, encoding);
        let remaining = String::from_utf8(run.stdout).unwrap();
        insta::assert_snapshot!(format!(
            "exit status: {}\n{}\n--- the file as fixed, in {encoding}\n{fixed}\n--- what is left\n\
             {remaining}",
            run.status, run.stderr
        ));
        std::fs::write(dir.path().join("utf8.pgn"), format!("\u{FEFF}{text}")).unwrap();
        fix(dir.path(), &["utf8.pgn"], b"");
        let utf8 = std::fs::read_to_string(dir.path().join("utf8.pgn")).unwrap();
        assert_eq!(utf8, format!("\u{FEFF}{fixed}"), "fixed as the same text in UTF-8");
        let again = fix(dir.path(), &[name], b"");
        assert_eq!(again.stderr, "", "a second run fixes nothing");
        assert_eq!(decode_by_mark(&std::fs::read(dir.path().join(name)).unwrap()).1, fixed);
    });
}

/// A file that starts with a UTF-16 byte order mark but holds a unit that is no character (a
/// first surrogate alone, here) is not written: its text lost that unit.
#[test]
fn a_file_that_is_not_valid_utf16_is_left_as_it_is() {
    let mut bytes = b"\xFF\xFE1\0.\0 \0e\x004\0 \0{\0".to_vec();
    bytes.extend_from_slice(b"\x3D\xD8}\0 \0e\x005\0\n\0");
    let dir = folder_with("games.pgn", &bytes);
    let run = fix(dir.path(), &["games.pgn"], b"");
    assert_eq!(run.status, 2);
    assert_eq!(
        run.stderr,
        "pgn-lsp: cannot fix games.pgn: the file is UTF-16 (little-endian, as its byte order \
         mark says) but not valid UTF-16: it cannot be fixed without losing what is not \
         (`pgn-lsp check` shows where)\n"
    );
    assert_eq!(std::fs::read(dir.path().join("games.pgn")).unwrap(), bytes);
    let piped = fix(dir.path(), &["-"], &bytes);
    assert_eq!((piped.status, piped.stdout.len()), (2, 0), "{}", piped.stderr);
}

/// The lines fixes add to a file whose first line ends with CRLF end with CRLF too: the file
/// fixed is the LF file fixed, with CRLF.
#[test]
fn a_crlf_file_keeps_its_line_breaks() {
    let text = "[Event \"e\"]\n\n1. e4 e5 2. Nf3 Nc6 4. Bc4 *\n\n1. d4 {a\nb} *\n";
    let dir = folder_with("lf.pgn", text.as_bytes());
    std::fs::write(dir.path().join("crlf.pgn"), text.replace('\n', "\r\n")).unwrap();
    let lf = fix(dir.path(), &["lf.pgn"], b"");
    let crlf = fix(dir.path(), &["crlf.pgn"], b"");
    assert_eq!(crlf.stderr, lf.stderr.replace("lf.pgn", "crlf.pgn"));
    let lf = std::fs::read_to_string(dir.path().join("lf.pgn")).unwrap();
    assert!(lf.contains("[Site \"?\"]\n") && lf.contains("3. Bc4"), "{lf}");
    let crlf = std::fs::read_to_string(dir.path().join("crlf.pgn")).unwrap();
    assert_eq!(crlf, lf.replace('\n', "\r\n"));
}
