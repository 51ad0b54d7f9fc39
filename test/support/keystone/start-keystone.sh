#!/usr/bin/env bash
# A private, throw-away Keystone for the keystone e2e test:
#   start-keystone.sh WORKDIR
# installs Debian's Keystone when it is missing (root only), configures it with its own
# PostgreSQL database and fernet keys under WORKDIR, serves keystone-wsgi-public under uwsgi on a free
# loopback port, bootstraps an admin and provisions the test users (provision.py).
# On success WORKDIR/keystone.json describes it (url, uwsgi pid, users); stop it with
# stop-keystone.sh WORKDIR. On failure the last line on stderr says why, and the exit code is
# non-zero: the e2e test then skips with that reason.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${1:?usage: start-keystone.sh WORKDIR}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
# Keystone is a Debian python3 package: it runs on the system interpreter, never a pyenv/venv one.
PY=/usr/bin/python3
LOG=$WORK/setup.log
: >"$LOG"

fail() { echo "keystone setup: $*" >&2; exit 1; }
last_error() { grep -v '^[[:space:]]*$' "$LOG" | tail -n 1; }
# On failure the work dir (and its logs) stays for the caller to read and remove.
halt() { [ -f "$WORK/uwsgi.pid" ] && kill -TERM "$(cat "$WORK/uwsgi.pid")" 2>/dev/null; return 0; }

"$HERE/install-keystone.sh" >>"$LOG" 2>&1 || fail "$(last_error)"
[ -x "$PY" ] || fail "$PY is missing"

# Its own database on the PostgreSQL the other tests use; stop-keystone.sh drops it.
PG_ADMIN_URL=${TEST_DATABASE_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}
DB_NAME="keystone_e2e_$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')"
"$PY" "$HERE/database.py" create "$PG_ADMIN_URL" "$DB_NAME" >>"$LOG" 2>&1 \
  || fail "cannot create a database on $PG_ADMIN_URL: $(last_error)"
echo "$PG_ADMIN_URL $DB_NAME" >"$WORK/database"
DB_URL=$("$PY" -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); print(u.urlunsplit(("postgresql+psycopg2", p.netloc, "/" + sys.argv[2], "", "")))' "$PG_ADMIN_URL" "$DB_NAME")

PORT=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
URL="http://127.0.0.1:$PORT"
ADMIN_PASSWORD="admin-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
CONF=$WORK/keystone.conf
mkdir -p "$WORK/fernet-keys" "$WORK/fernet-receipts" "$WORK/credential-keys"
chmod 700 "$WORK/fernet-keys" "$WORK/fernet-receipts" "$WORK/credential-keys"
cat >"$CONF" <<EOF
[DEFAULT]
log_file = $WORK/keystone.log
use_stderr = false
[database]
connection = $DB_URL
[token]
provider = fernet
expiration = 3600
[fernet_tokens]
key_repository = $WORK/fernet-keys
[fernet_receipts]
key_repository = $WORK/fernet-receipts
[credential]
key_repository = $WORK/credential-keys
[identity]
# Cheap hashing: these passwords live for one test run.
password_hash_rounds = 4
[cache]
enabled = false
EOF

ME=$(id -un)
GROUP=$(id -gn)
manage() { echo "$(date +%T) keystone-manage $1" >>"$LOG"; keystone-manage --config-file "$CONF" "$@" >>"$LOG" 2>&1; }
manage db_sync || fail "keystone-manage db_sync failed (see $LOG)"
manage fernet_setup --keystone-user "$ME" --keystone-group "$GROUP" || fail "fernet_setup failed (see $LOG)"
manage credential_setup --keystone-user "$ME" --keystone-group "$GROUP" || fail "credential_setup failed (see $LOG)"
manage bootstrap --bootstrap-password "$ADMIN_PASSWORD" --bootstrap-username admin \
  --bootstrap-project-name admin --bootstrap-role-name admin \
  --bootstrap-service-name keystone --bootstrap-region-id RegionOne \
  --bootstrap-public-url "$URL/v3" --bootstrap-internal-url "$URL/v3" \
  || fail "keystone-manage bootstrap failed (see $LOG)"

# --die-on-term: uwsgi's master otherwise treats SIGTERM as "reload". One thread per worker:
# Keystone's libraries pull in eventlet, which does not mix well with uwsgi's threads.
echo "$(date +%T) uwsgi on $URL" >>"$LOG"
OS_KEYSTONE_CONFIG_FILES=$CONF uwsgi --plugin python3 --http11-socket "127.0.0.1:$PORT" \
  --wsgi-file /usr/bin/keystone-wsgi-public --master --processes 3 --threads 1 \
  --die-on-term --need-app --pidfile "$WORK/uwsgi.pid" --daemonize "$WORK/uwsgi.log" \
  --env "OS_KEYSTONE_CONFIG_FILES=$CONF" >>"$LOG" 2>&1 || fail "uwsgi did not start (see $WORK/uwsgi.log)"

for _ in $(seq 1 120); do
  if "$PY" -c "import urllib.request, sys; urllib.request.urlopen('$URL/v3', timeout=2)" 2>/dev/null; then break; fi
  sleep 0.5
done
"$PY" -c "import urllib.request; urllib.request.urlopen('$URL/v3', timeout=2)" 2>/dev/null \
  || { halt; fail "Keystone did not answer on $URL/v3 (see $WORK/uwsgi.log)"; }

echo "$(date +%T) provisioning users" >>"$LOG"
"$PY" "$HERE/provision.py" "$URL" "$ADMIN_PASSWORD" "$(cat "$WORK/uwsgi.pid")" >"$WORK/keystone.json" 2>>"$LOG" \
  || { halt; fail "provisioning users failed: $(last_error)"; }
echo "$WORK/keystone.json"
