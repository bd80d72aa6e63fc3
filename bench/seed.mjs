// Seeds stores in-process through the operations themselves (invoke: validation, services,
// store), so the files are exactly what the server writes for the same requests.
import { dirBytes } from './lib.mjs';
import { sectionChanges } from './text.mjs';

/** Opens (bootstrapping) the store in `dir`; `call(op, input)` runs an operation as its owner. */
export async function open(dir, token) {
  const { openContext } = await import('../dist/src/open.js');
  const { bootstrap, ownerOf } = await import('../dist/src/auth/bootstrap.js');
  const { invoke } = await import('../dist/src/invoke.js');
  const ctx = await openContext(dir);
  await bootstrap(ctx, token);
  const caller = { userId: await ownerOf(ctx) }; // await: a value or, once store reads are async, a promise
  const call = async (operationId, input = {}) => {
    const r = await invoke(ctx, operationId, input, caller);
    if (r.status >= 400) throw new Error(`${operationId}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const org = (await call('listOrganizationsForAuthenticatedUser')).items[0].id;
  return { ctx, call, org };
}

/** Runs `fn(i)` for i in [0, n), `concurrency` at a time (so writes share group commits). */
export async function pool(n, concurrency, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, concurrency) }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

/** `spaces` empty spaces in the owner's organization. */
export async function seedSpaces(dir, { token, spaces }) {
  const { ctx, call, org } = await open(dir, token);
  try {
    await pool(spaces, 16, (i) => call('createSpace', { path: { organizationId: org }, body: { title: `Bench space ${i}` } }));
  } finally {
    await ctx.store.close();
  }
}

/**
 * A space of `pages` pages (sections of 50: one parent and 49 children), written the way an
 * author would: a change request, one updateChangeRequestContent per section, a merge.
 */
export async function buildSpace(call, org, i, pages) {
  const space = (await call('createSpace', { path: { organizationId: org }, body: { title: `Bench space ${i}` } })).id;
  const cr = (await call('createChangeRequest', { path: { spaceId: space }, body: { subject: 'seed' } })).id;
  for (let s = 0; s < pages / 50; s++) {
    await call('updateChangeRequestContent', { path: { spaceId: space, changeRequestId: cr }, body: { changes: sectionChanges(s) } });
  }
  await call('mergeChangeRequest', { path: { spaceId: space, changeRequestId: cr } });
  return space;
}

/** `spaces` spaces of `pagesPerSpace` pages each in the owner's organization. */
export async function seedContentStore(dir, { token, spaces = 200, pagesPerSpace = 100, concurrency = 16 }) {
  const { ctx, call, org } = await open(dir, token);
  try {
    await pool(spaces, concurrency, (i) => buildSpace(call, org, i, pagesPerSpace));
  } finally {
    await ctx.store.close();
  }
  return { pages: spaces * pagesPerSpace, spaces, ...dirBytes(dir) };
}
