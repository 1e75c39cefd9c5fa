#!/usr/bin/env python3
"""Compare `pgn-lsp fmt` with python-chess where their export rules coincide.

Both tools are compared on games in reduced export form (spec 3.2.4: the seven tags of the Seven
Tag Roster, no comments, NAGs or variations), where their rules agree:
- a game already in that form: `pgn-lsp fmt -` against python-chess's
  `chess.pgn.StringExporter(columns=80)` export of it;
- any other game: `pgn-lsp fmt --reduced -` against python-chess's export of it with only the
  roster tags, `comments=False` and `variations=False`.
Each export is followed by an empty line. Only games from the standard start position whose
moves python-chess accepts are compared. Games that meet a documented difference are counted
apart: a tag value with `"` or `\\` (pgn-lsp escapes it, python-chess does not), a termination
marker that differs from the Result tag or without one (pgn-lsp keeps the marker and takes the
Result tag from it, python-chess writes the tag as the marker), and a tag given twice (pgn-lsp
keeps both).

Usage: fmt_vs_python_chess.py [--pgn-lsp PATH] FILE...   (plain PGN; decompress .zst first)
Prints `N identical, M differ` and the first differences; exits 1 if any game differs.
"""

import argparse
import difflib
import io
import os
import re
import shutil
import subprocess
import sys

try:
    import chess.pgn
except ImportError:
    subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet", "chess"])
    import chess.pgn

ROSTER = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
TAG_LINE = re.compile(r'^\s*\[\s*([A-Za-z0-9_]+)\s*"(.*)"\s*\]\s*$')
MARKERS = {"1-0", "0-1", "1/2-1/2", "*"}
SHOWN_DIFFERENCES = 5


def find_pgn_lsp():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for profile in ("release", "debug"):
        candidate = os.path.join(root, "target", profile, "pgn-lsp")
        if os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("pgn-lsp") or sys.exit("pgn-lsp not found: build it or pass --pgn-lsp")


def read_text(path):
    data = open(path, "rb").read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def split_games(text):
    """Games as text chunks: a new game starts at a tag line that follows movetext."""
    games, current, in_movetext = [], [], False
    for line in text.splitlines():
        if line.lstrip().startswith("[") and in_movetext:
            games.append("\n".join(current) + "\n")
            current, in_movetext = [], False
        if line.strip() and not line.lstrip().startswith("["):
            in_movetext = True
        current.append(line)
    if any(line.strip() for line in current):
        games.append("\n".join(current) + "\n")
    return games


def classify(chunk):
    """(mode, python-chess export) with mode "as is" or "reduced", or (reason left out, None)."""
    lines = chunk.splitlines()
    tag_lines = [line for line in lines if line.lstrip().startswith("[")]
    tags = [TAG_LINE.match(line) for line in tag_lines]
    if any(t is None for t in tags):
        return "tag lines not one tag pair each", None
    names = [t.group(1) for t in tags]
    values = {t.group(1): t.group(2) for t in tags}
    if len(set(names)) != len(names):
        return "documented: repeated tags kept", None
    if any(name in values for name in ("FEN", "SetUp", "Variant")):
        return "not the standard start position", None
    game = chess.pgn.read_game(io.StringIO(chunk))
    if game is None or game.errors:
        return "moves python-chess does not accept", None
    tokens = " ".join(line for line in lines if line not in tag_lines).split()
    if not tokens or tokens[-1] not in MARKERS or tokens[-1] != values.get("Result"):
        return "documented: marker kept, Result tag taken from it", None
    if any('"' in v or "\\" in v for v in values.values()):
        return "documented: tag values escaped", None
    movetext = " ".join(tokens)
    if sorted(names) == sorted(ROSTER) and not any(c in movetext for c in "{};()$!?%"):
        exporter = chess.pgn.StringExporter(columns=80)
        return "as is", game.accept(exporter) + "\n\n"
    game.headers = chess.pgn.Headers({name: game.headers[name] for name in ROSTER})
    exporter = chess.pgn.StringExporter(columns=80, comments=False, variations=False)
    return "reduced", game.accept(exporter) + "\n\n"


def format_with_pgn_lsp(binary, games, flags):
    """pgn-lsp's output for the concatenated games, split back into games."""
    joined = "".join(g + "\n" for g in games)
    out = subprocess.run([binary, "fmt", *flags, "-"], input=joined.encode("utf-8"),
                         capture_output=True, check=False)
    if out.returncode != 0:
        sys.exit(f"pgn-lsp fmt failed ({out.returncode}): {out.stderr.decode(errors='replace')}")
    # Each game of the output ends with an empty line, and starts with its Event tag.
    return [g for g in re.split(r"(?<=\n\n)(?=\[Event )", out.stdout.decode("utf-8")) if g]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pgn-lsp", default=None, help="the pgn-lsp binary")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    binary = args.pgn_lsp or find_pgn_lsp()

    left_out, identical, differences = {}, {"as is": 0, "reduced": 0}, []
    for path in args.files:
        chunks = {"as is": ([], []), "reduced": ([], [])}
        for chunk in split_games(read_text(path)):
            mode, export = classify(chunk)
            if export is None:
                left_out[mode] = left_out.get(mode, 0) + 1
            else:
                chunks[mode][0].append(chunk)
                chunks[mode][1].append(export)
        for mode, flags in (("as is", []), ("reduced", ["--reduced"])):
            games, expected = chunks[mode]
            if not games:
                continue
            ours = format_with_pgn_lsp(binary, games, flags)
            if len(ours) != len(expected):
                sys.exit(f"{path}: pgn-lsp gave {len(ours)} games for {len(expected)} inputs")
            for chunk, mine, theirs in zip(games, ours, expected):
                if mine == theirs:
                    identical[mode] += 1
                else:
                    differences.append((path, mode, chunk, theirs, mine))

    total = sum(identical.values())
    print(f"{total} identical ({identical['as is']} as is, {identical['reduced']} reduced), "
          f"{len(differences)} differ")
    for reason, count in sorted(left_out.items()):
        print(f"  left out: {count} ({reason})")
    for path, mode, chunk, theirs, mine in differences[:SHOWN_DIFFERENCES]:
        print(f"\n{path} ({mode}): game starting {chunk.splitlines()[0]!r}")
        diff = difflib.unified_diff(theirs.splitlines(True), mine.splitlines(True),
                                    "python-chess", "pgn-lsp")
        sys.stdout.writelines(diff)
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
