import type { Transport } from '../../src/transport/types.js';

// Things named, not ids, in the questions of destructive commands: `Delete space "Guides"
// (dHD9…)?` rather than `Delete space dHD9…?`. One read for the name (two for a collection: its
// organization and how many spaces go with it), made only when the question is asked (never with
// --yes); a read that fails (not found, no right to read it) leaves the id alone: the delete
// itself then says what is wrong.

type Path = Record<string, string>;

async function read(transport: Transport, operationId: string, path: Path, query: Record<string, unknown> = {}): Promise<any> {
  try {
    const r = await transport.call(operationId, { path, query });
    return r.status === 200 ? r.body : undefined;
  } catch {
    return undefined;
  }
}

const nameIn = (body: any): string | undefined => {
  for (const k of ['title', 'name', 'displayName', 'label']) if (typeof body?.[k] === 'string' && body[k]) return body[k];
  return body?.user ? nameIn(body.user) : undefined;
};

/** `kind "Title" (id)`, or `kind id` when the title cannot be read. */
export const named = (kind: string, id: string, body: any): string => {
  const name = nameIn(body);
  return name ? `${kind} "${name}" (${id})` : `${kind} ${id}`;
};

export const spaceNamed = async (t: Transport, spaceId: string) => named('space', spaceId, await read(t, 'getSpaceById', { spaceId }));

export const siteNamed = async (t: Transport, organizationId: string, siteId: string) =>
  named('site', siteId, await read(t, 'getSiteById', { organizationId, siteId }));

export const teamNamed = async (t: Transport, organizationId: string, teamId: string) =>
  named('team', teamId, await read(t, 'getTeamInOrganizationById', { organizationId, teamId }));

export const memberNamed = async (t: Transport, organizationId: string, userId: string) => {
  const m = await read(t, 'getMemberInOrganizationById', { organizationId, userId });
  const email = m?.user?.email ? ` <${m.user.email}>` : '';
  return m && nameIn(m) ? `member "${nameIn(m)}"${email} (${userId})` : `member ${userId}`;
};

export const orgNamed = async (t: Transport, organizationId: string) => {
  const o = await read(t, 'getOrganizationById', { organizationId });
  return nameIn(o) ? `"${nameIn(o)}"` : `organization ${organizationId}`;
};

export const changeRequestNamed = async (t: Transport, spaceId: string, changeRequestId: string) => {
  const [cr, space] = await Promise.all([read(t, 'getChangeRequestById', { spaceId, changeRequestId }), read(t, 'getSpaceById', { spaceId })]);
  const label = typeof cr?.number === 'number' ? `#${cr.number}` : changeRequestId;
  const subject = typeof cr?.subject === 'string' && cr.subject ? ` "${cr.subject}"` : '';
  return `change request ${label}${subject} of ${named('space', spaceId, space)}`;
};

/** `collection "Guides" (id) in "My Organization" with 3 spaces`. */
export async function collectionNamed(t: Transport, collectionId: string): Promise<string> {
  const [c, spaces] = await Promise.all([
    read(t, 'getCollectionById', { collectionId }),
    read(t, 'listSpacesInCollectionById', { collectionId }, { limit: 1 }),
  ]);
  const org = typeof c?.organization === 'string' ? ` in ${await orgNamed(t, c.organization)}` : '';
  const n = typeof spaces?.count === 'number' ? spaces.count : Array.isArray(spaces?.items) && !spaces.next ? spaces.items.length : undefined;
  const count = n === undefined ? ' with everything in it' : ` with ${n} space${n === 1 ? '' : 's'}`;
  return `${named('collection', collectionId, c)}${org}${count}`;
}
