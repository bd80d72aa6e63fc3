// Seeds a store for bench/cold.mjs in its own process (the seeding heap must not stay in the
// process that then measures), through the operations in-process as bench/seed.mjs does:
// with `pages` > 0, a published 50-page site (a request to it loads the renderer's code, so that
// the big space's first render measures the space) and a published site of one `pages`-page
// space; with `pages` 0, `spaces` spaces of `pagesPerSpace` pages (default 0: empty). Prints one JSON line of ids and addresses.
//
//   node bench/cold-seed.mjs '{"dir":..,"token":..,"pages":..,"spaces":..}'
import { buildSpace, open, pool } from './seed.mjs';

const { dir, token, pages, spaces, pagesPerSpace = 0 } = JSON.parse(process.argv[2]);
const { ctx, call, org } = await open(dir, token);
try {
  if (pages === 0) {
    const ids = new Array(spaces);
    await pool(spaces, 16, async (i) => {
      ids[i] = pagesPerSpace
        ? await buildSpace(call, org, i, pagesPerSpace)
        : (await call('createSpace', { path: { organizationId: org }, body: { title: `Cold space ${i}` } })).id;
    });
    process.stdout.write(`${JSON.stringify({ org, spaces: ids })}\n`);
  } else {
    const publish = async (title, space) => {
      const site = await call('createSite', { path: { organizationId: org }, body: { title, spaces: [space] } });
      return (await call('publishSite', { path: { organizationId: org, siteId: site.id } })).urls.published;
    };
    const small = await publish('Warm site', await buildSpace(call, org, 1, 50));
    const space = await buildSpace(call, org, 0, pages);
    const big = await publish('Cold site', space);
    process.stdout.write(`${JSON.stringify({ org, space, small, big })}\n`);
  }
} finally {
  await ctx.store.close();
}
