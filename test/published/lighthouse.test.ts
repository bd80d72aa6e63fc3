import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processingIdle } from '../../src/openapi/processor.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, page, spaceWith } from './fixture.js';

// Lighthouse (the `lighthouse` npm package, mobile preset) driving Debian's Chromium on a
// handbook-like content page and an API operation page: at least 95 in performance,
// accessibility, best practices and SEO on both (bench/lighthouse.mjs runs it; the CPU
// slowdown is scaled for a host slower than Lighthouse's reference, as it says there).
// Its own layer (`npm run test:lighthouse`, run alone by .ci/run after the others: it times the
// page, so it must not share the machine with other tests); skipped, saying why, without Chromium.
// docs/manual/published-sites.md#lighthouse

const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].find((p) => p && existsSync(p));
if (!CHROMIUM) console.warn('lighthouse test skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)');

// The bench's own modules (plain JavaScript), loaded by path so the type checker leaves them be.
const load = (file: string): Promise<any> => import(/* @vite-ignore */ new URL(`../../bench/${file}`, import.meta.url).href);

let s: TestServer;
let urls: { content: string; operation: string };

beforeAll(async () => {
  if (!CHROMIUM) return;
  const { contentMarkdown, tinySpec } = await load('published-content.mjs');
  s = await startServer();
  const call = api(s);
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  await call('PUT', `/v1/orgs/${org}/openapi/pets`, { source: { text: JSON.stringify(tinySpec) } });
  await processingIdle(s.ctx);
  const a = await spaceWith(s, org, 'Acme Guides', [
    page('a', 'Getting started', contentMarkdown, { description: 'Install the Acme CLI, configure it and run it in CI.' }),
    page('r', 'Reference', '{% openapi-reference spec="pets" %}'),
  ]);
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Acme Docs', spaces: [a.space.id] });
  const published = (await call('POST', `/v1/orgs/${org}/sites/${site.id}/publish`)).urls.published;
  urls = { content: `${published}/getting-started`, operation: `${published}/reference/pets/getpet` };
  for (const u of Object.values(urls)) expect((await fetch(u)).status).toBe(200);
}, 60_000);
afterAll(() => s?.stop());

describe.skipIf(!CHROMIUM)('lighthouse, mobile preset', () => {
  it('scores at least 95 in each category on a content page and an API operation page', { timeout: 600_000 }, async () => {
    const { lighthouseScores, CATEGORIES } = await load('lighthouse.mjs');
    // Performance is timed on a shared host, and one run varies by several points (Lighthouse's
    // own guidance is to run it several times): a page that misses is measured again, three runs
    // at most, and fails when none of its runs reaches 95 in every category. Accessibility, best
    // practices and SEO do not vary between runs.
    for (const [what, url] of [
      ['content page', urls.content],
      ['API operation page', urls.operation],
    ] as const) {
      let r: any;
      for (let run = 1; run <= 3; run++) {
        [r] = await lighthouseScores([url]);
        console.log(`lighthouse ${what}, run ${run}: ${JSON.stringify(r.scores)} (benchmark index ${r.firstIndex ?? r.benchmarkIndex}, CPU ${r.multiplier}x)`);
        if ((CATEGORIES as string[]).every((c) => r.scores[c] >= 95)) break;
      }
      for (const c of CATEGORIES as string[]) expect(r.scores[c], `${what} ${c}: lost ${r.lost.join(', ')}`).toBeGreaterThanOrEqual(95);
    }
  });
});
