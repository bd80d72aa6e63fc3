import { Config } from '@oclif/core/config';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { packageRoot } from '../../src/kernel/root.js';
import { BIN, docs } from '../helpers/cli.js';
import { tempDir, startServer } from '../helpers/server.js';

// Issue 20: DOCS_ORG / --org reaches every command that needs an organization. With two
// organizations, each organization-scoped command (every command with --org in the manifest, and
// `integrations install`) fails without DOCS_ORG ("you belong to 2 organizations": proof that
// the run reaches the organization) and gets past that with DOCS_ORG set.

function run(args: string[], env: Record<string, string | undefined>) {
  return new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, DOCS_DATA: undefined, DOCS_ORG: undefined, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ status: code ?? -1, stdout, stderr }));
  });
}

// ~90 commands twice: run in this process through oclif (as bin/run.js does, from the built
// manifest and bundle), not as ~180 processes; stderr captured, the exit code reset after each.
async function runInProcess(config: Config, id: string, argv: string[], env: Record<string, string | undefined>) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
  let stderr = '';
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((c: any) => ((stderr += String(c)), true));
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await config.runCommand(id, argv);
  } catch (e) {
    stderr += (e as Error).message;
  } finally {
    err.mockRestore();
    out.mockRestore();
    log.mockRestore();
    process.env = saved;
  }
  const status = Number(process.exitCode ?? 0);
  process.exitCode = 0;
  return { status, stderr };
}

const AMBIGUOUS = 'you belong to 2 organizations';

describe('DOCS_ORG with two organizations', () => {
  it('every organization-scoped command honours it', { timeout: 240_000 }, async () => {
    const s = await startServer({ dataDir: tempDir(), token: 'gb_api_two_orgs' });
    const env = { DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_two_orgs' };
    try {
      const second = (await docs(['orgs', 'create', '--title', 'Second Org', '--json'], env)).json.id as string;
      expect(second).toEqual(expect.any(String));
      // Inputs the commands read before they look for the organization.
      const dir = tempDir();
      const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name));
      const md = file('i.md', 'Be brief.\n');
      const json = file('c.json', '{"conversations":[]}');
      const schema = file('s.json', '{"type":"object","properties":{}}');
      const manifest = file('m.json', JSON.stringify({ name: 'org-env-check', title: 'Check', scopes: [] }));
      const spec = file('o.yaml', 'openapi: 3.0.0\ninfo: {title: T, version: "1"}\npaths: {}\n');
      const special: Record<string, string[]> = {
        'agent-instructions:set': [md],
        'conversations:ingest': [json],
        'integrations:publish': ['x', '--manifest', manifest],
        'openapi:put': ['x', '--file', spec],
        'sites:customize': ['x', '--set', 'styling.theme=bold'],
        'sites:schema:set': ['x', schema],
        // A whole site from a folder: --site picks it in the organization.
        'content:push': [dir, '--site', 'x'],
        'content:pull': [dir, '--site', 'x'],
        'imports:start': ['--space', 'x', '--url', 'https://docs.example.com/export.zip'],
        // A font file's first bytes (checked before anything is sent), a family, a hostname's shape.
        'fonts:create': ['--family', 'x', '--face', `400=${file('f.woff2', `wOF2${'x'.repeat(60)}`)}`],
        'fonts:update': ['x', '--family', 'y'],
        'sites:hostname:add': ['x', 'docs.example.com'],
      };
      const manifestJson = JSON.parse(readFileSync(join(packageRoot(), 'oclif.manifest.json'), 'utf8'));
      const commands = Object.values<any>(manifestJson.commands).filter((c) => c.flags.org);
      expect(commands.length).toBeGreaterThan(60);
      const argv = (c: any) => [
        ...(special[c.id] ?? [
          ...Object.keys(c.args).map(() => 'x'),
          ...Object.entries<any>(c.flags)
            .filter(([, f]) => f.required)
            .flatMap(([k, f]) => [`--${k}`, f.options?.[0] ?? 'x']),
        ]),
        ...(c.flags.yes ? ['--yes'] : []),
      ];
      const cases: [string, string[]][] = [...commands.map((c) => [c.id, argv(c)] as [string, string[]]), ['integrations:install', ['org-env-check']]];
      const config = await Config.load(packageRoot());
      const unreached: string[] = [];
      const ignored: string[] = [];
      for (const [id, args] of cases) {
        const without = await runInProcess(config, id, args, { ...env, DOCS_ORG: undefined });
        if (!without.stderr.includes(AMBIGUOUS)) unreached.push(`${id} ${args.join(' ')}: ${without.stderr}`);
        const withEnv = await runInProcess(config, id, args, { ...env, DOCS_ORG: second });
        if (withEnv.stderr.includes(AMBIGUOUS)) ignored.push(`${id} ${args.join(' ')}`);
      }
      expect(unreached).toEqual([]);
      expect(ignored).toEqual([]);
      // And it is that organization: what is created with DOCS_ORG lands in it.
      const space = await run(['spaces', 'create', '--title', 'In the second', '--json'], { ...env, DOCS_ORG: second });
      expect(JSON.parse(space.stdout).organization).toBe(second);
      const listed = await run(['openapi', 'list', '--json'], { ...env, DOCS_ORG: second });
      expect(JSON.parse(listed.stdout).items.map((x: any) => x.slug)).toContain('x');
      // --org wins over DOCS_ORG.
      const first = (await docs(['orgs', 'list', '--json'], env)).json.items.find((o: any) => o.id !== second).id;
      const mine = await run(['spaces', 'list', '--org', first, '--json'], { ...env, DOCS_ORG: second });
      expect(JSON.parse(mine.stdout).items.map((x: any) => x.title)).not.toContain('In the second');
    } finally {
      await s.stop();
    }
  });
});
