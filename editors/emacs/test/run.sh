#!/usr/bin/env bash
# Batch test of the Emacs + Eglot setup documented in README.md
# against a real pgn-lsp binary: the snippet is extracted from the document,
# a copy of editors/fixtures/illegal.pgn must get the illegal-move diagnostic,
# saving messy.pgn must format it at the line width given as initializationOptions,
# and no server process may outlive Emacs.
#
#   PGN_LSP=/path/to/pgn-lsp editors/emacs/test/run.sh
#
# PGN_LSP defaults to target/release/pgn-lsp at the repository root.
# PGN_TEST_TIMEOUT_MS (default 20000) bounds each wait for the server.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/../../.." && pwd)"
fixtures="$repo_root/editors/fixtures"
doc="$repo_root/README.md"
server="${PGN_LSP:-$repo_root/target/release/pgn-lsp}"
# shellcheck source=../../test-lib.sh
. "$repo_root/editors/test-lib.sh"

# Emacs 29+ has Eglot built in; Debian bookworm's Emacs 28 needs elpa-eglot.
if ! command -v emacs >/dev/null 2>&1 ||
  ! emacs --batch -q --eval '(progn (require (quote package)) (package-initialize) (require (quote eglot)))' >/dev/null 2>&1; then
  echo "emacs or eglot not found: installing Debian's emacs-nox and elpa-eglot"
  apt_install emacs-nox elpa-eglot
fi
echo "Using $(emacs --version | head -n 1)"

require_server

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp "$fixtures/illegal.pgn" "$fixtures/messy.pgn" "$tmp/"

# The documented snippet: the first ```elisp block of README.md.
awk '/^```elisp$/ { inside = 1; next } inside && /^```$/ { exit } inside { print }' \
  "$doc" >"$tmp/snippet.el"
if [ ! -s "$tmp/snippet.el" ]; then
  echo "FAIL: no \`\`\`elisp block in $doc" >&2
  exit 1
fi

# The snippet runs "pgn-lsp" from PATH: put a wrapper there.
mkdir "$tmp/bin"
write_pid_recording_wrapper "$tmp/bin/pgn-lsp"

status=0
PATH="$tmp/bin:$PATH" HOME="$tmp" PGN_TEST_DIR="$tmp" PGN_SNIPPET="$tmp/snippet.el" \
  timeout 300 emacs --batch -q -l "$here/test.el" </dev/null || status=$?
if [ "$status" -ne 0 ]; then
  echo "FAIL: the Emacs test failed (status $status)" >&2
  exit 1
fi

expect_one_server_ended Emacs
echo "PASS: Emacs Eglot end-to-end test"
