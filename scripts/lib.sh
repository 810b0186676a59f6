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

# derive_deb_src [APT_DIR]: prints deb822 stanzas of Types: deb-src for the machine's own Debian
# 'deb' entries (the deb822 files in sources.list.d, else the one-line entries of sources.list),
# so no mirror is named in the repository.
derive_deb_src() {  # APT_DIR defaults to /etc/apt
  local apt="${1:-/etc/apt}" out="" f
  for f in "$apt"/sources.list.d/*.sources; do
    [ -f "$f" ] && [ "$(basename "$f")" != attention-deb-src.sources ] || continue
    out+="$(awk 'BEGIN { RS = ""; ORS = "\n\n" }
      { n = split($0, line, "\n"); deb = 0; debian = 0
        for (i = 1; i <= n; i++) {
          if (line[i] ~ /^Types:/ && (" " line[i] " ") ~ / deb /) deb = 1
          if (line[i] ~ /^URIs:.*debian/) debian = 1 }
        if (!deb || !debian) next
        for (i = 1; i <= n; i++) {
          if (line[i] ~ /^Types:/) line[i] = "Types: deb-src"
          if (line[i] !~ /^#/) print_line = print_line line[i] "\n" }
        printf "%s\n", print_line; print_line = "" }' "$f")"$'\n\n'
  done
  if [ -z "${out//[$'\n']/}" ] && [ -f "$apt/sources.list" ]; then
    out="$(awk '$1 == "deb" && /debian/ {
      i = 2; if ($2 ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
      printf "Types: deb-src\nURIs: %s\nSuites: %s\nComponents:", $i, $(i + 1)
      for (j = i + 2; j <= NF; j++) printf " %s", $j
      printf "\n\n" }' "$apt/sources.list")"
  fi
  [ -n "${out//[$'\n']/}" ] || return 1
  printf '%s\n' "$out"
}
