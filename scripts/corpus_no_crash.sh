#!/usr/bin/env bash
# `pgn-lsp check` never crashes on real PGN: every file of a corpus (the zstd files of big/
# decompressed first) is checked once with human output and once with JSON output; each run must
# exit with status 0 or 1 (never 2, 101 for a panic, or a signal) and print nothing on stderr.
# The JSON output of each file is kept as JSON_DIR/<file name>.jsonl for later checks.
#
# Usage: scripts/corpus_no_crash.sh CORPUS_DIR PGN_LSP_BINARY WORK_DIR
set -euo pipefail
corpus=${1:?corpus folder}; bin=${2:?pgn-lsp binary}; work=${3:?work folder}
mkdir -p "$work/big" "$work/json"

files=()
while IFS= read -r -d '' f; do
  if [[ $f == *.zst ]]; then
    plain=$work/big/$(basename "$f" .zst)
    zstd -q -d -f -o "$plain" "$f"
    files+=("$plain")
  else
    files+=("$f")
  fi
done < <(find "$corpus" -type f ! -name '*.md' -print0 | sort -z)

failures=0; clean=0; flagged=0; bytes=0
for f in "${files[@]}"; do
  json=$work/json/$(basename "$f").jsonl
  if [[ -e $json ]]; then
    echo "FAIL: two corpus files are named $(basename "$f")"; failures=$((failures + 1)); continue
  fi
  bytes=$((bytes + $(stat -c %s "$f")))
  for format in human json; do
    out=/dev/null; [[ $format == json ]] && out=$json
    status=0
    "$bin" check --color never --format "$format" "$f" > "$out" 2> "$work/stderr" || status=$?
    if [[ $status -gt 1 || -s $work/stderr ]]; then
      echo "FAIL: $f ($format): exit status $status"; head -n 5 "$work/stderr"
      failures=$((failures + 1))
    elif [[ $format == json ]]; then
      if [[ $status -eq 0 ]]; then clean=$((clean + 1)); else flagged=$((flagged + 1)); fi
    fi
  done
done

summary="${#files[@]} files ($((bytes / 1000000)) MB), each checked with human and JSON output"
if [[ $failures -gt 0 ]]; then
  echo "corpus no-crash: FAILED: $failures failing runs over $summary"
  exit 1
fi
echo "corpus no-crash: ok: $summary; exit status 0 (no error) for $clean, 1 (errors found) for $flagged"
