#!/usr/bin/env bash
# Installs what the Nova harness needs, from Debian only (PyPI is not used): Nova's functional
# tests as python3-nova ships them (26.2, Zed) with their test dependencies, nova-common for
# /etc/nova/api-paste.ini, upstream Placement 8.0.0 (the in-process baseline, and the server
# over HTTP via the conformance kit's uWSGI script), and psycopg2 for the per-test databases.
set -euo pipefail
exec "$(dirname "$0")/../../support/install-debian-packages.sh" \
  python3-nova nova-common python3-ddt python3-wsgi-intercept python3-oslotest \
  python3-placement python3-psycopg2 uwsgi-core uwsgi-plugin-python3
