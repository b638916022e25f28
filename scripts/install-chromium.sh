#!/usr/bin/env bash
# Debian's Chromium for the dashboard's browser tests (test/e2e/dashboard-browser.test.ts, driven by playwright-core).
# Idempotent: does nothing when /usr/bin/chromium is already there. Needs root (or sudo) and Debian's package mirror.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  echo "chromium present: $(chromium --version 2>/dev/null || echo unknown version)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
echo "installing Debian's chromium (browser tests)"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
chromium --version
