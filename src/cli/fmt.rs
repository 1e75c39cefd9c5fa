//! `pgn-lsp fmt`: rewrite PGN in the standard's export format (§3.2), like rustfmt: standard
//! input goes to standard output, named files are rewritten in place when they change.
//!
//! Files are written atomically: the new text goes to a temporary file in the same directory,
//! which takes the old file's permissions and is then renamed over it (a symbolic link is
//! followed, so the link stays a link). Nothing is written until the output first differs from
//! the input, so files already formatted are never touched. Output streams game by game.
//!
//! Encodings: a file read as UTF-8 is written as UTF-8 (a byte order mark is kept); a file that
//! was not UTF-8 was read as Latin-1 (§4.1) and is written back as Latin-1, never silently
//! converted.
//!
//! Games with structural syntax errors are kept byte for byte and reported on standard error
//! as `file:line: ...`; they do not change the exit status (`pgn-lsp check` reports them).
//! Exit status: 0, or 1 with `--check` when a file would change, or 2 on usage or I/O errors.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

use tempfile::NamedTempFile;

use super::EXIT_USAGE;
use super::config::{ConfigFinder, MIN_LINE_WIDTH};
use super::input::{Source, read_source};
use crate::fmt::{FormatOptions, FormattedGame, GameOutput, KeepReason, format_games};

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
    let mut finder = ConfigFinder::default();
    let mut would_change = false;
    let mut failed = false;
    for file in &args.files {
        match format_file(&args, &mut finder, file) {
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
    let source = read_source(file).map_err(|e| Failure::io(file, e))?;
    let mut reporter = KeptReporter::new(&source);
    let games = format_games(&source.text, &options).inspect(|g| reporter.report(g));
    if args.diff {
        let formatted: String = games.map(|g| g.text().to_owned()).collect();
        let changed = formatted != source.text;
        if changed {
            let diff = similar::TextDiff::from_lines(&source.text, &formatted);
            let a = format!("a/{}", source.name);
            let b = format!("b/{}", source.name);
            let mut out = io::stdout().lock();
            write!(out, "{}", diff.unified_diff().header(&a, &b))
                .map_err(|e| Failure::io("standard output", e))?;
        }
        return Ok(changed);
    }
    if args.check {
        let mut comparison = Comparison::new(&source.text);
        for game in games {
            comparison.feed(game.text());
        }
        if comparison.changed() {
            println!("{}", source.name);
        }
        return Ok(comparison.changed());
    }
    if file == "-" {
        let mut out = BufWriter::new(io::stdout().lock());
        let mut comparison = Comparison::new(&source.text);
        for game in games {
            comparison.feed(game.text());
            out.write_all(&encode(game.text(), &source)?)
                .map_err(|e| Failure::io("standard output", e))?;
        }
        out.flush().map_err(|e| Failure::io("standard output", e))?;
        return Ok(comparison.changed());
    }
    rewrite_in_place(file, &source, games)
}

/// Stream the games into a temporary file once the text first differs, then rename it over
/// the file. Returns whether the file changed.
fn rewrite_in_place<'a>(
    file: &str,
    source: &Source,
    games: impl Iterator<Item = FormattedGame<'a>>,
) -> Result<bool, Failure> {
    let error = |e: io::Error| Failure::io(file, e);
    let mut comparison = Comparison::new(&source.text);
    let mut temp: Option<(NamedTempFile, BufWriter<File>)> = None;
    for game in games {
        let text = game.text();
        if let Some((_, out)) = &mut temp {
            out.write_all(&encode(text, source)?).map_err(error)?;
            continue;
        }
        let same_so_far = comparison.matched;
        if !comparison.feed(text) {
            let (file_handle, mut out) = open_temp(file).map_err(error)?;
            out.write_all(&encode(&source.text[..same_so_far], source)?).map_err(error)?;
            out.write_all(&encode(text, source)?).map_err(error)?;
            temp = Some((file_handle, out));
        }
    }
    if !comparison.changed() {
        return Ok(false);
    }
    let (temp, out) = match temp {
        Some(open) => open,
        // The output is a shorter prefix of the input (blank lines at the end were dropped).
        None => {
            let (temp, mut out) = open_temp(file).map_err(error)?;
            out.write_all(&encode(&source.text[..comparison.matched], source)?).map_err(error)?;
            (temp, out)
        }
    };
    let written = out.into_inner().map_err(|e| error(e.into_error()))?;
    written.sync_all().map_err(error)?;
    let target = std::fs::canonicalize(file).map_err(error)?;
    let permissions = std::fs::metadata(&target).map_err(error)?.permissions();
    written.set_permissions(permissions).map_err(error)?;
    temp.persist(&target).map_err(|e| error(e.error))?;
    Ok(true)
}

/// A temporary file next to `file` (next to its target when it is a link).
fn open_temp(file: &str) -> io::Result<(NamedTempFile, BufWriter<File>)> {
    let target = std::fs::canonicalize(file)?;
    let dir = target.parent().unwrap_or(Path::new("."));
    let temp = tempfile::Builder::new().prefix(".pgn-lsp-fmt-").tempfile_in(dir)?;
    let out = BufWriter::new(temp.as_file().try_clone()?);
    Ok((temp, out))
}

/// The bytes of `text` in the encoding the file was read in.
fn encode<'t>(text: &'t str, source: &Source) -> Result<Cow<'t, [u8]>, Failure> {
    if !source.is_latin1() || text.is_ascii() {
        return Ok(Cow::Borrowed(text.as_bytes()));
    }
    text.chars().map(u8::try_from).collect::<Result<Vec<u8>, _>>().map(Cow::Owned).map_err(|_| {
        Failure::Message(format!("{}: the output does not fit in Latin-1", source.name))
    })
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
    source: &'a Source,
    /// Line number (1-based) of `offset`.
    line: usize,
    offset: usize,
}

impl<'a> KeptReporter<'a> {
    fn new(source: &'a Source) -> Self {
        KeptReporter { source, line: 1, offset: 0 }
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
            KeepReason::NoMovetextLeft => (
                game.start as usize,
                "formatted, it would have no movetext: it has no moves and no termination marker"
                    .to_owned(),
            ),
            KeepReason::WouldJoinPrevious => {
                (game.start as usize, "formatted, it would join the game before it".to_owned())
            }
        };
        let at = at.max(self.offset);
        self.line +=
            memchr::memchr_iter(b'\n', &self.source.text.as_bytes()[self.offset..at]).count();
        self.offset = at;
        eprintln!("{}:{}: game kept as it is: {why}", self.source.name, self.line);
    }
}
