#!/usr/bin/env bash
# Tests the TextMate grammar pgn.tmLanguage.json against the fixtures in
# tests/*.pgn with vscode-tmgrammar-test. Each fixture starts with
#   ; SYNTAX TEST "source.pgn" "description"
# and its assertion lines (";" then "^" markers or "<-") are not part of the
# tokenized source. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")"

npm ci --no-audit --no-fund --ignore-scripts

# The grammar must be valid JSON with the expected scope name.
node -e '
  const g = JSON.parse(require("fs").readFileSync("pgn.tmLanguage.json", "utf8"));
  if (g.scopeName !== "source.pgn") { console.error("scopeName is not source.pgn"); process.exit(1); }
'

# A fixture without assertions would pass silently: refuse it.
status=0
for f in tests/*.pgn; do
  if ! grep -Eq '^;[[:space:]]*(\^|<~*-)' "$f"; then
    echo "error: $f has no assertions" >&2
    status=1
  fi
done
[ "$status" -eq 0 ] || exit "$status"

# Note: the tool's assertion parser backtracks badly on malformed assertion
# lines (e.g. two "-" exclusion groups); the timeout turns a hang into a failure.
timeout 300 npx --no-install vscode-tmgrammar-test -g pgn.tmLanguage.json 'tests/*.pgn'
