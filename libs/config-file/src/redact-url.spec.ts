import { redactUrl, redactUrlsIn } from './redact-url.js';

describe('redactUrl', () => {
  it('hides the password of scheme://user:password@host, keeping the rest', () => {
    expect(redactUrl('postgres://placement:secret@db.example:5432/placement')).toBe('postgres://placement:***@db.example:5432/placement');
    expect(redactUrl('mysql+pymysql://placement:top-secret@10.0.0.1/placement?charset=utf8'))
      .toBe('mysql+pymysql://placement:***@10.0.0.1/placement?charset=utf8');
    expect(redactUrl('kurrentdb://admin:changeit@db:2113?tls=true')).toBe('kurrentdb://admin:***@db:2113?tls=true');
    expect(redactUrl('http://svc:pw@keystone:5000/v3')).toBe('http://svc:***@keystone:5000/v3');
    expect(redactUrl('postgres://:only-a-password@db/placement')).toBe('postgres://:***@db/placement');
  });

  it('hides a password holding / @ : # ? unencoded: the user information runs to the last @', () => {
    expect(redactUrl('postgres://u:p/w@d@127.0.0.1:5432/db')).toBe('postgres://u:***@127.0.0.1:5432/db');
    expect(redactUrl('postgres://u:a:b#c?d@db/placement')).toBe('postgres://u:***@db/placement');
    expect(redactUrl('postgres://u:@@@@db/placement')).toBe('postgres://u:***@db/placement');
    expect(redactUrl('postgres://u:x//y@db')).toBe('postgres://u:***@db');
  });

  it('hides secret query parameters', () => {
    expect(redactUrl('postgres://db/placement?user=u&password=s3cret&sslmode=require')).toBe('postgres://db/placement?user=u&password=***&sslmode=require');
    expect(redactUrl('postgres://db/placement?PASSWORD=a%2Fb')).toBe('postgres://db/placement?PASSWORD=***');
    expect(redactUrl('postgres://u:pw@db/p?pass=1&secret=2&sslpassword=3')).toBe('postgres://u:***@db/p?pass=***&secret=***&sslpassword=***');
    expect(redactUrl('postgres://db/p?passes=3&password_file=x')).toBe('postgres://db/p?passes=3&password_file=x');
  });

  it('leaves a URL without a secret as it is', () => {
    for (const url of ['postgres://placement@db/placement', 'kurrentdb://db:2113?tls=false', 'http://keystone:5000/v3',
      'mysql+pymysql://root@/placement?unix_socket=/run/mysqld/mysqld.sock', 'not a url', '']) {
      expect(redactUrl(url)).toBe(url);
    }
  });
});

describe('redactUrlsIn', () => {
  it('redacts every URL in a message and nothing else', () => {
    expect(redactUrlsIn('cannot reach postgres://u:p/w@d@db:5432/x: ECONNREFUSED; then kurrentdb://a:b@k:2113?tls=false'))
      .toBe('cannot reach postgres://u:***@db:5432/x: ECONNREFUSED; then kurrentdb://a:***@k:2113?tls=false');
    expect(redactUrlsIn('connect ECONNREFUSED 127.0.0.1:5432')).toBe('connect ECONNREFUSED 127.0.0.1:5432');
  });
});
