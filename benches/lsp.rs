//! Benchmark of the language server on a large document, driving the real binary over stdio
//! as an editor would: open to first diagnostics, one-character edits to their diagnostics,
//! each in a different game (and the same in a document of about 100 KB), hover on a move,
//! formatting one game and the whole document, resident memory, and open to first diagnostics
//! with the server reading the document from disk (`pgn/openFile`, as the VS Code extension
//! asks for files over 50 MB). Times are measured by the client, so they include the transfer
//! of the messages;
//! the server's own time for an edit (applying it, choosing and converting the diagnostics,
//! handing them to the protocol layer) is read from its debug log.
//!
//! `cargo bench --bench lsp -- [--size MB] [--edits N] [--limit N] FILE...` (PGN files, plain
//! or `.zst`; the document is their games, repeated or cut at a game boundary to about
//! `--size` MB; the small document is the 100 KB of games around the middle; `--edits` edits,
//! 200 by default, spread evenly over each document; `--limit` sets the server's
//! `diagnostics.limit`).

mod common;
#[path = "../tests/lsp_client/mod.rs"]
mod lsp_client;

use std::path::Path;
use std::time::{Duration, Instant};

use common::read_pgn;

use lsp_client::{Client, vscode_capabilities};
use serde_json::{Value, json};
use tower_lsp::lsp_types::Url;

const BINARY: &str = env!("CARGO_BIN_EXE_pgn-lsp");
const URI: &str = "file:///bench.pgn";

/// The language server benchmark's command line.
#[derive(clap::Parser)]
#[command(name = "lsp", about = "The language server on a large document and a small one")]
struct Args {
    /// The large document's size, in MB.
    #[arg(long, value_name = "MB", default_value_t = 100)]
    size: usize,
    /// Edits (and hovers) on each document.
    #[arg(long, value_name = "N", default_value_t = 200)]
    edits: usize,
    /// The server's `diagnostics.limit`.
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// What `cargo bench` passes to every benchmark program.
    #[arg(long, hide = true)]
    bench: bool,
    /// PGN files, plain or `.zst`, whose games make the documents.
    #[arg(required = true)]
    files: Vec<String>,
}

/// The first game start (a line starting with `[Event `) at or after `at`.
fn game_start_after(text: &str, at: usize) -> usize {
    let at = text.floor_char_boundary(at.min(text.len()));
    text[at..].find("\n[Event ").map_or(text.len(), |i| at + i + 1)
}

/// About `size` bytes of games from `sources`, in turn, repeated as needed.
fn build_document(sources: &[String], size: usize) -> String {
    let mut doc = String::with_capacity(size + (1 << 20));
    'fill: loop {
        for source in sources {
            let left = size - doc.len();
            if source.len() >= left {
                doc.push_str(&source[..game_start_after(source, left)]);
                break 'fill;
            }
            doc.push_str(source);
            doc.push_str("\n\n");
        }
    }
    doc
}

/// About `size` bytes of whole games of `text` around `at`.
fn games_around(text: &str, at: usize, size: usize) -> String {
    let start = game_start_after(text, at.saturating_sub(size / 2));
    let start = if start > at { game_start_after(text, at.saturating_sub(size)) } else { start };
    text[start..game_start_after(text, start + size)].to_owned()
}

/// Where a one-character edit goes: the space after the first move number at or after `at`
/// (or, past the last one, the first of the text).
fn edit_offset(text: &str, at: usize) -> usize {
    let at = text.floor_char_boundary(at);
    let found = text[at..].find("\n1. ").map(|i| at + i);
    found.or_else(|| text.find("\n1. ")).expect("a game with moves") + 3
}

/// The server's own time for each edit, from its debug log: applying the change, then
/// converting the diagnostics and handing them to the protocol layer.
fn server_edit_times(log: &Path) -> Vec<Duration> {
    let log = std::fs::read_to_string(log).expect("read the server log");
    let duration = |line: &str, after: &str| -> Option<Duration> {
        let text = &line[line.find(after)? + after.len()..];
        let end = text.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(text.len());
        let value: f64 = text[..end].parse().ok()?;
        let unit = text[end..].split(|c: char| c == ',' || c.is_whitespace()).next()?;
        let seconds = match unit {
            "s" => value,
            "ms" => value / 1e3,
            "µs" => value / 1e6,
            "ns" => value / 1e9,
            _ => return None,
        };
        Some(Duration::from_secs_f64(seconds))
    };
    let applied: Vec<Duration> =
        log.lines().filter_map(|l| duration(l, "changes applied in ")).collect();
    // The first publish is the one after opening.
    let published: Vec<Duration> =
        log.lines().filter_map(|l| duration(l, ", sent in ")).skip(1).collect();
    applied.iter().zip(&published).map(|(a, p)| *a + *p).collect()
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    samples[((samples.len() - 1) as f64 * p).round() as usize]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

/// Resident memory of a process now and at its peak, in bytes (Linux).
fn memory(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024)
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

struct Session {
    client: Client,
    /// The document as opened; the server's copy also has the spaces inserted since.
    text: String,
    /// Where each line of `text` starts.
    line_starts: Vec<usize>,
    /// The offsets in `text` at which a space was inserted.
    inserted: Vec<usize>,
    version: i64,
}

/// The server's `initializationOptions` for `--limit`.
fn options(limit: Option<usize>) -> Value {
    limit.map_or(Value::Null, |limit| json!({ "diagnostics": { "limit": limit } }))
}

/// Open to first diagnostics, the server reading `text` from a file (`pgn/openFile`); the file
/// was just written, so it is read from the page cache, as after an editor has opened it.
fn open_from_disk(text: &str, limit: Option<usize>) -> (Duration, usize) {
    let path = std::env::temp_dir().join("pgn-lsp-bench.pgn");
    std::fs::write(&path, text).expect("write the document");
    let uri = Url::from_file_path(&path).expect("an absolute path").to_string();
    let mut client = Client::spawn(BINARY, &[]);
    client.initialize(vscode_capabilities(), options(limit));
    let started = Instant::now();
    client.notify("pgn/openFile", json!({ "textDocument": { "uri": uri } }));
    let published = client.wait_for("the diagnostics of the file", |m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
    });
    let elapsed = started.elapsed();
    std::fs::remove_file(&path).expect("remove the document");
    (elapsed, published["params"]["diagnostics"].as_array().map_or(0, Vec::len))
}

impl Session {
    fn open(text: String, limit: Option<usize>, log: &Path) -> (Session, Duration, usize) {
        let log = std::fs::File::create(log).expect("create the server log");
        let mut client = Client::spawn_logging_to(BINARY, log);
        client.initialize(vscode_capabilities(), options(limit));
        let started = Instant::now();
        client.open(URI, &text);
        let diagnostics = client.diagnostics(URI, 1).len();
        let elapsed = started.elapsed();
        let line_starts =
            std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        let session = Session { client, text, line_starts, inserted: Vec::new(), version: 1 };
        (session, elapsed, diagnostics)
    }

    /// The UTF-16 position, in the server's copy, of the place at `offset` in `text`: the
    /// spaces inserted before it on its line move it on. Found from the line starts, so that
    /// preparing an edit does not read the document up to it (which an editor does not do
    /// either, and which would leave the caches cold for the measured part).
    fn position(&self, offset: usize) -> Value {
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        let start = self.line_starts[line];
        let inserted = self.inserted.iter().filter(|&&at| (start..offset).contains(&at)).count();
        let character = self.text[start..offset].encode_utf16().count() + inserted;
        json!({ "line": line, "character": character })
    }

    /// The length of the server's copy.
    fn len(&self) -> usize {
        self.text.len() + self.inserted.len()
    }

    /// Insert one space at the place at `offset` in `text`; the time until its diagnostics
    /// arrive.
    fn insert_space(&mut self, offset: usize) -> Duration {
        let at = self.position(offset);
        self.version += 1;
        let change = json!({
            "textDocument": { "uri": URI, "version": self.version },
            "contentChanges": [{ "range": { "start": at, "end": at }, "text": " " }]
        });
        let started = Instant::now();
        self.client.notify("textDocument/didChange", change);
        let diagnostics = self.client.diagnostics(URI, self.version);
        // The time until the client holds the decoded diagnostics; freeing them is not part of it.
        let elapsed = started.elapsed();
        drop(diagnostics);
        self.inserted.push(offset);
        elapsed
    }

    /// `count` edits spread evenly over the document, each after the first move number of
    /// another game (games repeat only in a document of fewer games).
    fn edits(&mut self, count: usize) -> Vec<Duration> {
        (0..count)
            .map(|i| self.insert_space(edit_offset(&self.text, self.text.len() * i / count)))
            .collect()
    }

    /// The time to format the game holding `offset` (range formatting of an empty range).
    fn format_game(&mut self, offset: usize) -> Duration {
        let at = self.position(offset);
        let params = json!({ "textDocument": { "uri": URI }, "range": { "start": at, "end": at },
                             "options": { "tabSize": 4, "insertSpaces": true } });
        let started = Instant::now();
        let edits = self.client.call("textDocument/rangeFormatting", params);
        assert!(edits.is_array(), "no formatting answer: {edits}");
        started.elapsed()
    }

    /// The time to format the whole document, and the number of edits it takes.
    fn format_document(&mut self) -> (Duration, usize) {
        let params = json!({ "textDocument": { "uri": URI },
                             "options": { "tabSize": 4, "insertSpaces": true } });
        let started = Instant::now();
        let edits = self.client.call("textDocument/formatting", params);
        let elapsed = started.elapsed();
        (elapsed, edits.as_array().expect("formatting edits").len())
    }

    fn hovers(&mut self, offset: usize, count: usize) -> Vec<Duration> {
        let at = self.position(offset);
        let params = json!({ "textDocument": { "uri": URI }, "position": at });
        (0..count)
            .map(|_| {
                let started = Instant::now();
                let result = self.client.call("textDocument/hover", params.clone());
                assert!(result["contents"]["value"].is_string(), "no hover: {result}");
                started.elapsed()
            })
            .collect()
    }
}

fn main() {
    let args = <Args as clap::Parser>::parse();
    let sources: Vec<String> = args.files.iter().map(|f| read_pgn(f)).collect();
    let big = build_document(&sources, args.size * 1_000_000);
    let middle = edit_offset(&big, big.len() / 2);
    let small = games_around(&big, middle, 100_000);
    println!(
        "document: {} bytes ({} MB), small document: {} bytes",
        big.len(),
        big.len() / 1_000_000,
        small.len()
    );

    let logs = std::env::temp_dir();
    let (big_log, small_log) =
        (logs.join("pgn-lsp-bench-big.log"), logs.join("pgn-lsp-bench-small.log"));
    let (mut session, open, diagnostics) = Session::open(big, args.limit, &big_log);
    println!("open to first diagnostics: {} ({diagnostics} diagnostics)", ms(open));
    let (rss_open, _) = memory(session.client.pid()).unwrap_or_default();
    let mut edits = session.edits(args.edits);
    // The hover goes on the first move of a game in the middle.
    let hover_at = {
        let at = edit_offset(&session.text, session.text.len() / 2);
        at + session.text[at..].find(|c| c != ' ').expect("a move")
    };
    let mut hovers = session.hovers(hover_at, args.edits);
    let (rss, peak) = memory(session.client.pid()).unwrap_or_default();
    let format_game = session.format_game(hover_at);
    let (format_document, format_edits) = session.format_document();
    let (_, peak_formatting) = memory(session.client.pid()).unwrap_or_default();

    let (mut small_session, _, small_diagnostics) = Session::open(small, args.limit, &small_log);
    let mut small_edits = small_session.edits(args.edits);
    let (open_disk, disk_diagnostics) = open_from_disk(&session.text, args.limit);

    let size = session.len() as f64;
    let (edit50, edit99) = (percentile(&mut edits, 0.5), percentile(&mut edits, 0.99));
    let small50 = percentile(&mut small_edits, 0.5);
    println!(
        "edit to diagnostics ({} edits, each in another game), p50: {}  p99: {}",
        edits.len(),
        ms(edit50),
        ms(edit99)
    );
    drop(session.client);
    drop(small_session.client);
    let (mut server, mut small_server) =
        (server_edit_times(&big_log), server_edit_times(&small_log));
    println!(
        "  server time, p50: {}  p99: {}; in the small document, p50: {}",
        ms(percentile(&mut server, 0.5)),
        ms(percentile(&mut server, 0.99)),
        ms(percentile(&mut small_server, 0.5))
    );
    println!(
        "same edit in the small document ({small_diagnostics} diagnostics), p50: {}  (ratio {:.2})",
        ms(small50),
        edit50.as_secs_f64() / small50.as_secs_f64()
    );
    println!(
        "hover, p50: {}  p99: {}",
        ms(percentile(&mut hovers, 0.5)),
        ms(percentile(&mut hovers, 0.99))
    );
    println!(
        "formatting one game: {}; the whole document: {} ({format_edits} edits)",
        ms(format_game),
        ms(format_document)
    );
    println!(
        "resident memory after open: {} MB ({:.2}x), after the edits: {} MB ({:.2}x), peak: {} MB ({:.2}x)",
        rss_open / 1_000_000,
        rss_open as f64 / size,
        rss / 1_000_000,
        rss as f64 / size,
        peak / 1_000_000,
        peak as f64 / size
    );
    println!(
        "  peak after formatting the whole document: {} MB ({:.2}x)",
        peak_formatting / 1_000_000,
        peak_formatting as f64 / size
    );
    println!(
        "open from disk (pgn/openFile) to first diagnostics: {} ({disk_diagnostics} diagnostics)",
        ms(open_disk)
    );
}
