//! `pgn-lsp fmt`: rewrite PGN in the standard's export format (§3.2), like rustfmt: standard
//! input goes to standard output, named files are rewritten in place when they change.
//!
//! Files are written atomically and in the encoding they were read in (`rewrite`), with the
//! line break of their first line (`\r\n` or `\n`); files already formatted are never
//! touched. Output streams game by game.
//!
//! Games kept as they are (structural syntax errors, moves that cannot be numbered, text between
//! games, and the rare games formatting would change the reading of) are reported on standard
//! error as `file:line: ...`, and the other games are formatted all the same. A file with such a
//! game is not in export format and formatting cannot put it there, so it fails every mode as
//! `rustfmt` and `prettier` fail on a file they cannot parse: see [`EXIT_STATUS`].

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use super::batches::for_each_batch;
use super::input::{Encoding, Input, Source};
use super::line_breaks::Cursor;
use super::paths;
use super::rewrite::{Comparison, Failure, Rewrite, encode, refuse_lossy, refuse_too_long};
use super::workers::Workers;
use super::{EXIT_ERROR, EXIT_FAILURE};
use crate::config::{ConfigFinder, MIN_LINE_WIDTH};
use crate::fmt::{Buffers, FormatOptions, FormattedGame, GameOutput, Joiner, KeepReason};
use crate::text::{TextRange, line_break_of};

/// The exit statuses of `fmt`, as `fmt --help` gives them.
pub const EXIT_STATUS: &str = "Exit status: 0 when every game was formatted (with --check: and \
no file would change); 1 with --check when a file would change; 2 when a game could not be \
formatted, and on a usage or I/O error. A game that cannot be formatted (an unclosed comment or \
variation, a broken tag, moves that cannot be numbered, text between games) is kept as it is \
and listed on standard error; the other games are formatted and written all the same, and \
`pgn-lsp check` says what to mend.";

#[derive(clap::Args)]
pub struct FmtArgs {
    /// PGN files to format in place, or directories: their `*.pgn` files and those of their
    /// subdirectories, but hidden ones and those `.gitignore` ignores; `-` formats standard
    /// input to standard output.
    #[arg(default_value = "-")]
    pub files: Vec<String>,
    /// Write nothing; list the files that would change, and exit with 1 if any would (2 if a
    /// game cannot be formatted).
    #[arg(long)]
    pub check: bool,
    /// Write nothing; print a unified diff of the changes.
    #[arg(long)]
    pub diff: bool,
    /// Keep lines shorter than N characters [default: 80, export format].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(MIN_LINE_WIDTH as u64..))]
    pub line_width: Option<u64>,
    /// Keep the text of { } comments as written instead of re-flowing it.
    #[arg(long)]
    pub no_reflow_comments: bool,
    /// Do not add missing Seven Tag Roster tags.
    #[arg(long)]
    pub no_add_missing_tags: bool,
    /// Reduced export format: only the Seven Tag Roster (and SetUp, FEN and Variant, which the
    /// moves need), no comments, NAGs or variations (deletes them).
    #[arg(long)]
    pub reduced: bool,
    #[command(flatten)]
    pub workers: Workers,
}

impl FmtArgs {
    /// The options for a file: the defaults, then `pgn-lsp.toml`, then the flags.
    fn options(&self, finder: &mut ConfigFinder, file: &str) -> Result<FormatOptions, String> {
        let config = finder.for_file(file).map_err(|e| e.to_string())?;
        let mut options =
            config.map_or_else(FormatOptions::default, |c| c.apply(FormatOptions::default()));
        if let Some(width) = self.line_width {
            options.line_width = usize::try_from(width).unwrap_or(usize::MAX);
        }
        options.reflow_comments &= !self.no_reflow_comments;
        options.add_missing_tags &= !self.no_add_missing_tags;
        options.reduced |= self.reduced;
        Ok(options)
    }
}

pub fn run(args: FmtArgs) -> ExitCode {
    args.workers.run(|| format_files(&args))
}

fn format_files(args: &FmtArgs) -> ExitCode {
    let mut finder = ConfigFinder::default();
    let mut would_change = false;
    let mut kept_games = false;
    let mut failed = false;
    for file in paths::expand(&args.files) {
        let file = file.map_err(Failure::Message);
        match file.and_then(|file| format_file(args, &mut finder, &file)) {
            Ok(formatted) => {
                would_change |= formatted.changed;
                kept_games |= formatted.kept_games;
            }
            Err(Failure::BrokenPipe) => break,
            Err(Failure::Message(message)) => {
                eprintln!("pgn-lsp fmt: {message}");
                failed = true;
            }
        }
    }
    if failed || kept_games {
        ExitCode::from(EXIT_ERROR)
    } else if args.check && would_change {
        ExitCode::from(EXIT_FAILURE)
    } else {
        ExitCode::SUCCESS
    }
}

/// What formatting one file came to.
struct Formatted {
    /// Whether its text changes (with `--check` and `--diff`: would change).
    changed: bool,
    /// Whether a game of it was kept as it is (and reported): the file is not in export format,
    /// and formatting cannot put it there.
    kept_games: bool,
}

/// Format one file as the flags say.
fn format_file(
    args: &FmtArgs,
    finder: &mut ConfigFinder,
    file: &str,
) -> Result<Formatted, Failure> {
    let options = args.options(finder, file).map_err(Failure::Message)?;
    let input = Input::open(file).map_err(|e| Failure::io(file, e))?;
    let source = input.decode(false);
    refuse_too_long(source.name, source.text.len(), "formatted")?;
    if args.diff {
        let mut formatted = String::with_capacity(source.text.len());
        let kept_games = stream(&source, &options, |text| {
            formatted.push_str(text);
            Ok(())
        })?;
        let changed = formatted != source.text;
        if changed {
            write_diff(&source, &formatted).map_err(|e| Failure::io("standard output", e))?;
        }
        return Ok(Formatted { changed, kept_games });
    }
    let mut comparison = Comparison::new(&source.text);
    if args.check {
        let kept_games = stream(&source, &options, |text| {
            comparison.feed(text);
            Ok(())
        })?;
        if comparison.changed() {
            writeln!(io::stdout().lock(), "{}", source.name)
                .map_err(|e| Failure::io("standard output", e))?;
        }
        return Ok(Formatted { changed: comparison.changed(), kept_games });
    }
    refuse_lossy(&source, "formatted")?;
    if file == "-" {
        let mut out = BufWriter::new(io::stdout().lock());
        let kept_games = stream(&source, &options, |text| {
            comparison.feed(text);
            out.write_all(&encode(text, source.encoding))
                .map_err(|e| Failure::io("standard output", e))
        })?;
        out.flush().map_err(|e| Failure::io("standard output", e))?;
        return Ok(Formatted { changed: comparison.changed(), kept_games });
    }
    let mut rewrite = Rewrite::new(file, &source.text, source.encoding);
    let kept_games = stream(&source, &options, |text| rewrite.take(text))?;
    Ok(Formatted { changed: rewrite.finish()?, kept_games })
}

/// Print the unified diff from `source` to its `formatted` text, its lines split at LF alone,
/// as `patch` splits them (a lone CR ends no line). The lines are written in the file's
/// encoding, so that `patch` finds them in a Latin-1 file, but for UTF-16, which `patch` does
/// not read: in UTF-8, as the names are.
fn write_diff(source: &Source<'_>, formatted: &str) -> io::Result<()> {
    let old: Vec<&str> = source.text.split_inclusive('\n').collect();
    let new: Vec<&str> = formatted.split_inclusive('\n').collect();
    let diff = similar::TextDiff::configure().diff_slices(&old, &new);
    let encoding = match source.encoding {
        Encoding::Utf16 { .. } => Encoding::Utf8,
        encoding => encoding,
    };
    let mut out = BufWriter::new(io::stdout().lock());
    writeln!(out, "--- a/{}\n+++ b/{}", source.name, source.name)?;
    for hunk in diff.unified_diff().iter_hunks() {
        writeln!(out, "{}", hunk.header())?;
        for change in hunk.iter_changes() {
            let line = change.value();
            write!(out, "{}", change.tag())?;
            out.write_all(&encode(line, encoding))?;
            if !line.ends_with('\n') {
                out.write_all(b"\n\\ No newline at end of file\n")?;
            }
        }
    }
    out.flush()
}

/// Format `source` game by game (in parallel batches, handed out in file order), report the
/// games kept as they are, and pass the text of each game to `sink`; returns whether a game was
/// kept.
fn stream(
    source: &Source<'_>,
    options: &FormatOptions,
    mut sink: impl FnMut(&str) -> Result<(), Failure>,
) -> Result<bool, Failure> {
    let text: &str = &source.text;
    let line_break = line_break_of(text);
    // Whether the text written so far ends with a `\r`.
    let mut after_cr = false;
    let mut joiner = Joiner::default();
    let mut reporter = KeptReporter::new(source);
    // Spare buffers for each worker: a game's buffer goes back to the worker that formatted into
    // it. With glibc's allocator, freeing or growing a buffer on another thread than the one
    // that allocated it takes that thread's arena lock, which the workers then wait on.
    let buffers: Vec<Buffers> =
        (0..rayon::current_num_threads()).map(|_| Buffers::default()).collect();
    let worker = || rayon::current_thread_index().unwrap_or(0) % buffers.len();
    for_each_batch(
        text,
        None,
        |parsed| {
            // The file is shorter than 4 GiB (`fmt` takes no longer one): its offsets are `u32`s.
            let range = TextRange::new(parsed.start() as u32, parsed.end() as u32);
            let worker = worker();
            let alone =
                buffers[worker].format_alone(&parsed.game, parsed.source(), range.start, options);
            (range, worker, alone)
        },
        |games, _| {
            let mut written: Vec<Vec<FormattedGame>> = buffers.iter().map(|_| Vec::new()).collect();
            for (range, worker, alone) in games {
                let game = joiner.join(&text[range], range.start, alone);
                reporter.report(&game);
                let text = game.text_with_line_break(line_break, after_cr);
                after_cr = text.ends_with('\r') || (text.is_empty() && after_cr);
                sink(&text)?;
                written[worker].push(game);
            }
            for (buffers, written) in buffers.iter().zip(written) {
                buffers.recycle(written);
            }
            Ok(())
        },
    )?;
    Ok(reporter.kept)
}

/// Reports the games kept as they are, with their line numbers, on standard error.
struct KeptReporter<'a> {
    source: &'a Source<'a>,
    /// The last game reported, and its line.
    at: Cursor,
    /// Whether a game was kept.
    kept: bool,
}

impl<'a> KeptReporter<'a> {
    fn new(source: &'a Source<'a>) -> Self {
        KeptReporter { source, at: Cursor::START, kept: false }
    }

    fn report(&mut self, game: &FormattedGame<'_>) {
        let GameOutput::Kept(reason) = &game.output else { return };
        self.kept = true;
        let (at, why) = match reason {
            KeepReason::SyntaxError(d) => {
                (d.range.start as usize, format!("{} [{}]", d.message, d.code.as_str()))
            }
            KeepReason::NotNumbered => (
                game.start as usize,
                "its moves could not be numbered: its FEN cannot be read (or holds a position \
                 of a variant whose rules are not known), text stands before its first move, a \
                 word among its moves reads as no move, a move number stands before no move, or \
                 one written at or after a move that cannot be played disagrees with the count"
                    .to_owned(),
            ),
            KeepReason::NotAGame => (
                game.start as usize,
                "it is text between games, neither tag pairs nor moves: no game".to_owned(),
            ),
            KeepReason::WouldBeNoGame => (
                game.start as usize,
                "formatted, it would have no tag pair left and no move or termination marker: it \
                 would read as text between games"
                    .to_owned(),
            ),
            KeepReason::NothingLeft => (
                game.start as usize,
                "it is commentary alone, which reduced export format leaves out".to_owned(),
            ),
            KeepReason::WouldJoinPrevious => {
                (game.start as usize, "formatted, it would join the game before it".to_owned())
            }
            KeepReason::AfterUnclosedComment => (
                game.start as usize,
                "the game before leaves a comment open, and this game may be text of it".to_owned(),
            ),
        };
        self.at = self.at.moved_to(at.max(self.at.offset), self.source.text.as_bytes());
        eprintln!("{}:{}: game kept as it is: {why}", self.source.name, self.at.line + 1);
    }
}
