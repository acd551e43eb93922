#!/usr/bin/env bash
# Install the servers the tests run against: Debian's postgresql and redis-server packages.
# Idempotent: installs only what is missing. Nothing is started here; the tests start (and
# stop) their own throwaway servers (tests/hall/pg.py, tests/hall/redis_server.py).
set -euo pipefail
missing=()
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    missing+=(postgresql)
fi
if ! command -v redis-server >/dev/null 2>&1; then
    missing+=(redis-server)
fi
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "scripts/services.sh: ${missing[*]} not installed; as root run:" \
         "apt-get install ${missing[*]} (the hall tests need them)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
echo "scripts/services.sh: installing ${missing[*]} (Debian packages)" >&2
if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null; then
    # A fresh machine has no package lists yet.
    apt-get update -q >/dev/null
    apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi
ls /usr/lib/postgresql/*/bin/initdb >/dev/null
command -v redis-server >/dev/null
