"""Provisions the keystone e2e tests' users through Keystone's own v3 API.

provision.py URL ADMIN_PASSWORD UWSGI_PID  ->  JSON on stdout (read by keystone-harness.ts)

As a cloud's installer would: a `service` role and project holding the placement service
user, a `demo` project with a reader and a member, and an `other` project with a member of
its own (the tenant-isolation matrix's project B). bootstrap already made the admin
(admin in project admin, and on the system) and the admin/member/reader roles with
their implications.
"""
import json
import secrets
import sys
import urllib.request

URL, ADMIN_PASSWORD, PID = sys.argv[1], sys.argv[2], int(sys.argv[3])


def call(method, path, token=None, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(URL + path, data=data, method=method)
    request.add_header('Content-Type', 'application/json')
    if token:
        request.add_header('X-Auth-Token', token)
    with urllib.request.urlopen(request, timeout=300) as response:
        text = response.read()
        return response.headers, (json.loads(text) if text else None)


def password_token(user, password, project):
    body = {'auth': {
        'identity': {'methods': ['password'], 'password': {
            'user': {'name': user, 'domain': {'id': 'default'}, 'password': password}}},
        'scope': {'project': {'name': project, 'domain': {'id': 'default'}}}}}
    headers, _ = call('POST', '/v3/auth/tokens', body=body)
    return headers['X-Subject-Token']


admin = password_token('admin', ADMIN_PASSWORD, 'admin')


def create(kind, body):
    _, reply = call('POST', '/v3/%ss' % kind, admin, {kind: body})
    return reply[kind]


roles = {r['name']: r['id'] for r in call('GET', '/v3/roles', admin)[1]['roles']}
roles['service'] = create('role', {'name': 'service'})['id']
projects = {
    'service': create('project', {'name': 'service', 'domain_id': 'default'}),
    'demo': create('project', {'name': 'demo', 'domain_id': 'default'}),
    'other': create('project', {'name': 'other', 'domain_id': 'default'}),
}
admin_project = call('GET', '/v3/projects?name=admin', admin)[1]['projects'][0]
admin_user = call('GET', '/v3/users?name=admin', admin)[1]['users'][0]

users = {'admin': {'name': 'admin', 'password': ADMIN_PASSWORD, 'id': admin_user['id'],
                   'project': 'admin', 'project_id': admin_project['id']}}
for name, project, role in [('placement', 'service', 'service'),
                            ('reader', 'demo', 'reader'),
                            ('member', 'demo', 'member'),
                            ('member_b', 'other', 'member')]:
    password = secrets.token_hex(12)
    user = create('user', {'name': name, 'password': password, 'domain_id': 'default'})
    project_id = projects[project]['id']
    call('PUT', '/v3/projects/%s/users/%s/roles/%s' % (project_id, user['id'], roles[role]), admin)
    users[name] = {'name': name, 'password': password, 'id': user['id'],
                   'project': project, 'project_id': project_id}

json.dump({'url': URL, 'pid': PID, 'users': users}, sys.stdout)
