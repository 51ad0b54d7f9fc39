import { parseSourceUrl, SourceUrlError } from './source-url.js';

describe('parseSourceUrl', () => {
  it("reads SQLAlchemy's MySQL form as kolla-ansible writes it", () => {
    expect(parseSourceUrl('mysql+pymysql://placement:s%40cret@db.example:3306/placement?charset=utf8')).toEqual({
      dialect: 'mysql', host: 'db.example', port: 3306, user: 'placement', password: 's@cret', database: 'placement',
      socket: undefined, redacted: 'mysql+pymysql://placement:***@db.example:3306/placement?charset=utf8',
    });
  });

  it('reads the PostgreSQL forms, with and without a driver', () => {
    for (const url of ['postgresql+psycopg2://p:x@h/placement', 'postgresql://p:x@h/placement', 'postgres://p:x@h/placement']) {
      expect(parseSourceUrl(url)).toMatchObject({ dialect: 'postgresql', host: 'h', user: 'p', password: 'x', database: 'placement' });
    }
  });

  it('reads a unix socket', () => {
    expect(parseSourceUrl('mysql+pymysql://root@/placement?unix_socket=/run/mysqld/mysqld.sock'))
      .toMatchObject({ host: 'localhost', socket: '/run/mysqld/mysqld.sock', user: 'root', password: undefined });
  });

  it('refuses other databases and URLs without a database, naming no password', () => {
    expect(() => parseSourceUrl('sqlite:///placement.db')).toThrow(SourceUrlError);
    expect(() => parseSourceUrl('mysql://u:secret@h/')).toThrow('the database URL names no database: mysql://u:***@h/');
    expect(() => parseSourceUrl('mysql://u:se/cr@et@h/')).toThrow('malformed database URL: mysql://u:***@h/');
  });
});
