#!/usr/bin/env bash
# Installs the sale page into a directory the edge serves, each asset under a name that carries its content:
#
#   openresty/html/install.sh SRC DEST
#
# copies SRC/assets/<path>.<ext> to DEST/assets/<path>.<first 8 hex of its sha256>.<ext> (ext: css, js, svg, png;
# dotfiles, such as an editor's, are left out) and each SRC/*.html to DEST, its <link href> and <script src> pointing
# at the hashed names and, before its first <script>, an import map from every module's plain path (/assets/<path>.js,
# what the modules import) to its hashed name. The edge keeps hashed names a year as immutable and revalidates HTML (openresty/conf.d/seckill.conf): a
# changed file is fetched under its new name on the next page load, while the sources keep plain names and their git
# history. Served from SRC without this step the page works too (the imports resolve to the plain files), uncached.
#
# Assets are written before the pages, and each page replaces its old copy in one rename, so an edge serving DEST
# never serves a page whose assets are missing. Hashed files of earlier installs are kept: a page loaded before this
# install still finds what it fetches later (the proof of work's worker). Run by bin/lib/edge.sh on each start and
# reload of a native edge, and once when the Docker image of the edge is built (docker/Dockerfile).
set -euo pipefail

die() { echo "install.sh: $*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: install.sh SRC DEST"
src=$(cd "$1" && pwd) || die "no such directory: $1"
[ -d "$src/assets" ] || die "$src has no assets directory"
mkdir -p "$2"
dest=$(cd "$2" && pwd)
[ "$src" != "$dest" ] || die "SRC and DEST are the same directory"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One sed expression per asset (a page's references) and one import map line per module.
: > "$work/rewrite.sed"
map=()
while IFS= read -r -d '' f; do
  rel=${f#"$src"/}
  [[ "$rel" =~ ^(assets/[A-Za-z0-9_./-]+)\.(css|js|svg|png)$ ]] || die "not a page asset (css, js, svg, png): $rel"
  base=${BASH_REMATCH[1]} ext=${BASH_REMATCH[2]}
  # A source named like a hashed file would be kept a year under a name that does not change with its content.
  [[ "$base" =~ \.[0-9a-fA-F]{8,}$ ]] && die "$rel is named like a content-hashed file: give it a plain name"
  to="$base.$(sha256sum "$f" | cut -c1-8).$ext"
  if [ ! -f "$dest/$to" ]; then
    mkdir -p "$(dirname "$dest/$to")"
    cp "$f" "$dest/$to.tmp"
    chmod 644 "$dest/$to.tmp"
    mv -f "$dest/$to.tmp" "$dest/$to"
  fi
  printf 's#((href|src)="/?)%s"#\\1%s"#g\n' "${rel//./\\.}" "$to" >> "$work/rewrite.sed"
  [ "$ext" = js ] && map+=("      \"/$rel\": \"/$to\"")
done < <(find "$src/assets" -type f ! -name ".*" -print0 | sort -z)

importmap() {
  local i
  printf '  <script type="importmap">\n  {\n    "imports": {\n'
  for i in "${!map[@]}"; do
    printf '%s%s\n' "${map[$i]}" "$([ "$i" -lt $((${#map[@]} - 1)) ] && echo ,)"
  done
  printf '    }\n  }\n  </script>\n'
}

pages=0
for page in "$src"/*.html; do
  [ -f "$page" ] || continue
  name=${page##*/}
  out="$dest/.$name.tmp"
  mapped=false
  while IFS= read -r line || [ -n "$line" ]; do
    if ! $mapped && [[ "$line" == *"<script"* ]]; then
      importmap
      mapped=true
    fi
    printf '%s\n' "$line"
  done < "$page" | sed -E -f "$work/rewrite.sed" > "$out"
  # Every asset the page names must now be a hashed file of this install.
  while IFS= read -r ref; do
    [ -f "$dest/$ref" ] || { rm -f "$out"; die "$name references a missing asset: $ref"; }
  done < <(grep -oE '(href|src)="/?assets/[^"]*"' "$out" | sed -E 's#^[a-z]+="/?##; s#"$##')
  chmod 644 "$out"
  mv -f "$out" "$dest/$name"
  pages=$((pages + 1))
done
[ "$pages" -gt 0 ] || die "$src has no *.html page"
echo "installed $pages pages and their assets into $dest"
