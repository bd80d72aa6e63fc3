// The baseline for the read benchmark: a bare node:http server, in its own process, that answers
// each given path with the bytes and content-type `docs serve` answered that path with (one
// Map lookup per request: about what any server does to route).
//   node bench/bare-server.mjs <content-type> <path> <body-file> [<path> <body-file> ...]
// Prints `bare: listening on http://127.0.0.1:PORT` once it listens. BARE_HEADERS (JSON) adds
// headers to every answer (bench/published.mjs: the content-encoding of bytes it gives compressed).
import { readFileSync } from 'node:fs';
import { Agent, createServer, get } from 'node:http';

const [contentType, ...pairs] = process.argv.slice(2);
if (!contentType || pairs.length < 2 || pairs.length % 2) {
  process.stderr.write('usage: node bench/bare-server.mjs <content-type> <path> <body-file> [<path> <body-file> ...]\n');
  process.exit(2);
}
const extra = process.env.BARE_HEADERS ? JSON.parse(process.env.BARE_HEADERS) : {};
const answers = new Map();
for (let i = 0; i < pairs.length; i += 2) {
  const body = readFileSync(pairs[i + 1]);
  answers.set(pairs[i], { body, headers: { 'content-type': contentType, ...extra, 'content-length': body.length } });
}

// Same keep-alive timeout as `docs serve`.
const server = createServer({ keepAliveTimeout: 5000 }, (req, res) => {
  const a = answers.get(req.url);
  if (!a) {
    res.writeHead(404, { 'content-length': 0 });
    return res.end();
  }
  res.writeHead(200, a.headers);
  res.end(a.body);
});
// BARE_WARM_UP=1: two requests of its own on one kept-alive connection before it says it listens,
// then the wait for its trailing work, as `docs serve` does before ready (server/warm-up.ts,
// server/settle.ts; bench/journeys.mjs: the floor of a first request after such a warm-up).
server.listen(0, '127.0.0.1', async () => {
  const url = `http://127.0.0.1:${server.address().port}`;
  if (process.env.BARE_WARM_UP === '1') {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 2; i++) await new Promise((r) => get(`${url}${answers.keys().next().value}`, { agent }, (res) => res.resume().on('end', r)));
    agent.destroy();
    // server/settle.ts: until a 1 ms turn of the loop spent <= 0.1 ms running callbacks, 25 ms at most.
    const t0 = performance.now();
    let before = performance.eventLoopUtilization();
    for (;;) {
      await new Promise((r) => setTimeout(r, 1));
      const now = performance.eventLoopUtilization();
      const busy = performance.eventLoopUtilization(now, before).active;
      before = now;
      if (busy <= 0.1 || performance.now() - t0 >= 25) break;
    }
  }
  process.stdout.write(`bare: listening on ${url}\n`);
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
