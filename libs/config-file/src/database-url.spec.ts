import { toPostgresUrl } from './database-url.js';

describe('toPostgresUrl', () => {
  it('drops the driver and the query parameters node-postgres does not take', () => {
    expect(toPostgresUrl('postgresql+psycopg2://u:p@h:5433/db?sslmode=verify-full&charset=utf8&application_name=placement&plugin=x'))
      .toEqual({ ok: true, url: 'postgresql://u:p@h:5433/db?sslmode=verify-full&application_name=placement', dropped: ['charset', 'plugin'] });
    expect(toPostgresUrl('postgres://u@/db?host=/var/run/postgresql')).toEqual({ ok: true, url: 'postgresql://u@/db?host=/var/run/postgresql', dropped: [] });
  });

  it('refuses what is not a PostgreSQL URL', () => {
    expect(toPostgresUrl('mysql+pymysql://u:p@h/db')).toMatchObject({ ok: false });
    expect(toPostgresUrl('MariaDB://u@h/db')).toMatchObject({ ok: false, reason: expect.stringContaining('placement-admin import --from') });
    expect(toPostgresUrl('oracle://h/db')).toMatchObject({ ok: false, reason: expect.stringContaining('not supported') });
    expect(toPostgresUrl('just a string')).toMatchObject({ ok: false, reason: expect.stringContaining('is not a database URL') });
  });

  it('hides a password in messages, one holding / and @ too', () => {
    const refused = toPostgresUrl('mysql+pymysql://placement:top/se@cret@10.0.0.1/placement');
    expect(refused).toMatchObject({ ok: false, reason: expect.stringContaining('import --from mysql+pymysql://placement:***@10.0.0.1/placement`') });
    expect(JSON.stringify(refused)).not.toMatch(/top|cret/);
  });
});
