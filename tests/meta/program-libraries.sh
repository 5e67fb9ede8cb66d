#!/bin/sh
# The program links none of the libraries that only some commands use: serve's and kb export's
# (libmicrohttpd, SQLite, md4c, nettle) are in faultline-serve.so, watch's in faultline-watch.so,
# libcurl and libarchive are opened when needed. Each of them linked in is mapped and relocated
# at every start of every command. The modules load and run their commands from the build tree.
# Usage: program-libraries.sh FAULTLINE
set -u
fl=$1
needed=$(readelf -d "$fl" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[ -n "$needed" ] || { echo "readelf shows no NEEDED entries in $fl"; exit 1; }
bad=$(echo "$needed" | grep -E '^lib(microhttpd|sqlite3|md4c|nettle|hogweed|gnutls|curl|archive)')
if [ -n "$bad" ]; then echo "the program links libraries only some commands need:"; echo "$bad"; exit 1; fi
"$fl" serve --help >/dev/null || { echo "faultline serve --help failed"; exit 1; }
"$fl" watch --help >/dev/null || { echo "faultline watch --help failed"; exit 1; }
echo "NEEDED:" $needed
