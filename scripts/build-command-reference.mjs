// Writes the manual's command reference (docs/manual/reference/: an index and one page per topic)
// from the command manifest (oclif.manifest.json, built by scripts/build-manifest.mjs), and the
// reference's entries in docs/manual/SUMMARY.md. The pages are committed so that the manual is
// complete in a checkout and on a published site; test/docs/command-reference.test.ts fails when
// they differ from what the manifest gives (run `npm run build:reference` after changing a command).
//
//   node scripts/build-command-reference.mjs           write the pages
//   node scripts/build-command-reference.mjs --check   write nothing; exit 1 naming each stale file
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const REFERENCE = 'docs/manual/reference';
const SUMMARY = 'docs/manual/SUMMARY.md';
const SUMMARY_ENTRY = '* [Command reference](reference/README.md)';
const NO_TOPIC = 'other';

/** Markdown text from a plain string: escapes what markdown would read as markup outside `code` spans (`_` only where it could open or close emphasis). */
function text(s) {
  return String(s)
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 ? part : part.replace(/([\\*[\]<>|])/g, '\\$1').replace(/(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\_')))
    .join('');
}

/** A description: one paragraph per line of the original (a line starting like a list or heading escaped). */
const paragraphs = (s) =>
  String(s)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => text(l).replace(/^([-+#]|\d+\.)(\s)/, '\\$1$2'));

const cell = (s) => text(String(s ?? '').replace(/\s*\n\s*/g, ' '));
const example = (e) => (typeof e === 'string' ? e : e.command).replaceAll('<%= config.bin %>', 'docs').replaceAll('<%= command.id %>', '');

function flagRow(name, f) {
  const names = [`--${name}`, f.char ? `-${f.char}` : null, ...(f.aliases ?? []).map((a) => `--${a}`)].filter(Boolean).join(', ');
  const value = f.type === 'boolean' ? (f.allowNo ? `switch (--no-${name} turns it off)` : 'switch') : f.options ? `one of ${f.options.join(', ')}` : 'a value';
  const notes = [
    f.required ? 'required' : null,
    f.multiple ? 'repeatable' : null,
    f.default !== undefined && typeof f.default !== 'function' ? `default ${JSON.stringify(f.default)}` : null,
    f.env ? `env ${f.env}` : null,
    f.exclusive?.length ? `not with ${f.exclusive.map((x) => `--${x}`).join(', ')}` : null,
    f.dependsOn?.length ? `needs ${f.dependsOn.map((x) => `--${x}`).join(', ')}` : null,
  ].filter(Boolean);
  return `| \`${names}\` | ${cell(value)} | ${cell(f.description)}${notes.length ? ` (${cell(notes.join('; '))})` : ''} |`;
}

function commandSection(c) {
  const words = c.id.split(':').join(' ');
  const args = Object.values(c.args ?? {});
  const usage = [`docs ${words}`, ...args.map((a) => (a.required ? a.name.toUpperCase() : `[${a.name.toUpperCase()}]`))].join(' ');
  const out = [`## docs ${words}`, ''];
  if (c.summary) out.push(text(c.summary), '');
  for (const p of paragraphs(c.description ?? '')) out.push(p, '');
  out.push('```', usage + (Object.keys(c.flags ?? {}).length ? ' [FLAGS]' : ''), '```', '');
  if (args.length) {
    out.push('| argument | required | description |', '|---|---|---|');
    for (const a of args)
      out.push(
        `| \`${a.name.toUpperCase()}\` | ${a.required ? 'yes' : 'no'} | ${cell(a.description)}${a.options ? ` (one of ${cell(a.options.join(', '))})` : ''} |`,
      );
    out.push('');
  }
  const flags = Object.entries(c.flags ?? {}).filter(([, f]) => !f.hidden);
  if (flags.length) {
    out.push('| flag | value | description |', '|---|---|---|');
    for (const [name, f] of flags) out.push(flagRow(name, f));
    out.push('');
  }
  if (c.globalFlags?.length) out.push(`Global flags: ${c.globalFlags.map((g) => `\`--${g}\``).join(', ')} ([global flags](README.md#global-flags)).`, '');
  const examples = (c.examples ?? []).map(example);
  if (examples.length) out.push('Examples:', '', '```sh', ...examples.map((e) => `$ ${e}`), '```', '');
  return out;
}

/** Every page of the reference (relative path under docs/manual/reference -> text) and the SUMMARY entries. */
export function buildReference(manifest, topics) {
  const commands = Object.values(manifest.commands)
    .filter((c) => !c.hidden)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const byTopic = new Map();
  for (const c of commands) {
    const first = c.id.split(':')[0];
    const topic = c.id.includes(':') || topics[first] ? first : NO_TOPIC;
    if (!byTopic.has(topic)) byTopic.set(topic, []);
    byTopic.get(topic).push(c);
  }
  const names = [...byTopic.keys()].filter((t) => t !== NO_TOPIC).sort();
  if (byTopic.has(NO_TOPIC)) names.push(NO_TOPIC);
  const title = (t) => (t === NO_TOPIC ? 'Commands without a topic' : `docs ${t}`);
  const files = {};
  const generated = 'Generated from the command manifest by `npm run build:reference` (scripts/build-command-reference.mjs): edit the commands, not this page.';
  for (const t of names) {
    const cs = byTopic.get(t);
    const lines = [`# ${title(t)}`, ''];
    const description =
      t === NO_TOPIC ? "Commands that stand alone: the server, the store's tools, raw API calls, the MCP server, shell completion." : topics[t]?.description;
    if (description) lines.push(text(description), '');
    const subtopics = Object.entries(topics).filter(([k]) => k.startsWith(`${t}:`));
    for (const [k, v] of subtopics) lines.push(`- \`docs ${k.split(':').join(' ')}\`: ${text(v.description)}`);
    if (subtopics.length) lines.push('');
    lines.push(`*${generated}*`, '');
    for (const c of cs) lines.push(...commandSection(c));
    files[`${t}.md`] = lines.join('\n').replace(/\n+$/, '\n');
  }
  const index = [
    '# Command reference',
    '',
    `Every command of \`docs\` (${commands.length}), by topic, with its arguments, flags and examples: what \`docs <command> --help\` prints.`,
    '',
    `*${generated}*`,
    '',
  ];
  index.push('| topic | commands | what for |', '|---|---|---|');
  for (const t of names) {
    const cs = byTopic.get(t);
    index.push(
      `| [${title(t)}](${t}.md) | ${cs.length} | ${cell(t === NO_TOPIC ? cs.map((c) => `docs ${c.id}`).join(', ') : (topics[t]?.description ?? ''))} |`,
    );
  }
  index.push(
    '',
    '## Global flags',
    '',
    'Every command that talks to a store or a server takes these (and `--json` where it prints an API body).',
    '',
    '| flag | value | description |',
    '|---|---|---|',
  );
  for (const [name, f] of Object.entries(manifest.globalFlags ?? {})) index.push(flagRow(name, f));
  files['README.md'] = index.join('\n') + '\n';
  const summary = names.map((t) => `  * [${title(t)}](reference/${t}.md)`);
  return { files, summary };
}

/** SUMMARY.md with the reference's entries (the indented lines under the reference's entry) replaced. */
export function withSummary(summaryText, entries) {
  const lines = summaryText.replace(/\n+$/, '').split('\n');
  const at = lines.indexOf(SUMMARY_ENTRY);
  if (at === -1) throw new Error(`${SUMMARY}: no line "${SUMMARY_ENTRY}" to put the command reference under`);
  let end = at + 1;
  while (end < lines.length && /^\s+\* \[/.test(lines[end])) end++;
  lines.splice(at + 1, end - at - 1, ...entries);
  return lines.join('\n') + '\n';
}

/** What the files should hold: path relative to the repository -> text. */
export function expectedFiles(dir = root) {
  const manifestFile = join(dir, 'oclif.manifest.json');
  if (!existsSync(manifestFile)) throw new Error('oclif.manifest.json is missing: run `npm run build` first (scripts/build-manifest.mjs writes it)');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  const topics = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).oclif.topics ?? {};
  const { files, summary } = buildReference(manifest, topics);
  const out = {};
  for (const [f, body] of Object.entries(files)) out[`${REFERENCE}/${f}`] = body;
  out[SUMMARY] = withSummary(readFileSync(join(dir, SUMMARY), 'utf8'), summary);
  return out;
}

/** Files that differ from what the manifest gives, and reference pages no command has any more. */
export function staleFiles(dir = root) {
  const want = expectedFiles(dir);
  const stale = Object.entries(want)
    .filter(([f, body]) => !existsSync(join(dir, f)) || readFileSync(join(dir, f), 'utf8') !== body)
    .map(([f]) => f);
  const present = existsSync(join(dir, REFERENCE)) ? readdirSync(join(dir, REFERENCE)).map((f) => `${REFERENCE}/${f}`) : [];
  return [...stale, ...present.filter((f) => !(f in want))];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const stale = staleFiles();
    if (stale.length) {
      console.error(`The command reference is stale (run npm run build:reference):\n${stale.map((f) => `  ${f}`).join('\n')}`);
      process.exit(1);
    }
    console.log('The command reference matches the manifest.');
  } else {
    const want = expectedFiles();
    rmSync(join(root, REFERENCE), { recursive: true, force: true });
    mkdirSync(join(root, REFERENCE), { recursive: true });
    for (const [f, body] of Object.entries(want)) writeFileSync(join(root, f), body);
    console.log(`command reference: ${Object.keys(want).length - 1} pages in ${REFERENCE}`);
  }
}
