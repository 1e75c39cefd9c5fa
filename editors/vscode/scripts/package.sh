#!/usr/bin/env bash
# Builds the VS Code extension into a platform-specific VSIX that bundles the
# pgn-lsp server binary, runs the extension's unit tests, then checks the VSIX
# contents.
#
# Usage: editors/vscode/scripts/package.sh [OUT.vsix]
#   OUT.vsix         defaults to editors/vscode/pgn-lsp-<target>.vsix
#   VSCE_TARGET      overrides the VS Code target (default: from the host, e.g. linux-x64)
#   PGN_LSP          a server binary to bundle (CI bundles the profile-guided build of
#                    scripts/pgo_build.sh); without it the release binary is built
#   CARGO_TARGET_DIR is honoured when looking for the release binary
set -euo pipefail

ext_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
repo_root="$(cd "$ext_dir/../.." && pwd)"

host_target() {
  local os arch
  case "$(uname -s)" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    *) echo "unsupported OS for packaging: $(uname -s)" >&2; return 1 ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "unsupported CPU for packaging: $(uname -m)" >&2; return 1 ;;
  esac
  echo "$os-$arch"
}
target="${VSCE_TARGET:-$(host_target)}"

out="${1:-$ext_dir/pgn-lsp-$target.vsix}"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac

if [ -n "${PGN_LSP:-}" ]; then
  binary="$PGN_LSP"
else
  echo "==> cargo build --release"
  (cd "$repo_root" && cargo build --release)
  target_dir="${CARGO_TARGET_DIR:-target}"
  case "$target_dir" in /*) ;; *) target_dir="$repo_root/$target_dir" ;; esac
  binary="$target_dir/release/pgn-lsp"
fi
if [ ! -x "$binary" ]; then
  echo "error: no server binary at $binary" >&2
  exit 1
fi

cd "$ext_dir"

echo "==> copy the server binary and the licence into the extension"
rm -rf server dist
mkdir -p server
cp "$binary" server/pgn-lsp
chmod 755 server/pgn-lsp
license_flag=()
if [ -f "$repo_root/LICENSE" ]; then
  cp "$repo_root/LICENSE" LICENSE
else
  license_flag=(--skip-license)
fi

echo "==> npm ci"
# Install scripts are not needed (esbuild ships its binary as an optional
# dependency) and would only fetch optional native helpers of vsce.
npm ci --no-audit --no-fund --ignore-scripts

echo "==> grammar, typecheck, bundle"
npm run copy-grammar
npm run typecheck
npm run bundle

echo "==> unit tests (the board panel's HTML)"
npm test

echo "==> vsce package --target $target"
rm -f "$out"
npx --no-install vsce package --no-dependencies --target "$target" \
  "${license_flag[@]}" -o "$out"

echo "==> check $out"
required=(
  extension/package.json
  extension/dist/extension.js
  extension/server/pgn-lsp
  extension/syntaxes/pgn.tmLanguage.json
  extension/language-configuration.json
)
if command -v unzip >/dev/null 2>&1; then
  listing="$(unzip -Z1 "$out")"
else
  listing="$(python3 -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$out")"
fi
missing=0
for f in "${required[@]}"; do
  if ! grep -qxF "$f" <<<"$listing"; then
    echo "error: $f is missing from $out" >&2
    missing=1
  fi
done
if grep -q '^extension/node_modules/\|^extension/src/' <<<"$listing"; then
  echo "error: node_modules/ or src/ leaked into $out" >&2
  missing=1
fi
[ "$missing" -eq 0 ] || exit 1
echo "$listing" | sed 's/^/    /'
echo "==> OK: $out"
