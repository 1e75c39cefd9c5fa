# Shell functions shared by the editors' end-to-end tests (editors/*/test/run.sh), which
# source this file. They use the caller's variables `server` (the pgn-lsp binary) and `tmp`
# (the test's scratch directory).

# Install Debian packages, as root or through sudo.
apt_install() {
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@"
}

# Make `server` an absolute path and fail unless it is an executable.
require_server() {
  case "$server" in /*) ;; *) server="$PWD/$server" ;; esac
  if [ ! -x "$server" ]; then
    echo "FAIL: no server binary at $server" >&2
    echo "      build it with 'cargo build --release' at the repository root, or set PGN_LSP" >&2
    exit 1
  fi
}

# Write at PATH a wrapper of `server` that records the pid of every server started
# (exec keeps it) in $tmp/server.pids.
write_pid_recording_wrapper() {
  cat >"$1" <<WRAPPER
#!/bin/sh
echo \$\$ >>"$tmp/server.pids"
exec "$server" "\$@"
WRAPPER
  chmod +x "$1"
  touch "$tmp/server.pids"
}

# Exit with a failure unless exactly one server was started and it has ended (within 5
# seconds) now that the editor, named EDITOR, has quit.
expect_one_server_ended() {
  local editor=$1 status=0 pids pid deadline
  mapfile -t pids <"$tmp/server.pids"
  if [ "${#pids[@]}" -ne 1 ]; then
    echo "FAIL: expected 1 pgn-lsp process, $editor started ${#pids[@]}" >&2
    status=1
  fi
  for pid in "${pids[@]}"; do
    deadline=$((SECONDS + 5))
    while kill -0 "$pid" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      echo "FAIL: pgn-lsp process $pid still running after $editor quit" >&2
      kill -KILL "$pid" 2>/dev/null || true
      status=1
    fi
  done
  [ "$status" -eq 0 ] || exit 1
  echo "ok - the pgn-lsp server exited with $editor"
}
