import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { Pool } from 'pg';

/**
 * A bare node:http server, no framework and nothing but the least a claim needs of PostgreSQL: a
 * GET reads the head of a table (`floor_log`, made by storm/floor.ts) and answers `argv[2]` bytes
 * of JSON; a PUT inserts its body there, committed, and answers 204. Each is one round trip, as
 * few as a fresh answer and a durable claim can take. `argv[3]` is the database, `argv[4]` the
 * pool's size (ours', as floor.ts reads it). It tells its port on stdout.
 */
const size = Number(process.argv[2]);
const pool = new Pool({ connectionString: process.argv[3], max: Number(process.argv[4]) });
const answer = Buffer.from(`{"pad":"${'x'.repeat(Math.max(0, size - 10))}"}`);
const HEAD = { name: 'floor_head', text: 'SELECT max(position) AS head FROM floor_log' };
const INSERT = 'INSERT INTO floor_log (body) VALUES ($1)';

// The floor measures the happy path only: a failed statement ends the run, and floor.ts says so.
const failed = (response: ServerResponse) => (error: Error) => {
  response.writeHead(500);
  response.end(error.message);
};

function answerGet(response: ServerResponse): void {
  pool.query(HEAD).then(() => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
    response.end(answer);
  }, failed(response));
}

function answerPut(request: IncomingMessage, response: ServerResponse): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    pool.query({ name: 'floor_insert', text: INSERT, values: [Buffer.concat(chunks).toString('utf8')] }).then(() => {
      response.writeHead(204);
      response.end();
    }, failed(response));
  });
}

const server = createServer((request, response) => (request.method === 'GET' ? answerGet(response) : answerPut(request, response)));
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
