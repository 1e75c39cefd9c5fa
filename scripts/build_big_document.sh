#!/usr/bin/env bash
# Builds the large document the benchmarks open: the files of the corpus's big/ folder
# decompressed and concatenated (the largest last, so the document mixes every source), cut at
# the first game that starts past SIZE_MB megabytes. A file that is not UTF-8 is converted from
# Latin-1 (§4.1), so the document is UTF-8 as an editor would hold it. Prints the document's path.
#
# Usage: scripts/build_big_document.sh OUT_FILE [SIZE_MB] [BIG_DIR]
#   (SIZE_MB defaults to 100, BIG_DIR to ../shared/corpus/big)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:?output file}; size_mb=${2:-100}
big=${3:-${PGN_CORPUS:-$repo/../shared/corpus}/big}

files=()
while IFS= read -r f; do files+=("$f"); done < <(ls -Sr "$big"/*.zst)
[[ ${#files[@]} -gt 0 ]] || { echo "no .zst files in $big" >&2; exit 1; }

utf8() {
  local plain
  plain=$(mktemp)
  zstd -q -d -c "$1" > "$plain"
  if iconv -f UTF-8 -t UTF-8 "$plain" > /dev/null 2>&1; then cat "$plain"; else iconv -f LATIN1 -t UTF-8 "$plain"; fi
  rm -f "$plain"
}

for f in "${files[@]}"; do
  utf8 "$f"
  printf '\n\n'
done | LC_ALL=C awk -v limit=$((size_mb * 1000000)) '
  # Cut before the first "[Event " line past the limit: a game boundary in these files. The
  # rest is read, not printed, so that the writer is not killed by a closed pipe.
  bytes >= limit && /^\[Event / { cut = 1 }
  !cut { print; bytes += length($0) + 1 }
' > "$out"
echo "$out"
