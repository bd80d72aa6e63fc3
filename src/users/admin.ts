import type { Caller, Context } from '../kernel/context.js';
import { conflict, DocsError, invalid, notFound } from '../kernel/errors.js';
import { bootstrapOwner, findUser, isEmailVerified, isInstanceOwner, requireInstanceOwner } from './instance.js';
import type { UserRecord } from './model.js';
import { Users } from './tables.js';

// /_docs/users[/{user}] (docs users list|update): the instance's users with what the instance
// trusts them with, for instance owners only (src/users/instance.ts). Not contract operations.

export interface InstanceUserView {
  object: 'user';
  id: string;
  email: string;
  displayName: string;
  emailVerified: boolean;
  instanceOwner: boolean;
  /** The user the store was made for: always an instance owner, always verified. */
  bootstrap: boolean;
}

const view = (tx: Parameters<typeof isInstanceOwner>[0], u: UserRecord): InstanceUserView => ({
  object: 'user',
  id: u.id,
  email: u.email,
  displayName: u.displayName,
  emailVerified: isEmailVerified(tx, u),
  instanceOwner: isInstanceOwner(tx, u.id),
  bootstrap: bootstrapOwner(tx) === u.id,
});

export interface UserPatch {
  emailVerified?: boolean;
  instanceOwner?: boolean;
}

function readPatch(body: unknown): UserPatch {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('body: must be a JSON object {emailVerified?, instanceOwner?}');
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b))
    if (k !== 'emailVerified' && k !== 'instanceOwner') throw invalid(`${k}: unknown field (allowed: emailVerified, instanceOwner)`);
  for (const k of ['emailVerified', 'instanceOwner'] as const)
    if (b[k] !== undefined && typeof b[k] !== 'boolean') throw invalid(`${k}: must be true or false`);
  if (b.emailVerified === undefined && b.instanceOwner === undefined) throw invalid('body: give emailVerified or instanceOwner (true or false)');
  return b as UserPatch;
}

export async function updateUser(ctx: Context, caller: Caller, ref: string, body: unknown): Promise<InstanceUserView> {
  const patch = readPatch(body);
  return ctx.store.write((tx) => {
    requireInstanceOwner(tx, caller, `changing user ${ref}`);
    const u = findUser(tx, ref);
    const boot = bootstrapOwner(tx) === u.id;
    if (boot && (patch.instanceOwner === false || patch.emailVerified === false)) {
      throw conflict(`user ${u.email} is the instance's bootstrap owner: always an instance owner with a verified email; nothing changed`);
    }
    const next: UserRecord = { ...u };
    if (patch.emailVerified !== undefined) next.emailVerified = patch.emailVerified || undefined;
    if (patch.instanceOwner !== undefined) next.instanceOwner = patch.instanceOwner || undefined;
    for (const k of ['emailVerified', 'instanceOwner'] as const) if (next[k] === undefined) delete next[k];
    return view(tx, tx.put(Users, next));
  });
}

export function listUsers(ctx: Context, caller: Caller): Promise<{ items: InstanceUserView[]; count: number }> {
  return ctx.store.read((tx) => {
    requireInstanceOwner(tx, caller, "listing the instance's users");
    const items = tx
      .all(Users)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      .map((u) => view(tx, u));
    return { items, count: items.length };
  });
}

/** /_docs/users (GET) and /_docs/users/{user} (GET, PATCH), for the server and in-process alike. */
export async function userRoute(ctx: Context, caller: Caller, method: string, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const m = /^\/_docs\/users(?:\/([^/]+))?\/?$/.exec(path);
  if (!m) throw notFound(`no route for ${method} ${path}`);
  const ref = m[1] && decodeURIComponent(m[1]);
  const allow = ref ? ['GET', 'PATCH'] : ['GET'];
  if (!allow.includes(method))
    throw Object.assign(new DocsError('method_not_allowed', `${method} is not allowed on ${path} (allowed: ${allow.join(', ')})`), { allow });
  if (!ref) return { status: 200, body: await listUsers(ctx, caller) };
  if (method === 'PATCH') return { status: 200, body: await updateUser(ctx, caller, ref, body) };
  return {
    status: 200,
    body: await ctx.store.read((tx) => {
      requireInstanceOwner(tx, caller, `reading user ${ref}`);
      return view(tx, findUser(tx, ref));
    }),
  };
}
