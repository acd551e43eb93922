#!/usr/bin/env bash
# Install what the tests run against, from Debian packages: postgresql (the hall tests
# start their own throwaway server, tests/hall/pg.py) and chromium (the browser tests
# drive /usr/bin/chromium through Playwright; Playwright's own download is not used) with
# a Chinese font (fonts-wqy-microhei).
# Idempotent: installs only what is missing. Nothing is started here.
set -euo pipefail
missing=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
[ -x /usr/bin/chromium ] || missing+=(chromium)
# A Chinese font, so that the browser tests' screenshots show 出牌, not empty boxes.
WQY=/usr/share/fonts/truetype/wqy/wqy-microhei.ttc
[ -f "$WQY" ] || missing+=(fonts-wqy-microhei)
if [ "${#missing[@]}" -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "scripts/services.sh: missing ${missing[*]}; as root run:" \
         "apt-get install ${missing[*]} (the hall and browser tests need them)" >&2
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
[ -x /usr/bin/chromium ]
[ -f "$WQY" ]
