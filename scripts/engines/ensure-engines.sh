#!/bin/sh
# The topology tests (test/topology) and the bench's topology section start their own Redis Cluster,
# Sentinel group, PgBouncer and PostgreSQL replica from Debian's packages, and make TLS certificates
# with openssl; install the missing ones (as root, e.g. on CI).
set -e
missing=""
command -v redis-server >/dev/null 2>&1 || missing="$missing redis-server"
command -v redis-sentinel >/dev/null 2>&1 || missing="$missing redis-sentinel"
[ -x /usr/sbin/pgbouncer ] || command -v pgbouncer >/dev/null 2>&1 || missing="$missing pgbouncer"
[ -x /usr/lib/postgresql/15/bin/pg_basebackup ] || missing="$missing postgresql-15"
command -v openssl >/dev/null 2>&1 || missing="$missing openssl"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "The topology tests need Debian's$missing: sudo apt-get install$missing" >&2
  exit 1
fi
echo "Installing Debian's$missing for the topology tests…" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
