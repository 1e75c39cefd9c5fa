//! `pgn-lsp check`: reads each file (with `--fix`, fixes it first: `fix`; standard input and
//! pipes a piece at a time: `stream`), checks its games in parallel batches, prints the
//! diagnostics for people (rustc style), as JSON lines or as GitHub annotations, and exits 0
//! (no error), 1 (an error, or a warning with `--deny-warnings`) or 2 (a usage or I/O error).

use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::process::ExitCode;

use super::batches::{ParsedGame, for_each_batch, for_each_batch_read};
use super::encoding_report::encoding_diagnostics;
use super::fix::fix_input;
use super::game_report::{game_diagnostics, is_game};
use super::game_text::GameText;
use super::github;
use super::human::HumanRenderer;
use super::input::{Encoding, Input, Source};
use super::json;
use super::paths;
use super::progress::Progress;
use super::rewrite::Failure;
use super::stream::{self, StreamEncoding, StreamedText};
use super::tally::Tally;
use super::workers::Workers;
use super::{EXIT_ERROR, EXIT_FAILURE};
use crate::config::ConfigFinder;
use crate::syntax::{Code, Diagnostic, DiagnosticFilter, Severity};

#[derive(clap::Args)]
pub struct CheckArgs {
    /// PGN files to check, or directories: their `*.pgn` files and those of their
    /// subdirectories, but hidden ones and those `.gitignore` ignores; `-` reads standard input.
    #[arg(default_value = "-")]
    pub files: Vec<String>,
    /// How to print diagnostics: for people, one JSON object per line, or as GitHub Actions
    /// workflow commands (annotations on the files of a pull request).
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,
    /// Make the certain fixes first (those of the diagnostics shown), writing the files in
    /// place (standard input to standard output, the diagnostics then to standard error), and
    /// report what is left.
    #[arg(long)]
    pub fix: bool,
    /// Exit with status 1 on warnings too, not only on errors.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Show only diagnostics of this severity or a more severe one (a `pgn-lsp.toml`'s
    /// `[diagnostics]` may leave out more).
    #[arg(long, value_enum, value_name = "SEVERITY", default_value_t = SeverityArg::Hint)]
    pub min_severity: SeverityArg,
    /// Never report this diagnostic code (repeat it, or separate codes with commas); those a
    /// `pgn-lsp.toml`'s `[diagnostics]` ignores are left out too.
    #[arg(long, value_name = "CODE", value_delimiter = ',', value_parser = parse_code)]
    pub ignore: Vec<Code>,
    #[command(flatten)]
    pub workers: Workers,
    /// When to colour the output (`auto`: when standard output is a terminal and NO_COLOR is
    /// not set).
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Print what a diagnostic code means, then exit.
    #[arg(long, value_name = "CODE", value_parser = parse_code, exclusive = true)]
    pub explain: Option<Code>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    Human,
    Json,
    Github,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SeverityArg {
    Hint,
    Info,
    Warning,
    Error,
}

impl From<SeverityArg> for Severity {
    fn from(arg: SeverityArg) -> Severity {
        match arg {
            SeverityArg::Hint => Severity::Hint,
            SeverityArg::Info => Severity::Information,
            SeverityArg::Warning => Severity::Warning,
            SeverityArg::Error => Severity::Error,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

fn parse_code(name: &str) -> Result<Code, String> {
    Code::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        format!("unknown diagnostic code; the codes are: {}", known.join(", "))
    })
}

pub fn run(args: CheckArgs) -> ExitCode {
    if let Some(code) = args.explain {
        let severity = code.default_severity().as_str();
        return match writeln!(io::stdout(), "{} ({severity}): {}", code.as_str(), code.summary()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => output_failed(&e),
        };
    }
    args.workers.run(|| check_files(&args))
}

/// How every game of a file is checked and printed.
struct Settings<'a> {
    filter: DiagnosticFilter,
    renderer: &'a Renderer,
}

enum Renderer {
    Human(HumanRenderer),
    Json,
    Github,
}

impl Renderer {
    fn render(&self, out: &mut Vec<u8>, text: &GameText<'_>, diagnostic: &Diagnostic) {
        match self {
            Renderer::Human(human) => human.render(out, text, diagnostic),
            Renderer::Json => json::render(out, text, diagnostic),
            Renderer::Github => github::render(out, text, diagnostic),
        }
    }
}

fn check_files(args: &CheckArgs) -> ExitCode {
    // With `--fix`, standard output carries the fixed text of standard input.
    let to_stderr = args.fix && args.files.iter().any(|f| f == "-");
    let colour = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            let terminal =
                if to_stderr { io::stderr().is_terminal() } else { io::stdout().is_terminal() };
            terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    let flags =
        DiagnosticFilter { min_severity: args.min_severity.into(), ignored: args.ignore.clone() };
    let renderer = match args.format {
        OutputFormat::Human => Renderer::Human(HumanRenderer::new(colour)),
        OutputFormat::Json => Renderer::Json,
        OutputFormat::Github => Renderer::Github,
    };
    let mut finder = ConfigFinder::default();
    let mut out: io::BufWriter<Box<dyn Write>> = io::BufWriter::new(if to_stderr {
        Box::new(io::stderr().lock())
    } else {
        Box::new(io::stdout().lock())
    });
    let mut tally = Tally::default();
    let mut unreadable = false;
    for path in paths::expand(&args.files) {
        let opened = path.and_then(|path| {
            // The diagnostics shown are those both the flags and the file's pgn-lsp.toml keep.
            let config = finder.for_file(&path).map_err(|e| e.to_string())?;
            let filter = config.map_or(flags.clone(), |config| flags.and(&config.filter()));
            let settings = Settings { filter, renderer: &renderer };
            match open(&path, args.fix) {
                Ok(opened) => Ok((path, opened, settings)),
                Err(e) => Err(format!("cannot read {path}: {e}")),
            }
        });
        let (path, mut input, settings) = match opened {
            Ok((path, Opened::Stream(reader), settings)) => {
                let name = stream_name(&path);
                match check_stream(&name, reader, stream::PIECE_BYTES, &settings, &mut out) {
                    Ok(Ok(file_tally)) => tally += Tally { files: 1, ..file_tally },
                    Ok(Err(e)) => {
                        eprintln!("pgn-lsp: cannot read {name}: {e}");
                        unreadable = true;
                    }
                    Err(e) => return output_failed(&e),
                }
                continue;
            }
            Ok((path, Opened::Whole(input), settings)) => (path, input, settings),
            Err(message) => {
                eprintln!("pgn-lsp: {message}");
                unreadable = true;
                continue;
            }
        };
        if args.fix {
            match fix_input(input, &path, &settings.filter) {
                Ok((fixed, count)) => {
                    if count > 0 {
                        let fixes = if count == 1 { "fix" } else { "fixes" };
                        eprintln!("pgn-lsp: {}: {count} {fixes} made", fixed.name());
                    }
                    input = fixed;
                }
                Err(Failure::BrokenPipe) => return ExitCode::from(EXIT_ERROR),
                Err(Failure::Message(message)) => {
                    eprintln!("pgn-lsp: cannot fix {message}");
                    unreadable = true;
                    continue;
                }
            }
        }
        match check_source(&input.decode(true), &settings, &mut out) {
            Ok(file_tally) => tally += Tally { files: 1, ..file_tally },
            Err(e) => return output_failed(&e),
        }
    }
    // The summary ends a report for people; in a GitHub Actions log it is the one line shown.
    if args.format != OutputFormat::Json
        && let Err(e) = writeln!(out, "{tally}")
    {
        return output_failed(&e);
    }
    if let Err(e) = out.flush() {
        return output_failed(&e);
    }
    if unreadable {
        ExitCode::from(EXIT_ERROR)
    } else if tally.fails(args.deny_warnings) {
        ExitCode::from(EXIT_FAILURE)
    } else {
        ExitCode::SUCCESS
    }
}

/// An input to check: a file (mapped, or read whole), or a stream read a piece at a time.
enum Opened {
    Whole(Input),
    Stream(Box<dyn Read>),
}

/// Standard input (`-`) and what is not a regular file (a pipe) are read a piece at a time,
/// unless they are to be fixed (the fixes are made on the whole text).
fn open(path: &str, fix: bool) -> io::Result<Opened> {
    if path == "-" {
        return Ok(if fix {
            Opened::Whole(Input::open(path)?)
        } else {
            Opened::Stream(Box::new(io::stdin().lock()))
        });
    }
    let file = File::open(path)?;
    if !fix && !file.metadata()?.is_file() {
        return Ok(Opened::Stream(Box::new(file)));
    }
    Input::from_file(path, file).map(Opened::Whole)
}

/// The name messages give a stream.
fn stream_name(path: &str) -> String {
    if path == "-" { "<stdin>".to_owned() } else { path.to_owned() }
}

/// A failed write to standard output ends the run; a closed pipe (`| head`) quietly.
fn output_failed(e: &io::Error) -> ExitCode {
    if e.kind() != io::ErrorKind::BrokenPipe {
        eprintln!("pgn-lsp: cannot write the output: {e}");
    }
    ExitCode::from(EXIT_ERROR)
}

/// Check every game of one file, writing its diagnostics to `out` batch by batch.
fn check_source(
    source: &Source<'_>,
    settings: &Settings<'_>,
    out: &mut impl Write,
) -> io::Result<Tally> {
    // Editors hide a byte-order mark: positions are counted without it.
    let text = source.text.strip_prefix('\u{FEFF}').unwrap_or(&source.text);
    let bom = source.text.len() - text.len();
    let encoding = source.encoding.after(bom);
    let progress = Progress::new(source.name, text.len());
    let mut tally = Tally::default();
    for_each_batch(
        text,
        source.line_breaks.clone().map(|line_breaks| line_breaks.without_prefix(bom)),
        |parsed| check_game(source.name, parsed, encoding, settings),
        |reports, done| {
            progress.set_done(done);
            progress.suspend(|| write_reports(&reports, &mut tally, out))
        },
    )?;
    Ok(tally)
}

/// Check every game of a stream (`name`), read a piece of about `piece_bytes` at a time,
/// writing its diagnostics to `out` batch by batch. The outer error is one of the output, the
/// inner one of the input (after which the games read before it have been checked).
fn check_stream(
    name: &str,
    reader: impl Read,
    piece_bytes: usize,
    settings: &Settings<'_>,
    out: &mut impl Write,
) -> io::Result<io::Result<Tally>> {
    let encoding = StreamEncoding::default();
    let mut text = StreamedText::new(reader, &encoding);
    let mut tally = Tally::default();
    for_each_batch_read(
        &mut text,
        piece_bytes,
        |parsed| check_game(name, parsed, encoding.get(), settings),
        |reports, _| write_reports(&reports, &mut tally, out),
    )?;
    Ok(text.into_error().map_or(Ok(tally), Err))
}

/// Write the output of `reports` and count their diagnostics.
fn write_reports(
    reports: &[GameReport],
    tally: &mut Tally,
    out: &mut impl Write,
) -> io::Result<()> {
    for report in reports {
        *tally += report.tally;
        out.write_all(&report.output)?;
    }
    out.flush()
}

/// What one game contributes to the output.
struct GameReport {
    output: Vec<u8>,
    tally: Tally,
}

/// The report of one game; `encoding` is the file's, with offsets in the text checked.
fn check_game(
    file: &str,
    parsed: ParsedGame,
    encoding: Encoding,
    settings: &Settings<'_>,
) -> GameReport {
    let src = parsed.source();
    let notes = encoding_diagnostics(encoding, parsed.start()..parsed.end(), src);
    let mut tally = Tally { games: u64::from(is_game(&parsed.game, src)), ..Tally::default() };
    let diagnostics = game_diagnostics(parsed.game, src, notes, &settings.filter);
    let mut output = Vec::new();
    if !diagnostics.is_empty() {
        let game_text = GameText::new(file, parsed.piece, parsed.range, parsed.first_line.get());
        for d in &diagnostics {
            tally.count(d.severity);
            settings.renderer.render(&mut output, &game_text, d);
        }
    }
    GameReport { output, tally }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::cli::input::{PARALLEL_CHECK_BYTES, decode};
    use crate::cli::stream::Stingy;
    use crate::text::{UTF8_BOM, Utf16};

    fn settings(renderer: &Renderer) -> Settings<'_> {
        Settings { filter: DiagnosticFilter::default(), renderer }
    }

    /// Check `bytes` with both renderers; the JSON gives one line per counted diagnostic, with
    /// positions inside the text, and the human output one `-->` header per diagnostic.
    fn check_both_ways(bytes: Vec<u8>) {
        let (text, encoding, line_breaks) = decode(&bytes, true);
        let source = Source { name: "game.pgn", text, encoding, line_breaks };
        let mut json = Vec::new();
        let tally = check_source(&source, &settings(&Renderer::Json), &mut json).unwrap();
        let json = String::from_utf8(json).unwrap();
        let diagnostics = tally.errors + tally.warnings + tally.infos + tally.hints;
        assert_eq!(json.lines().count() as u64, diagnostics);
        let lines = source.text.split('\n').count() as u64;
        for line in json.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let (start, end) = (v["line"].as_u64().unwrap(), v["end_line"].as_u64().unwrap());
            assert!(1 <= start && start <= end && end <= lines, "{line}");
        }
        let mut human = Vec::new();
        let human_tally = check_source(
            &source,
            &settings(&Renderer::Human(HumanRenderer::new(false))),
            &mut human,
        )
        .unwrap();
        assert_eq!(human_tally, tally);
        let human = String::from_utf8(human).unwrap();
        let headers = human.lines().filter(|l| l.trim_start().starts_with("--> game.pgn:")).count();
        assert_eq!(headers as u64, diagnostics);
    }

    /// The JSON output of `bytes` checked as a file, and as a stream read `step` bytes at a
    /// time in pieces of about `piece_bytes`.
    fn file_and_stream(bytes: &[u8], step: usize, piece_bytes: usize) -> (String, String) {
        let (text, encoding, line_breaks) = decode(bytes, true);
        let source = Source { name: "game.pgn", text, encoding, line_breaks };
        let renderer = Renderer::Json;
        let mut file = Vec::new();
        check_source(&source, &settings(&renderer), &mut file).unwrap();
        let mut streamed = Vec::new();
        let reader = Stingy { bytes, step, fails: false };
        let tally =
            check_stream("game.pgn", reader, piece_bytes, &settings(&renderer), &mut streamed);
        tally.unwrap().unwrap();
        (String::from_utf8(file).unwrap(), String::from_utf8(streamed).unwrap())
    }

    /// A large file with a byte-order mark gives the same diagnostics, at the same lines, on one
    /// worker (lines carried from game to game) and on two (lines from the line breaks counted
    /// in the UTF-8 check, the mark taken off).
    #[test]
    fn lines_are_the_same_on_one_worker_and_two() {
        let game = |i: usize| {
            let moves = if i.is_multiple_of(10) { "1. e4 e4" } else { "1. e4 e5" };
            format!("[Event \"{i}\"]\n\n{moves} {{ {} }}\n*\n\n", "x".repeat(i % 3000))
        };
        let mut text = String::from("\u{FEFF}");
        let mut i = 0;
        while text.len() <= PARALLEL_CHECK_BYTES + (1 << 20) {
            text += &game(i);
            i += 1;
        }
        let check = |workers| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(workers).build().unwrap();
            pool.install(|| {
                let (text, encoding, line_breaks) = decode(text.as_bytes(), true);
                assert_eq!(line_breaks.is_some(), workers > 1, "counted in the check");
                let source = Source { name: "game.pgn", text, encoding, line_breaks };
                let mut json = Vec::new();
                check_source(&source, &settings(&Renderer::Json), &mut json).unwrap();
                String::from_utf8(json).unwrap()
            })
        };
        let one = check(1);
        assert!(one.lines().count() > 100, "{one}");
        assert!(one == check(2), "the same diagnostics on two workers");
    }

    /// Text like that of PGN files, for streams: tags, moves, brackets, line breaks of every
    /// kind, characters of one to four bytes, a byte order mark.
    const STREAM_TEXT: &str = "(\\[Event \"[a-zé]{0,4}\"\\]|\\[Result \"1-0\"\\]|1\\. |e4 |Nf3 |e5|0-0|\\{|\\}|\\(|\\)|\r|\n|\r\n| |♘|𝄞|\u{FEFF}|0-1|\\*|\"|;c|%e|[a-h1-8]{1,3}){0,80}";

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn any_pgn_like_text_renders(text in "(\\[Event \"[a-zé]{0,4}\"\\]|\\[Result \"1-0\"\\]|1\\. |e4 |Nf3 |e5|0-0|\\{|\\}|\\(|\\)|\r|\n|\r\n| |\t|♘|𝄞|\u{FEFF}|\\$300|0-1|\\*|\"|;c|%e|[a-h1-8]{1,3}){0,60}") {
            check_both_ways(text.into_bytes());
        }

        #[test]
        fn any_bytes_render(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            check_both_ways(bytes);
        }

        /// A stream that is UTF-8 gives the diagnostics of the same text in a file, however it
        /// is cut into reads and pieces.
        #[test]
        fn a_utf8_stream_is_checked_as_its_file(text in STREAM_TEXT, step in 1..20usize, piece in 1..200usize) {
            let (file, stream) = file_and_stream(text.as_bytes(), step, piece);
            prop_assert_eq!(file, stream);
        }

        /// A stream in UTF-16 gives the diagnostics of the same bytes in a file, however it is
        /// cut into reads and pieces, and wherever a unit that is no character lies in it.
        #[test]
        fn a_utf16_stream_is_checked_as_its_file(text in STREAM_TEXT, big_endian: bool, lone_surrogate in proptest::option::of(any::<prop::sample::Index>()), step in 1..20usize, piece in 1..200usize) {
            let order = if big_endian { Utf16::BigEndian } else { Utf16::LittleEndian };
            let mut bytes = order.encode(&format!("\u{FEFF}{text}"));
            if let Some(at) = lone_surrogate {
                // A second surrogate alone (0xDC00), between two units after the mark.
                let at = 2 + at.index(bytes.len() / 2) * 2;
                let unit = if big_endian { [0xDC, 0x00] } else { [0x00, 0xDC] };
                bytes.splice(at..at, unit);
            }
            let (file, stream) = file_and_stream(&bytes, step, piece);
            prop_assert_eq!(file, stream);
        }

        /// Bytes after a byte order mark, UTF-8's or UTF-16's, are checked, and as a stream in
        /// one piece give the diagnostics of their file.
        #[test]
        fn bytes_after_a_byte_order_mark_are_checked_as_their_file(mark in 0..3usize, bytes in proptest::collection::vec(any::<u8>(), 0..300), step in 1..20usize) {
            let mark: &[u8] = [UTF8_BOM, b"\xFF\xFE", b"\xFE\xFF"][mark];
            let bytes = [mark, &bytes].concat();
            check_both_ways(bytes.clone());
            let (file, stream) = file_and_stream(&bytes, step, 1 << 20);
            prop_assert_eq!(file, stream);
        }

        /// Any stream that fits in one piece, UTF-8 or not, gives the diagnostics of its file.
        #[test]
        fn a_stream_in_one_piece_is_checked_as_its_file(bytes in proptest::collection::vec(any::<u8>(), 0..300), step in 1..20usize) {
            let (file, stream) = file_and_stream(&bytes, step, 1 << 20);
            prop_assert_eq!(file, stream);
        }
    }
}
