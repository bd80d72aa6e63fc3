// One line per change, as gh and vercel print it: what was done, to what (its kind, name and id),
// what was set, and where to see it:
//
//   ✓ Created space "Guides" (hZejQ2ofP7dxC5kBVtIa) http://127.0.0.1:7780/o/…/s/hZejQ2ofP7dxC5kBVtIa
//   ✓ Updated member "Ann" (Xk2f9QmL0aTz7WcV1bNp): role edit
//   ✓ Published site "Handbook" (szK9Qp2mTtR4bLx0aVn1) http://127.0.0.1:7780/sites/…/handbook
//
// The glyph policy of the whole CLI: "✓" (green) only where colors are allowed (a terminal,
// NO_COLOR unset, see color.ts); elsewhere the same line without it, so that a log or a pipe reads
// plain words. --json is untouched (the API body as it is): a script wanting the id uses
// `--jq .id`, not this line.
import { colorEnabled, paint } from './color.js';
import { words } from './render.js';

/** The past tense of a command's verb (its id's last word): which writes get one line. */
const VERBS: Record<string, string> = {
  create: 'Created',
  update: 'Updated',
  edit: 'Updated',
  move: 'Moved',
  transfer: 'Transferred',
  restore: 'Restored',
  duplicate: 'Duplicated',
  publish: 'Published',
  unpublish: 'Unpublished',
  add: 'Added',
  'add-section': 'Added a section to',
  install: 'Installed',
  configure: 'Configured',
  visibility: 'Updated',
};

/** The verb for a command id ("spaces:create" -> "Created"), if it is a write this file words. */
export function verbOf(commandId: string | undefined): string | undefined {
  return VERBS[commandId?.split(':').pop() ?? ''];
}

type Obj = Record<string, any>;

/** An object's kind in words, acronyms kept: "change-request" -> "change request", "saml-provider" -> "SAML provider". */
const kindOf = (object: string): string => {
  const w = object === 'openapi-spec' ? 'OpenAPI spec' : words(object);
  return /^[A-Z][a-z]/.test(w) ? w.charAt(0).toLowerCase() + w.slice(1) : w;
};

/** The name a person knows the object by: its title, name or label; a member's user's name. */
function nameOf(body: Obj): string | undefined {
  for (const k of ['title', 'name', 'displayName', 'label', 'subject']) if (typeof body[k] === 'string' && body[k]) return body[k];
  if (body.user && typeof body.user === 'object') return nameOf(body.user);
  return undefined;
}

/** Where to see it: the published URL of what was just published, else the app's, else the API's. */
function urlOf(body: Obj, verb: string): string | undefined {
  const u = body.urls && typeof body.urls === 'object' ? body.urls : {};
  const order = verb === 'Published' ? ['published', 'public', 'app', 'location'] : ['app', 'published', 'public', 'location'];
  for (const k of order) if (typeof u[k] === 'string') return u[k];
  return typeof body.url === 'string' ? body.url : undefined;
}

const show = (v: unknown) => (v === null ? 'none' : typeof v === 'string' && /\s/.test(v) ? JSON.stringify(v) : String(v));

/**
 * What a write set, from its request body: `role edit, title "New title"` (scalar fields only:
 * positions and other objects are said by the verb). Nothing for a create: the name says it.
 */
export function changesOf(verb: string, body: unknown, name?: string): string {
  if (verb === 'Created' || !body || typeof body !== 'object' || Array.isArray(body)) return '';
  return (
    Object.entries(body as Obj)
      .filter(([, v]) => v === null || ['string', 'number', 'boolean'].includes(typeof v))
      // A new title is the name the line already shows.
      .filter(([, v]) => v !== name)
      .map(([k, v]) => `${words(k).toLowerCase()} ${show(v)}`)
      .join(', ')
  );
}

/**
 * The line of a write that answered `body` (an object with an id), or undefined for a body this
 * cannot name (then the caller shows the object as before).
 */
export function changedLine(
  verb: string,
  body: unknown,
  sent?: unknown,
  color = colorEnabled(process.stdout),
  path: Record<string, string> = {},
): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const b = body as Obj;
  const glyph = color ? paint(true).green('✓') + ' ' : '';
  // An invite link has no page to show: what to share is how to join with it. (Its `redundant`,
  // whether it grants the caller nothing new, is always true for the admin creating it: --json.)
  if (b.object === 'invite' && typeof b.id === 'string' && path.organizationId) {
    return `${glyph}${verb} invite link ${b.id}${b.role !== undefined ? ` (role ${b.role ?? 'guest'})` : ''}. To join, share: docs invites accept ${path.organizationId} ${b.id}`;
  }
  if (typeof b.id !== 'string' || typeof b.object !== 'string') return undefined;
  const kind = kindOf(b.object);
  const name = nameOf(b);
  // A change request is known by its number: `change request #4 "Fix the guide"`.
  const what = typeof b.number === 'number' ? `${kind} #${b.number}${name ? ` "${name}"` : ''}` : name ? `${kind} "${name}" (${b.id})` : `${kind} ${b.id}`;
  const changes = changesOf(verb, sent, name);
  const url = urlOf(b, verb);
  return `${glyph}${verb} ${what}${changes ? `: ${changes}` : ''}${url ? `${changes ? ';' : ''} ${url}` : ''}`;
}
