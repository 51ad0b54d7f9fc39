#!/usr/bin/env bash
# Installs what start-keystone.sh runs, from Debian, when it is missing: Keystone itself
# (python3-keystone gives keystone-manage and keystone-wsgi-public without the `keystone`
# package's system service) uwsgi with its python3 plugin to serve it, psycopg2 for its PostgreSQL database.
# .ci/run calls this; the e2e test calls it through start-keystone.sh.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
PACKAGES=(python3-keystone python3-psycopg2 uwsgi-core uwsgi-plugin-python3)

missing=()
for pkg in "${PACKAGES[@]}"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
[ ${#missing[@]} -eq 0 ] && exit 0

command -v apt-get >/dev/null || { echo "cannot install ${missing[*]}: no apt-get on this machine"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "cannot install ${missing[*]}: apt-get needs root (run as root or install them first)"; exit 1; }
echo "installing ${missing[*]}"
apt-get update -qq || { echo "apt-get update failed: no package index to install ${missing[*]} from"; exit 1; }
apt-get install -y -qq --no-install-recommends "${missing[@]}" || { echo "apt-get install ${missing[*]} failed"; exit 1; }
