#!/usr/bin/env bash
# Stops the Keystone that start-keystone.sh WORKDIR started drops its database and removes WORKDIR.
set -uo pipefail
WORK=${1:?usage: stop-keystone.sh WORKDIR}
if [ -f "$WORK/uwsgi.pid" ]; then
  pid=$(cat "$WORK/uwsgi.pid")
  kill -TERM "$pid" 2>/dev/null
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null
fi
if [ -f "$WORK/database" ]; then
  read -r admin_url name <"$WORK/database"
  /usr/bin/python3 "$(dirname "$0")/database.py" drop "$admin_url" "$name"
fi
rm -rf "$WORK"
