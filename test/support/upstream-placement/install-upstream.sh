#!/usr/bin/env bash
# Installs what the migration proof runs upstream Placement 8.0.0 with, from Debian, when it is
# missing: python3-placement (the WSGI app /usr/bin/placement-api), uwsgi with its python3 plugin,
# the MySQL and PostgreSQL drivers, and the mysql client the harness creates databases with.
# .ci/run installs the same list (plus mariadb-server); the e2e test calls this through
# upstream-harness.ts and skips, with the last line of this script's output, when it fails.
set -euo pipefail
exec "$(dirname "$0")/../install-debian-packages.sh" --no-recommends \
  python3-placement python3-pymysql python3-psycopg2 uwsgi-core uwsgi-plugin-python3 mariadb-client
