#!/usr/bin/env bash
# Names each asset of the sale page after its content and points the pages at the new names.
#
# Assets are served for a year as immutable (openresty/conf.d/seckill.conf), so a file's name must change with its
# content: assets/<name>.<first 8 hex of sha256>.(css|js|svg|png). Edit the file under its current name, run this
# script, commit the renamed file and the updated HTML. There is nothing else to build.
#
#   openresty/html/fingerprint.sh           rename stale assets and rewrite references in *.html
#   openresty/html/fingerprint.sh --check   change nothing; exit 1 if a name does not match its content or a page
#                                           points at an asset that does not exist
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

check=false
[ "${1:-}" = "--check" ] && check=true
status=0

for f in assets/*; do
  [[ "$f" =~ ^assets/(.+)\.([0-9a-f]{8,})\.(css|js|svg|png)$ ]] || { echo "not fingerprinted: $f" >&2; status=1; continue; }
  base=${BASH_REMATCH[1]} old=${BASH_REMATCH[2]} ext=${BASH_REMATCH[3]}
  new=$(sha256sum "$f" | cut -c1-8)
  [ "$old" = "$new" ] && continue
  if $check; then
    echo "stale name: $f (content hash $new)" >&2
    status=1
    continue
  fi
  to="assets/$base.$new.$ext"
  mv "$f" "$to"
  sed -i "s#assets/$base\.$old\.$ext#$to#g" ./*.html
  echo "$f -> $to"
done

for ref in $(grep -oh 'assets/[A-Za-z0-9_.-]*' ./*.html | sort -u); do
  [ -f "$ref" ] || { echo "missing asset referenced by a page: $ref" >&2; status=1; }
done
exit $status
