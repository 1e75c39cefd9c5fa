#!/usr/bin/env bash
# Speed of `pgn-lsp check` on one core (`--jobs 1`, JSON output to /dev/null) next to the
# reference, pgn-reader + shakmaty validating the same file (../shared/bench/anchor.sh), in the
# same run. Prints both throughputs and the ratio (above 1: pgn-lsp is faster). A benchmark, not
# a test: absolute times vary with the machine's load, the ratio much less.
#
# Usage: scripts/bench_check.sh FILE[.zst] [REPEAT]   (builds the release binary first)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
anchor=${ANCHOR:-$repo/../shared/bench/anchor.sh}
file=${1:?PGN file}; repeat=${2:-5}

cargo build --quiet --release --manifest-path "$repo/Cargo.toml"
bin=$repo/target/release/pgn-lsp
if [[ $file == *.zst ]]; then
  plain=$(mktemp); trap 'rm -f "$plain"' EXIT
  zstd -q -d -c "$file" > "$plain"
  file=$plain
fi

# Interleaved runs, best of REPEAT for each side (the best time is the one least disturbed by
# other work on the machine). The anchor times itself after reading the file; pgn-lsp is timed
# as a whole process, file reading and start-up included.
best() { if [[ -z $1 ]] || (($(echo "$2 < $1" | bc -l))); then echo "$2"; else echo "$1"; fi; }
anchor_seconds=; ours_seconds=
for ((i = 0; i < repeat; i++)); do
  # "validate bytes=... seconds=S MB/s=..."
  reference=$("$anchor" validate "$file" 1)
  anchor_seconds=$(best "$anchor_seconds" "$(sed -n 's/.* seconds=\([0-9.]*\).*/\1/p' <<< "$reference")")
  start=$(date +%s.%N)
  status=0
  "$bin" check --jobs 1 --format json "$file" > /dev/null || status=$?
  [[ $status -le 1 ]] || { echo "pgn-lsp check failed with status $status" >&2; exit 1; }
  ours_seconds=$(best "$ours_seconds" "$(echo "$(date +%s.%N) - $start" | bc -l)")
done

bytes=$(stat -c %s "$file")
awk -v b="$bytes" -v a="$anchor_seconds" -v o="$ours_seconds" -v f="${1##*/}" 'BEGIN {
  printf "%s: pgn-reader+shakmaty %.1f MB/s, pgn-lsp check -j1 %.1f MB/s, ratio %.2f\n",
    f, b / a / 1e6, b / o / 1e6, a / o
}'
