import { createLogger, NestPinoLogger } from './logger.js';

/** The logger's JSON lines, written synchronously into an array. */
function capture() {
  const lines: Record<string, any>[] = [];
  const logger = createLogger('info', { write: (line: string) => { lines.push(JSON.parse(line)); } });
  return { logger, lines };
}

const URL = 'postgres://placement:s3cr/t@pa55@db.example:5432/placement';

describe('log lines never carry a password in a URL', () => {
  it('redacts URLs in messages, formatted or not', () => {
    const { logger, lines } = capture();
    logger.warn(`cannot reach ${URL}`);
    logger.info({ pid: 1 }, 'connecting to %s', URL);
    expect(lines.map((line) => line.msg)).toEqual([
      'cannot reach postgres://placement:***@db.example:5432/placement',
      'connecting to postgres://placement:***@db.example:5432/placement',
    ]);
  });

  it('redacts an error\'s message and stack, and a stack Nest passes beside its message', () => {
    const { logger, lines } = capture();
    logger.fatal({ err: new Error(`failed: ${URL}`) }, 'failed to start');
    new NestPinoLogger(logger).error('request failed', `Error: at ${URL}\n    at somewhere`, 'ExceptionsHandler');
    expect(lines[0].err.message).toBe('failed: postgres://placement:***@db.example:5432/placement');
    expect(lines[0].err.stack).toMatch(/^Error: failed: postgres:\/\/placement:\*\*\*@db\.example:5432\/placement\n/);
    expect(lines[1].stack).toBe('Error: at postgres://placement:***@db.example:5432/placement\n    at somewhere');
    expect(JSON.stringify(lines)).not.toMatch(/s3cr|pa55/);
  });

  it('leaves everything else as it was', () => {
    const { logger, lines } = capture();
    logger.info({ url: '/resource_providers?name=a', status: 200 }, 'request completed');
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'request completed', url: '/resource_providers?name=a', status: 200 });
  });
});
