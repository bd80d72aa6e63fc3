import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '@oclif/core/config';
import { loadParser } from '../../src/content/link-refs.js';
import { DocsError } from '../../src/kernel/errors.js';
import { toDocsError as cliError } from './cli-errors.js';

const toDocsError = (err: unknown) => cliError(err as Error, 'docs content');
import type { Transport } from '../../src/transport/types.js';
import { readFolder } from './content-folder.js';
import { readRepoConfig } from './gitbook-yaml.js';
import { parseSiteConfig, readSiteConfig, SITE_FILE, walkSite, writeSiteConfig, type SiteItem } from './site-config.js';

// `docs content push DIR --site SITE` and `docs content pull DIR --site SITE`: a whole site from
// one repository (docs/manual/docs-as-code.md#a-whole-site-from-one-repository). DIR's
// gitbook-docs.yaml lists the site's section groups, sections and site spaces, each with a
// stable key; the server keeps which item each key is (GET|PUT /_docs/site-map, src/sites/site-map.ts).
// The push brings the site's structure to the file (creating spaces, sections and groups for new
// keys, renaming and moving paths of known ones, taking off the site the items of keys no longer
// listed), then pushes each space's folder as `docs content push DIR/<directory> --space S --merge`
// does: one change request per space, merged whole or not at all, reported space by space.

interface Map {
  keys: Record<string, { type: 'space' | 'section' | 'section-group'; id: string; space?: string; directory?: string | null }>;
  text?: string;
}
interface Node {
  object: 'site-space' | 'site-section' | 'site-section-group';
  id: string;
  title: string;
  path?: string;
  default?: boolean;
  space?: { id: string; title: string; language?: string };
  siteSpaces?: Node[];
  children?: Node[];
}
export interface SiteRun {
  dir: string;
  site: string;
  org: string;
  transport: Transport;
  config: Config;
  /** Flags passed on to each space's push or pull. */
  pass: string[];
  dryRun: boolean;
  json: boolean;
  log: (line: string) => void;
}
export interface SpaceReport {
  key: string;
  spaceId: string | null;
  directory: string | null;
  created: boolean;
  result?: unknown;
  error?: string;
  exit?: number;
}

const mapOf = async (t: Transport, org: string, site: string): Promise<Map> => {
  try {
    return (await t.docs('GET', '/_docs/site-map', { query: { organizationId: org, siteId: site } })).body as Map;
  } catch (err) {
    const e = toDocsError(err);
    if (e.kind === 'not_found' && /no route/.test(e.message))
      throw new DocsError('invalid', `--site: this server keeps no site keys (GET /_docs/site-map is a route of docs serve); push each space with --space`);
    throw e;
  }
};

function structureOf(body: { type: string; structure: Node[] }) {
  const nodes = new globalThis.Map<string, { node: Node; parent: Node | null }>();
  const visit = (list: Node[], parent: Node | null) => {
    for (const n of list) {
      nodes.set(n.id, { node: n, parent });
      visit(n.children ?? n.siteSpaces ?? [], n);
    }
  };
  visit(body.structure, null);
  return nodes;
}

/** Runs a content command (push or pull) for one space in this process, on the same transport; its result or its error. */
async function runNested(run: SiteRun, id: 'content:push' | 'content:pull', argv: string[]): Promise<unknown> {
  const Cmd = ((await import(id === 'content:push' ? '../content/push.js' : '../content/pull.js')) as any).default;
  const cmd = new Cmd([...argv, '--json', ...run.pass], run.config);
  (cmd as any).transportInstance = run.transport;
  return cmd.run();
}

export async function pushSite(run: SiteRun): Promise<{ result: unknown; exit: number }> {
  const { transport: t, org, site } = run;
  // Everything read and checked before anything is sent: the file, and each space's folder.
  const config = readSiteConfig(run.dir);
  for (const w of config.warnings) process.stderr.write(`Warning: ${w}\n`);
  const parse = await loadParser();
  const spaces = walkSite(config.structure).filter((x) => x.item.type === 'space');
  const pages = new globalThis.Map<string, number>();
  for (const { item } of spaces) {
    if (item.directory == null) continue;
    const folder = join(run.dir, item.directory);
    const repo = readRepoConfig(folder);
    const local = await readFolder(repo.root ? join(folder, repo.root) : folder, parse, { summary: repo.summary, readme: repo.readme }).catch((err) => {
      const e = toDocsError(err);
      throw new DocsError(e.kind, `space ${item.key} (${item.directory || '.'}): ${e.message}`);
    });
    const count = (ps: { children: any[]; group?: boolean; link?: string }[]): number =>
      ps.reduce((n, p) => n + (p.group || p.link !== undefined ? 0 : 1) + count(p.children), 0);
    pages.set(item.key, count(local.pages as any));
  }
  const map = await mapOf(t, org, site);
  const tree = structureOf((await t.call('getSiteStructure', { path: { organizationId: org, siteId: site } })).body as any);
  const keys: Map['keys'] = { ...map.keys };
  const live = (key: string, type: string) => {
    const e = keys[key];
    return e && e.type === type && tree.has(e.id) ? e : undefined;
  };
  const changes: string[] = [];
  const path = { organizationId: org, siteId: site };
  const dry = run.dryRun;
  const created = new Set<string>();
  const call = async (op: string, input: any) => (await t.call(op, input)).body as any;
  const save = () => t.docs('PUT', '/_docs/site-map', { query: { organizationId: org, siteId: site }, body: { keys, text: config.text } });
  // The space of a site-space item: known, or created (with its title and language).
  const spaceOf = async (item: SiteItem): Promise<string> => {
    const known = live(item.key, 'space');
    if (known?.space) {
      const node = tree.get(known.id)!.node;
      const patch: Record<string, string> = {};
      if (node.title !== item.title) patch.title = item.title;
      if (item.language && node.space?.language !== item.language) patch.language = item.language;
      if (Object.keys(patch).length) {
        changes.push(`update space ${item.key}: ${Object.keys(patch).join(', ')}`);
        if (!dry) await call('updateSpaceById', { path: { spaceId: known.space }, body: patch });
      }
      return known.space;
    }
    changes.push(`create space ${item.key} (${item.title})`);
    created.add(item.key);
    if (dry) return `(new ${item.key})`;
    const s = await call('createSpace', { path: { organizationId: org }, body: { title: item.title, ...(item.language ? { language: item.language } : {}) } });
    return s.id as string;
  };
  // Site spaces made this run with their section (the section's first space).
  const madeNow = new Set<string>();
  const placeSpace = async (item: SiteItem, parent: SiteItem | null, sectionId: string | null) => {
    const entry = keys[item.key];
    const spaceId = madeNow.has(item.key) ? entry!.space! : await spaceOf(item);
    let id = madeNow.has(item.key) ? entry!.id : live(item.key, 'space')?.id;
    if (!id) {
      changes.push(`add space ${item.key} to the site${sectionId ? ` in section ${sectionKey(sectionId)}` : ''}`);
      if (!dry) id = (await call('addSpaceToSite', { path, body: { spaceId, ...(sectionId ? { sectionId } : {}) } })).id;
      if (id) where.set(id, sectionId);
    }
    let moved = false;
    if (id && !madeNow.has(item.key) && sectionId && where.has(id) && where.get(id) !== sectionId) {
      moved = true;
      // Known, in another section: moved there (the same site space), after the site space the
      // file lists before it, or before the section's first one.
      changes.push(`move space ${item.key} from ${nameOf(where.get(id)!)} to section ${sectionKey(sectionId)}`);
      if (!dry) {
        const siblings = parent?.children ?? [];
        const prev = siblings[siblings.indexOf(item) - 1];
        const prevId = prev ? keys[prev.key]?.id : undefined;
        // Only site spaces are held by a section.
        const there = [...where].filter(([x, at]) => at === sectionId && x !== id).map(([x]) => x);
        const anchor =
          prevId && where.get(prevId) === sectionId
            ? { after: { type: 'site-space', id: prevId } }
            : there[0]
              ? { before: { type: 'site-space', id: there[0] } }
              : undefined;
        if (!anchor) throw new DocsError('invalid', `space ${item.key}: section ${sectionKey(sectionId)} has no site space to place it by`);
        await call('sortSiteStructure', { path, body: { item: { type: 'site-space', id }, position: anchor } });
      }
      where.set(id, sectionId);
    }
    const node = id ? tree.get(id)?.node : undefined;
    if (item.path && id && (node ? node.path !== item.path : true)) {
      changes.push(`path of space ${item.key}: ${item.path}`);
      if (!dry) await call('updateSiteSpaceById', { path: { ...path, siteSpaceId: id }, body: { path: item.path } });
    }
    if (item.default && sectionId && id && (moved || !node?.default)) {
      changes.push(`space ${item.key} is the default of its section`);
      if (!dry && !sectionId.startsWith('('))
        await call('updateSiteSectionById', { path: { ...path, siteSectionId: sectionId }, body: { defaultSiteSpace: id } });
    }
    if (id) keys[item.key] = { type: 'space', id, space: spaceId, directory: item.directory ?? null };
    else keys[item.key] = { type: 'space', id: `(new ${item.key})`, space: spaceId, directory: item.directory ?? null };
    return spaceId;
  };
  const sectionKey = (id: string) => Object.entries(keys).find(([, v]) => v.id === id)?.[0] ?? id;
  // Where each known item is now (its container's id, null: the site's root), kept current as
  // this push moves items: a known item the file puts elsewhere is moved, never made again
  // (docs/manual/docs-as-code.md#moving-items-between-containers).
  const where = new globalThis.Map<string, string | null>([...tree].map(([id, { parent }]) => [id, parent?.id ?? null]));
  const nameOf = (id: string | null) =>
    id === null ? 'the top of the site' : `${keys[sectionKey(id)]?.type === 'section' ? 'section' : 'section group'} ${sectionKey(id)}`;
  const pointerType = { space: 'site-space', section: 'site-section', 'section-group': 'site-section-group' } as const;
  /**
   * A moved item's place among its new siblings as the file orders them: after the sibling the
   * file lists before it, or before the next one, when that one is there already (else at the end).
   */
  const placeInOrder = async (item: SiteItem, parent: SiteItem | null, id: string) => {
    if (dry) return;
    const siblings = parent ? parent.children : config.structure;
    const at = siblings.indexOf(item);
    const there = (s: SiteItem | undefined) => (s && keys[s.key] && where.get(keys[s.key]!.id) === where.get(id) ? keys[s.key]!.id : undefined);
    const prev = siblings[at - 1];
    const next = siblings.slice(at + 1).find((s) => there(s));
    const position = there(prev)
      ? { after: { type: pointerType[prev!.type], id: there(prev)! } }
      : next
        ? { before: { type: pointerType[next.type], id: there(next)! } }
        : undefined;
    if (position) await call('sortSiteStructure', { path, body: { item: { type: pointerType[item.type], id }, position } });
  };
  const ids = new globalThis.Map<string, string>(); // key → space id
  try {
    for (const { item, parent } of walkSite(config.structure)) {
      const parentId = parent ? (keys[parent.key]?.id ?? null) : null;
      if (item.type === 'section-group') {
        const known = live(item.key, 'section-group');
        if (!known) {
          changes.push(`create section group ${item.key} (${item.title})`);
          if (!dry) {
            const g = await call('addSectionGroupToSite', { path, body: { title: item.title, ...(parentId ? { parent: parentId } : {}) } });
            keys[item.key] = { type: 'section-group', id: g.id };
          } else keys[item.key] = { type: 'section-group', id: `(new ${item.key})` };
        } else {
          if (tree.get(known.id)!.node.title !== item.title) {
            changes.push(`rename section group ${item.key}: ${item.title}`);
            if (!dry) await call('updateSiteSectionGroupById', { path: { ...path, siteSectionGroupId: known.id }, body: { title: item.title } });
          }
          if (where.get(known.id) !== parentId) {
            // Into another group or to the top: the same group, with what it holds.
            changes.push(`move section group ${item.key} from ${nameOf(where.get(known.id)!)} to ${nameOf(parentId)}`);
            if (!dry) await call('updateSiteSectionGroupById', { path: { ...path, siteSectionGroupId: known.id }, body: { parentSectionGroupId: parentId } });
            where.set(known.id, parentId);
            await placeInOrder(item, parent, known.id);
          }
        }
        if (!known && !dry) where.set(keys[item.key]!.id, parentId);
      } else if (item.type === 'section') {
        const known = live(item.key, 'section');
        let sectionId = known?.id;
        if (!known) {
          // A section is made with a space (addSectionToSite), then the others join it: its first
          // space not yet on the site, so that known site spaces move in (keeping their ids).
          const first = item.children.find((c) => !live(c.key, 'space')) ?? item.children[0]!;
          const firstKnown = live(first.key, 'space');
          const spaceId = firstKnown?.space ?? (await spaceOf(first));
          changes.push(`create section ${item.key} (${item.title})${parentId ? ` in section group ${parent!.key}` : ''}`);
          if (firstKnown && tree.has(firstKnown.id))
            changes.push(
              `move space ${first.key} from ${nameOf(where.get(firstKnown.id)!)} to section ${item.key} (made anew there: a new section is made with a space)`,
            );
          if (!dry) {
            const s = await call('addSectionToSite', { path, body: { spaceId, title: item.title } });
            sectionId = s.id as string;
            keys[item.key] = { type: 'section', id: sectionId };
            const ss = (s.siteSpaces ?? []).find((x: Node) => x.space?.id === spaceId);
            if (ss) keys[first.key] = { type: 'space', id: ss.id, space: spaceId, directory: first.directory ?? null };
            if (ss) madeNow.add(first.key);
            if (ss) where.set(ss.id, sectionId);
            where.set(sectionId, null);
            // Every space of the new section was on the site already: the first one is made anew
            // there (a section is made with a space) and its old site space taken off.
            if (firstKnown && tree.has(firstKnown.id) && ss) {
              await call('deleteSiteSpaceById', { path: { ...path, siteSpaceId: firstKnown.id } });
              where.delete(firstKnown.id);
            }
            if (parentId) {
              await call('addSectionToGroup', { path: { ...path, siteSectionGroupId: parentId }, body: { sectionId } });
              where.set(sectionId, parentId);
            }
          } else {
            sectionId = `(new ${item.key})`;
            keys[item.key] = { type: 'section', id: sectionId };
            keys[first.key] = { type: 'space', id: `(new ${first.key})`, space: spaceId, directory: first.directory ?? null };
            madeNow.add(first.key);
          }
        }
        if (known && where.get(known.id) !== parentId) {
          // Into a group, out of one or between two: the same section (id, path, site spaces).
          changes.push(`move section ${item.key} from ${nameOf(where.get(known.id)!)} to ${nameOf(parentId)}`);
          if (!dry) await call('updateSiteSectionById', { path: { ...path, siteSectionId: known.id }, body: { siteSectionGroupId: parentId } });
          where.set(known.id, parentId);
          await placeInOrder(item, parent, known.id);
        }
        const node = known ? tree.get(known.id)!.node : undefined;
        const patch: Record<string, string> = {};
        if (node && node.title !== item.title) patch.title = item.title;
        if (item.path && node?.path !== item.path) patch.path = item.path;
        if (Object.keys(patch).length) {
          changes.push(`update section ${item.key}: ${Object.keys(patch).join(', ')}`);
          if (!dry) await call('updateSiteSectionById', { path: { ...path, siteSectionId: sectionId }, body: patch });
        }
      } else {
        const spaceId = await placeSpace(item, parent, parent ? keys[parent.key]!.id : null);
        ids.set(item.key, spaceId);
      }
    }
    // Keys the file no longer lists: their items are taken off the site (a space itself stays in the organization).
    const listed = new Set(walkSite(config.structure).map((x) => x.item.key));
    for (const [key, e] of Object.entries(map.keys)) {
      if (listed.has(key)) continue;
      delete keys[key];
      if (!tree.has(e.id)) continue;
      changes.push(`take ${e.type} ${key} off the site`);
      if (dry) continue;
      if (e.type === 'space') await call('deleteSiteSpaceById', { path: { ...path, siteSpaceId: e.id } });
      else if (e.type === 'section') await call('deleteSiteSectionById', { path: { ...path, siteSectionId: e.id } });
      else await call('deleteSiteSectionGroupById', { path: { ...path, siteSectionGroupId: e.id } });
    }
  } finally {
    // What was made is remembered even when a later step failed: the next push finds it by its key.
    if (!dry) await save();
  }
  if (config.title && !dry) {
    const s = await call('getSiteById', { path });
    if (s.title !== config.title) {
      changes.push(`site title: ${config.title}`);
      await call('updateSiteById', { path, body: { title: config.title } });
    }
  }
  if (!run.json) {
    if (dry)
      run.log(
        `Dry run, nothing changed: site ${site}: ${changes.length ? `${changes.length} structure change${changes.length === 1 ? '' : 's'}` : 'structure as the file says'}.`,
      );
    else run.log(`Site ${site}: ${changes.length ? `${changes.length} structure change${changes.length === 1 ? '' : 's'}` : 'structure unchanged'}.`);
    for (const c of changes) run.log(`  ${c}`);
  }
  // The content, space by space: each one change request, merged whole or left open.
  const reports: SpaceReport[] = [];
  for (const { item } of spaces) {
    const spaceId = ids.get(item.key)!;
    const report: SpaceReport = {
      key: item.key,
      spaceId: created.has(item.key) && dry ? null : spaceId,
      directory: item.directory ?? null,
      created: created.has(item.key),
    };
    reports.push(report);
    if (item.directory == null) continue;
    const folder = join(run.dir, item.directory);
    if (dry && created.has(item.key)) {
      report.result = { dryRun: true, added: pages.get(item.key) ?? 0 };
      if (!run.json) run.log(`Space ${item.key} (${item.directory || '.'}): would be created with ${pages.get(item.key) ?? 0} pages.`);
      continue;
    }
    try {
      report.result = await runNested(run, 'content:push', [
        folder,
        '--space',
        spaceId,
        '--merge',
        '--message',
        `Push of site ${site} (${item.key})`,
        ...(dry ? ['--dry-run'] : []),
      ]);
      if (!run.json) run.log(`Space ${item.key} (${item.directory || '.'}): ${describe(report.result as any, dry)}`);
    } catch (err) {
      const e = toDocsError(err);
      report.error = e.message;
      report.exit = e.exitCode;
      if (!run.json) run.log(`Space ${item.key} (${item.directory || '.'}): failed (exit ${e.exitCode}): ${e.message.split('\n')[0]}`);
    }
  }
  const failed = reports.filter((r) => r.error);
  const exit = failed.length ? failed[0]!.exit! : 0;
  if (failed.length && !run.json)
    process.stderr.write(`Error: ${failed.length} of ${reports.length} spaces not pushed: ${failed.map((r) => r.key).join(', ')}; the others are done\n`);
  return { result: { site, dryRun: dry, structure: changes, spaces: reports }, exit };
}

function describe(r: any, dry: boolean): string {
  if (!r) return 'done';
  const counts = `${r.added ?? 0} pages added, ${r.updated ?? 0} updated, ${r.deleted ?? 0} deleted, ${r.files ?? 0} files uploaded`;
  if (dry) return r.changeRequest === null && !r.target ? 'no change' : `would change: ${counts}`;
  if (!r.changeRequest) return 'no change';
  return `${counts}${r.merged ? `, merged (change request #${r.number})` : `, change request #${r.number} left open`}`;
}

/** `docs content pull DIR --site SITE`: gitbook-docs.yaml and each space's folder. */
export async function pullSite(run: SiteRun, force: boolean): Promise<{ result: unknown; exit: number }> {
  const { transport: t, org, site, dir } = run;
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new DocsError('invalid', `DIR: ${dir} is not a folder`);
  if (existsSync(dir) && readdirSync(dir).length && !force) throw new DocsError('invalid', `DIR: ${dir} is not empty (use --force to write into it)`);
  const map = await mapOf(t, org, site);
  const body = (await t.call('getSiteStructure', { path: { organizationId: org, siteId: site } })).body as { structure: Node[] };
  const byId = new globalThis.Map(Object.entries(map.keys).map(([k, v]) => [v.id, { key: k, ...v }]));
  const used = new Set<string>(Object.keys(map.keys));
  const fresh = (base: string) => {
    const b = (
      base
        .toLowerCase()
        .replace(/[^a-z0-9._-]+/g, '-')
        .replace(/^[^a-z0-9]+/, '') || 'item'
    ).slice(0, 90);
    let k = b;
    for (let i = 2; used.has(k); i++) k = `${b}-${i}`;
    used.add(k);
    return k;
  };
  const dirs = new Set<string>();
  const items = (list: Node[]): SiteItem[] =>
    list.map((n) => {
      const known = byId.get(n.id);
      const type = n.object === 'site-space' ? 'space' : n.object === 'site-section' ? 'section' : 'section-group';
      const key = known?.key ?? fresh(n.path ?? n.title);
      const item: SiteItem = {
        type,
        key,
        title: n.title,
        ...(n.path !== undefined && type !== 'section-group' ? { path: n.path } : {}),
        default: !!n.default,
        children: [],
        line: 0,
      };
      if (type === 'space') {
        let d = known && known.directory !== undefined ? known.directory : key;
        if (d !== null && dirs.has(d)) d = fresh(key);
        if (d !== null) dirs.add(d);
        item.directory = d;
        if (n.space?.language) item.language = n.space.language;
        (item as any).spaceId = n.space?.id;
      } else item.children = items(n.children ?? n.siteSpaces ?? []);
      return item;
    });
  const structure = items(body.structure);
  // The file as pushed when the site still says what it says; written from the site otherwise.
  let text = writeSiteConfig(undefined, structure);
  if (map.text) {
    try {
      const pushed = parseSiteConfig(map.text);
      if (sameSite(pushed.structure, structure)) text = map.text;
    } catch {
      // written from the site
    }
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, SITE_FILE), text);
  const reports: SpaceReport[] = [];
  for (const { item } of walkSite(structure).filter((x) => x.item.type === 'space')) {
    const spaceId = (item as any).spaceId as string;
    const report: SpaceReport = { key: item.key, spaceId, directory: item.directory ?? null, created: false };
    reports.push(report);
    if (item.directory == null) continue;
    try {
      report.result = await runNested(run, 'content:pull', [join(dir, item.directory), '--space', spaceId, '--force']);
      const r = report.result as { pages: number; files: number };
      if (!run.json) run.log(`Space ${item.key}: ${r.pages} pages and ${r.files} files into ${join(dir, item.directory)}.`);
    } catch (err) {
      const e = toDocsError(err);
      report.error = e.message;
      report.exit = e.exitCode;
      if (!run.json) run.log(`Space ${item.key}: failed (exit ${e.exitCode}): ${e.message.split('\n')[0]}`);
    }
  }
  const failed = reports.filter((r) => r.error);
  return { result: { site, file: join(dir, SITE_FILE), spaces: reports }, exit: failed.length ? failed[0]!.exit! : 0 };
}

/** The pushed file's structure is the site's: same keys, types, titles and order; paths, defaults and languages where the file gives them. */
function sameSite(file: SiteItem[], site: SiteItem[]): boolean {
  if (file.length !== site.length) return false;
  return file.every((f, i) => {
    const s = site[i]!;
    return (
      f.key === s.key &&
      f.type === s.type &&
      f.title === s.title &&
      (f.path === undefined || f.path === s.path) &&
      (!f.default || s.default) &&
      (f.language === undefined || f.language === s.language) &&
      (f.type !== 'space' || (f.directory ?? null) === (s.directory ?? null)) &&
      sameSite(f.children, s.children)
    );
  });
}
