#!/usr/bin/env bash
# Install what the tests run against, from Debian packages: postgresql and redis-server
# (the hall tests start, and stop, their own throwaway servers: tests/hall/pg.py,
# tests/hall/redis_server.py) and chromium (the browser tests drive /usr/bin/chromium
# through Playwright; Playwright's own download is not used) with a Chinese font
# (fonts-wqy-microhei); and a C compiler with Python's headers, so that the install builds
# the bots' split search in C (setup.py; without it the bots fall back to Python, slower,
# and tests/bots/test_native_search.py fails).
# Idempotent: installs only what is missing. Nothing is started here.
set -euo pipefail
missing=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
[ -x /usr/bin/chromium ] || missing+=(chromium)
# A Chinese font, so that the browser tests' screenshots show 出牌, not empty boxes.
WQY=/usr/share/fonts/truetype/wqy/wqy-microhei.ttc
[ -f "$WQY" ] || missing+=(fonts-wqy-microhei)
command -v cc >/dev/null 2>&1 || missing+=(gcc)
headers() {
    python3 -c 'import os, sys, sysconfig
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'
}
headers || missing+=(python3-dev)
if [ "${#missing[@]}" -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "scripts/services.sh: missing ${missing[*]}; as root run:" \
         "apt-get install ${missing[*]} (the hall, browser and bot tests need them)" >&2
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
[ -x /usr/bin/chromium ]
[ -f "$WQY" ]
command -v cc >/dev/null
headers
