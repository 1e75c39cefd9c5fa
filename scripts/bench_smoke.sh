#!/usr/bin/env bash
# The benchmark programs, run briefly on one PGN file (plain or .zst): every figure the README's
# performance tables quote is measured and printed, each throughput next to the reference's.
# The values are not judged here (they depend on the machine); that they are all there is.
# Usage: scripts/bench_smoke.sh FILE
set -euo pipefail
file=${1:?usage: bench_smoke.sh FILE}
fail() { echo "bench_smoke: $*" >&2; exit 1; }

throughput=$(cargo bench --bench throughput -- --repeat 1 "$file")
echo "$throughput"
! grep -q "not measured" <<< "$throughput" || fail "a throughput figure was not measured"
# Extended regular expressions, one per figure.
for figure in "anchor stats" "anchor validate" "lexer" "syntax \\(lex \\+ parse\\)" \
  "parse \\+ analyze, in process" "check --jobs 1" "check --jobs [0-9]+" \
  "fmt --check, 1 thread" "fmt --check, [0-9]+ threads"; do
  grep -Eq "^  $figure +[0-9.]+ MB/s" <<< "$throughput" || fail "no figure for \"$figure\""
done
ratios=$(grep -c "ratio [0-9.]* to anchor" <<< "$throughput" || true)
[[ $ratios == 6 ]] || fail "$ratios ratios to the reference, not 6"

server=$(cargo bench --bench lsp -- --size 2 --edits 20 "$file")
echo "$server"
for line in "open to first diagnostics: [0-9.]+ ms" "edit to diagnostics .* p50: [0-9.]+ ms  p99: [0-9.]+ ms" \
  "server time, p50: [0-9.]+ ms" "same edit in the small document .* \(ratio [0-9.]+\)" \
  "hover, p50: [0-9.]+ ms  p99: [0-9.]+ ms" "formatting one game: [0-9.]+ ms; the whole document: [0-9.]+ ms" \
  "resident memory after open: .* peak: [0-9]+ MB \([0-9.]+x\)" "peak after formatting the whole document" \
  "open from disk \(pgn/openFile\) to first diagnostics: [0-9.]+ ms"; do
  grep -Eq "$line" <<< "$server" || fail "no line matching \"$line\""
done
echo "bench_smoke: every figure measured"
