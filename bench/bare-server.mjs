// The baseline for the read benchmark: a bare node:http server, in its own process, that answers
// every request with the same bytes and content-type `docs serve` answered GET /v1/orgs/{id} with.
//   node bench/bare-server.mjs <body-file> <content-type>
// Prints `bare: listening on http://127.0.0.1:PORT` once it listens.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [bodyFile, contentType] = process.argv.slice(2);
if (!bodyFile || !contentType) {
  process.stderr.write('usage: node bench/bare-server.mjs <body-file> <content-type>\n');
  process.exit(2);
}
const body = readFileSync(bodyFile);
const headers = { 'content-type': contentType, 'content-length': body.length };

// Same keep-alive timeout as `docs serve`.
const server = createServer({ keepAliveTimeout: 5000 }, (req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`bare: listening on http://127.0.0.1:${server.address().port}\n`);
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
