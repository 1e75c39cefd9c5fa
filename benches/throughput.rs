//! Throughput benchmark: the lexer, the syntax layer, the chess analysis, `pgn-lsp check` and
//! `pgn-lsp fmt` on one thread and on all cores, each on real PGN and next to the reference stack,
//! pgn-reader + shakmaty, on the same file in the same run (`../shared/bench/anchor.sh`, or the
//! script `--anchor` names). One line per figure, with the ratio to the reference (above 1:
//! pgn-lsp is faster).
//!
//! `cargo bench --bench throughput -- [--repeat N] [--anchor SCRIPT] [--only FIGURE] FILE...`
//! (plain or `.zst`; `--only lexer|syntax|analysis` measures that figure alone, for a profiler)
//!
//! Runs are interleaved and the best of `--repeat` is kept for each figure: on a shared machine
//! the best time is the one least disturbed by other work. The reference times itself on a file
//! already in memory; so are the lexer, the syntax layer and the analysis timed here, in this
//! process. `check` and `fmt` are timed as whole runs of the real binary, from its start to its
//! exit (reading the file from the page cache, and writing the diagnostics as JSON to /dev/null,
//! included), which is what a user waits for; their ratios to the reference's own clock are
//! therefore on the cautious side. So they are also given against the reference's whole run,
//! timed the same way (its program, which the script builds, run directly: the script would
//! first have cargo check the build).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::Duration;

use common::{mb_per_s, read_pgn, time};
use pgn_lsp::chess::analyze;
use pgn_lsp::syntax::{lex, parse_games};

const BINARY: &str = env!("CARGO_BIN_EXE_pgn-lsp");

/// The throughput benchmark's command line.
#[derive(clap::Parser)]
#[command(name = "throughput", about = "Throughput of pgn-lsp next to pgn-reader + shakmaty")]
struct Args {
    /// Runs of each figure; the best is kept.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,
    /// The reference script.
    #[arg(long, value_name = "SCRIPT", default_value_os_t = default_anchor())]
    anchor: PathBuf,
    /// Measure this figure alone (for a profiler).
    #[arg(long, value_enum, value_name = "FIGURE")]
    only: Option<Figure>,
    /// What `cargo bench` passes to every benchmark program.
    #[arg(long, hide = true)]
    bench: bool,
    /// PGN files, plain or `.zst`.
    #[arg(required = true)]
    files: Vec<String>,
}

/// The figures measured, in the order they are printed; `--only` takes the first three.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Figure {
    Lexer,
    Syntax,
    Analysis,
    #[value(skip)]
    CheckOneThread,
    #[value(skip)]
    CheckAllCores,
    #[value(skip)]
    FmtOneThread,
    #[value(skip)]
    FmtAllCores,
    #[value(skip)]
    AnchorStats,
    #[value(skip)]
    AnchorValidate,
    #[value(skip)]
    AnchorValidateWholeRun,
}

const FIGURES: [Figure; 10] = [
    Figure::AnchorStats,
    Figure::AnchorValidate,
    Figure::AnchorValidateWholeRun,
    Figure::Lexer,
    Figure::Syntax,
    Figure::Analysis,
    Figure::CheckOneThread,
    Figure::CheckAllCores,
    Figure::FmtOneThread,
    Figure::FmtAllCores,
];

/// A file to measure: its text, and a plain file on disk for the processes.
struct Input {
    name: String,
    text: String,
    path: PathBuf,
    /// Holds the decompressed copy of a `.zst` file while it is measured.
    _plain: Option<tempfile::NamedTempFile>,
}

impl Input {
    fn new(file: &str) -> Input {
        let text = read_pgn(file);
        let name = Path::new(file).file_name().map_or(file.into(), |n| n.to_string_lossy());
        let name = name.trim_end_matches(".zst").to_owned();
        if !file.ends_with(".zst") {
            return Input { name, text, path: file.into(), _plain: None };
        }
        let mut plain = tempfile::NamedTempFile::new().expect("a temporary file");
        std::io::Write::write_all(&mut plain, &common::read_bytes(file)).expect("write it");
        Input { name, text, path: plain.path().to_owned(), _plain: Some(plain) }
    }
}

/// Run the binary once with `args` on the file at `path`; the time from its start to its exit.
fn run_binary(path: &str, args: &[&str]) -> Duration {
    let (elapsed, status) = run_whole(Path::new(BINARY), path, args);
    // check: 0 or 1 (errors found); fmt --check: 0, 1 (would change) or 2 (a game it cannot
    // format, such as one with an unclosed comment, which it keeps as it is).
    let done = if args[0] == "fmt" { 0..=2 } else { 0..=1 };
    assert!(status.code().is_some_and(|code| done.contains(&code)), "pgn-lsp {args:?}: {status}");
    elapsed
}

/// Run `program` once with `args`; the time from its start to its exit, and how it exited.
/// The file at `path` is read just before, so that it is in the page cache when the clock
/// starts: some machines here keep a file in their page cache for seconds only, and the run
/// would then time the disk.
fn run_whole(program: &Path, path: &str, args: &[&str]) -> (Duration, ExitStatus) {
    let mut file = std::fs::File::open(path).expect("the file to measure");
    std::io::copy(&mut file, &mut std::io::sink()).expect("read it");
    let mut command = Command::new(program);
    command.args(args).stdout(Stdio::null()).stderr(Stdio::null());
    time(|| command.status().unwrap_or_else(|e| panic!("run {}: {e}", program.display())))
}

/// Where the reference script is asked to build its program (`ANCHOR_TARGET_DIR`), so that
/// its whole run can be timed without the script; the program is `release/pgn-anchor` in it.
const ANCHOR_TARGET: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/pgn-anchor");

/// The reference's whole `validate` run (one pass), timed as `check` is; `None` when its
/// program was not built.
fn run_anchor_whole(path: &str) -> Option<Duration> {
    let program = Path::new(ANCHOR_TARGET).join("release/pgn-anchor");
    if !program.exists() {
        return None;
    }
    let (elapsed, status) = run_whole(&program, path, &["validate", path, "1"]);
    assert!(status.success(), "{}: {status}", program.display());
    Some(elapsed)
}

/// The reference's own time for one pass in `mode` (`stats` or `validate`), or `None` when the
/// reference cannot be run.
fn run_anchor(anchor: &Path, mode: &str, path: &Path) -> Option<Duration> {
    let output = Command::new(anchor)
        .args([mode.as_ref(), path.as_os_str(), "1".as_ref()])
        .env("ANCHOR_TARGET_DIR", ANCHOR_TARGET)
        .output()
        .ok()?;
    if !output.status.success() {
        eprintln!("{}: {}", anchor.display(), String::from_utf8_lossy(&output.stderr));
        return None;
    }
    // "validate bytes=B games=... moves=... errors=... seconds=S MB/s=R": `seconds` is rounded
    // to the millisecond, a tenth of a TWIC file's time; the rate, to 0.1 MB/s, gives it exactly.
    let line = String::from_utf8_lossy(&output.stdout);
    let field = |name: &str| -> Option<f64> {
        line.split_whitespace().find_map(|f| f.strip_prefix(name))?.parse().ok()
    };
    let seconds = field("bytes=")? / 1e6 / field("MB/s=")?;
    Some(Duration::from_secs_f64(seconds))
}

/// One measurement of `figure` on `input`.
fn measure(figure: Figure, input: &Input, anchor: &Path) -> Option<Duration> {
    let text = input.text.as_str();
    let path = input.path.to_str().expect("a UTF-8 path");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    Some(match figure {
        Figure::Lexer => time(|| lex(text).count()).0,
        Figure::Syntax => time(|| parse_games(text).count()).0,
        Figure::Analysis => {
            time(|| {
                parse_games(text)
                    .map(|(start, game)| {
                        let src = &text[start as usize..(start + game.len) as usize];
                        analyze(&game, src).diagnostics.len()
                    })
                    .sum::<usize>()
            })
            .0
        }
        Figure::CheckOneThread => {
            run_binary(path, &["check", "--jobs", "1", "--format", "json", path])
        }
        Figure::CheckAllCores => {
            run_binary(path, &["check", "--jobs", &cores.to_string(), "--format", "json", path])
        }
        Figure::FmtOneThread => run_binary(path, &["fmt", "--check", "--jobs", "1", path]),
        Figure::FmtAllCores => {
            run_binary(path, &["fmt", "--check", "--jobs", &cores.to_string(), path])
        }
        Figure::AnchorStats => return run_anchor(anchor, "stats", &input.path),
        Figure::AnchorValidate => return run_anchor(anchor, "validate", &input.path),
        Figure::AnchorValidateWholeRun => return run_anchor_whole(path),
    })
}

/// How a figure is printed, and which reference figure it is compared with.
fn label(figure: Figure, cores: usize) -> (String, Option<Figure>) {
    match figure {
        Figure::Lexer => ("lexer".into(), None),
        Figure::Syntax => ("syntax (lex + parse)".into(), Some(Figure::AnchorStats)),
        Figure::Analysis => ("parse + analyze, in process".into(), Some(Figure::AnchorValidate)),
        Figure::CheckOneThread => ("check --jobs 1".into(), Some(Figure::AnchorValidate)),
        Figure::CheckAllCores => (format!("check --jobs {cores}"), Some(Figure::AnchorValidate)),
        Figure::FmtOneThread => ("fmt --check, 1 thread".into(), Some(Figure::AnchorValidate)),
        Figure::FmtAllCores => {
            (format!("fmt --check, {cores} threads"), Some(Figure::AnchorValidate))
        }
        Figure::AnchorStats => ("anchor stats".into(), None),
        Figure::AnchorValidate => ("anchor validate".into(), None),
        Figure::AnchorValidateWholeRun => ("anchor validate, whole run".into(), None),
    }
}

fn bench_file(file: &str, args: &Args) {
    let input = Input::new(file);
    let bytes = input.text.len();
    let games = parse_games(&input.text).count();
    let place = file_system(&input.path).map_or_else(String::new, |fs| format!(", on {fs}"));
    println!("{}: {:.1} MB, {games} games{place}", input.name, bytes as f64 / 1e6);
    let mut best: Vec<Option<Duration>> = vec![None; FIGURES.len()];
    let mut anchor_found = true;
    for _ in 0..args.repeat {
        for (i, &figure) in FIGURES.iter().enumerate() {
            if args.only.is_some_and(|only| only != figure) {
                continue;
            }
            let is_anchor = matches!(figure, Figure::AnchorStats | Figure::AnchorValidate);
            if is_anchor && !anchor_found {
                continue;
            }
            let measured = measure(figure, &input, &args.anchor);
            anchor_found &= !is_anchor || measured.is_some();
            best[i] = match (best[i], measured) {
                (Some(b), Some(m)) => Some(b.min(m)),
                (b, m) => b.or(m),
            };
        }
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let best_of = |figure: Figure| FIGURES.iter().position(|&f| f == figure).and_then(|i| best[i]);
    for (i, &figure) in FIGURES.iter().enumerate() {
        let Some(t) = best[i] else {
            if args.only.is_none() {
                println!("  {:<30} not measured", label(figure, cores).0);
            }
            continue;
        };
        let (name, reference) = label(figure, cores);
        let mut line = format!("  {name:<30} {:>8.1} MB/s", mb_per_s(bytes, t));
        // How many times as fast as a reference that took `r`.
        let ratio = |r: Duration| r.as_secs_f64() / t.as_secs_f64();
        if let Some((reference, r)) = reference.and_then(|f| Some((f, best_of(f)?))) {
            let reference = label(reference, cores).0;
            line.push_str(&format!("   ratio {:.2} to {reference}", ratio(r)));
        }
        let whole_run = matches!(
            figure,
            Figure::CheckOneThread
                | Figure::CheckAllCores
                | Figure::FmtOneThread
                | Figure::FmtAllCores
        );
        if let Some(r) = best_of(Figure::AnchorValidateWholeRun).filter(|_| whole_run) {
            line.push_str(&format!(", {:.2} to its whole run", ratio(r)));
        }
        println!("{line}");
    }
}

/// The type of the file system that holds `path` (Linux), which the whole runs read: `check`
/// maps its file, and a file on tmpfs is mapped 4 KB at a time, while ext4 can cache a large
/// file in larger pieces (how large depends on how the file came into the cache), so the same
/// file reads slower from tmpfs.
fn file_system(path: &Path) -> Option<String> {
    let path = path.canonicalize().ok()?;
    let mounts = std::fs::read_to_string("/proc/self/mounts").ok()?;
    mounts
        .lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace().skip(1);
            // A space in a mount point is written `\040`.
            let point = fields.next()?.replace("\\040", " ");
            Some((PathBuf::from(point), fields.next()?.to_owned()))
        })
        .filter(|(point, _)| path.starts_with(point))
        .max_by_key(|(point, _)| point.components().count())
        .map(|(_, kind)| kind)
}

/// The reference's script beside the repository.
fn default_anchor() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/anchor.sh")
}

fn main() {
    let args = <Args as clap::Parser>::parse();
    if !args.anchor.exists() {
        eprintln!("no reference at {}: ratios are left out", args.anchor.display());
    }
    for file in &args.files {
        bench_file(file, &args);
    }
}
