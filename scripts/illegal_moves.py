#!/usr/bin/env python3
"""Compare the illegal moves `pgn-lsp check` reports with python-chess (`pip install chess`).

    illegal_moves.py confirm --json-dir DIR PGN...
        Every game in which pgn-lsp reports an `illegal-move` is also rejected by python-chess.
        Only those games are handed to python-chess, so this stays fast on large files.

    illegal_moves.py complete --json-dir DIR PGN...
        Every move python-chess rejects is reported by pgn-lsp, at that move, with the matching
        code (illegal-move, ambiguous-move or invalid-san). python-chess reads whole files here.

DIR holds the JSON-lines output of `pgn-lsp check --format json` for each PGN file, named
`<file name>.jsonl`. Each command prints one summary line and exits with status 1 on failure.
"""

import argparse
import bisect
import io
import json
import logging
import re
import sys
from pathlib import Path

import chess.pgn

# python-chess's error messages name the rejected move: "illegal san: 'b4' in <FEN>".
PYTHON_CHESS_ERROR = re.compile(r"^(illegal|ambiguous|invalid) san: '([^']*)'")
OUR_CODE = {"illegal": "illegal-move", "ambiguous": "ambiguous-move", "invalid": "invalid-san"}

# python-chess also logs every error it collects; the summary says what matters.
logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)


class PgnText:
    """A PGN file decoded as pgn-lsp decodes it, with 1-based line/character positions."""

    def __init__(self, path):
        # pgn-lsp reads UTF-8 with one character per byte that is not UTF-8 (surrogateescape
        # does the same) and does not count a byte-order mark.
        self.text = Path(path).read_bytes().decode("utf-8-sig", errors="surrogateescape")
        self.lines = self.text.split("\n")
        self.is_tag = [line.lstrip().startswith("[") for line in self.lines]
        self.line_starts = [0]
        for line in self.lines[:-1]:
            self.line_starts.append(self.line_starts[-1] + len(line) + 1)

    def offset(self, line, column):
        return self.line_starts[line - 1] + column - 1

    def span(self, diagnostic):
        start = self.offset(diagnostic["line"], diagnostic["column"])
        end = self.offset(diagnostic["end_line"], diagnostic["end_column"])
        return start, self.text[start:end]

    def game_around(self, line):
        """The text of the game holding 1-based `line`: from the first tag line of the tag
        section above it to the next tag section (tag lines start with '[')."""
        is_tag = self.is_tag
        first = line - 1
        while first > 0 and not is_tag[first]:
            first -= 1
        while first > 0 and is_tag[first - 1]:
            first -= 1
        last = line
        while last < len(self.lines) and not is_tag[last]:
            last += 1
        return "\n".join(self.lines[first:last]) + "\n"


def bare(san):
    """A move without check/mate signs or suffix annotations, for comparison."""
    return san.rstrip("+#!?")


def python_chess_errors(text):
    """(start offset of the game, kind, move) for every move python-chess rejects in `text`;
    a game python-chess cannot read at all (it raises) counts as rejected, of kind "crash"."""
    handle = io.StringIO(text)
    errors = []
    while True:
        start = handle.tell()
        try:
            game = chess.pgn.read_game(handle)
        except Exception as e:  # python-chess gave up on this text: it does not accept it
            errors.append((start, "crash", repr(e)))
            return errors
        if game is None:
            return errors
        for error in game.errors:
            match = PYTHON_CHESS_ERROR.match(str(error))
            errors.append((start, match.group(1) if match else "other",
                           match.group(2) if match else str(error)))


def diagnostics(json_dir, pgn, codes):
    path = Path(json_dir) / (Path(pgn).name + ".jsonl")
    with open(path, encoding="utf-8") as f:
        records = [json.loads(line) for line in f]
    return [r for r in records if r["code"] in codes]


def confirm(json_dir, pgns):
    reported = rejected = same_move = 0
    unconfirmed = []
    for pgn in pgns:
        ours = diagnostics(json_dir, pgn, {"illegal-move"})
        print(f"{Path(pgn).name}: {len(ours)} illegal-move")
        if not ours:
            continue
        text = PgnText(pgn)
        for d in ours:
            reported += 1
            _, move = text.span(d)
            theirs = python_chess_errors(text.game_around(d["line"]))
            if theirs:
                rejected += 1
                same_move += any(bare(m) == bare(move) for _, _, m in theirs)
            else:
                unconfirmed.append(f"{pgn}:{d['line']}:{d['column']}: {d['message']}")
    files = len(pgns)
    if unconfirmed:
        print(f"illegal moves vs python-chess: FAILED: python-chess accepts {len(unconfirmed)} of "
              f"the {reported} games with an illegal-move in {files} files:")
        print("\n".join(unconfirmed[:20]))
        return 1
    print(f"illegal moves vs python-chess: ok: {reported} illegal-move diagnostics in {files} "
          f"files; python-chess rejects all {rejected} games ({same_move} at the same move)")
    return 0


def complete(json_dir, pgns):
    expected = 0
    missing = []
    for pgn in pgns:
        text = PgnText(pgn)
        theirs = python_chess_errors(text.text)
        ours = diagnostics(json_dir, pgn, set(OUR_CODE.values()))
        found = sorted((text.span(d)[0], d["code"], bare(text.span(d)[1])) for d in ours)
        starts = sorted({start for start, _, _ in theirs})
        for start, kind, move in theirs:
            expected += 1
            # The game runs from its start to the next game python-chess found.
            following = [s for s in starts if s > start]
            end = following[0] if following else len(text.text)
            lo = bisect.bisect_left(found, (start,))
            hi = bisect.bisect_left(found, (end,))
            if not any(code == OUR_CODE.get(kind) and m == bare(move)
                       for _, code, m in found[lo:hi]):
                missing.append(f"{pgn}: python-chess: {kind} san '{move}' (game at offset {start})")
    if missing:
        print(f"moves python-chess rejects: FAILED: pgn-lsp misses {len(missing)} of {expected}:")
        print("\n".join(missing[:20]))
        return 1
    if expected == 0:
        print("moves python-chess rejects: FAILED: python-chess rejects no move in "
              f"{', '.join(pgns)}; nothing was compared")
        return 1
    print(f"moves python-chess rejects: ok: pgn-lsp reports all {expected} of them, at the same "
          "move and with the matching code")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["confirm", "complete"])
    parser.add_argument("--json-dir", required=True)
    parser.add_argument("pgns", nargs="+")
    args = parser.parse_args()
    command = confirm if args.command == "confirm" else complete
    return command(args.json_dir, args.pgns)


if __name__ == "__main__":
    sys.exit(main())
