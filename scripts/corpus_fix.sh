#!/usr/bin/env bash
# `pgn-lsp check --fix` on real PGN: every file of a corpus (the zstd files of big/ decompressed
# first) is copied and fixed in place, then fixed again. The first run must exit with status 0
# or 1 and print nothing on stderr but its counts of fixes; the second must make no fix, leave
# every file as the first left it, and report the same diagnostics. The originals are not
# touched.
#
# Usage: scripts/corpus_fix.sh CORPUS_DIR PGN_LSP_BINARY WORK_DIR
set -euo pipefail
corpus=${1:?corpus folder}; bin=$(realpath "${2:?pgn-lsp binary}"); work=${3:?work folder}
copies=$work/fix; rm -rf "$copies"; mkdir -p "$copies"

while IFS= read -r -d '' f; do
  if [[ $f == *.zst ]]; then
    zstd -q -d -f -o "$copies/$(basename "$f" .zst)" "$f"
  else
    cp "$f" "$copies/"
  fi
done < <(find "$corpus" -type f ! -name '*.md' -print0 | sort -z)
chmod u+w "$copies"/*

# run N: fix every copy, the diagnostics left in $work/fix-N.jsonl, stderr in $work/fix-N.err.
run() {
  local status=0
  (cd "$copies" && "$bin" check --fix --color never --format json -- *) \
    > "$work/fix-$1.jsonl" 2> "$work/fix-$1.err" || status=$?
  if [[ $status -gt 1 ]]; then
    echo "FAIL: run $1: exit status $status"; head -n 5 "$work/fix-$1.err"; exit 1
  fi
}

run 1
if grep -v -E '^pgn-lsp: .*: [0-9]+ fix(es)? made$' "$work/fix-1.err"; then
  echo "FAIL: the first run printed more than its counts of fixes (above)"; exit 1
fi
(cd "$copies" && sha256sum -- *) > "$work/fix-1.sums"
run 2
if [[ -s $work/fix-2.err ]]; then
  echo "FAIL: a second run still fixed something:"; head -n 10 "$work/fix-2.err"; exit 1
fi
(cd "$copies" && sha256sum --quiet -c "$work/fix-1.sums") ||
  { echo "FAIL: the second run changed files (above)"; exit 1; }
cmp -s "$work/fix-1.jsonl" "$work/fix-2.jsonl" ||
  { echo "FAIL: the second run reported other diagnostics than the first"; exit 1; }

files=$(find "$copies" -type f | wc -l)
fixed=$(wc -l < "$work/fix-1.err")
fixes=$(awk '{ n += $(NF - 2) } END { print n + 0 }' "$work/fix-1.err")
echo "corpus --fix: ok: $files files, $fixes fixes made in $fixed of them; a second run made none and changed nothing"
