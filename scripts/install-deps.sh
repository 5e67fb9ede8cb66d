#!/bin/sh
# Installs the Debian packages faultline needs to build and test, only those that are missing.
# Extra package names given as arguments are installed the same way (.ci/run: python3-torch).
set -eu
pkgs="$* build-essential cmake ninja-build pkg-config libvectorscan-dev libpcre2-dev libyaml-dev
libjansson-dev zlib1g-dev libzstd-dev libarchive-dev libcmocka-dev gzip zstd tar
libmicrohttpd-dev libsqlite3-dev libmd4c-dev libmd4c-html0-dev nettle-dev libcurl4-openssl-dev python3
python3-setuptools python3-pytest python3-venv python3-pip
chromium chromium-driver python3-selenium wrk ripgrep"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
