#!/usr/bin/env bash
# Install the pgvector extension into the local PostgreSQL server (Debian).
#
# Idempotent: exits 0 immediately if the server already offers the `vector`
# extension. Otherwise:
#   1. If the configured apt repos carry postgresql-<major>-pgvector >= 0.7,
#      install that binary package.
#   2. Else add a Debian trixie *deb-src only* entry
#      (/etc/apt/sources.list.d/pgvector-trixie-src.sources), fetch the
#      pgvector source package from trixie (0.8.x) and build/install it against
#      the running server's pg_config. No trixie binary packages are ever used.
#
# Must be run as root for the install step (the "already installed" check
# works as any user). Non-interactive.
#
# Environment: PGHOST (127.0.0.1), PGPORT (5432), PGUSER (postgres),
#              PGDATABASE (postgres) – used to reach the running server.
set -euo pipefail

export PGHOST="${PGHOST:-127.0.0.1}"
export PGPORT="${PGPORT:-5432}"
export PGUSER="${PGUSER:-postgres}"
export PGDATABASE="${PGDATABASE:-postgres}"
export DEBIAN_FRONTEND=noninteractive

MIN_BINARY_VERSION="0.7"
SOURCES_FILE="/etc/apt/sources.list.d/pgvector-trixie-src.sources"

log() { printf '[install-pgvector] %s\n' "$*"; }
die() { printf '[install-pgvector] ERROR: %s\n' "$*" >&2; exit 1; }

psql_q() {
  psql -X -q -t -A -v ON_ERROR_STOP=1 -c "$1"
}

vector_available_version() {
  # Prints default_version of `vector` if the server offers it, else nothing.
  psql_q "select default_version from pg_available_extensions where name = 'vector'"
}

command -v psql >/dev/null 2>&1 || die "psql not found; install postgresql-client first"

log "checking PostgreSQL at ${PGHOST}:${PGPORT} as ${PGUSER}"
if ! psql_q "select 1" >/dev/null; then
  die "cannot connect to PostgreSQL at ${PGHOST}:${PGPORT} as ${PGUSER}"
fi

existing="$(vector_available_version)"
if [[ -n "$existing" ]]; then
  log "pgvector ${existing} is already available on the server; nothing to do"
  exit 0
fi

[[ ${EUID} -eq 0 ]] || die "pgvector is not installed and this script must run as root to install it"

# --- determine the running server's major version -------------------------
major=""
version_num="$(psql_q "show server_version_num" || true)"
if [[ "$version_num" =~ ^[0-9]+$ ]]; then
  major=$(( version_num / 10000 ))
fi
if [[ -z "$major" ]] && command -v pg_lsclusters >/dev/null 2>&1; then
  major="$(pg_lsclusters -h | awk -v p="$PGPORT" '$3 == p && $4 == "online" {print $1; exit}')"
fi
if [[ -z "$major" ]]; then
  mapfile -t dirs < <(ls -1 /usr/lib/postgresql 2>/dev/null)
  [[ ${#dirs[@]} -eq 1 ]] && major="${dirs[0]}"
fi
[[ -n "$major" ]] || die "could not determine the PostgreSQL server major version"
PG_CONFIG="/usr/lib/postgresql/${major}/bin/pg_config"
log "server major version: ${major} (pg_config: ${PG_CONFIG})"

# --- route 1: binary package from already-configured repos ---------------
log "apt-get update"
apt-get update -q

pkg="postgresql-${major}-pgvector"
candidate="$(apt-cache policy "$pkg" 2>/dev/null | awk '/Candidate:/ {print $2}')"
if [[ -n "$candidate" && "$candidate" != "(none)" ]] \
   && dpkg --compare-versions "$candidate" ge "$MIN_BINARY_VERSION"; then
  log "installing binary package ${pkg} ${candidate}"
  apt-get install -y -q --no-install-recommends "$pkg"
else
  log "no binary ${pkg} >= ${MIN_BINARY_VERSION} in configured repos (candidate: ${candidate:-none}); building from trixie source"

  # --- route 2: build from Debian trixie source package -----------------
  desired_sources="Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
"
  if [[ ! -f "$SOURCES_FILE" ]] || [[ "$(cat "$SOURCES_FILE")"$'\n' != "$desired_sources" ]]; then
    log "writing ${SOURCES_FILE} (deb-src only)"
    printf '%s' "$desired_sources" > "$SOURCES_FILE"
  fi
  log "apt-get update (with trixie deb-src)"
  apt-get update -q

  # Only install what is missing, so already-present packages aren't upgraded.
  missing=()
  for p in "postgresql-server-dev-${major}" build-essential make gcc dpkg-dev; do
    if [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" != "install ok installed" ]]; then
      missing+=("$p")
    fi
  done
  if [[ ${#missing[@]} -gt 0 ]]; then
    log "installing build dependencies: ${missing[*]}"
    apt-get install -y -q --no-install-recommends "${missing[@]}"
  else
    log "build dependencies already installed"
  fi
  [[ -x "$PG_CONFIG" ]] || die "${PG_CONFIG} not found after installing postgresql-server-dev-${major}"

  workdir="$(mktemp -d /tmp/pgvector-build.XXXXXX)"
  trap 'rm -rf "$workdir"' EXIT
  # Let apt's unprivileged _apt download user write here (avoids sandbox warning).
  chmod 0755 "$workdir"
  if id _apt >/dev/null 2>&1; then chown _apt "$workdir"; fi

  log "downloading pgvector source package into ${workdir}"
  (
    cd "$workdir"
    # Downloaded files are checked against the hashes in trixie's signed
    # InRelease/Sources, so integrity is verified by apt.
    apt-get source -q --download-only pgvector
    dsc="$(ls -1 pgvector_*.dsc | head -n1)"
    [[ -n "$dsc" ]] || { echo "no pgvector .dsc downloaded" >&2; exit 1; }
    # The uploader's PGP signature can't be checked without debian-keyring;
    # apt already verified the hashes, so skip that check.
    dpkg-source --no-check -x "$dsc" src >/dev/null
  )
  srcdir="${workdir}/src"
  [[ -f "${srcdir}/Makefile" ]] || die "pgvector source extraction failed"
  src_version="$(sed -n 's/^EXTVERSION *= *//p' "${srcdir}/Makefile" | head -n1)"
  log "building pgvector ${src_version:-?} against PostgreSQL ${major}"

  # OPTFLAGS= disables pgvector's default -march=native (as Debian's own
  # package does) so the binary isn't tied to this exact CPU.
  start=$(date +%s)
  make -C "$srcdir" -j"$(nproc)" PG_CONFIG="$PG_CONFIG" OPTFLAGS="" >/dev/null
  make -C "$srcdir" PG_CONFIG="$PG_CONFIG" OPTFLAGS="" install >/dev/null
  log "build + install took $(( $(date +%s) - start ))s"
fi

installed="$(vector_available_version)"
[[ -n "$installed" ]] || die "pgvector install finished but the server does not list the 'vector' extension"
log "done: pgvector ${installed} is available (run 'CREATE EXTENSION vector;' in your database)"
