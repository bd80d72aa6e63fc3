import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDir } from '../server.js';
import { cliConfig, runInProcess, type RunResult } from './in-process.js';
import { FULL, sample, sampleNote } from '../sample.js';
import { SPECS, startPrism, type Mock } from './prism.js';

// Every command's happy path against a server that is not `docs serve`: a Stoplight Prism mock of
// the pinned (0.146.0) or of the latest @gitbook/api spec (test/transport/spec-mock-*.test.ts, one
// file each so that they run side by side). Prism answers spec-valid values (ids "string", count 0
// beside one item, the first alternative of each oneOf), checks each request against the spec (a
// 422 or the spec's 400 when the CLI sends anything outside the contract) and its bearer token. A
// command passes when it exits 0 and prints no "undefined" / "[object Object]" / "NaN". Commands
// run in-process (in-process.ts): a process start per command would be ~150 of them per spec.

/** Commands not run here, and why. */
const SKIPPED: Record<string, string> = {
  serve: 'is the server',
  mcp: 'a stdio server that runs until its input ends',
  backup: 'local data directory only',
  restore: 'local data directory only',
  doctor: 'local data directory only',
  migrate: 'local data directory / PostgreSQL only',
  'tokens:create': 'local data directory only (tokens of the embedded store)',
  'tokens:list': 'local data directory only',
  'tokens:revoke': 'local data directory only',
  // This server's own /_docs routes (src/docs-routes.ts), which another server does not have.
  'users:list': 'docs serve or the local data directory only (/_docs/users)',
  'users:update': 'docs serve or the local data directory only (/_docs/users)',
  'invites:pending': 'docs serve or the local data directory only (/_docs/invitations)',
  'invites:decline': 'docs serve or the local data directory only (/_docs/invitations)',
  'sites:hostname:add': 'docs serve or the local data directory only (/_docs/custom-hostnames: the contract has no operation that sets one)',
  __complete: 'shell completion, no API call',
  autocomplete: 'prints a shell script, no API call',
  help: 'no API call',
  version: 'no API call',
  'sites:preview': 'serves the site locally until stopped',
  'sites:open': 'opens a browser',
};

/** Operations a spec lacks (the CLI takes them from the latest, docs/manual/contract.md): a 405 there. */
const NOT_IN: Record<keyof typeof SPECS, string[]> = {
  pinned: [
    'orgs:create',
    'content:push' /* updateChangeRequestContent */,
    // inviteToSite and the user/team permission operations of a site (its aggregate is in both).
    ...['add', 'list', 'teams', 'update', 'update-team', 'remove', 'remove-team'].map((c) => `sites:permissions:${c}`),
    'sites:redirects:import' /* bulkUpsertSiteRedirects */,
    // listImportRuns and getImportRun are 0.202.0's (docs/manual/imports-and-git.md).
    'imports:list',
    'imports:get',
    // Git Sync installations are 0.202.0's (docs/manual/imports-and-git.md#git-sync-installations).
    ...['install', 'get', 'update', 'uninstall', 'repos', 'branches', 'file', 'projects', 'project-branches', 'project-file', 'list'].map(
      (c) => `git-sync:${c}`,
    ),
    'sites:search-prewarm' /* prewarmSiteSearch */,
    'openapi:raw' /* getLatestOpenAPISpecVersionContentRaw */,
    // 0.202.0's small operations (docs/manual/organizations.md, access.md, content.md).
    'orgs:ai-usage' /* getOrganizationAIUsage */,
    'users:notifications-token' /* createUserNotificationsToken */,
    'pages:meta-links' /* list*PageMetaLinks */,
    // Conversations with the organization agent are 0.202.0's (docs/manual/agents.md).
    'agents:conversations:list',
    'agents:conversations:provision',
    'agents:conversations:rename',
    'agents:conversations:delete',
    // The agent's conversations in a change request are 0.202.0's (docs/manual/agents.md#change-request-conversations).
    'cr:conversations:list',
    'cr:conversations:rename',
    'cr:conversations:delete',
    // A site's agent channels, external links, agent settings and feedback, duplicating a site
    // space and the site template are 0.202.0's (docs/manual/site-agents.md).
    ...['list', 'create', 'get', 'update', 'delete'].map((c) => `sites:channels:${c}`),
    ...['add', 'update', 'delete'].map((c) => `sites:links:${c}`),
    'sites:agent-settings:get',
    'sites:agent-settings:set',
    'sites:feedback:send',
    'sites:feedback:page',
    'sites:template',
    'site-spaces:duplicate',
    // The audit log is 0.202.0's (docs/manual/audit.md).
    'audit',
    'audit:get',
    'audit:actions',
    // The site-questions and styleguide operations are 0.202.0's (docs/manual/ask.md, docs/manual/styleguides.md).
    ...['list', 'get', 'sources', 'stats', 'answers', 'answer', 'thread', 'answer-sources'].map((c) => `questions:${c}`),
    ...['create', 'check', 'runs', 'templates', 'list'].map((c) => `styleguides:${c}`),
    // A site's context connections and records are 0.202.0's (docs/manual/site-context.md#connections-and-records).
    ...['list', 'create', 'get', 'update', 'delete', 'sync', 'test'].map((c) => `sites:context:connections:${c}`),
    ...['list', 'push', 'get'].map((c) => `sites:context:records:${c}`),
    // A site's scans, findings and topics are 0.202.0's (docs/manual/site-findings.md).
    ...['list', 'get', 'update', 'stats', 'change-requests', 'fix', 'pages', 'questions', 'records'].map((c) => `sites:context:findings:${c}`),
    ...['list', 'get'].map((c) => `sites:context:scans:${c}`),
    ...['list', 'get', 'update', 'delete-findings'].map((c) => `sites:context:topics:${c}`),
  ],
  // Contract operations (0.146.0) that the latest spec no longer has: a 404 there.
  latest: [
    'links',
    'pages:links',
    'pages:backlinks',
    'files:backlinks',
    'conversations:clusters',
    'conversations:get',
    'conversations:ingest',
    'conversations:issues',
    'conversations:list',
    'section-groups:add-section',
    'section-groups:remove-section',
    'spaces:transfer',
    'spaces:git:remove-legacy' /* deleteLegacyGitInstallation */,
    // Agent tasks and the agents setup state are 0.146.0's (docs/manual/agents.md).
    'agents:setup',
    'agents:tasks:list',
    'agents:tasks:get',
    'agents:tasks:update',
  ],
};

/** Failing against a mock for the mock's sake, not the CLI's; and why. */
const PULL = 'every page of the mock has the path "string", parent and child alike (no real space has two): they collide on disk';
/** Prism has no server-sent events: it answers a text/event-stream operation 500 ("Cannot serialise complex objects as text"). */
const SSE = 'Prism cannot mock a text/event-stream answer (500: Cannot serialise complex objects as text); test/ask/ covers these streams against both specs';
// docs/manual/site-delivery.md#uploading-a-font-file: the bytes go to the URL generateStorageUploadURL answers, a placeholder of the mock's.
const UPLOAD = "uploads each font file to the URL the mock answers for generateStorageUploadURL, the schema's placeholder (no server behind it)";
const MOCK_LIMITS: Record<keyof typeof SPECS, Record<string, string>> = {
  pinned: {
    'content:pull': PULL,
    ask: SSE,
    'ask:respond': SSE,
    'fonts:create': UPLOAD,
    'fonts:update': UPLOAD,
    // docs/manual/sites.md#redirects: a site path or URL becomes a `path` or `external` destination, kinds 0.146.0 lacks.
    'sites:redirects:add': '0.146.0 has no destination named by a path or a URL (kinds path and external), which --destination sends',
  },
  latest: {
    'content:pull': PULL,
    ask: SSE,
    'ask:respond': SSE,
    'fonts:create': UPLOAD,
    'fonts:update': UPLOAD,
    // Measured: 10 s and no answer, while the same command against the pinned mock answers at once.
    'content:computed:document':
      "Prism does not finish making up 0.202.0's JSONDocument answer of getComputedDocument (no answer in 10 s); test/computed/ checks real answers against both specs",
    // Measured: `{"connector":"builtin:api"}` and `{"connector":"builtin:website","setupSettings":{"url":...}}` each match
    // exactly one branch of ContextConnectorSetup, and the server's own validator (built from the same spec) takes them.
    'sites:context:connections:create':
      "Prism refuses every body of createSiteContextConnection (422: 'must match exactly one schema in oneOf', even for {connector: builtin:api}); test/site-context/ checks real answers against both specs",
    // The same collision: the plan's updates name pages the mock cannot tell apart.
    'content:push': 'every page of the mock has the path "string": the changes push plans for them are refused by the mock\'s own validation',
  },
};

/**
 * Arguments where a command's first example does not fit a non-interactive run against the mock
 * (`--wait` would poll a status the static mock never changes; a file the example names).
 */
const ARGS: Record<string, string[]> = {
  // A map of site paths written by the test (the example names a repository's .gitbook.yaml).
  'sites:redirects:import': ['sites', 'redirects', 'import', 'szK9Qp2mTtR4bLx0aVn1', '--file', 'redirects.json'],
  'auth:login': ['auth', 'login', '--profile', 'mock'],
  'auth:status': ['auth', 'status'],
  // The invite-link form (a contract operation); the one-id form is a pending invitation of /_docs/invitations.
  'invites:accept': ['invites', 'accept', 'r55bjk0VeuQGpJpb7mcG', 'I9nV1t3L1nK5aB7cD2eF'],
  'conversations:ingest': ['conversations', 'ingest', 'conversations.json'],
  'openapi:put': ['openapi', 'put', 'petstore', '--file', './openapi.yaml'],
  // The mock's stored content is a schema's placeholder (no files; its url answers a PDF): two files.
  'openapi:diff': ['openapi', 'diff', './openapi.yaml', './openapi-2.yaml'],
  'translations:run': ['translations', 'run', 'Tr4nsL8tI0nxYz123456'],
  // --dir and --wait: a folder the example names, and a status the mock never changes.
  'imports:start': ['imports', 'start', '--space', 'dHD9ZmkOPnfy9hWCsaQB', '--url', 'https://example.com/docs.tar.gz'],
};

/** Commands of the saved login (made by auth:login): no --api-url / --token, after auth:login. */
const LOCAL_ARGS: Record<string, string[]> = {
  'auth:token': ['auth', 'token', '--profile', 'mock'],
  'auth:logout': ['auth', 'logout', '--profile', 'mock'],
};

/** Splits an example line as a shell would (quotes, no expansion); drops a trailing comment. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(#.*$)|(\S+)/g;
  for (let m; (m = re.exec(line)); ) {
    if (m[3] !== undefined) break;
    words.push(m[1] ?? m[2] ?? m[4]!);
  }
  return words;
}

interface Planned {
  id: string;
  argv: string[];
}

async function plan(which: keyof typeof SPECS, url: string): Promise<Planned[]> {
  // The manifest oclif made from the source's command classes (not oclif.manifest.json, a build output).
  const manifest = ([...(await cliConfig()).plugins.values()][0] as unknown as { manifest: unknown }).manifest as {
    commands: Record<string, { examples?: (string | { command: string })[]; flags: Record<string, unknown> }>;
  };
  const out: Planned[] = [];
  for (const [id, cmd] of Object.entries(manifest.commands)) {
    if (SKIPPED[id] || LOCAL_ARGS[id] || NOT_IN[which].includes(id) || MOCK_LIMITS[which][id]) continue;
    // MOCK_ONLY=id,id: only these commands (while looking into one).
    if (process.env.MOCK_ONLY && !process.env.MOCK_ONLY.split(',').includes(id)) continue;
    let argv = ARGS[id];
    if (!argv) {
      const first = cmd.examples?.[0];
      const line = typeof first === 'string' ? first : first?.command;
      if (!line) throw new Error(`${id}: no example to run (add it to ARGS or SKIPPED)`);
      argv = shellWords(line.replace('<%= config.bin %> ', ''));
      if ('yes' in cmd.flags && !argv.includes('--yes')) argv.push('--yes');
    }
    out.push({ id, argv: [...argv, '--api-url', url, '--token', 'gb_api_mock'] });
  }
  // npm test: a seeded sample of the commands against the mock; npm run test:full: every one. The
  // auth commands (auth login, then LOCAL_ARGS' auth token --profile mock, ...) depend on each
  // other: always all of them.
  const auth = (p: Planned) => p.id.startsWith('auth:');
  const swept = process.env.MOCK_ONLY
    ? out
    : [
        ...out.filter(auth),
        ...sample(
          out.filter((p) => !auth(p)),
          25,
          `spec-mock-${which}`,
        ),
      ];
  for (const [id, argv] of Object.entries(LOCAL_ARGS))
    if (!process.env.MOCK_ONLY?.split(',').length || process.env.MOCK_ONLY.split(',').includes(id)) swept.push({ id, argv });
  return swept;
}

/** Files the examples name, in the working directory the commands run in. */
function workspace(): string {
  const dir = tempDir('docs-mock-cwd-');
  writeFileSync(join(dir, 'instructions.md'), '# How to answer\n\nBe brief.\n');
  writeFileSync(join(dir, 'style.md'), 'Formal register.\n');
  writeFileSync(
    join(dir, 'conversations.json'),
    JSON.stringify([{ id: 'ticket-1', subject: 'Install', parts: [{ type: 'message', role: 'user', body: 'How do I install?' }] }]),
  );
  writeFileSync(join(dir, 'openapi.yaml'), 'openapi: 3.0.3\ninfo: { title: Pets, version: "1" }\npaths: {}\n');
  writeFileSync(join(dir, 'openapi-2.yaml'), 'openapi: 3.0.3\ninfo: { title: Pets, version: "2" }\npaths: {}\n');
  writeFileSync(
    join(dir, 'visitor-schema.json'),
    JSON.stringify({ type: 'object', properties: { plan: { type: 'string', description: 'Plan' } }, additionalProperties: false }),
  );
  writeFileSync(
    join(dir, 'integration.json'),
    JSON.stringify({ name: 'slack', title: 'Slack', description: 'Posts to Slack', visibility: 'private', scopes: [] }),
  );
  writeFileSync(join(dir, 'redirects.json'), JSON.stringify({ '/old': 'https://example.com/new' }));
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'dist', 'index.js'), 'export default {};\n');
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs', 'README.md'), '# Welcome\n\nHello.\n');
  return dir;
}

/** A command that has not finished by then is a failure (a poll that never ends, a prompt). */
const PER_COMMAND_MS = 10_000;

const BAD_OUTPUT = /\bundefined\b|\[object Object\]|\bNaN\b/;

export async function runAll(which: keyof typeof SPECS, mock: Mock): Promise<{ failures: string[]; ran: number }> {
  const failures: string[] = [];
  const cwd = process.cwd();
  process.chdir(workspace());
  try {
    const planned = await plan(which, mock.url);
    for (const { id, argv: full } of planned) {
      const started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const r: RunResult = await Promise.race([
        runInProcess(full),
        new Promise<RunResult>((resolve) => (timer = setTimeout(() => resolve({ status: -1, stdout: '', stderr: '' }), PER_COMMAND_MS))),
      ]).finally(() => clearTimeout(timer));
      // MOCK_LOG=FILE: every command, its time, exit code and output (to see what a mock answers).

      if (process.env.MOCK_LOG)
        appendFileSync(process.env.MOCK_LOG, `${Date.now() - started}ms ${r.status} ${full.join(' ')}\n${r.stdout.slice(0, 400)}\n${r.stderr.slice(0, 400)}\n`);
      const bad = BAD_OUTPUT.exec(r.stdout + r.stderr);
      if (r.status === -1) {
        // Still running in this process: what follows would share its load, so stop here.
        failures.push(`${id}: still running after ${PER_COMMAND_MS} ms (the commands after it were not run)`);
        break;
      }
      if (r.status !== 0 || bad)
        failures.push(
          `${id} (docs ${full.join(' ').replace(` --api-url ${mock.url} --token gb_api_mock`, '')}): exit ${r.status}${bad ? `, prints "${bad[0]}"` : ''}\n  ${(r.stderr.trim() || r.stdout.trim()).split('\n').slice(0, 4).join('\n  ')}`,
        );
    }
    return { failures, ran: planned.length };
  } finally {
    process.chdir(cwd);
  }
}

/** The suite of one spec: a mock, then every planned command in turn. */
export function everyCommandAgainst(which: keyof typeof SPECS): void {
  let mock: Mock;
  const saved = { ...process.env };
  beforeAll(async () => {
    mock = await startPrism(SPECS[which]);
    // The organization as a CI job sets it; profiles (auth login) in a directory of their own.
    process.env.DOCS_ORG = 'r55bjk0VeuQGpJpb7mcG';
    process.env.DOCS_CONFIG_DIR = tempDir('docs-mock-config-');
    for (const k of ['DOCS_API_URL', 'DOCS_TOKEN', 'DOCS_DATA', 'DOCS_STORE']) delete process.env[k];
  }, 120_000);
  afterAll(async () => {
    process.env = saved;
    await mock?.stop();
  });

  it(`every command exits 0 against a Prism mock of the ${which} spec, printing no "undefined"`, async () => {
    const { failures, ran } = await runAll(which, mock);
    if (!process.env.MOCK_ONLY && FULL) expect(ran).toBeGreaterThan(130);
    expect(failures, sampleNote(`spec mock (${which})`)).toEqual([]);
  }, 150_000);
}
