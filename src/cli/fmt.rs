//! `pgn-lsp fmt`: rewrite PGN in the standard's export format (§3.2), like rustfmt: standard
//! input goes to standard output, named files are rewritten in place when they change.
//!
//! Files are written atomically: the new text goes to a temporary file in the same directory,
//! which takes the old file's permissions and is then renamed over it (a symbolic link is
//! followed, so the link stays a link). Nothing is written until the output first differs from
//! the input, so files already formatted are never touched. Output streams game by game.
//!
//! Encodings: a file read as UTF-8 is written as UTF-8 (a byte order mark is kept); a file that
//! is not UTF-8 was read wholly as Latin-1 (§4.1), one character per byte, and is written back
//! as Latin-1, so every byte the formatter does not change stays as it was.
//!
//! Games kept as they are (structural syntax errors, and the rare games formatting would change
//! the reading of) are reported on standard error as `file:line: ...`; they do not change the
//! exit status (`pgn-lsp check` reports syntax errors).
//! Exit status: 0, or 1 with `--check` when a file would change, or 2 on usage or I/O errors.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

use tempfile::NamedTempFile;

use super::EXIT_USAGE;
use super::batches::for_each_batch;
use super::config::{ConfigFinder, MIN_LINE_WIDTH};
use super::input::{Input, Source};
use super::line_breaks::Cursor;
use super::workers::Workers;
use crate::fmt::{Buffers, FormatOptions, FormattedGame, GameOutput, Joiner, KeepReason};

#[derive(clap::Args)]
pub struct FmtArgs {
    /// PGN files to format in place; `-` formats standard input to standard output.
    #[arg(default_value = "-")]
    pub files: Vec<String>,
    /// Write nothing; list the files that would change, and exit with 1 if any would.
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
    let mut failed = false;
    for file in &args.files {
        match format_file(args, &mut finder, file) {
            Ok(changed) => would_change |= changed,
            Err(Failure::BrokenPipe) => break,
            Err(Failure::Message(message)) => {
                eprintln!("pgn-lsp fmt: {message}");
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::from(EXIT_USAGE)
    } else if args.check && would_change {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

enum Failure {
    /// Standard output was closed (`pgn-lsp fmt - | head`): stop quietly.
    BrokenPipe,
    Message(String),
}

impl Failure {
    fn io(context: &str, error: io::Error) -> Failure {
        if error.kind() == io::ErrorKind::BrokenPipe {
            Failure::BrokenPipe
        } else {
            Failure::Message(format!("{context}: {error}"))
        }
    }
}

/// Format one file as the flags say; returns whether its text changes.
fn format_file(args: &FmtArgs, finder: &mut ConfigFinder, file: &str) -> Result<bool, Failure> {
    let options = args.options(finder, file).map_err(Failure::Message)?;
    let input = Input::open(file).map_err(|e| Failure::io(file, e))?;
    let source = input.decode(false);
    if args.diff {
        let mut formatted = String::with_capacity(source.text.len());
        stream(&source, &options, |text| {
            formatted.push_str(text);
            Ok(())
        })?;
        let changed = formatted != source.text;
        if changed {
            let diff = similar::TextDiff::from_lines(&*source.text, formatted.as_str());
            let a = format!("a/{}", source.name);
            let b = format!("b/{}", source.name);
            let mut out = io::stdout().lock();
            write!(out, "{}", diff.unified_diff().header(&a, &b))
                .map_err(|e| Failure::io("standard output", e))?;
        }
        return Ok(changed);
    }
    let mut comparison = Comparison::new(&source.text);
    if args.check {
        stream(&source, &options, |text| {
            comparison.feed(text);
            Ok(())
        })?;
        if comparison.changed() {
            println!("{}", source.name);
        }
        return Ok(comparison.changed());
    }
    let latin1 = source.is_latin1();
    if file == "-" {
        let mut out = BufWriter::new(io::stdout().lock());
        stream(&source, &options, |text| {
            comparison.feed(text);
            out.write_all(&encode(text, latin1)).map_err(|e| Failure::io("standard output", e))
        })?;
        out.flush().map_err(|e| Failure::io("standard output", e))?;
        return Ok(comparison.changed());
    }
    let mut rewrite = Rewrite { file, source: &source, latin1, comparison, temp: None };
    stream(&source, &options, |text| rewrite.take(text))?;
    rewrite.finish()
}

/// Format `source` game by game (in parallel batches, handed out in file order), report the
/// games kept as they are, and pass the text of each game to `sink`.
fn stream(
    source: &Source<'_>,
    options: &FormatOptions,
    mut sink: impl FnMut(&str) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let text: &str = &source.text;
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
            let range = parsed.range;
            let worker = worker();
            let alone =
                buffers[worker].format_alone(&parsed.game, &text[range], range.start, options);
            (range, worker, alone)
        },
        |games, _| {
            let mut written: Vec<Vec<FormattedGame>> = buffers.iter().map(|_| Vec::new()).collect();
            for (range, worker, alone) in games {
                let game = joiner.join(&text[range], range.start, alone);
                reporter.report(&game);
                sink(game.text())?;
                written[worker].push(game);
            }
            for (buffers, written) in buffers.iter().zip(written) {
                buffers.recycle(written);
            }
            Ok(())
        },
    )
}

/// Rewriting a file in place: the output streams into a temporary file from the first
/// difference on, and the temporary file then replaces the file.
struct Rewrite<'a> {
    file: &'a str,
    source: &'a Source<'a>,
    latin1: bool,
    comparison: Comparison<'a>,
    temp: Option<(NamedTempFile, BufWriter<File>)>,
}

impl Rewrite<'_> {
    fn error(&self, e: io::Error) -> Failure {
        Failure::io(self.file, e)
    }

    /// The next game's text.
    fn take(&mut self, text: &str) -> Result<(), Failure> {
        if let Some((_, out)) = &mut self.temp {
            return out
                .write_all(&encode(text, self.latin1))
                .map_err(|e| Failure::io(self.file, e));
        }
        let same_so_far = self.comparison.matched;
        if !self.comparison.feed(text) {
            let (temp, mut out) = open_temp(self.file).map_err(|e| self.error(e))?;
            out.write_all(&encode(&self.source.text[..same_so_far], self.latin1))
                .and_then(|()| out.write_all(&encode(text, self.latin1)))
                .map_err(|e| self.error(e))?;
            self.temp = Some((temp, out));
        }
        Ok(())
    }

    /// Replace the file if its text changed; returns whether it did.
    fn finish(self) -> Result<bool, Failure> {
        if !self.comparison.changed() {
            return Ok(false);
        }
        let error = |e: io::Error| Failure::io(self.file, e);
        let (temp, out) = match self.temp {
            Some(open) => open,
            // The output is a shorter prefix of the input (blank lines at the end were dropped).
            None => {
                let (temp, mut out) = open_temp(self.file).map_err(error)?;
                let kept = &self.source.text[..self.comparison.matched];
                out.write_all(&encode(kept, self.latin1)).map_err(error)?;
                (temp, out)
            }
        };
        let written = out.into_inner().map_err(|e| error(e.into_error()))?;
        written.sync_all().map_err(error)?;
        let target = std::fs::canonicalize(self.file).map_err(error)?;
        let permissions = std::fs::metadata(&target).map_err(error)?.permissions();
        written.set_permissions(permissions).map_err(error)?;
        temp.persist(&target).map_err(|e| error(e.error))?;
        Ok(true)
    }
}

/// A temporary file next to `file` (next to its target when it is a link).
fn open_temp(file: &str) -> io::Result<(NamedTempFile, BufWriter<File>)> {
    let target = std::fs::canonicalize(file)?;
    let dir = target.parent().unwrap_or(Path::new("."));
    let temp = tempfile::Builder::new().prefix(".pgn-lsp-fmt-").tempfile_in(dir)?;
    let out = BufWriter::new(temp.as_file().try_clone()?);
    Ok((temp, out))
}

/// The bytes of `text`: UTF-8, or Latin-1 when the source was read as Latin-1. Every character
/// then fits: the output's characters are the input's (one per byte) or ASCII.
fn encode(text: &str, latin1: bool) -> Cow<'_, [u8]> {
    if !latin1 || text.is_ascii() {
        return Cow::Borrowed(text.as_bytes());
    }
    Cow::Owned(
        text.chars()
            .map(|c| u8::try_from(c).expect("a Latin-1 source has only Latin-1 characters"))
            .collect(),
    )
}

/// Whether the pieces fed so far are the start of the original text.
struct Comparison<'a> {
    original: &'a str,
    /// Bytes of the original matched so far.
    matched: usize,
    differs: bool,
}

impl<'a> Comparison<'a> {
    fn new(original: &'a str) -> Self {
        Comparison { original, matched: 0, differs: false }
    }

    /// Take the next piece of output; returns whether the output still matches.
    fn feed(&mut self, piece: &str) -> bool {
        if !self.differs && self.original[self.matched..].starts_with(piece) {
            self.matched += piece.len();
        } else {
            self.differs = true;
        }
        !self.differs
    }

    fn changed(&self) -> bool {
        self.differs || self.matched != self.original.len()
    }
}

/// Reports the games kept as they are, with their line numbers, on standard error.
struct KeptReporter<'a> {
    source: &'a Source<'a>,
    /// The last game reported, and its line.
    at: Cursor,
}

impl<'a> KeptReporter<'a> {
    fn new(source: &'a Source<'a>) -> Self {
        KeptReporter { source, at: Cursor::START }
    }

    fn report(&mut self, game: &FormattedGame<'_>) {
        let GameOutput::Kept(reason) = &game.output else { return };
        let (at, why) = match reason {
            KeepReason::SyntaxError(d) => {
                (d.range.start as usize, format!("{} [{}]", d.message, d.code.as_str()))
            }
            KeepReason::NotReplayed => {
                (game.start as usize, "its moves could not be replayed".to_owned())
            }
            KeepReason::NotAGame => (
                game.start as usize,
                "it has no tag pairs and does not start with a move: no game".to_owned(),
            ),
            KeepReason::NoMovetextLeft => (
                game.start as usize,
                "formatted, it would have no movetext: it has no moves and no termination marker"
                    .to_owned(),
            ),
            KeepReason::WouldJoinPrevious => {
                (game.start as usize, "formatted, it would join the game before it".to_owned())
            }
        };
        self.at = self.at.moved_to(at.max(self.at.offset), self.source.text.as_bytes());
        eprintln!("{}:{}: game kept as it is: {why}", self.source.name, self.at.line + 1);
    }
}
