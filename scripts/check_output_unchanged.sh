#!/usr/bin/env bash
# Guard for optimisations: `pgn-lsp check` must print exactly the same diagnostics after a change
# as before it, and `pgn-lsp fmt` exactly the same text. Every file of the corpus (the zstd files
# of big/ decompressed first) is checked by a baseline binary and by a candidate binary, in JSON
# and in human output; the candidate runs once on one thread and once on all cores, and each
# output must equal the baseline's byte for byte. Each file is also formatted (standard input to
# standard output) by both binaries with the default options, with comments kept as written, and
# at a narrow line width, again on one thread and on all cores. Prints the first lines of any
# difference and exits with 1 when there is one.
#
# Usage: scripts/check_output_unchanged.sh BASELINE_BINARY [CANDIDATE_BINARY] [CORPUS_DIR]
#   (the candidate defaults to target/release/pgn-lsp, the corpus to ../shared/corpus)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
baseline=${1:?baseline pgn-lsp binary}
candidate=${2:-$repo/target/release/pgn-lsp}
corpus=${3:-${PGN_CORPUS:-$repo/../shared/corpus}}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

files=()
while IFS= read -r -d '' f; do
  if [[ $f == *.zst ]]; then
    plain=$work/$(basename "$f" .zst)
    zstd -q -d -c "$f" > "$plain"
    files+=("$plain")
  else
    files+=("$f")
  fi
done < <(find "$corpus" -type f ! -name '*.md' -print0 | sort -z)

# run BINARY FORMAT JOBS FILE OUT: the output and the exit status of one check.
run() {
  local status=0
  "$1" check --color never --format "$2" --jobs "$3" "$4" > "$5" 2>&1 || status=$?
  echo "exit status $status" >> "$5"
}

# format BINARY THREADS FILE OUT FLAGS...: the output and the exit status of one fmt run.
format() {
  local binary=$1 threads=$2 file=$3 out=$4 status=0
  shift 4
  RAYON_NUM_THREADS=$threads "$binary" fmt "$@" - < "$file" > "$out" 2>&1 || status=$?
  echo "exit status $status" >> "$out"
}

fmt_flags=("" "--no-reflow-comments" "--line-width 40")

differences=0; bytes=0
# compare WHAT: count a difference between $work/expected and $work/actual.
compare() {
  if ! cmp -s "$work/expected" "$work/actual"; then
    echo "DIFFERENT: $1"
    diff "$work/expected" "$work/actual" | head -n 10 || true
    differences=$((differences + 1))
  fi
}

for f in "${files[@]}"; do
  bytes=$((bytes + $(stat -c %s "$f")))
  for flags in "${fmt_flags[@]}"; do
    # shellcheck disable=SC2086 # the flags are words
    format "$baseline" 1 "$f" "$work/expected" $flags
    for jobs in 1 "$(nproc)"; do
      # shellcheck disable=SC2086
      format "$candidate" "$jobs" "$f" "$work/actual" $flags
      compare "$f (fmt $flags, $jobs threads)"
    done
  done
  for format in json human; do
    run "$baseline" "$format" 1 "$f" "$work/expected"
    for jobs in 1 "$(nproc)"; do
      run "$candidate" "$format" "$jobs" "$f" "$work/actual"
      compare "$f ($format, --jobs $jobs)"
    done
  done
done

summary="${#files[@]} files ($((bytes / 1000000)) MB), check in JSON and human output and fmt with ${#fmt_flags[@]} sets of options, 1 and $(nproc) threads"
if [[ $differences -gt 0 ]]; then
  echo "check and fmt output: CHANGED in $differences runs over $summary"
  exit 1
fi
echo "check and fmt output: unchanged over $summary"
