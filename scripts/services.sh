#!/usr/bin/env bash
# Install the database server the tests run against: Debian's postgresql package.
# Idempotent: does nothing when PostgreSQL's binaries are there. Nothing is started here;
# the tests start (and stop) their own throwaway server (tests/hall/pg.py).
set -euo pipefail
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "scripts/services.sh: PostgreSQL is not installed; as root run:" \
         "apt-get install postgresql (the hall tests need it)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
echo "scripts/services.sh: installing postgresql (Debian package)" >&2
if ! apt-get install -y -q --no-install-recommends postgresql >/dev/null; then
    # A fresh machine has no package lists yet.
    apt-get update -q >/dev/null
    apt-get install -y -q --no-install-recommends postgresql >/dev/null
fi
ls /usr/lib/postgresql/*/bin/initdb >/dev/null
