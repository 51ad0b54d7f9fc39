#!/usr/bin/env bash
# Installs what start-keystone.sh runs, from Debian, when it is missing: Keystone itself
# (python3-keystone gives keystone-manage and keystone-wsgi-public without the `keystone`
# package's system service) uwsgi with its python3 plugin to serve it, psycopg2 for its PostgreSQL database.
# .ci/run installs the same list; the e2e test calls this through start-keystone.sh.
set -euo pipefail
exec "$(dirname "$0")/../install-debian-packages.sh" --no-recommends \
  python3-keystone python3-psycopg2 uwsgi-core uwsgi-plugin-python3
