import { createServer } from 'node:http';

/**
 * A bare node:http server, no framework and no work: a GET answers `argv[2]` bytes of JSON, a PUT
 * reads its body and answers 204. It tells its port on stdout. storm/floor.ts measures its CPU.
 */
const size = Number(process.argv[2]);
const answer = Buffer.from(`{"pad":"${'x'.repeat(Math.max(0, size - 10))}"}`);
const server = createServer((request, response) => {
  if (request.method === 'GET') {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
    response.end(answer);
    return;
  }
  request.resume();
  request.on('end', () => {
    response.writeHead(204);
    response.end();
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
