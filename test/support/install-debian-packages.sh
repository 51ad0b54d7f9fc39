#!/usr/bin/env bash
# Installs, from Debian, the packages named that are not installed yet, and says which; with
# none missing it does nothing. When it cannot, it fails with a last line saying why (no
# apt-get, not root, apt-get failing): the harnesses that call it skip their tests with that line.
# --no-recommends leaves out what the packages only recommend.
# .ci/run and each harness's install script install through it.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
options=()
if [ "${1:-}" = --no-recommends ]; then options+=(--no-install-recommends); shift; fi
[ $# -gt 0 ] || { echo "usage: $0 [--no-recommends] PACKAGE..."; exit 2; }

missing=()
for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
[ ${#missing[@]} -eq 0 ] && exit 0

command -v apt-get >/dev/null || { echo "cannot install ${missing[*]}: no apt-get on this machine"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "cannot install ${missing[*]}: apt-get needs root (run as root or install them first)"; exit 1; }
echo "installing ${missing[*]}"
apt-get update -qq || { echo "apt-get update failed: no package index to install ${missing[*]} from"; exit 1; }
apt-get install -y -qq "${options[@]}" "${missing[@]}" >/dev/null || { echo "apt-get install ${missing[*]} failed"; exit 1; }
