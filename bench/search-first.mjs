// Issue 28 item 6: the first organization-wide search of fresh `docs serve` processes of builds,
// alternating (server CPU from /proc: steadier than wall times on a loaded machine).
//
//   node bench/search-first.mjs DATA ORG ROUNDS BIN... [--fresh] [--word W]
//     e.g. node bench/search-first.mjs /tmp/docs-bench-scale-2000x100/data <org> 5 bin/run.cjs /work/main/bin/run.cjs
//
// DATA: a data directory of the `--scale` seed (its token bench-token), ORG its organization.
// With --fresh, DATA is copied afresh before every start (as search-scale.mjs does once). The
// first search is of W, by default search-scale.mjs's first query ('tadi', 30,025 sections at
// 200,000 pages: its text generator has made the empty store's pages by then). Each
// start prints: spawn to ready (and the server's CPU then), ready to the first search's answer,
// the server's CPU in between (and its main thread's), a second search; then the medians.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Agent, fetch } from 'undici';
import { childEnv, cpuSeconds, startChild, stopChild, tempDir } from './lib.mjs';

const argv = process.argv.slice(2);
const at = argv.indexOf('--word');
const word = at >= 0 ? argv.splice(at, 2)[1] : 'tadi';
const args = argv.filter((a) => a !== '--fresh');
const fresh = argv.includes('--fresh');
const [data, org, rounds, ...bins] = args;
const words = [word, 'fenru', 'tael', 'umze', 'bolami', 'peumlo'];
const http = new Agent({ connections: 2 });
const env = childEnv(tempDir('search-first-config'));
const threadCpuMs = (pid) => {
  try {
    const st = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return Number.NaN;
  }
};
const search = async (url, q) =>
  (await fetch(`${url}/v1/orgs/${org}/search?query=${q}`, { headers: { authorization: 'Bearer bench-token' }, dispatcher: http })).text();
const res = Object.fromEntries(bins.map((b) => [b, []]));
for (let r = 0; r < Number(rounds); r++) {
  for (const bin of bins) {
    let dir = data;
    if (fresh) {
      dir = tempDir('search-first');
      cpSync(data, dir, { recursive: true });
    }
    const t0 = performance.now();
    const s = await startChild('docs serve', [bin, 'serve', '--port', '0', '--quiet', '--data', dir], {
      env,
      ready: /API at (http:\/\/127\.0\.0\.1:\d+)\/v1/,
      timeoutMs: 600_000,
    });
    const ready = performance.now();
    const c0 = cpuSeconds(s.child.pid) * 1000;
    const m0 = threadCpuMs(s.child.pid);
    await search(s.url, words[0]);
    const first = performance.now() - ready;
    const cpu = cpuSeconds(s.child.pid) * 1000 - c0;
    const mainCpu = threadCpuMs(s.child.pid) - m0;
    const t2 = performance.now();
    await search(s.url, words[1 + (r % (words.length - 1))]);
    const second = performance.now() - t2;
    await stopChild(s.child);
    if (fresh) rmSync(dir, { recursive: true, force: true });
    const x = { ready: ready - t0, readyCpu: c0, first, cpu, mainCpu, second, load: loadavg()[0] };
    res[bin].push(x);
    process.stdout.write(
      `${bin}: ready ${x.ready.toFixed(0)} ms (CPU ${c0.toFixed(0)}), first search ${first.toFixed(0)} ms, CPU ${cpu.toFixed(0)} ms (main thread ${mainCpu.toFixed(0)}), second ${second.toFixed(0)} ms, load ${x.load.toFixed(1)}\n`,
    );
  }
}
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const b of bins) {
  const m = (k) => med(res[b].map((x) => x[k])).toFixed(0);
  process.stdout.write(
    `${b}: medians: first ${m('first')} ms, CPU ready to answer ${m('cpu')} ms (main thread ${m('mainCpu')}), ready ${m('ready')} ms (CPU ${m('readyCpu')})\n`,
  );
}
process.exit(0);
