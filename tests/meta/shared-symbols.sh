#!/bin/sh
# libfaultline.so exports the API of include/faultline.h and nothing else: every exported symbol
# starts with fl_ (besides the version node of src/libfaultline.map), every function the header
# declares is exported, and the shared-object name carries the major version.
# Usage: shared-symbols.sh LIBFAULTLINE.SO HEADER SONAME
set -u
lib=$1 header=$2 soname=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$lib" >"$tmp/nm" || { echo "nm -D failed on $lib"; exit 1; }
awk '!($2 == "A" && $3 ~ /^FAULTLINE_[0-9]+$/) {sub(/@.*/, "", $3); print $3}' "$tmp/nm" | sort -u >"$tmp/exported"
bad=$(grep -v '^fl_' "$tmp/exported")
if [ -n "$bad" ]; then
  echo "exported symbols without the fl_ prefix:"; echo "$bad"; exit 1
fi
grep -o '\bfl_[a-z0-9_]*(' "$header" | tr -d '(' | sort -u >"$tmp/declared"
missing=$(comm -23 "$tmp/declared" "$tmp/exported")
if [ -n "$missing" ]; then
  echo "declared in $header but not exported:"; echo "$missing"; exit 1
fi
extra=$(comm -13 "$tmp/declared" "$tmp/exported")
if [ -n "$extra" ]; then
  echo "exported but not declared in $header:"; echo "$extra"; exit 1
fi
got=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$got" = "$soname" ] || { echo "soname is '$got', expected '$soname'"; exit 1; }
echo "$(wc -l <"$tmp/exported") symbols exported, all fl_ and all declared; soname $got"
