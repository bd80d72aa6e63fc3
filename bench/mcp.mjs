// `docs mcp` start to its first tools/list answer, against `node -e 0`: what an agent waits for
// before it can call anything. The tool list is built at build time (generated/mcp/tools.json),
// so the answer needs neither a handler nor a compiled schema nor the store.
//
//   node bench/mcp.mjs [--quick]      (exits 1 when the target is missed)
import { spawn } from 'node:child_process';
import { BIN, againstNode, childEnv, removeDir, tempDir } from './lib.mjs';

const QUICK = process.argv.includes('--quick');
const RUNS = QUICK ? 6 : 20;
const TARGET = 4;

const LINES =
  [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ]
    .map((m) => JSON.stringify(m))
    .join('\n') + '\n';

/** ms from spawning `docs mcp` to the complete tools/list answer; checks it lists tools. */
function firstToolsList(env, dataDir) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [BIN, 'mcp', '--data', dataDir], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{') && l.includes('"id":2'));
      if (!line) return;
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      const tools = JSON.parse(line).result?.tools;
      child.kill();
      if (!tools?.length) reject(new Error(`tools/list answered no tools: ${line.slice(0, 300)}`));
      else resolve({ ms, tools: tools.length });
    });
    child.on('exit', (code) => reject(new Error(`docs mcp exited ${code} before answering: ${err}`)));
    child.stdin.write(LINES); // stdin stays open: a client keeps the session
  });
}

const env = childEnv(tempDir('mcp-config'));
const dir = tempDir('mcp');
let tools = 0;
const r = await againstNode(env, RUNS, async () => {
  const one = await firstToolsList(env, dir);
  tools = one.tools;
  return one.ms;
});
removeDir(dir);
const ratio = r.ratio;
const pass = ratio <= TARGET;
process.stdout.write(
  `  docs mcp start -> first tools/list (${tools} tools) / node -e 0: ${ratio.toFixed(2)}x  (target <= ${TARGET}: ${pass ? 'pass' : 'FAIL'})  [median ${r.cmdMs.toFixed(1)} ms vs ${r.baseMs.toFixed(1)} ms, ${RUNS} runs each]\n`,
);
process.exit(pass ? 0 : 1); // lib.mjs's exit hook kills any child left
