#!/usr/bin/env bash
# Run every fuzz target (fuzz/, cargo-fuzz with libFuzzer) for a while and print how many inputs
# each one executed. Needs cargo-fuzz (`cargo install cargo-fuzz`) and a nightly compiler, or a
# stable one: RUSTC_BOOTSTRAP=1 is set here for the unstable flags cargo-fuzz passes. The targets
# are built optimised with debug assertions and overflow checks, without a sanitizer (the code
# is safe Rust; the runs go several times faster).
#
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET [TARGET...]]   (default: 60 seconds, every target)
#
# Seeds are fuzz/corpus/<target>/; what the fuzzer learns goes to fuzz/work/corpus/<target>/
# (not committed). A failing input is saved under fuzz/artifacts/<target>/: copy it to
# tests/regressions/<target>/ with a name that says what broke, so that `cargo test` replays it.
# Exits with status 1 when a target failed.
set -euo pipefail
seconds=${1:-60}
shift || true
cd "$(dirname "${BASH_SOURCE[0]}")/../fuzz"
export RUSTC_BOOTSTRAP=1

targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  mapfile -t targets < <(cargo fuzz list)
fi
cargo fuzz build --sanitizer none

summary=()
status=0
for target in "${targets[@]}"; do
  mkdir -p "work/corpus/$target" "corpus/$target"
  log=work/$target.log
  echo "==> fuzzing $target for ${seconds}s (log: fuzz/$log)"
  result=ok
  cargo fuzz run --sanitizer none "$target" "work/corpus/$target" "corpus/$target" -- \
    -max_total_time="$seconds" -dict=pgn.dict -max_len=65536 -timeout=20 -rss_limit_mb=2048 \
    -print_final_stats=1 > "$log" 2>&1 || { result=FAILED; status=1; }
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 || true)
  summary+=("$(printf '%-8s %-6s %12s executions in %ss   %s' "$target" "$result" "${execs:-?}" \
    "$seconds" "$done_line")")
  if [[ $result == FAILED ]]; then
    grep -E 'panicked at|ERROR: libFuzzer|Failing input' -A 2 "$log" | head -n 12 || true
  fi
done

echo
echo "==> fuzzing summary"
printf '%s\n' "${summary[@]}"
exit "$status"
