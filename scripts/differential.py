#!/usr/bin/env python3
"""Differential test of `pgn-lsp check` against python-chess (`pip install chess`).

Over every game of a PGN corpus, the games in which pgn-lsp reports an `illegal-move` or
`ambiguous-move` must be exactly the games in which python-chess reports an illegal or ambiguous
SAN, except for the disagreements listed, each with its reason, in an exceptions file
(tests/differential-exceptions.toml, by file and game index): cases where python-chess is wrong (it reads `♘f3` and
`nf3` as pawn moves, loses its place after an error inside a variation, ...) or where the two
read a file differently on purpose.

    differential.py [--corpus DIR] [--pgn-lsp BINARY] [--exceptions FILE]

Games are those python-chess reads: game N of a file is the N-th (0-based) that
`chess.pgn.read_game` returns, and a pgn-lsp diagnostic belongs to the game whose text holds it.
Files are decoded as pgn-lsp decodes them (UTF-8 without a byte-order mark, else Latin-1), and
python-chess reads that same text. `.zst` files are decompressed with `zstd`.

Every listed exception must still occur: a stale entry fails the run. python-chess reads
about a megabyte a second; the whole corpus takes about three minutes.

Prints one summary line (and the disagreements); exits with status 1 on any unlisted
disagreement or stale exception.
"""

import argparse
import bisect
import io
import json
import logging
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import chess.pgn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from illegal_moves import PYTHON_CHESS_ERROR  # noqa: E402  (the same reading of its errors)

REPO = Path(__file__).resolve().parent.parent
OUR_CODES = {"illegal-move", "ambiguous-move"}
THEIR_KINDS = {"illegal", "ambiguous"}

# python-chess logs every error it collects; the summary says what matters.
logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)


def decode(data):
    """The text pgn-lsp reads: UTF-8 (a byte-order mark not counted), else Latin-1."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return text.removeprefix("\ufeff")


def corpus_files(corpus):
    return sorted(p for p in Path(corpus).rglob("*") if p.is_file() and p.suffix != ".md")


def read_bytes(path):
    if path.suffix == ".zst":
        return subprocess.run(["zstd", "-dc", str(path)], check=True, capture_output=True).stdout
    return path.read_bytes()


def python_chess_games(text):
    """The games python-chess reads from `text`: their start offsets (in characters), the
    indexes of those in which it reports an illegal or ambiguous SAN, and those it could not
    read at all (it raised; reading goes on at the next tag section)."""
    handle = io.StringIO(text)
    starts, rejected, crashed = [], set(), {}
    while True:
        start = handle.tell()
        try:
            game = chess.pgn.read_game(handle)
        except Exception as e:
            crashed[len(starts)] = repr(e)
            starts.append(start)
            handle.seek(next_tag_section(text, start))
            continue
        if game is None:
            break
        starts.append(start)
        for error in game.errors:
            match = PYTHON_CHESS_ERROR.match(str(error))
            if match and match.group(1) in THEIR_KINDS:
                rejected.add(len(starts) - 1)
    return starts, rejected, crashed


def next_tag_section(text, start):
    """Where the first tag section after the game at `start` begins (the text's end if none):
    the first line starting with `[` after a line that does not, from `start` on."""
    at, in_tags = start, True
    while at < len(text):
        end = text.find("\n", at)
        end = len(text) if end < 0 else end + 1
        tag_line = text.startswith("[", at)
        if tag_line and not in_tags:
            return at
        in_tags = tag_line or (in_tags and not text[at:end].strip())
        at = end
    return len(text)


def pgn_lsp_games(binary, text, starts):
    """Indexes of the games (as python-chess delimits them) in which pgn-lsp reports an
    illegal or ambiguous move, checking `text`."""
    run = subprocess.run(
        [binary, "check", "--format", "json", "--min-severity", "error", "-"],
        input=text.encode("utf-8"), capture_output=True, check=False)
    if run.returncode not in (0, 1) or run.stderr:
        raise SystemExit(f"pgn-lsp check failed ({run.returncode}): {run.stderr.decode()[:500]}")
    line_starts = [0]
    for i, c in enumerate(text):
        if c == "\n":
            line_starts.append(i + 1)
    games = set()
    for line in run.stdout.decode("utf-8").splitlines():
        record = json.loads(line)
        if record["code"] in OUR_CODES:
            offset = line_starts[record["line"] - 1] + record["column"] - 1
            games.add(bisect.bisect_right(starts, offset) - 1)
    return games


def load_exceptions(path):
    """(file, game) -> the entry that lists it; an entry lists `games` of one `file`."""
    with open(path, "rb") as f:
        entries = tomllib.load(f).get("exception", [])
    table = {}
    for entry in entries:
        if entry.get("reported_by") not in ("pgn-lsp", "python-chess") or not entry.get("reason"):
            raise SystemExit(f"{path}: each exception needs reported_by and a reason: {entry}")
        for game in entry["games"]:
            key = (entry["file"], game)
            if key in table:
                raise SystemExit(f"{path}: {key} is listed twice")
            table[key] = entry
    return table


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default=str(REPO.parent / "shared" / "corpus"))
    parser.add_argument("--pgn-lsp", default=str(REPO / "target" / "release" / "pgn-lsp"))
    parser.add_argument("--exceptions", default=str(REPO / "tests" / "differential-exceptions.toml"))
    args = parser.parse_args()

    exceptions = load_exceptions(args.exceptions)
    started = time.monotonic()
    games = agreeing = flagged = unreadable = 0
    unlisted, seen = [], set()
    for path in corpus_files(args.corpus):
        name = path.relative_to(args.corpus).as_posix()
        text = decode(read_bytes(path))
        starts, theirs, crashed = python_chess_games(text)
        ours = pgn_lsp_games(args.pgn_lsp, text, starts)
        games += len(starts)
        unreadable += len(crashed)
        flagged += len(ours | theirs)
        for game in range(len(starts)):
            if (game in ours) == (game in theirs):
                agreeing += 1
                continue
            reporter = "pgn-lsp" if game in ours else "python-chess"
            listed = exceptions.get((name, game))
            if listed and listed["reported_by"] == reporter:
                seen.add((name, game))
            else:
                crash = f"; python-chess raised {crashed[game]}" if game in crashed else ""
                unlisted.append(f"{name} game {game}: only {reporter} reports an illegal or "
                                f"ambiguous move (offset {starts[game]}){crash}")
        for (file, game), entry in exceptions.items():
            if file == name and (file, game) not in seen:
                unlisted.append(f"{file} game {game}: listed as reported only by "
                                f"{entry['reported_by']}, which is no longer so")
    seconds = time.monotonic() - started
    summary = (f"{games} games ({unreadable} python-chess could not read); {flagged} flagged by "
               f"either; {agreeing} agree, {len(seen)} listed exceptions ({seconds:.0f} s)")
    if unlisted:
        print(f"differential vs python-chess: FAILED: {len(unlisted)} unlisted: {summary}")
        print("\n".join(unlisted))
        return 1
    print(f"differential vs python-chess: ok: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
