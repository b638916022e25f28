#!/usr/bin/env bash
# Build and install the Citus extension (a test dependency) into the local PostgreSQL (Debian) from the vendored
# source archive ../shared/vendor/citus-13.2.2.tar.gz (see ../shared/vendor/README.md).
#
# Idempotent: exits 0 immediately if citus.so and citus.control of this version are already installed in the
# PostgreSQL found by pg_config. Otherwise:
#   1. installs the missing build dependencies from Debian apt (postgresql-server-dev-<major>, build tools, libs);
#   2. extracts the archive into a cache dir (CITUS_CACHE_DIR, default /var/cache/profiler/citus-<version>), applies
#      the one compat fix that PostgreSQL 15.20 needs (it now exports have_createdb_privilege() from
#      commands/dbcommands.h, which Citus's pg_version_compat.h defines as a static function), configures with
#      --without-libcurl, builds with make -j2 (with_llvm=no: no JIT bitcode, which would double the build time) and
#      installs into pg_config's pkglibdir/sharedir.
#   The build tree stays in the cache dir, so a re-install after the PostgreSQL package is reinstalled only runs
#   `make install`.
#
# Nothing is started or configured here: a Citus node needs shared_preload_libraries = 'citus', which the tests set
# on their own private clusters (test/support/pg-cluster.ts). The machine's server on 5432 is left alone.
# Must run as root to install (the "already installed" check works as any user). Non-interactive.
#
# Usage: install-citus.sh [--force]   (--force: build/install even when Citus is installed already)
# Environment: CITUS_TARBALL (the archive), CITUS_CACHE_DIR (build cache), PG_CONFIG (pg_config to build against).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

here="$(cd "$(dirname "$0")" && pwd)"
VERSION="13.2.2"
# Beside the checkout (../shared/vendor), else where this workplace keeps it (a CI checkout may live elsewhere).
if [ -z "${CITUS_TARBALL:-}" ]; then
  for dir in "$here/../../shared/vendor" /work/shared/vendor; do
    if [ -f "$dir/citus-${VERSION}.tar.gz" ]; then CITUS_TARBALL="$dir/citus-${VERSION}.tar.gz"; break; fi
  done
  CITUS_TARBALL="${CITUS_TARBALL:-$here/../../shared/vendor/citus-${VERSION}.tar.gz}"
fi
CITUS_CACHE_DIR="${CITUS_CACHE_DIR:-/var/cache/profiler/citus-${VERSION}}"

log() { printf '[install-citus] %s\n' "$*"; }
die() { printf '[install-citus] ERROR: %s\n' "$*" >&2; exit 1; }

if [[ -z "${PG_CONFIG:-}" ]]; then
  major="$(ls -1 /usr/lib/postgresql 2>/dev/null | sort -n | tail -n1)"
  [[ -n "$major" ]] || die "no PostgreSQL server under /usr/lib/postgresql"
  PG_CONFIG="/usr/lib/postgresql/${major}/bin/pg_config"
fi
major="$(basename "$(dirname "$(dirname "$PG_CONFIG")")")"

installed_version() {
  # Prints default_version from citus.control if it is installed, else nothing.
  [[ -x "$PG_CONFIG" ]] || return 0
  local lib share
  lib="$("$PG_CONFIG" --pkglibdir)"; share="$("$PG_CONFIG" --sharedir)"
  [[ -f "$lib/citus.so" && -f "$share/extension/citus.control" ]] || return 0
  sed -n "s/^default_version *= *'\([^']*\)'.*/\1/p" "$share/extension/citus.control"
}

existing="$(installed_version)"
if [[ "${1:-}" != "--force" && -n "$existing" && "$existing" == "${VERSION%.*}"* ]]; then
  log "citus ${existing} is already installed for PostgreSQL ${major} ($("$PG_CONFIG" --pkglibdir)/citus.so); nothing to do"
  exit 0
fi

[[ ${EUID} -eq 0 ]] || die "citus is not installed and this script must run as root to install it"
[[ -f "$CITUS_TARBALL" ]] || die "source archive not found: $CITUS_TARBALL"

# --- build dependencies: only install what is missing, so present packages aren't upgraded ----------------------
missing=()
for p in "postgresql-server-dev-${major}" build-essential make gcc liblz4-dev libzstd-dev libkrb5-dev libssl-dev \
         libselinux1-dev libxslt1-dev libpam0g-dev libreadline-dev zlib1g-dev; do
  if [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" != "install ok installed" ]]; then
    missing+=("$p")
  fi
done
if [[ ${#missing[@]} -gt 0 ]]; then
  log "installing build dependencies: ${missing[*]}"
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  log "build dependencies already installed"
fi
[[ -x "$PG_CONFIG" ]] || die "${PG_CONFIG} not found after installing postgresql-server-dev-${major}"

# --- extract, patch, configure, build (cached) ---------------------------------------------------------------------
src="${CITUS_CACHE_DIR}/citus-${VERSION}"
stamp="${CITUS_CACHE_DIR}/.built-$("$PG_CONFIG" --version | tr -c 'A-Za-z0-9.' '-')"
start=$(date +%s)
if [[ ! -f "$stamp" ]]; then
  rm -rf "$CITUS_CACHE_DIR"
  mkdir -p "$CITUS_CACHE_DIR"
  log "extracting $(basename "$CITUS_TARBALL") into ${CITUS_CACHE_DIR}"
  tar -xzf "$CITUS_TARBALL" -C "$CITUS_CACHE_DIR"
  [[ -f "$src/configure" ]] || die "archive did not contain citus-${VERSION}/configure"

  compat="$src/src/include/pg_version_compat.h"
  if "$PG_CONFIG" --includedir-server >/dev/null && \
     grep -q 'have_createdb_privilege' "$("$PG_CONFIG" --includedir-server)/commands/dbcommands.h" 2>/dev/null; then
    log "PostgreSQL $("$PG_CONFIG" --version | awk '{print $2}') exports have_createdb_privilege(): removing Citus's static copy from pg_version_compat.h"
    # The static definition is a block `static inline bool\nhave_createdb_privilege(void)\n{ ... }`; delete it and
    # include the header that now declares the function instead.
    python3 - "$compat" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
new, n = re.subn(r'static\s+(?:inline\s+)?bool\s*\n?\s*have_createdb_privilege\s*\(void\)\s*\{.*?\n\}\n',
                 '#include "commands/dbcommands.h" /* PostgreSQL 15.20+ exports have_createdb_privilege() */\n',
                 s, count=1, flags=re.S)
if n != 1:
    sys.exit('install-citus: have_createdb_privilege() definition not found in ' + p)
open(p, 'w').write(new)
PY
  fi

  log "configuring (--without-libcurl) against ${PG_CONFIG}"
  (cd "$src" && ./configure --without-libcurl PG_CONFIG="$PG_CONFIG" >"$CITUS_CACHE_DIR/configure.log" 2>&1) \
    || { tail -n 30 "$CITUS_CACHE_DIR/configure.log" >&2; die "configure failed (log: $CITUS_CACHE_DIR/configure.log)"; }
  log "building with make -j2 (about a minute and a half on 2 cores)"
  make -C "$src" -j2 with_llvm=no >"$CITUS_CACHE_DIR/make.log" 2>&1 \
    || { tail -n 30 "$CITUS_CACHE_DIR/make.log" >&2; die "make failed (log: $CITUS_CACHE_DIR/make.log)"; }
  touch "$stamp"
  log "build took $(( $(date +%s) - start ))s"
else
  log "using the cached build in ${src}"
fi

make -C "$src" with_llvm=no install >"$CITUS_CACHE_DIR/install.log" 2>&1 \
  || { tail -n 30 "$CITUS_CACHE_DIR/install.log" >&2; die "make install failed"; }

installed="$(installed_version)"
[[ -n "$installed" ]] || die "make install finished but citus.so/citus.control are not in $("$PG_CONFIG" --pkglibdir)"
log "done: citus ${installed} installed into $("$PG_CONFIG" --pkglibdir) (nodes need shared_preload_libraries = 'citus')"
