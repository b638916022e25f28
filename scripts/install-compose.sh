#!/usr/bin/env bash
# Docker Compose v2 for CI's check of docker-compose.yml (`docker compose config`, which needs no Docker engine).
# Idempotent: does nothing when `docker compose version` (or a standalone docker-compose v2) already answers.
# Otherwise installs Debian trixie's docker-compose package (2.26, a static Go binary that needs only libc6 >= 2.34):
# the package index is read into a private apt state directory (/var/cache/profiler-apt-trixie), so the machine's own
# apt sources and upgrades are untouched; apt checks the index's signature and the package's hash as usual.
# Needs root (or sudo) and Debian's package mirror.
set -euo pipefail
have() {
  if docker compose version >/dev/null 2>&1; then return 0; fi
  local plugin=/usr/libexec/docker/cli-plugins/docker-compose
  [ -x "$plugin" ] && "$plugin" version >/dev/null 2>&1
}
if have; then
  echo "docker compose present: $(docker compose version 2>/dev/null || /usr/libexec/docker/cli-plugins/docker-compose version)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
state=/var/cache/profiler-apt-trixie
$SUDO mkdir -p "$state/lists/partial" "$state/archives/partial"
echo "deb http://deb.debian.org/debian trixie main" | $SUDO tee "$state/sources.list" >/dev/null
opts=(-o "Dir::Etc::sourcelist=$state/sources.list" -o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$state/lists"
  -o "Dir::Cache::archives=$state/archives" -o APT::Get::List-Cleanup=0)
echo "installing Debian trixie's docker-compose (validation of docker-compose.yml)"
$SUDO apt-get "${opts[@]}" update -qq
$SUDO apt-get "${opts[@]}" install -y -qq --download-only --no-install-recommends docker-compose >/dev/null
deb=$(ls "$state"/archives/docker-compose_*.deb | tail -1)
$SUDO dpkg -i "$deb" >/dev/null
have && echo "docker compose: $(/usr/libexec/docker/cli-plugins/docker-compose version)"
