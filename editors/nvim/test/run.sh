#!/usr/bin/env bash
# End-to-end test of the Neovim integration (editors/nvim) against a real
# pgn-lsp binary, in headless Neovim with a clean configuration:
# filetype detection, illegal-move diagnostic, hover FEN, format on save (at the
# line width given in vim.g.pgn_lsp_init_options), the
# live board (:PgnBoard, and its "Game over" at the end of an antichess game), completion of a legal move, a quick fix applied from a
# code action, client reuse across buffers, and no server process left after
# quitting.
#
#   PGN_LSP=/path/to/pgn-lsp editors/nvim/test/run.sh
#
# PGN_LSP defaults to target/release/pgn-lsp at the repository root.
# PGN_TEST_TIMEOUT_MS (default 20000) bounds each wait for the server.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
plugin_dir="$(cd "$here/.." && pwd)"
repo_root="$(cd "$here/../../.." && pwd)"
fixtures="$repo_root/editors/fixtures"
server="${PGN_LSP:-$repo_root/target/release/pgn-lsp}"
# shellcheck source=../../test-lib.sh
. "$repo_root/editors/test-lib.sh"

if ! command -v nvim >/dev/null 2>&1; then
  echo "nvim not found: installing Debian's neovim package"
  apt_install neovim
fi
echo "Using $(nvim --version | head -n 1)"

require_server

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp "$fixtures/illegal.pgn" "$fixtures/messy.pgn" "$fixtures/fixable.pgn" "$fixtures/antichess.pgn" "$tmp/"
# A private Neovim state (LSP log, shada) so the test sees no user files.
export XDG_CONFIG_HOME="$tmp/xdg/config" XDG_DATA_HOME="$tmp/xdg/data" \
  XDG_STATE_HOME="$tmp/xdg/state" XDG_CACHE_HOME="$tmp/xdg/cache"

# The wrapper records the pid of every server Neovim starts (exec keeps it),
# and exercises the vim.g.pgn_lsp_cmd override.
wrapper="$tmp/pgn-lsp-wrapper"
write_pid_recording_wrapper "$wrapper"

export PGN_TEST_DIR="$tmp" PGN_PLUGIN_DIR="$plugin_dir" PGN_LSP_WRAPPER="$wrapper" \
  PGN_TEST_LUA="$here/test.lua"
status=0
timeout 300 nvim --headless --clean -n \
  --cmd 'lua vim.opt.runtimepath:prepend(os.getenv("PGN_PLUGIN_DIR"))' \
  --cmd 'lua vim.g.pgn_lsp_cmd = { os.getenv("PGN_LSP_WRAPPER") }' \
  --cmd 'lua vim.g.pgn_lsp_init_options = { format = { lineWidth = 20 } }' \
  -c 'lua dofile(os.getenv("PGN_TEST_LUA"))' </dev/null || status=$?

result="$(cat "$tmp/result" 2>/dev/null || true)"
if [ "$status" -ne 0 ]; then
  echo "FAIL: nvim exited with status $status${result:+ ($result)}" >&2
  exit 1
fi
if [ "$result" != "ok" ]; then
  echo "${result:-FAIL: the Lua test did not report a result}" >&2
  exit 1
fi

# Exactly one server was started, and it is gone once Neovim has quit.
expect_one_server_ended Neovim
echo "PASS: editors/nvim end-to-end test"
