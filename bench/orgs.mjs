// Organizations of any size (issue 28 item 3): an organization of 1,000, 10,000 and 50,000 spaces.
//   - `spaces list --json` (in-process CLI, first page of 100) at each size against the same at
//     100 spaces: ratio of medians, alternating (lib.mjs compareCommands);
//   - the rate of creating spaces (createSpace through invoke, one commit each, in a process of
//     its own) at 10,000 spaces against 1,000: ratio of the median rates of alternating rounds.
// Seeding: a child process opens the store and calls the spaces service's createSpace 1,000 times
// per write transaction (src/spaces/service.ts, so rows, directories and the organization's
// summary are written as any create writes them, with a group commit per thousand).
//   node bench/orgs.mjs [--quick]     alone;   node bench/run.mjs --orgs     from the bench
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BIN, ROOT, childEnv, compareCommands, median, removeDir, tempDir, timeNode } from './lib.mjs';

const SELF = fileURLToPath(import.meta.url);

async function openOwner(dir) {
  const { openContext } = await import('../dist/src/open.js');
  const { ownerOf } = await import('../dist/src/auth/bootstrap.js');
  const { invoke } = await import('../dist/src/invoke.js');
  const ctx = await openContext(dir);
  const caller = { userId: await ownerOf(ctx) };
  const r = await invoke(ctx, 'listOrganizationsForAuthenticatedUser', {}, caller);
  return { ctx, caller, invoke, org: r.body.items[0].id };
}

/** Child: `n` more spaces in the owner's organization, 1,000 per write. */
async function seed(dir, n) {
  const { ctx, caller, org } = await openOwner(dir);
  const { createSpace } = await import('../dist/src/spaces/service.js');
  for (let done = 0; done < n; ) {
    const k = Math.min(1000, n - done);
    await ctx.store.write((tx) => {
      for (let i = 0; i < k; i++) createSpace(tx, ctx, caller, org, { title: `Org space ${done + i}` });
    });
    done += k;
  }
  await ctx.store.close();
}

/** Child: `k` spaces created one by one through invoke; prints the rate (per second of wall and of CPU). */
async function create(dir, k) {
  const { ctx, caller, invoke, org } = await openOwner(dir);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (let i = 0; i < k; i++) {
    const r = await invoke(ctx, 'createSpace', { path: { organizationId: org }, body: { title: `Created ${i}` } }, caller);
    if (r.status !== 201) throw new Error(`createSpace: ${r.status}`);
  }
  const c = process.cpuUsage(c0);
  const wall = (performance.now() - t0) / 1000;
  await ctx.store.close();
  process.stdout.write(JSON.stringify({ wallRate: k / wall, cpuRate: k / ((c.user + c.system) / 1e6) }));
}

const child = (env, ...args) => {
  const r = spawnSync(process.execPath, ['--max-old-space-size=4096', SELF, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`bench/orgs.mjs ${args[0]} failed (${r.status})`);
  return r.stdout.toString('utf8');
};

export async function orgsRows({ env = childEnv(tempDir('orgs-config')), log = console.log, quick = false } = {}) {
  const rows = [];
  const runs = quick ? 3 : 7;
  const sizes = quick ? [100, 1000, 10_000] : [100, 1000, 10_000, 50_000];
  const dirs = {};
  try {
    for (const n of sizes) {
      const dir = (dirs[n] = tempDir(`orgs-${n}`));
      timeNode([BIN, 'spaces', 'list', '--json', '--data', dir], env); // bootstraps the owner and organization
      const t = performance.now();
      child(env, '--seed', dir, String(n));
      log(`  seeded ${n} spaces in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
    const list = (n) => [BIN, 'spaces', 'list', '--json', '--limit', '100', '--data', dirs[n]];
    const page = (out) => {
      if (JSON.parse(out).items.length !== 100) throw new Error('spaces list: not a page of 100');
    };
    for (const n of sizes.slice(1)) {
      const r = compareCommands(list(n), list(100), env, { runs, checkA: page, checkB: page });
      const target = n === 10_000 ? 1.5 : undefined;
      rows.push({
        figure: `spaces list at ${n.toLocaleString('en')} spaces vs at 100`,
        value: r.ratio,
        shown: `${r.ratio.toFixed(2)}x`,
        target: target ? `<= ${target}x` : 'reported',
        pass: target ? r.ratio <= target : true,
        context: `in-process CLI, first page of 100, median of ${runs} alternating runs`,
      });
      log(`  ${rows.at(-1).figure}: ${rows.at(-1).shown}`);
    }
    const rates = { 1000: [], 10000: [] };
    const k = quick ? 50 : 200;
    for (let round = 0; round < (quick ? 3 : 5); round++) {
      for (const n of round % 2 ? [10_000, 1000] : [1000, 10_000]) rates[n].push(JSON.parse(child(env, '--create', dirs[n], String(k))));
    }
    for (const unit of ['wallRate', 'cpuRate']) {
      const at1k = median(rates[1000].map((x) => x[unit]));
      const at10k = median(rates[10_000].map((x) => x[unit]));
      rows.push({
        figure: `space creation rate at 10,000 spaces vs 1,000 (${unit === 'wallRate' ? 'wall' : 'CPU'})`,
        value: at10k / at1k,
        shown: `${(at10k / at1k).toFixed(2)}x (${at10k.toFixed(0)}/s vs ${at1k.toFixed(0)}/s)`,
        target: '>= 0.8x',
        pass: at10k / at1k >= 0.8,
        context: `${k} createSpace calls one after another, in-process, median of ${rates[1000].length} alternating rounds`,
      });
      log(`  ${rows.at(-1).figure}: ${rows.at(-1).shown}`);
    }
  } finally {
    for (const dir of Object.values(dirs)) removeDir(dir);
  }
  return rows;
}

if (process.argv[1] === SELF) {
  const [mode, dir, n] = process.argv.slice(2);
  if (mode === '--seed') await seed(dir, Number(n));
  else if (mode === '--create') await create(dir, Number(n));
  else {
    const rows = await orgsRows({ quick: process.argv.includes('--quick') });
    for (const r of rows) console.log(`${r.pass ? 'ok  ' : 'MISS'} ${r.figure}: ${r.shown} (target ${r.target}; ${r.context})`);
    process.exitCode = rows.every((r) => r.pass) ? 0 : 1;
  }
}
