import type { Context } from '../kernel/context.js';
import { newId, newToken } from '../kernel/ids.js';
import { insertOrganization } from '../organizations/service.js';
import { bootstrapOwner, MetaOwner } from '../users/instance.js';
import { downloadSecretRow, MetaDownloadSecret } from '../content/downloads.js';
import { insertToken } from './tokens.js';
import { Users } from '../users/tables.js';

/** The store's owner: the user the in-process CLI acts as when no token is given. */
export function ownerOf(ctx: Context): Promise<string | undefined> {
  return ctx.store.read(bootstrapOwner);
}

/**
 * On an empty store: an owner user, an organization and a token for that user. The token's
 * value is `DOCS_BOOTSTRAP_TOKEN` when set (CI, tests), else random; it is returned once so the
 * caller can print it, and only its hash is stored.
 */
export async function bootstrap(ctx: Context, fixedToken = process.env.DOCS_BOOTSTRAP_TOKEN): Promise<{ token: string; userId: string } | undefined> {
  if (await ownerOf(ctx)) return undefined;
  const token = fixedToken || newToken();
  return ctx.store.write((tx) => {
    if (tx.get(MetaOwner, 'owner')) return undefined; // another writer was first
    const now = ctx.clock.now();
    const user = tx.put(Users, {
      id: newId(),
      displayName: 'Owner',
      email: 'owner@localhost',
      createdAt: now.toISOString(),
      emailVerified: true,
    });
    tx.put(MetaOwner, { id: 'owner', user: user.id });
    insertOrganization(tx, ctx, { title: 'My Organization' }, user.id);
    insertToken(tx, token, user.id, 'bootstrap', now);
    // Secrets made now, with the store, so that no later read has to write them.
    tx.put(MetaDownloadSecret, downloadSecretRow());
    return { token, userId: user.id };
  });
}
