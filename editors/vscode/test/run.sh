#!/usr/bin/env bash
# End-to-end test of the VS Code extension in a real VS Code: code-server (VS Code's own
# workbench and extension host, served to a headless Chromium) with the extension's VSIX and
# a test driver (test/driver) installed. The driver checks through the VS Code API what a user
# gets (see its header); this script then checks that the server does not outlive VS Code.
#
#   editors/vscode/test/run.sh
#
# PGN_VSIX            the VSIX to test; without it scripts/package.sh builds one (PGN_LSP is
#                     passed on to it)
# CODE_SERVER         a code-server executable; without it code-server $CODE_SERVER_VERSION
#                     is installed from npm under ~/.cache/pgn-lsp-test (kept for later runs)
# PGN_TEST_TIMEOUT_MS (default 30000) bounds each wait of the driver.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ext_dir="$(cd "$here/.." && pwd)"
repo_root="$(cd "$ext_dir/../.." && pwd)"
# shellcheck source=../../test-lib.sh
. "$repo_root/editors/test-lib.sh"

# The last code-server for Node 20, the Node of Debian bookworm's machines here (VS Code 1.100).
CODE_SERVER_VERSION=4.100.3

tmp="$(mktemp -d)"
# The process groups of code-server and Chromium (each started with setsid).
groups=()
# Stop them (TERM, then KILL after 5 s) and wait until they are gone.
stop_groups() {
  local group deadline=$((SECONDS + 5))
  for group in "${groups[@]}"; do
    kill -TERM -- "-$group" 2>/dev/null || true
  done
  for group in "${groups[@]}"; do
    while kill -0 -- "-$group" 2>/dev/null; do
      if [ "$SECONDS" -ge "$deadline" ]; then
        kill -KILL -- "-$group" 2>/dev/null || true
      fi
      sleep 0.1
    done
  done
  groups=()
}
trap 'stop_groups; rm -rf "$tmp"' EXIT

# Debian's Chromium, and what code-server's native modules are built with.
packages=()
command -v chromium >/dev/null 2>&1 || packages+=(chromium)
command -v rg >/dev/null 2>&1 || packages+=(ripgrep)
command -v pkg-config >/dev/null 2>&1 || packages+=(pkg-config)
for header in /usr/include/gssapi/gssapi.h /usr/include/X11/extensions/XKBfile.h \
  /usr/include/libsecret-1/libsecret/secret.h; do
  [ -f "$header" ] || { packages+=(libkrb5-dev libxkbfile-dev libsecret-1-dev); break; }
done
if [ "${#packages[@]}" -gt 0 ]; then
  echo "installing Debian's ${packages[*]}"
  apt_install "${packages[@]}"
fi

install_code_server() {
  local prefix="$1"
  local node_major
  node_major="$(node -p 'process.versions.node.split(".")[0]')"
  if [ "$node_major" != 20 ]; then
    echo "FAIL: code-server $CODE_SERVER_VERSION needs Node 20, this is Node $node_major" >&2
    echo "      set CODE_SERVER to a code-server executable" >&2
    exit 1
  fi
  # Its VS Code's @vscode/ripgrep (1.15.11) downloads ripgrep v13.0.0-10 from GitHub unless the
  # archive is in its cache: put Debian's rg there, in the archive it expects.
  local rg_cache="${TMPDIR:-/tmp}/vscode-ripgrep-cache-1.15.11"
  mkdir -p "$rg_cache" "$tmp/rg"
  cp "$(command -v rg)" "$tmp/rg/rg"
  tar czf "$rg_cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$tmp/rg" rg
  echo "installing code-server $CODE_SERVER_VERSION into $prefix"
  rm -rf "$prefix"
  mkdir -p "$prefix"
  echo '{ "private": true }' >"$prefix/package.json"
  # The native modules are built against the installed Node's headers (no download), and the
  # install scripts run as root need unsafe-perm; npx inside them must not ask.
  local node_dir
  node_dir="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
  (cd "$prefix" &&
    npm_config_nodedir="$node_dir" npm_config_unsafe_perm=true npm_config_yes=true \
      npm install --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION" \
      >"$prefix/install.log" 2>&1) || {
    tail -n 40 "$prefix/install.log" >&2
    echo "FAIL: could not install code-server (log above)" >&2
    exit 1
  }
}

code_server="${CODE_SERVER:-}"
if [ -z "$code_server" ]; then
  prefix="$HOME/.cache/pgn-lsp-test/code-server-$CODE_SERVER_VERSION"
  code_server="$prefix/node_modules/.bin/code-server"
  [ -x "$code_server" ] || install_code_server "$prefix"
fi
echo "Using code-server $("$code_server" --version 2>/dev/null | tail -n 1)"

vsix="${PGN_VSIX:-}"
if [ -z "$vsix" ]; then
  vsix="$tmp/pgn-lsp.vsix"
  bash "$ext_dir/scripts/package.sh" "$vsix"
fi
case "$vsix" in /*) ;; *) vsix="$PWD/$vsix" ;; esac

# The driver's VSIX, made by the extension's own vsce (scripts/package.sh installed it). A
# driver that does not load would only show as a timeout: its syntax is checked first.
node --check "$here/driver/extension.js"
[ -x "$ext_dir/node_modules/.bin/vsce" ] || (cd "$ext_dir" && npm ci --no-audit --no-fund --ignore-scripts)
(cd "$here/driver" && "$ext_dir/node_modules/.bin/vsce" package --no-dependencies \
  --allow-missing-repository --skip-license -o "$tmp/driver.vsix" </dev/null >/dev/null)

mkdir -p "$tmp/extensions" "$tmp/data" "$tmp/home" "$tmp/workspace"
cp "$repo_root/editors/fixtures/"*.pgn "$tmp/workspace/"
export HOME="$tmp/home"
code_server_args=(--extensions-dir "$tmp/extensions" --user-data-dir "$tmp/data")
"$code_server" "${code_server_args[@]}" --install-extension "$vsix" \
  --install-extension "$tmp/driver.vsix" >/dev/null
server="$(echo "$tmp"/extensions/pgn-lsp.pgn-lsp-*/server/pgn-lsp)"
require_server
# pgrep fails when it finds none, which is a count too.
count_servers() { pgrep -f -x "$server --stdio" | wc -l || true; }

# Made before code-server starts: the loop below reads it at once.
touch "$tmp/code-server.log"
PGN_E2E_RESULTS="$tmp/results" PGN_E2E_DIR="$tmp/workspace" setsid "$code_server" \
  "${code_server_args[@]}" --auth none --bind-addr 127.0.0.1:0 --disable-telemetry \
  --disable-update-check --disable-workspace-trust "$tmp/workspace" >"$tmp/code-server.log" 2>&1 &
code_server_pid=$!
groups+=("$code_server_pid")
url=
for _ in $(seq 100); do
  url="$(sed -n 's|.*HTTP server listening on \(http://[^ ]*/\).*|\1|p' "$tmp/code-server.log")"
  [ -n "$url" ] && break
  sleep 0.1
done
if [ -z "$url" ]; then
  cat "$tmp/code-server.log" >&2
  echo "FAIL: code-server did not start" >&2
  exit 1
fi

# The workbench in the browser starts the extension host; the driver runs once it is up.
setsid chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$tmp/chromium" "${url}?folder=$tmp/workspace" >"$tmp/chromium.log" 2>&1 &
groups+=("$!")

deadline=$((SECONDS + 180))
until grep -qx done "$tmp/results" 2>/dev/null; do
  if [ "$SECONDS" -ge "$deadline" ]; then
    cat "$tmp/results" 2>/dev/null || true
    tail -n 20 "$tmp/code-server.log" >&2
    echo "FAIL: the test driver did not finish within 180 s" >&2
    exit 1
  fi
  sleep 0.2
done
grep -vx done "$tmp/results"
if grep -q '^not ok' "$tmp/results"; then
  find "$tmp/data/logs" -name '*PGN Language Server.log' -exec tail -n 20 {} + >&2 || true
  echo "FAIL: the VS Code end-to-end test failed" >&2
  exit 1
fi

# Quitting VS Code: code-server alone is told to stop (its process group, which the server is
# in too, is left alone), and must take the extension host and the server with it.
kill -TERM "$code_server_pid"
deadline=$((SECONDS + 5))
while [ "$(count_servers)" -ne 0 ] && [ "$SECONDS" -lt "$deadline" ]; do
  sleep 0.1
done
if [ "$(count_servers)" -ne 0 ]; then
  pkill -KILL -f -x "$server --stdio" || true
  echo "FAIL: the pgn-lsp server outlived code-server" >&2
  exit 1
fi
echo "ok - the pgn-lsp server exited with code-server"
echo "PASS: VS Code end-to-end test"
