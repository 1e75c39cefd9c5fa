#!/usr/bin/env bash
# The adversarial inputs (tests/adversarial_inputs) at full size — a million `(` and `{`, a
# 100 MB line, a million games, 10 MB of random bytes, ... — through `pgn-lsp check`, `fmt` and
# the server, built in release mode. Each run must pass the same checks as in `cargo test` and
# keep its peak memory within 20 × the input's size + 256 MB (`/usr/bin/time` for the commands,
# VmHWM for the server); the times and peaks are printed as Markdown tables.
#
# Usage: scripts/adversarial.sh     (needs /usr/bin/time: apt-get install time)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [[ ! -x /usr/bin/time ]]; then
  echo "adversarial: /usr/bin/time is needed (apt-get install time)" >&2
  exit 2
fi
# One at a time, so that each run has the machine to itself and its peak is its own.
cargo test --release --test adversarial_cli --test adversarial_server -- \
  --ignored --nocapture --test-threads=1
