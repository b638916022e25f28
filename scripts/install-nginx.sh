#!/usr/bin/env bash
# nginx for CI's check of deploy/nginx.conf (test/integration/deploy-manifests.test.ts: `nginx -t`, and the shipped
# configuration run in front of the service). Idempotent. Debian's nginx package is downloaded and unpacked into
# /var/cache/profiler-nginx, not installed: no daemon is started and the machine's nginx, if any, is untouched; the
# test runs the binary from there with its own prefix. Needs root (or sudo) and Debian's package mirror.
set -euo pipefail
dir=/var/cache/profiler-nginx
bin="$dir/usr/sbin/nginx"
if [ -x "$bin" ] && "$bin" -v >/dev/null 2>&1; then
  echo "nginx present: $("$bin" -v 2>&1)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
if ! apt-cache policy nginx 2>/dev/null | grep -q 'Candidate: [0-9]'; then $SUDO apt-get update -qq; fi
$SUDO mkdir -p "$dir/deb"
# apt-get download writes into the current directory, as the _apt user when it can.
(cd "$dir/deb" && $SUDO chmod 777 . && $SUDO apt-get download -qq nginx)
$SUDO dpkg -x "$(ls "$dir"/deb/nginx_*.deb | tail -1)" "$dir"
"$bin" -v
