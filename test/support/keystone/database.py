"""database.py create|drop ADMIN_URL NAME: the test Keystone's own PostgreSQL database."""
import sys

import psycopg2

action, admin_url, name = sys.argv[1:4]
if not name.replace('_', '').isalnum():
    sys.exit('unsafe database name %r' % name)
try:
    connection = psycopg2.connect(admin_url)
    connection.autocommit = True
    with connection.cursor() as cursor:
        if action == 'create':
            cursor.execute('CREATE DATABASE %s' % name)
        else:
            cursor.execute('DROP DATABASE IF EXISTS %s WITH (FORCE)' % name)
    connection.close()
except psycopg2.Error as error:
    # One line: start-keystone.sh quotes the last line of its log as the reason.
    sys.exit(' '.join(str(error).split()))
