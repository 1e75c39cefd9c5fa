//! The `pgn-lsp fmt` command, run as a process: standard input to standard output, in-place
//! rewriting (atomic, permissions and links kept, untouched when already formatted), `--check`,
//! `--diff`, options from flags and `pgn-lsp.toml`, encodings, reports and exit statuses.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::Output;

const MESSY: &str = "[White \"A\"]\n[Event \"E\"]\n\n1.e4 e5 2.Nf3!   {a\n comment} Nc6 *\n";
const FORMATTED: &str = "[Event \"E\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
[White \"A\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 $1 { a comment } 2... Nc6 *\n\n";

fn pgn_lsp(args: &[&str], dir: &Path, stdin: &[u8]) -> Output {
    crate::common::run_pgn_lsp(args, dir, stdin)
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap()
}

#[test]
fn standard_input_goes_to_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = pgn_lsp(&["fmt"], dir.path(), MESSY.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), FORMATTED);
    let out = pgn_lsp(&["fmt", "-"], dir.path(), FORMATTED.as_bytes());
    assert_eq!(text(&out.stdout), FORMATTED);
}

#[test]
fn files_are_rewritten_in_place_keeping_permissions() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.pgn");
    fs::write(&file, MESSY).unwrap();
    fs::set_permissions(&file, fs::Permissions::from_mode(0o640)).unwrap();
    let out = pgn_lsp(&["fmt", "games.pgn"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    assert_eq!(fs::read_to_string(&file).unwrap(), FORMATTED);
    assert_eq!(fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o640);
    let names: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["games.pgn"], "no temporary file is left behind");
}

#[test]
fn formatted_files_are_not_touched() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.pgn");
    fs::write(&file, FORMATTED).unwrap();
    let inode = fs::metadata(&file).unwrap().ino();
    let out = pgn_lsp(&["fmt", "games.pgn"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(fs::metadata(&file).unwrap().ino(), inode, "the file was replaced");
}

#[test]
fn a_file_that_only_loses_trailing_blank_lines_is_shortened() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.pgn");
    fs::write(&file, format!("{FORMATTED}\n\n\n")).unwrap();
    pgn_lsp(&["fmt", "games.pgn"], dir.path(), b"");
    assert_eq!(fs::read_to_string(&file).unwrap(), FORMATTED);
}

#[test]
fn a_link_is_followed_and_stays_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("target.pgn");
    let link = dir.path().join("link.pgn");
    fs::write(&target, MESSY).unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = pgn_lsp(&["fmt", "link.pgn"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(fs::read_to_string(&target).unwrap(), FORMATTED);
}

#[test]
fn check_lists_files_that_would_change_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("messy.pgn"), MESSY).unwrap();
    fs::write(dir.path().join("clean.pgn"), FORMATTED).unwrap();
    let out = pgn_lsp(&["fmt", "--check", "messy.pgn", "clean.pgn"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "messy.pgn\n");
    assert_eq!(fs::read_to_string(dir.path().join("messy.pgn")).unwrap(), MESSY);
    let out = pgn_lsp(&["fmt", "--check", "clean.pgn"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    let out = pgn_lsp(&["fmt", "--check", "-"], dir.path(), MESSY.as_bytes());
    assert_eq!((out.status.code(), text(&out.stdout)), (Some(1), "<stdin>\n"));
}

/// A directory stands for its PGN files, found as `check` finds them: `--check` lists those
/// that would change in name order, and without it they are rewritten; hidden files and files
/// of other names are left alone.
#[test]
fn a_directory_stands_for_its_pgn_files() {
    let dir = tempfile::tempdir().unwrap();
    for folder in ["games/openings", "games/.drafts"] {
        fs::create_dir_all(dir.path().join(folder)).unwrap();
    }
    let messy = ["games/b.pgn", "games/A.PGN", "games/openings/c.pgn"];
    let untouched = ["games/.drafts/d.pgn", "games/notes.txt", "games/clean.pgn"];
    for file in messy.iter().chain(&untouched[..2]) {
        fs::write(dir.path().join(file), MESSY).unwrap();
    }
    fs::write(dir.path().join(untouched[2]), FORMATTED).unwrap();
    let out = pgn_lsp(&["fmt", "--check", "games"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "games/A.PGN\ngames/b.pgn\ngames/openings/c.pgn\n");
    let out = pgn_lsp(&["fmt", "games"], dir.path(), b"");
    assert_eq!((out.status.code(), text(&out.stderr)), (Some(0), ""));
    for file in messy.iter().chain(&untouched[2..]) {
        assert_eq!(fs::read_to_string(dir.path().join(file)).unwrap(), FORMATTED, "{file}");
    }
    for file in &untouched[..2] {
        assert_eq!(fs::read_to_string(dir.path().join(file)).unwrap(), MESSY, "{file}");
    }
    let out = pgn_lsp(&["fmt", "--check", "games"], dir.path(), b"");
    assert_eq!((out.status.code(), text(&out.stdout)), (Some(0), ""));
    // A hidden directory named on the command line is read.
    let out = pgn_lsp(&["fmt", "--check", "games/.drafts"], dir.path(), b"");
    assert_eq!((out.status.code(), text(&out.stdout)), (Some(1), "games/.drafts/d.pgn\n"));
}

/// `--check` with standard output closed after the first name (`| head -1`): no panic. The
/// names fill more than a pipe holds, so writing them meets the closed pipe.
#[test]
fn check_stops_quietly_when_standard_output_closes() {
    let dir = tempfile::tempdir().unwrap();
    let long_name = "x".repeat(200);
    for i in 0..1000 {
        fs::write(dir.path().join(format!("{i:04}{long_name}.pgn")), MESSY).unwrap();
    }
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pgn-lsp"))
        .args(["fmt", "--check", "."])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 7];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).unwrap();
    assert_eq!(&first, b"./0000x");
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!((out.status.code(), text(&out.stderr)), (Some(1), ""));
}

#[test]
fn diff_prints_a_unified_diff_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("messy.pgn"), MESSY).unwrap();
    let out = pgn_lsp(&["fmt", "--diff", "messy.pgn"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(0));
    let diff = text(&out.stdout);
    assert!(diff.starts_with("--- a/messy.pgn\n+++ b/messy.pgn\n@@ "), "{diff}");
    assert!(diff.contains("\n-1.e4 e5 2.Nf3!   {a\n"), "{diff}");
    assert!(diff.contains("\n+1. e4 e5 2. Nf3 $1 { a comment } 2... Nc6 *\n"), "{diff}");
    assert!(diff.contains("\n+[Site \"?\"]\n"), "{diff}");
    assert_eq!(fs::read_to_string(dir.path().join("messy.pgn")).unwrap(), MESSY);
    let out = pgn_lsp(&["fmt", "--diff", "--check", "messy.pgn"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(1));
}

/// The diff of a Latin-1 file shows its lines in Latin-1, as `patch` finds them in the file.
#[test]
fn the_diff_of_a_latin1_file_is_in_latin1() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("latin1.pgn"), b"[Event \"Caf\xe9\"]\n\n1.e4 {d\xe9j\xe0} *\n")
        .unwrap();
    let out = pgn_lsp(&["fmt", "--diff", "--no-add-missing-tags", "latin1.pgn"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(0));
    let expected: &[u8] = b"--- a/latin1.pgn\n+++ b/latin1.pgn\n@@ -1,3 +1,4 @@\n \
        [Event \"Caf\xe9\"]\n \n-1.e4 {d\xe9j\xe0} *\n+1. e4 { d\xe9j\xe0 } *\n+\n";
    assert_eq!(out.stdout, expected, "{}", String::from_utf8_lossy(&out.stdout));
}

/// Each hunk of a unified diff holds as many lines of each side, ended by LF, as its header
/// says: what `patch` needs to apply it.
fn assert_hunks_add_up(diff: &[u8]) {
    let lines: Vec<&[u8]> = diff.split_inclusive(|&b| b == b'\n').collect();
    let count = |range: &str| range.split_once(',').map_or(1, |(_, n)| n.parse().unwrap());
    let mut at = 2;
    while at < lines.len() {
        let header = std::str::from_utf8(lines[at]).unwrap();
        let ranges: Vec<&str> = header.trim_end().split(' ').collect();
        assert!(ranges.len() == 4 && ranges[0] == "@@" && ranges[3] == "@@", "{header:?}");
        let (mut old, mut new): (usize, usize) = (count(ranges[1]), count(ranges[2]));
        at += 1;
        while old + new > 0 {
            let line = lines[at];
            match line[0] {
                b' ' => (old, new) = (old - 1, new - 1),
                b'-' => old -= 1,
                b'+' => new -= 1,
                _ => panic!("{:?} in a hunk", String::from_utf8_lossy(line)),
            }
            at += 1;
            if lines.get(at).is_some_and(|l| l.starts_with(b"\\ No newline at end of file")) {
                at += 1;
            }
        }
    }
}

/// A lone CR (old Mac OS files) ends no line for `patch`: the diff's lines are split at LF, and
/// its header counts them so.
#[test]
fn the_diff_of_a_file_with_lone_crs_applies() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("cr.pgn"), "[Event \"E\"]\r\r1.e4 e5\r*\r").unwrap();
    let out = pgn_lsp(&["fmt", "--diff", "--no-add-missing-tags", "cr.pgn"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(0));
    let expected = "--- a/cr.pgn\n+++ b/cr.pgn\n@@ -1 +1,4 @@\n\
        -[Event \"E\"]\r\r1.e4 e5\r*\r\n\\ No newline at end of file\n\
        +[Event \"E\"]\n+\n+1. e4 e5 *\n+\n";
    assert_eq!(text(&out.stdout), expected);
    assert_hunks_add_up(&out.stdout);
    // Lone CRs inside a line of a file split at LF.
    fs::write(dir.path().join("mixed.pgn"), "[Event \"E\"]\n\n1.e4 {a\rb} e5 *\n").unwrap();
    let out = pgn_lsp(&["fmt", "--diff", "--no-add-missing-tags", "mixed.pgn"], dir.path(), b"");
    let expected = "--- a/mixed.pgn\n+++ b/mixed.pgn\n@@ -1,3 +1,4 @@\n [Event \"E\"]\n \n\
        -1.e4 {a\rb} e5 *\n+1. e4 { a b } 1... e5 *\n+\n";
    assert_eq!(text(&out.stdout), expected);
    assert_hunks_add_up(&out.stdout);
}

#[test]
fn options_come_from_the_nearest_config_file_and_flags_override_it() {
    let dir = tempfile::tempdir().unwrap();
    let nested = dir.path().join("games/2024");
    fs::create_dir_all(&nested).unwrap();
    fs::write(dir.path().join("pgn-lsp.toml"), "line-width = 20\nadd-missing-tags = false\n")
        .unwrap();
    let game = "[Event \"E\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n";
    fs::write(nested.join("g.pgn"), game).unwrap();
    pgn_lsp(&["fmt", "games/2024/g.pgn"], dir.path(), b"");
    let narrow = "[Event \"E\"]\n\n1. e4 e5 2. Nf3 Nc6\n3. Bb5 a6 *\n\n";
    assert_eq!(fs::read_to_string(nested.join("g.pgn")).unwrap(), narrow);

    let out = pgn_lsp(&["fmt", "--line-width", "80", "-"], &nested, game.as_bytes());
    assert_eq!(text(&out.stdout), "[Event \"E\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n");
    let out = pgn_lsp(&["fmt", "--reduced", "-"], &nested, b"1. e4 {c} e5 $1 (1... c5) *");
    assert_eq!(text(&out.stdout), "1. e4 e5 *\n\n");
    let out = pgn_lsp(&["fmt", "--no-reflow-comments", "-"], &nested, b"1. e4 {a\n  b} *");
    assert_eq!(text(&out.stdout), "1. e4 { a\n  b } *\n\n");
    let out = pgn_lsp(&["fmt", "--no-add-missing-tags", "-"], &nested, b"1. e4 *");
    assert_eq!(text(&out.stdout), "1. e4 *\n\n");
}

#[test]
fn usage_config_and_io_errors_exit_with_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = pgn_lsp(&["fmt", "--line-width", "1", "-"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(2));

    fs::write(dir.path().join("ok.pgn"), MESSY).unwrap();
    let out = pgn_lsp(&["fmt", "missing.pgn", "ok.pgn"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("missing.pgn"), "{}", text(&out.stderr));
    assert_eq!(fs::read_to_string(dir.path().join("ok.pgn")).unwrap(), FORMATTED);

    fs::write(dir.path().join("pgn-lsp.toml"), "line-widht = 60\n").unwrap();
    let out = pgn_lsp(&["fmt", "ok.pgn"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("pgn-lsp.toml"), "{}", text(&out.stderr));
}

#[test]
fn latin1_files_are_written_back_in_latin1() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("latin1.pgn");
    fs::write(&file, b"[Event \"Caf\xe9\"]\n\n1.e4 {d\xe9j\xe0 vu} *\n").unwrap();
    let out = pgn_lsp(&["fmt", "--no-add-missing-tags", "latin1.pgn"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let expected: &[u8] = b"[Event \"Caf\xe9\"]\n\n1. e4 { d\xe9j\xe0 vu } *\n\n";
    assert_eq!(fs::read(&file).unwrap(), expected);
}

/// A UTF-8 byte order mark before Latin-1 stays a mark: it is not read as three characters
/// of text before the first tag (which would make the tag text between games).
#[test]
fn a_latin1_file_keeps_its_byte_order_mark() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("latin1.pgn");
    let messy = MESSY.replace("\"A\"", "\"M\u{fc}ller\"");
    let latin1 = |text: &str| text.chars().map(|c| u8::try_from(c).unwrap()).collect::<Vec<_>>();
    fs::write(&file, [b"\xEF\xBB\xBF".as_slice(), &latin1(&messy)].concat()).unwrap();
    let out = pgn_lsp(&["fmt", "latin1.pgn"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let formatted = FORMATTED.replace("\"A\"", "\"M\u{fc}ller\"");
    let expected = [b"\xEF\xBB\xBF".as_slice(), &latin1(&formatted)].concat();
    assert_eq!(fs::read(&file).unwrap(), expected);
    let out = pgn_lsp(&["fmt", "--check", "latin1.pgn"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(0), "formatted once and for all");
}

/// UTF-16 with its byte order mark, the form Windows tools call "Unicode": formatted as its text
/// is, and written back in the same UTF-16, to a file or to standard output.
#[test]
fn utf16_files_are_written_back_in_utf16() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("utf16.pgn");
    let messy = format!("\u{feff}{}", MESSY.replace("\"A\"", "\"M\u{fc}ller \u{2658} \u{1d11e}\""));
    let formatted =
        format!("\u{feff}{}", FORMATTED.replace("\"A\"", "\"M\u{fc}ller \u{2658} \u{1d11e}\""));
    let le = |text: &str| text.encode_utf16().flat_map(u16::to_le_bytes).collect::<Vec<_>>();
    let be = |text: &str| text.encode_utf16().flat_map(u16::to_be_bytes).collect::<Vec<_>>();
    let encoders: [fn(&str) -> Vec<u8>; 2] = [le, be];
    for encode in encoders {
        fs::write(&file, encode(&messy)).unwrap();
        let out = pgn_lsp(&["fmt", "utf16.pgn"], dir.path(), b"");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_eq!(fs::read(&file).unwrap(), encode(&formatted));
        let out = pgn_lsp(&["fmt", "-"], dir.path(), &encode(&messy));
        assert_eq!(out.stdout, encode(&formatted));
        let out = pgn_lsp(&["fmt", "--check", "utf16.pgn"], dir.path(), b"");
        assert_eq!(out.status.code(), Some(0), "formatted once and for all");
    }
    // `patch` reads no UTF-16: the diff is in UTF-8.
    fs::write(&file, le(&messy)).unwrap();
    let out = pgn_lsp(&["fmt", "--diff", "utf16.pgn"], dir.path(), b"");
    assert!(text(&out.stdout).contains("\n-1.e4 e5 2.Nf3!   {a\n"), "{}", text(&out.stdout));
    assert_eq!(fs::read(&file).unwrap(), le(&messy));
}

/// A file that starts with a UTF-16 byte order mark but holds a unit that is no character (a
/// second surrogate alone, here) is not written: its text lost that unit.
#[test]
fn a_file_that_is_not_valid_utf16_is_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("utf16.pgn");
    let mut bytes: Vec<u8> = MESSY.encode_utf16().flat_map(u16::to_be_bytes).collect();
    bytes.splice(0..0, [0xFE, 0xFF, 0xDC, 0x00]);
    fs::write(&file, &bytes).unwrap();
    let out = pgn_lsp(&["fmt", "utf16.pgn"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "pgn-lsp fmt: utf16.pgn: the file is UTF-16 (big-endian, as its byte order mark says) \
         but not valid UTF-16: it cannot be formatted without losing what is not (`pgn-lsp \
         check` shows where)\n"
    );
    assert_eq!(fs::read(&file).unwrap(), bytes);
    let out = pgn_lsp(&["fmt", "-"], dir.path(), &bytes);
    assert_eq!((out.status.code(), out.stdout.len()), (Some(2), 0));
}

#[test]
fn a_file_mixing_utf8_and_latin1_bytes_keeps_every_byte() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mixed.pgn");
    let utf8 = "\u{2658} caf\u{e9}".as_bytes();
    let input = [b"1.e4 {".as_slice(), utf8, b"} *\n{\xFC}".as_slice()].concat();
    fs::write(&file, input).unwrap();
    let out = pgn_lsp(&["fmt", "--no-add-missing-tags", "mixed.pgn"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let expected = [b"1. e4 { ".as_slice(), utf8, b" } * { \xFC }\n\n".as_slice()].concat();
    assert_eq!(fs::read(&file).unwrap(), expected);
}

/// A file whose first line ends with CRLF is written with CRLF, a kept game byte for byte
/// (§3.2.2 allows a system's own newline); one whose first line ends with LF, with LF.
#[test]
fn a_crlf_file_keeps_its_line_breaks() {
    let dir = tempfile::tempdir().unwrap();
    let crlf = MESSY.replace('\n', "\r\n") + "\r\n[Event \"b\"]\r\n\r\n1.e4 {open\r\n";
    let out = pgn_lsp(&["fmt"], dir.path(), crlf.as_bytes());
    // The game with the open comment is kept as it is (exit status 2), its CRLF with it.
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let expected = FORMATTED.replace('\n', "\r\n") + "[Event \"b\"]\r\n\r\n1.e4 {open\r\n";
    assert_eq!(text(&out.stdout), expected);
    let mixed = MESSY.to_owned() + "\r\n";
    let out = pgn_lsp(&["fmt"], dir.path(), mixed.as_bytes());
    assert_eq!(text(&out.stdout), FORMATTED);
}

#[test]
fn games_with_structural_errors_are_kept_and_reported_with_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let input =
        "[Event \"a\"]\n\n1.e4 *\n\n[Event \"b\"]\n\n1.e4 {open\n\n[Event \"c\"]\n\n1.d4 *\n";
    fs::write(dir.path().join("g.pgn"), input).unwrap();
    let out = pgn_lsp(&["fmt", "--no-add-missing-tags", "g.pgn"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(2), "a game could not be formatted");
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("g.pgn:7: game kept as it is: "), "{stderr}");
    assert!(stderr.contains("[unterminated-comment]"), "{stderr}");
    // The game after the open comment may be text of it: kept too, and said so.
    assert!(
        stderr.contains("g.pgn:9: game kept as it is: the game before leaves a comment open"),
        "{stderr}"
    );
    let expected =
        "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1.e4 {open\n\n[Event \"c\"]\n\n1.d4 *\n";
    assert_eq!(fs::read_to_string(dir.path().join("g.pgn")).unwrap(), expected);
}

/// Format `input` from standard input with `args`: it comes back unchanged, standard error
/// reports its first game kept, for the reason `why` names, and the exit status is 2.
fn assert_kept_from_stdin(args: &[&str], input: &str, why: &str) {
    let dir = tempfile::tempdir().unwrap();
    let out = pgn_lsp(&[&["fmt"], args].concat(), dir.path(), input.as_bytes());
    assert_eq!((out.status.code(), text(&out.stdout)), (Some(2), input));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("<stdin>:1: game kept as it is: "), "{stderr}");
    assert!(stderr.contains(why), "{stderr}");
}

/// A game that cannot be formatted (a move number that disagrees with the count after a move
/// that cannot be played) is kept as it is and listed on standard error: its file is not in
/// export format, and formatting cannot put it there. Every mode then exits with 2, as
/// prettier does on a file it cannot parse (1 stays "would change", as with `--check` alone),
/// after the other games and files are formatted, listed or diffed all the same.
#[test]
fn a_game_that_cannot_be_formatted_exits_with_2_in_every_mode() {
    const KEPT: &str = "[Event \"E\"]\n\n1. e4 e5 2. Ke3 3. Nc6 *\n";
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("kept.pgn"), KEPT).unwrap();
    fs::write(dir.path().join("messy.pgn"), MESSY).unwrap();
    let assert_kept_reported = |out: &Output| {
        let stderr = text(&out.stderr);
        assert!(
            stderr.starts_with("kept.pgn:1: game kept as it is: its moves could not"),
            "{stderr}"
        );
    };
    let out = pgn_lsp(&["fmt", "--check", "kept.pgn"], dir.path(), b"");
    assert_eq!((out.status.code(), text(&out.stdout)), (Some(2), ""));
    assert_kept_reported(&out);
    let out = pgn_lsp(&["fmt", "--check", "kept.pgn", "messy.pgn"], dir.path(), b"");
    assert_eq!((out.status.code(), text(&out.stdout)), (Some(2), "messy.pgn\n"));
    let out = pgn_lsp(&["fmt", "--diff", "kept.pgn", "messy.pgn"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stdout).starts_with("--- a/messy.pgn\n"), "{}", text(&out.stdout));
    assert_kept_reported(&out);
    let out = pgn_lsp(&["fmt", "kept.pgn", "messy.pgn"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(2));
    assert_kept_reported(&out);
    assert_eq!(fs::read_to_string(dir.path().join("kept.pgn")).unwrap(), KEPT);
    assert_eq!(fs::read_to_string(dir.path().join("messy.pgn")).unwrap(), FORMATTED);
    let out = pgn_lsp(&["fmt", "--check", "messy.pgn"], dir.path(), b"");
    assert_eq!(out.status.code(), Some(0), "the other file was formatted");
}

/// A game whose FEN cannot be read has no known move numbers: it is kept and reported.
#[test]
fn a_game_whose_fen_cannot_be_read_is_kept_and_reported() {
    let input = "[SetUp \"1\"]\n[FEN \"not a fen\"]\n\n5.Kd2 Kd7 *\n";
    assert_kept_from_stdin(&["--no-add-missing-tags"], input, "its FEN cannot be read");
}

/// Commentary alone is no game, and reduced export format leaves commentary out: it is kept
/// and reported rather than emptied.
#[test]
fn commentary_alone_is_kept_in_reduced_export_format() {
    assert_kept_from_stdin(&["--reduced"], "{ notes on the file }\n", "commentary alone");
}

/// Many games, several batches: the output is the same on one worker (the calling thread) as
/// on several, in file order; `--jobs 0` is a usage error.
#[test]
fn jobs_set_the_workers_and_keep_file_order() {
    let dir = tempfile::tempdir().unwrap();
    let input: String =
        (1..=4500).map(|i| format!("[Event \"{i}\"]\n\n1.e4 e5 {{{i}}} *\n\n")).collect();
    let one = pgn_lsp(&["fmt", "--jobs", "1"], dir.path(), input.as_bytes());
    let three = pgn_lsp(&["fmt", "-j", "3"], dir.path(), input.as_bytes());
    assert_eq!(one.status.code(), Some(0), "{}", text(&one.stderr));
    assert_eq!(three.status.code(), Some(0), "{}", text(&three.stderr));
    assert_eq!(one.stdout, three.stdout);
    let events: Vec<&str> = text(&one.stdout)
        .lines()
        .filter_map(|line| line.strip_prefix("[Event \"")?.strip_suffix("\"]"))
        .collect();
    let expected: Vec<String> = (1..=4500).map(|i| i.to_string()).collect();
    assert_eq!(events, expected);
    assert!(text(&one.stdout).contains("1. e4 e5 { 4500 } *"), "{}", text(&one.stdout));
    let zero = pgn_lsp(&["fmt", "--jobs", "0"], dir.path(), b"");
    assert_eq!(zero.status.code(), Some(2));
}
