#!/usr/bin/env bash
# Installs what the migration proof runs upstream Placement 8.0.0 with, from Debian, when it is
# missing: python3-placement (the WSGI app /usr/bin/placement-api), uwsgi with its python3 plugin,
# the MySQL and PostgreSQL drivers, and the mysql client the harness creates databases with.
# .ci/run installs the same list (plus mariadb-server); the e2e test calls this through
# upstream-harness.ts and skips, with the last line of this script's output, when it fails.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
PACKAGES=(python3-placement python3-pymysql python3-psycopg2 uwsgi-core uwsgi-plugin-python3 mariadb-client)

missing=()
for pkg in "${PACKAGES[@]}"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
[ ${#missing[@]} -eq 0 ] && exit 0

command -v apt-get >/dev/null || { echo "cannot install ${missing[*]}: no apt-get on this machine"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "cannot install ${missing[*]}: apt-get needs root (run as root or install them first)"; exit 1; }
echo "installing ${missing[*]}"
apt-get update -qq || { echo "apt-get update failed: no package index to install ${missing[*]} from"; exit 1; }
apt-get install -y -qq --no-install-recommends "${missing[@]}" || { echo "apt-get install ${missing[*]} failed"; exit 1; }
