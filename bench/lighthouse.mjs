// Lighthouse (the `lighthouse` npm package) driving Debian's Chromium (/usr/bin/chromium, headless),
// mobile preset (Lighthouse's default: a Moto G Power-class phone, slow 4G, CPU slowed 4x), the
// four categories. Used by bench/published.mjs and test/published/lighthouse.test.ts.
// docs/manual/published-sites.md#lighthouse
//
// The mobile preset's CPU slowdown (4x) assumes a host Lighthouse rates at a benchmark index of
// 1000 or more (below that it warns that the host "appears to have a slower CPU than Lighthouse
// expects"). On a slower or busier host the same page scores lower for the host's sake, so when a
// run reports a lower index the slowdown is scaled by index / 1000 (never below 1x: no speed-up)
// and the page is measured again: the phone being simulated stays the same. Both are reported.
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const REFERENCE_INDEX = 1000;

/** Whether Lighthouse can run here (Debian's Chromium installed). */
export async function lighthouseAvailable() {
  const { existsSync } = await import('node:fs');
  return existsSync(CHROMIUM);
}

async function once(port, url, cpuSlowdownMultiplier) {
  const flags = { port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES };
  const config = cpuSlowdownMultiplier ? { extends: 'lighthouse:default', settings: { throttling: { cpuSlowdownMultiplier } } } : undefined;
  const r = await lighthouse(url, flags, config);
  const lhr = r.lhr;
  if (lhr.runtimeError) throw new Error(`lighthouse ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]));
  // What cost points, for the report of a miss.
  const lost = [];
  for (const c of CATEGORIES)
    for (const ref of lhr.categories[c].auditRefs) {
      const a = lhr.audits[ref.id];
      if (ref.weight > 0 && a.score !== null && a.score < 1) lost.push(`${c}/${ref.id} ${a.score}${a.displayValue ? ` (${a.displayValue})` : ''}`);
    }
  return {
    scores,
    lost,
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    multiplier: lhr.configSettings.throttling.cpuSlowdownMultiplier,
    rtt: lhr.configSettings.throttling.rttMs,
  };
}

/**
 * The four scores (0..100) of each URL, in one Chromium. Returns, per URL, { scores, lost,
 * benchmarkIndex, multiplier, uncalibrated? } (uncalibrated: the preset's own scores when the host was slow).
 */
export async function lighthouseScores(urls) {
  // Chromium's own temp files in a directory of ours, removed afterwards. Its profile in
  // chrome-launcher's own temp directory, which kill() removes: given a profile directory,
  // chrome-launcher never closes the chrome-err.log it opens there (the test layer's check of
  // open files caught one per run).
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const tmp = mkdtempSync(join(tmpdir(), 'docs-lighthouse-'));
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    envVars: { ...process.env, TMPDIR: tmp },
  });
  try {
    const out = [];
    for (const url of urls) {
      const first = await once(chrome.port, url);
      if (first.benchmarkIndex >= REFERENCE_INDEX) {
        out.push(first);
        continue;
      }
      const multiplier = Math.max(1, Math.round(4 * (first.benchmarkIndex / REFERENCE_INDEX) * 100) / 100);
      const calibrated = await once(chrome.port, url, multiplier);
      out.push({ ...calibrated, uncalibrated: first.scores, firstIndex: first.benchmarkIndex });
    }
    return out;
  } finally {
    await chrome.kill();
    rmSync(tmp, { recursive: true, force: true });
  }
}
