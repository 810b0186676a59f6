# Shared helpers for the project's scripts: sourced, never run.
# Every script prints what it is doing (say), stops on the first failure (set -e + die).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${ATTN_CACHE:-$ROOT/.cache}"      # downloads and the SDL2 build; ignored by git
BUILD="$ROOT/build"                        # CMake build trees; ignored by git
DIST="$ROOT/dist"                          # the product: static files
export NODE_PATH=/usr/share/nodejs         # Debian's emcc needs node-acorn from here
JOBS="$(nproc 2>/dev/null || echo 2)"

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
die() { printf '\033[31merror:\033[0m %s\n' "$*" >&2; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }
