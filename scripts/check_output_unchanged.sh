#!/usr/bin/env bash
# Guard for optimisations: `pgn-lsp check` must print exactly the same diagnostics after a change
# as before it. Every file of the corpus (the zstd files of big/ decompressed first) is checked by
# a baseline binary and by a candidate binary, in JSON and in human output; the candidate runs
# once on one thread and once on all cores, and each output must equal the baseline's byte for
# byte. Prints the first lines of any difference and exits with 1 when there is one.
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

differences=0; bytes=0
for f in "${files[@]}"; do
  bytes=$((bytes + $(stat -c %s "$f")))
  for format in json human; do
    run "$baseline" "$format" 1 "$f" "$work/expected"
    for jobs in 1 "$(nproc)"; do
      run "$candidate" "$format" "$jobs" "$f" "$work/actual"
      if ! cmp -s "$work/expected" "$work/actual"; then
        echo "DIFFERENT: $f ($format, --jobs $jobs)"
        diff "$work/expected" "$work/actual" | head -n 10 || true
        differences=$((differences + 1))
      fi
    done
  done
done

summary="${#files[@]} files ($((bytes / 1000000)) MB), JSON and human output, 1 and $(nproc) threads"
if [[ $differences -gt 0 ]]; then
  echo "check output: CHANGED in $differences runs over $summary"
  exit 1
fi
echo "check output: unchanged over $summary"
