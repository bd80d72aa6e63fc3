import type { Caller, Context } from '../kernel/context.js';
import { invalid } from '../kernel/errors.js';
import { SITE_ADMIN, SITE_READ, siteOf } from './access.js';
import type { SiteMap } from './model.js';
import { Sites } from './tables.js';

// GET|PUT /_docs/site-map?organizationId=O&siteId=S: the stable keys of a site pushed from a
// repository (`docs content push DIR --site S`, docs/manual/docs-as-code.md#a-whole-site-from-one-repository):
// which section group, section or site space each key of gitbook-docs.yaml is, the folder each
// space's content comes from, and the file as it was pushed (pull writes it back). Reading it
// needs what reading the site needs (a role in the organization); changing it, what changing the
// site's structure needs (admin). Kept with the site (its record), outside the contract.

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const TYPES = ['space', 'section', 'section-group'];
const MAX_KEYS = 1000;
const MAX_TEXT = 256 * 1024;

export async function siteMapRoute(
  ctx: Context,
  caller: Caller,
  method: string,
  query: Record<string, unknown>,
  body: unknown,
): Promise<{ status: number; body: unknown }> {
  const org = query.organizationId;
  const siteId = query.siteId;
  if (typeof org !== 'string' || !org) throw invalid('organizationId: required');
  if (typeof siteId !== 'string' || !siteId) throw invalid('siteId: required');
  if (method === 'GET')
    return ctx.store.read((tx) => {
      const { site } = siteOf(tx, caller, org, siteId, SITE_READ, 'reading sites');
      return { status: 200, body: site.siteMap ?? { keys: {} } };
    });
  if (method !== 'PUT') throw invalid(`${method} /_docs/site-map: GET or PUT`);
  const map = checkMap(body);
  return ctx.store.write((tx) => {
    const { site } = siteOf(tx, caller, org, siteId, SITE_ADMIN, `changing site ${siteId}`);
    tx.put(Sites, { ...site, siteMap: map });
    return { status: 200, body: map };
  });
}

function checkMap(body: unknown): SiteMap {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalid('body: {keys: {KEY: {type, id, directory?}}, text?}');
  const { keys, text, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length) throw invalid(`body: unknown field ${Object.keys(rest)[0]}`);
  if (text !== undefined && (typeof text !== 'string' || Buffer.byteLength(text) > MAX_TEXT)) throw invalid(`text: a string of at most ${MAX_TEXT} bytes`);
  if (!keys || typeof keys !== 'object' || Array.isArray(keys)) throw invalid('keys: an object of KEY: {type, id, directory?}');
  const entries = Object.entries(keys as Record<string, unknown>);
  if (entries.length > MAX_KEYS) throw invalid(`keys: at most ${MAX_KEYS}`);
  const out: SiteMap['keys'] = {};
  for (const [k, v] of entries) {
    if (!KEY.test(k)) throw invalid(`keys.${k.slice(0, 100)}: a key is 1 to 100 letters, digits, '.', '_' or '-', starting with a letter or digit`);
    const e = v as Record<string, unknown>;
    if (!e || typeof e !== 'object' || !TYPES.includes(e.type as string)) throw invalid(`keys.${k}.type: one of ${TYPES.join(', ')}`);
    if (typeof e.id !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(e.id)) throw invalid(`keys.${k}.id: an id`);
    if (e.directory !== undefined && e.directory !== null && (typeof e.directory !== 'string' || e.directory.length > 1000))
      throw invalid(`keys.${k}.directory: a path of at most 1000 characters, or null`);
    if (e.space !== undefined && (typeof e.space !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(e.space))) throw invalid(`keys.${k}.space: a space id`);
    out[k] = {
      type: e.type as SiteMap['keys'][string]['type'],
      id: e.id,
      ...(e.space !== undefined ? { space: e.space as string } : {}),
      ...(e.directory !== undefined ? { directory: e.directory as string | null } : {}),
    };
  }
  return { keys: out, ...(text !== undefined ? { text: text as string } : {}) };
}
