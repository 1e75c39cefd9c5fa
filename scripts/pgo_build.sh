#!/usr/bin/env bash
# The profile-guided release build of pgn-lsp: built once with instrumentation, run (`check` and
# `fmt --check`) on the training games that scripts/pgo_training.py generates, then built again
# with the profile, so that the compiler lays out and inlines the code for the paths real files
# take. The VSIX bundles this binary, and CI's editor and corpus tests run it.
#
# On Linux with glibc the binary is linked statically (static-pie, `crt-static`): it runs on any
# Linux of its processor, whatever its C library, and starts without loading shared libraries.
# Building for the host triple named with `--target` keeps the flags off the build scripts and
# procedural macros, which cannot be linked so.
#
# Usage: scripts/pgo_build.sh [--bench]
#   Builds target/pgo/pgn-lsp. With --bench, also target/pgo/throughput: the throughput
#   benchmark built the same way. `cargo bench` compiles the library again with the
#   dev-dependencies' features, under other symbol names, so that build is trained too.
#   LLVM_PROFDATA names the llvm-profdata to merge the profiles with (default: rustup's
#   llvm-tools if installed, else the newest /usr/lib/llvm-*/bin/llvm-profdata). It must read
#   the raw profiles of rustc's LLVM: Debian's llvm-19 reads those of Rust 1.95.
# Needs python3 with python-chess (`pip install chess`) for the training games.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
with_bench=false
case ${1:-} in
  --bench) with_bench=true ;;
  "") ;;
  *) echo "usage: scripts/pgo_build.sh [--bench]" >&2; exit 2 ;;
esac

out=$repo/target/pgo
raw=$out/raw
profile=$out/pgn-lsp.profdata
training=$out/training.pgn

find_profdata() {
  if [[ -n ${LLVM_PROFDATA:-} ]]; then
    echo "$LLVM_PROFDATA"
    return
  fi
  local candidate version newest=0 found=
  for candidate in "$(rustc --print sysroot)"/lib/rustlib/*/bin/llvm-profdata; do
    [[ -x $candidate ]] && { echo "$candidate"; return; }
  done
  for candidate in /usr/lib/llvm-*/bin/llvm-profdata; do
    version=${candidate#/usr/lib/llvm-}
    version=${version%%/*}
    if [[ -x $candidate && $version -gt $newest ]]; then
      newest=$version
      found=$candidate
    fi
  done
  if [[ -z $found ]]; then
    echo "pgo_build: no llvm-profdata (rustup component add llvm-tools, or apt-get install llvm-19)" >&2
    return 1
  fi
  echo "$found"
}
profdata=$(find_profdata)
host=$(rustc -vV | sed -n 's/^host: //p')
link=
if [[ $host == *-linux-gnu ]]; then
  link=-Ctarget-feature=+crt-static
fi

mkdir -p "$out"
if [[ ! -s $training || scripts/pgo_training.py -nt $training ]]; then
  python3 scripts/pgo_training.py "$training"
fi

# train CARGO_COMMAND...: an instrumented build of the binary by that cargo command, run on the
# training games.
train() {
  RUSTFLAGS="-Cprofile-generate=$raw $link" cargo "$@" --target "$host" --target-dir "$out/generate"
  local binary=$out/generate/$host/release/pgn-lsp status
  for args in "check --jobs 1 --format json" "fmt --check --jobs 1" "check --jobs 2"; do
    # shellcheck disable=SC2086 # the arguments are split on purpose
    LLVM_PROFILE_FILE="$raw/%m-%p.profraw" "$binary" $args "$training" > /dev/null && status=0 ||
      status=$?
    # 0, or 1 for the few mistakes the training games have; anything else is a failure.
    [[ $status -le 1 ]] || { echo "pgo_build: pgn-lsp $args failed ($status)" >&2; exit 1; }
  done
}

rm -rf "$raw"
train build --release
$with_bench && train bench --bench throughput --no-run
"$profdata" merge -o "$profile" "$raw"/*.profraw

use=(env RUSTFLAGS="-Cprofile-use=$profile $link")
"${use[@]}" cargo build --release --target "$host" --target-dir "$out/use"
cp "$out/use/$host/release/pgn-lsp" "$out/pgn-lsp"
if [[ -n $link && $(readelf --dynamic "$out/pgn-lsp") == *NEEDED* ]]; then
  echo "pgo_build: $out/pgn-lsp needs shared libraries, though it was to be linked statically" >&2
  exit 1
fi
echo "pgo_build: $out/pgn-lsp"
if $with_bench; then
  executable=$("${use[@]}" cargo bench --bench throughput --no-run --target "$host" --target-dir "$out/use" \
    --message-format json | python3 -c '
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("target", {}).get("name") == "throughput" and message.get("executable"):
        print(message["executable"])')
  cp "$executable" "$out/throughput"
  echo "pgo_build: $out/throughput"
fi
