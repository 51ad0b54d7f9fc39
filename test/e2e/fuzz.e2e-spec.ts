import { Client } from 'pg';
import { randomUUID } from 'node:crypto';
import { runCampaign } from '../support/fuzz/campaign.js';
import { toBytes } from '../support/fuzz/mutations.js';
import { REQUEST_47203 } from '../support/fuzz/regressions.js';
import { rawExchange } from '../support/raw-http.js';
import { createTestDatabase, TestDatabase } from '../support/database.js';
import { startServerProcess, ServerProcess } from '../support/server-process.js';

// A bounded, seeded run in every jest run; `npm run fuzz` sets FUZZ_REQUESTS=100000 (and FUZZ_SEED to replay a run).
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
jest.setTimeout(60_000 + REQUESTS * 100);

describe('fuzzing every route with mutated valid requests (issue 15)', () => {
  let db: TestDatabase;
  let server: ServerProcess;
  let sql: Client;
  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startServerProcess({ DATABASE_URL: db.url, PLACEMENT_AUTH_STRATEGY: 'noauth2', LOG_LEVEL: 'warn' });
    sql = new Client({ connectionString: db.url });
    await sql.connect();
  });
  afterAll(async () => {
    await sql?.end();
    await server?.stop();
    await db?.drop();
  });

  // The 10^5 run's one unanswered request: its chunked body `1` was sent unframed, a chunk size whose
  // line never ended, so the server rightly waited for the rest (a 408 after 30 s, past the fuzz's 10 s).
  it("answers seed 20261124's request 47203 (a chunked DELETE with the body `1`) at once", async () => {
    const started = Date.now();
    const { answers } = await rawExchange(server.url, toBytes(REQUEST_47203(randomUUID())), 10_000);
    expect(answers.map((a) => a.status)).toEqual([404]);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it(`answers ${REQUESTS} mutations (seed ${SEED}) without a 5xx, in upstream's shape, changing nothing when refusing`, async () => {
    const report = await runCampaign(server.url, sql, SEED, REQUESTS, REQUESTS > 1000 ? (line) => process.stdout.write(`${line}\n`) : undefined);
    process.stdout.write(`fuzz: ${JSON.stringify({ ...report, findings: report.findings.length })}\n`);
    expect(report.findings).toEqual([]);
    expect(report.requests).toBe(REQUESTS);
    expect(server.child.exitCode).toBeNull();
  });
});
