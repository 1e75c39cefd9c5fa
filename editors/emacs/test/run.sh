#!/usr/bin/env bash
# Batch test of the Emacs + Eglot setup documented in README.md
# against a real pgn-lsp binary: the snippet is extracted from the document,
# a copy of editors/fixtures/illegal.pgn must get the illegal-move diagnostic,
# saving messy.pgn must format it, and no server process may outlive Emacs.
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

# Emacs 29+ has Eglot built in; Debian bookworm's Emacs 28 needs elpa-eglot.
if ! command -v emacs >/dev/null 2>&1 ||
  ! emacs --batch -q --eval '(progn (require (quote package)) (package-initialize) (require (quote eglot)))' >/dev/null 2>&1; then
  echo "emacs or eglot not found: installing Debian's emacs-nox and elpa-eglot"
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q emacs-nox elpa-eglot
fi
echo "Using $(emacs --version | head -n 1)"

case "$server" in /*) ;; *) server="$PWD/$server" ;; esac
if [ ! -x "$server" ]; then
  echo "FAIL: no server binary at $server" >&2
  echo "      build it with 'cargo build --release' at the repository root, or set PGN_LSP" >&2
  exit 1
fi

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

# The snippet runs "pgn-lsp" from PATH: put a wrapper there that records the
# pid of every server started (exec keeps it).
mkdir "$tmp/bin"
cat >"$tmp/bin/pgn-lsp" <<EOF
#!/bin/sh
echo \$\$ >>"$tmp/server.pids"
exec "$server" "\$@"
EOF
chmod +x "$tmp/bin/pgn-lsp"
touch "$tmp/server.pids"

status=0
PATH="$tmp/bin:$PATH" HOME="$tmp" PGN_TEST_DIR="$tmp" PGN_SNIPPET="$tmp/snippet.el" \
  timeout 300 emacs --batch -q -l "$here/test.el" </dev/null || status=$?
if [ "$status" -ne 0 ]; then
  echo "FAIL: the Emacs test failed (status $status)" >&2
  exit 1
fi

mapfile -t pids <"$tmp/server.pids"
if [ "${#pids[@]}" -ne 1 ]; then
  echo "FAIL: expected 1 pgn-lsp process, Emacs started ${#pids[@]}" >&2
  status=1
fi
for pid in "${pids[@]}"; do
  deadline=$((SECONDS + 5))
  while kill -0 "$pid" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "FAIL: pgn-lsp process $pid still running after Emacs quit" >&2
    kill -KILL "$pid" 2>/dev/null || true
    status=1
  fi
done
[ "$status" -eq 0 ] || exit 1
echo "ok - the pgn-lsp server exited with Emacs"
echo "PASS: Emacs Eglot end-to-end test"
