#!/usr/bin/env python3
"""Writes the games a profile-guided build of pgn-lsp is trained on (scripts/pgo_build.sh).

The games are played at random by python-chess from a fixed seed, so the file is the same on
every machine, and none of them comes from the files the benchmarks read. They look like the
files users open: the Seven Tag Roster and the usual extra tags, moves in SAN with move
numbers, some games with clock comments, annotations and variations, a few with the mistakes
real files have (a wrong move number, a missing check sign, a result that disagrees with the
Result tag), so that the profile sees those paths as the rare ones they are. One game in twenty
is an engine game as engine-tournament archives write them: an engine's report after every
move, long (depth, times, nodes, principal variation, one move a line, as TCEC writes them) or
short (evaluation, depth and time, as CCRL writes them).

Usage: scripts/pgo_training.py OUT.pgn [GAMES]
"""

import random
import sys
import textwrap

import chess
import chess.pgn

NAMES = ["Carlsen, M.", "Nakamura, Hi", "Caruana, F.", "Ding, Liren", "Firouzja, A.",
         "Gukesh, D.", "Nepomniachtchi, I.", "So, W.", "Giri, A.", "Aronian, L.",
         "Muller, K.", "Zhukova, N.", "Petrov, V.", "Smith, J.", "Garcia, M."]
EVENTS = ["Open", "Championship", "Rapid", "Blitz Arena", "Team Cup", "Memorial"]
ENGINES = ["Stockfish 16", "Leela 0.30", "Komodo 14", "Berserk 12", "Ethereal 14", "Koivisto 9",
           "Dragon 3.2", "Igel 3.5"]
COMMENTS = ["Better is {}.", "A known idea.", "The only move.", "White is better.",
            "Black has counterplay.", "Time trouble.", "{} was playable too."]


def play(rng, board, plies):
    """Random legal moves, captures a little less often than chance, up to `plies`."""
    moves = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        quiet = [m for m in legal if not board.is_capture(m)]
        pool = quiet if quiet and rng.random() < 0.6 else legal
        move = rng.choice(pool)
        moves.append(move)
        board.push(move)
    return moves


def game(rng, index):
    g = chess.pgn.Game()
    white, black = rng.sample(NAMES, 2)
    g.headers["Event"] = f"{rng.choice(EVENTS)} {2000 + index % 25}"
    g.headers["Site"] = rng.choice(["Berlin GER", "Wijk aan Zee NED", "chess.com INT", "?"])
    g.headers["Date"] = f"{2000 + index % 25}.{1 + index % 12:02}.{1 + index % 28:02}"
    g.headers["Round"] = f"{1 + index % 9}.{1 + index % 4}"
    g.headers["White"], g.headers["Black"] = white, black
    g.headers["WhiteElo"] = str(rng.randint(1800, 2850))
    g.headers["BlackElo"] = str(rng.randint(1800, 2850))
    g.headers["ECO"] = f"{rng.choice('ABCDE')}{rng.randint(0, 99):02}"
    board = g.board()
    moves = play(rng, board, rng.randint(20, 140))
    annotated = rng.random() < 0.3
    node = g
    replay = g.board()
    for i, move in enumerate(moves):
        if annotated and i > 4 and rng.random() < 0.08:
            # A variation from the position before this move: a few other legal moves.
            alternative = rng.choice(list(replay.legal_moves))
            side = node.add_variation(alternative)
            branch = replay.copy()
            branch.push(alternative)
            for extra in play(rng, branch, rng.randint(1, 6)):
                side = side.add_variation(extra)
        node = node.add_main_variation(move)
        if annotated:
            if rng.random() < 0.5:
                node.set_clock(rng.randint(1, 5400))
            if rng.random() < 0.05:
                node.comment = (node.comment + " " if node.comment else "") + rng.choice(
                    COMMENTS).format(replay.san(rng.choice(list(replay.legal_moves))))
            if rng.random() < 0.04:
                node.nags.add(rng.choice([1, 2, 3, 4, 5, 6, 14, 15, 18]))
        replay.push(move)
    outcome = board.outcome()
    result = outcome.result() if outcome else rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
    g.headers["Result"] = result
    return g


def engine_game(rng, index):
    """An engine-tournament game: each move followed by its engine's report in a comment."""
    long_reports = index % 2 == 0
    board = chess.Board()
    moves = play(rng, board, rng.randint(60, 180))
    outcome = board.outcome()
    result = outcome.result() if outcome else rng.choice(["1-0", "0-1", "1/2-1/2"])
    tags = [("Event", f"Engine Championship Season {1 + index % 30}"), ("Site", "?"),
            ("Date", f"{2010 + index % 15}.{1 + index % 12:02}.{1 + index % 28:02}"),
            ("Round", f"{1 + index % 40}.{1 + index % 8}"),
            ("White", rng.choice(ENGINES)), ("Black", rng.choice(ENGINES)), ("Result", result),
            ("PlyCount", str(len(moves))), ("TimeControl", "5400+10")]
    replay = chess.Board()
    sans = []
    for move in moves:
        sans.append(replay.san(move))
        replay.push(move)
    entries = []
    for ply, san in enumerate(sans):
        number = f"{ply // 2 + 1}. " if ply % 2 == 0 else ""
        evaluation = rng.uniform(-3, 3)
        if long_reports:
            pv = " ".join(sans[ply:ply + rng.randint(1, 30)])
            report = (f"d={rng.randint(20, 40)}, sd={rng.randint(40, 80)}, "
                      f"mt={rng.randint(0, 9):02}:{rng.randint(0, 59):02}, "
                      f"tl=01:{rng.randint(0, 59):02}:{rng.randint(0, 59):02}, "
                      f"s={rng.randint(10000, 90000)} kN/s, n={rng.randint(10**6, 10**10)}, "
                      f"pv={pv}, tb={rng.randint(0, 50)}, R50={rng.randint(1, 50)}, "
                      f"wv={evaluation:.2f},")
            entries.append(f"{number}{san} {{ {report} }}")
        else:
            entries.append(f"{number}{san} {{{evaluation:+.2f}/{rng.randint(15, 35)} "
                        f"{rng.randint(1, 90)}s}}")
    movetext = "\n".join(entries) if long_reports else textwrap.fill(" ".join(entries), 79)
    header = "".join(f'[{name} "{value}"]\n' for name, value in tags)
    return f"{header}\n{movetext} {result}"


def mistakes(rng, text):
    """One mistake real files have, in about one game of twenty."""
    roll = rng.random()
    if roll < 0.02:
        return text.replace(" 7. ", " 8. ", 1)
    if roll < 0.035:
        return text.replace("+ ", " ", 1)
    if roll < 0.05:
        return text.replace('[Result "1-0"]', '[Result "0-1"]', 1)
    return text


def main():
    out = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    rng = random.Random(20261122)
    with open(out, "w", encoding="utf-8") as f:
        for i in range(games):
            if i % 20 == 19:
                text = engine_game(rng, i // 20)
            else:
                # Lines of at most 80 characters, as exporting programs write them.
                text = game(rng, i).accept(chess.pgn.StringExporter(columns=80))
            f.write(mistakes(rng, text) + "\n\n")


if __name__ == "__main__":
    main()
