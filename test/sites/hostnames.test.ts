import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusOf } from '../../src/sites/hostnames.js';
import { docs } from '../helpers/cli.js';
import { runBoth } from '../helpers/parity.js';
import { addUser } from '../helpers/people.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { api, page, spaceWith } from '../published/fixture.js';

// Custom hostnames (docs/manual/site-delivery.md#custom-hostnames): a site answers on a name
// that resolves to this server (the machine's resolver; `.localhost` names are the loopback),
// through the Host check, which allows that name; hostile names are 400.

let s: TestServer;
let call: ReturnType<typeof api>;
let org: string;
let site: { id: string; base: string };
beforeAll(async () => {
  s = await startServer();
  call = api(s);
  org = (await call('GET', '/v1/orgs')).items[0].id;
  const sp = await spaceWith(s, org, 'Hosted', [page('a', 'Welcome', '# Welcome\n\nOn our own name.\n')]);
  const created = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Hosted site', spaces: [sp.space.id] });
  const pub = await call('POST', `/v1/orgs/${org}/sites/${created.id}/publish`);
  site = { id: created.id, base: new URL(pub.urls.published).pathname };
}, 60_000);
afterAll(() => s?.stop());

/** A GET with the given Host header (fetch does not let one be set). */
function viaHost(host: string, path: string): Promise<{ status: number; body: string; location?: string }> {
  const u = new URL(s.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, headers: { host: `${host}:${u.port}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body, ...(res.headers.location ? { location: res.headers.location } : {}) }));
    });
    req.on('error', reject);
    req.end();
  });
}
const add = (hostname: string, token = s.token, siteId = site.id) =>
  fetch(`${s.url}/_docs/custom-hostnames`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ organization: org, site: siteId, hostname }),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));

describe('custom hostnames', () => {
  it('a name resolving here: the site answers on it (Host allowed), at / and at its own links; removed, 421 again', async () => {
    expect((await viaHost('docs.acme.localhost', '/')).status).toBe(421);
    const added = await add('Docs.Acme.localhost.');
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toEqual({
      object: 'custom-hostname',
      hostname: 'docs.acme.localhost',
      target: { type: 'site', site: site.id },
      isActive: true,
      status: 'live',
      urls: { location: `${s.url}/v1/custom-hostnames/docs.acme.localhost` },
    });
    const got = await s.api('GET', '/v1/custom-hostnames/docs.acme.localhost');
    expect(got.status).toBe(200);
    expect(got.body).toEqual(added.body);
    const home = await viaHost('docs.acme.localhost', '/');
    expect([200, 302, 307]).toContain(home.status);
    const pageRes = await viaHost('docs.acme.localhost', '/welcome');
    expect(pageRes.status).toBe(200);
    expect(pageRes.body).toContain('On our own name.');
    // The site's own links (under its base) work on the name too.
    expect((await viaHost('docs.acme.localhost', `${site.base}/welcome`)).status).toBe(200);
    // Other names stay refused; the API is not served on the site's name.
    expect((await viaHost('other.acme.localhost', '/welcome')).status).toBe(421);
    expect((await s.api('PATCH', '/v1/custom-hostnames/docs.acme.localhost')).status).toBe(204);

    expect((await s.api('DELETE', '/v1/custom-hostnames/docs.acme.localhost')).status).toBe(205);
    expect((await s.api('DELETE', '/v1/custom-hostnames/docs.acme.localhost')).status).toBe(204);
    expect((await viaHost('docs.acme.localhost', '/welcome')).status).toBe(421);
  });

  it('a name that does not resolve here: kept inactive, the Host still refused, revalidation 409', async () => {
    const added = await add('docs.nowhere.invalid');
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ isActive: false, status: 'dns_no_cname' });
    expect((await viaHost('docs.nowhere.invalid', '/')).status).toBe(421);
    const again = await s.api('PATCH', '/v1/custom-hostnames/docs.nowhere.invalid');
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe("docs.nowhere.invalid does not resolve (the machine's resolver knows no address for it)");
    // Adding another name moves the site to it (one per site).
    expect((await add('docs2.acme.localhost')).body.isActive).toBe(true);
    expect((await s.api('GET', '/v1/custom-hostnames/docs.nowhere.invalid')).status).toBe(404);
    await s.api('DELETE', '/v1/custom-hostnames/docs2.acme.localhost');
  });

  it('statusOf: live for this machine, dns_wrong_cname for another host, dns_no_cname for none', () => {
    const local = new Set(['127.0.0.1', '::1', '192.168.1.20']);
    expect(statusOf(['192.168.1.20'], local)).toBe('live');
    expect(statusOf(['127.0.1.1'], local)).toBe('live');
    expect(statusOf(['93.184.216.34'], local)).toBe('dns_wrong_cname');
    expect(statusOf([], local)).toBe('dns_no_cname');
  });

  it('refuses hostile names (400), names of other sites (409), and callers without rights', async () => {
    for (const [name, message] of [
      ['10.0.0.5', 'hostname: must be a name, not an IP address ("10.0.0.5")'],
      ['[::1]', 'hostname: must be a name, not an IP address ("[::1]")'],
      [`${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.example.com`, 'hostname: at most 253 characters'],
      [
        'bad_label.example.com',
        'hostname: label "bad_label" must be 1 to 63 letters, digits or \'-\', not starting or ending with \'-\' (got "bad_label.example.com")',
      ],
      ['-x.example.com', 'hostname: label "-x" must be 1 to 63 letters, digits or \'-\', not starting or ending with \'-\' (got "-x.example.com")'],
      ['example.com', 'hostname: must have at least three labels, like docs.example.com (got "example.com")'],
    ]) {
      const r = await add(name!);
      expect(r.status, name).toBe(400);
      expect(r.body.error.message).toBe(message);
    }
    // The same names through the contract's revalidation: none was ever added, so 404, as for a
    // name the caller may not see (nothing about the name is answered before its row is found).
    expect((await s.api('PATCH', '/v1/custom-hostnames/10.0.0.5')).status).toBe(404);
    expect((await s.api('PATCH', `/v1/custom-hostnames/${'x'.repeat(300)}.example.com`)).status).toBe(404);
    const list = await fetch(`${s.url}/_docs/custom-hostnames?organization=${org}`, { headers: { authorization: `Bearer ${s.token}` } });
    expect((await list.json()).items).toEqual([]);

    await add('taken.acme.localhost');
    const sp = await spaceWith(s, org, 'Second', [page('a', 'Two', 'Two.')]);
    const second = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Second site', spaces: [sp.space.id] });
    const taken = await add('taken.acme.localhost', s.token, second.id);
    expect(taken.status).toBe(409);
    const editor = await addUser(s.ctx, org, 'edit');
    expect((await add('mine.acme.localhost', editor.token)).status).toBe(403);
    expect((await s.api('GET', '/v1/custom-hostnames/taken.acme.localhost', { token: editor.token })).status).toBe(200);
    expect((await s.api('DELETE', '/v1/custom-hostnames/taken.acme.localhost', { token: editor.token })).status).toBe(403);
    const stranger = await addUser(s.ctx);
    expect((await s.api('GET', '/v1/custom-hostnames/taken.acme.localhost', { token: stranger.token })).status).toBe(404);
    expect((await s.api('DELETE', '/v1/custom-hostnames/taken.acme.localhost', { token: stranger.token })).status).toBe(204);
    expect((await s.api('GET', '/v1/custom-hostnames/taken.acme.localhost')).status).toBe(200);
    await s.api('DELETE', '/v1/custom-hostnames/taken.acme.localhost');
  });
});

async function cliScenario(env: Record<string, string>, name: string) {
  const run = async (args: string[], code = 0) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(code);
    return r;
  };
  const space = (await run(['spaces', 'create', '--title', 'G', '--json'])).json;
  const st = (await run(['sites', 'create', '--title', 'Named site', '--spaces', space.id, '--json'])).json;
  const bad = await run(['sites', 'hostname', 'add', st.id, '127.0.0.1'], 2);
  expect(bad.stderr).toContain('HOSTNAME: must be a name, not an IP address');
  const added = await run(['sites', 'hostname', 'add', st.id, name]);
  expect(added.stdout).toContain(`✓ Site ${st.id} answers on ${name}`);
  const got = (await run(['sites', 'hostname', 'get', name, '--json'])).json;
  const ok = await run(['sites', 'hostname', 'revalidate', name]);
  expect(ok.stdout).toContain(`✓ ${name} resolves to this server`);
  await run(['sites', 'hostname', 'add', st.id, 'gone.nowhere.invalid']);
  const no = await run(['sites', 'hostname', 'revalidate', 'gone.nowhere.invalid'], 5); // 409: a conflict
  expect(no.stderr).toContain('does not resolve');
  await run(['sites', 'hostname', 'remove', 'gone.nowhere.invalid', '--yes']);
  const again = await run(['sites', 'hostname', 'remove', 'gone.nowhere.invalid', '--yes'], 3);
  expect(again.stderr).toContain('nothing removed');
  return [got.isActive, got.status];
}

describe('docs sites hostname', () => {
  it('in process and over HTTP, the same', async () => {
    const local = await cliScenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_cli' }, 'cli.acme.localhost');
    const remote = await cliScenario({ DOCS_API_URL: s.url, DOCS_TOKEN: s.token }, 'cli2.acme.localhost');
    expect(local).toEqual([true, 'live']);
    expect(remote).toEqual(local);
  });

  it('transport parity of the operations', async () => {
    const { local, remote } = await runBoth(s, async (t) => {
      const out: unknown[] = [];
      const organizationId = ((await t.call('createOrganization', { body: { title: 'Parity hosts' } })).body as any).id;
      const st = (await t.call('createSite', { path: { organizationId }, body: { title: 'Parity' } })).body as any;
      const name = `p${Math.random().toString(36).slice(2, 8)}.acme.localhost`;
      await t.docs('POST', '/_docs/custom-hostnames', { body: { organization: organizationId, site: st.id, hostname: name } });
      const got = (await t.call('getCustomHostname', { path: { hostname: name } })).body as any;
      out.push(got.isActive, got.status, got.target.type);
      out.push((await t.call('dnsRevalidateCustomHostname', { path: { hostname: name } })).status);
      out.push((await t.call('removeCustomHostname', { path: { hostname: name } })).status);
      try {
        await t.call('dnsRevalidateCustomHostname', { path: { hostname: '10.1.2.3' } });
      } catch (e: any) {
        out.push(e.kind, e.message);
      }
      return out;
    });
    expect(remote).toEqual(local);
  });
});
