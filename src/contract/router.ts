import { DocsError } from '../kernel/errors.js';
import { contractRoutes, otherRoutes } from './spec.js';

// Routes every registered operation by the contract's method + path. A segment trie: static
// segments win over `{param}` segments, so `/orgs/{organizationId}/members` never shadows
// a static sibling. Used by the HTTP server and by `docs api` in-process, so both agree.
//
// Two more rules:
// - A last parameter named `...Path` (`/spaces/{spaceId}/content/path/{pagePath}`) takes the rest
//   of the path: GitBook's clients send a nested page path with its slashes unencoded
//   (`.../content/path/guide/setup`), others encode them (`guide%2Fsetup`); both mean the same.
// - Operations of either spec that are not served (the pinned spec's unregistered ones, those
//   only the newest spec has) are routed too, to a 501 naming the operation: a client can tell
//   "not implemented" from a missing resource. A path in neither spec stays 404.

interface Node {
  statics: Map<string, Node>;
  param?: { name: string; rest: boolean; node: Node };
  methods: Map<string, string>; // method -> operationId, served
  unserved: Map<string, string>; // method -> operationId, in a spec but not served here
}

const newNode = (): Node => ({ statics: new Map(), methods: new Map(), unserved: new Map() });

export interface RouteMatch {
  operationId: string;
  path: Record<string, string>;
}

interface Found {
  node: Node;
  params: Record<string, string>;
}

export class Router {
  private readonly root = newNode();

  constructor(registered: Iterable<string>) {
    const wanted = new Set(registered);
    for (const [method, path, operationId] of contractRoutes()) this.add(method, path, operationId, wanted.has(operationId));
    for (const [method, path, operationId] of otherRoutes()) if (!wanted.has(operationId)) this.add(method, path, operationId, false);
  }

  private add(method: string, path: string, operationId: string, served: boolean) {
    let node = this.root;
    const segs = path.split('/').filter(Boolean);
    segs.forEach((seg, i) => {
      const m = /^\{(.+)\}$/.exec(seg);
      if (m) {
        const rest = i === segs.length - 1 && /Path$/.test(m[1]!);
        node.param ??= { name: m[1]!, rest, node: newNode() };
        // Served routes agree on their parameters' names (a build error otherwise); an unserved
        // route only needs to be found, whatever it calls the segment.
        if (served && (node.param.name !== m[1] || node.param.rest !== rest)) throw new Error(`conflicting parameter names at ${path}`);
        node = node.param.node;
      } else {
        let next = node.statics.get(seg);
        if (!next) node.statics.set(seg, (next = newNode()));
        node = next;
      }
    });
    if (served) node.methods.set(method, operationId);
    else if (!node.methods.has(method)) node.unserved.set(method, operationId);
  }

  // Matches by method and pathname: clients ask for the same few resources again and again, and
  // a hit skips splitting, decoding and walking the trie. Bounded (cleared when full); only
  // matches are kept, never the 404/405/501 errors.
  private readonly recent = new Map<string, RouteMatch>();
  private static readonly RECENT_MAX = 10_000;

  /** `pathname` is relative to /v1 and still percent-encoded. Throws 404 / 405 / 501. */
  match(method: string, pathname: string): RouteMatch {
    const key = method + ' ' + pathname;
    const hit = this.recent.get(key);
    // A copy of the parameters: callers own what they get.
    if (hit) return { operationId: hit.operationId, path: { ...hit.path } };
    const found = this.matchUncached(method, pathname);
    if (this.recent.size >= Router.RECENT_MAX) this.recent.clear();
    this.recent.set(key, { operationId: found.operationId, path: { ...found.path } });
    return found;
  }

  private matchUncached(method: string, pathname: string): RouteMatch {
    const segs = pathname
      .split('/')
      .filter(Boolean)
      .map((s) => {
        try {
          return decodeURIComponent(s);
        } catch {
          throw new DocsError('invalid', `path: segment ${JSON.stringify(s)} is not valid percent-encoding`);
        }
      });
    // Every route the path matches, static segments first: the first that serves the method wins;
    // else the first that has it in a spec (501); else the first route's methods (405).
    const all: Found[] = [];
    this.walk(this.root, segs, 0, {}, all);
    const served = all.find((f) => f.node.methods.has(method));
    if (served) return { operationId: served.node.methods.get(method)!, path: served.params };
    const unserved = all.find((f) => f.node.unserved.has(method));
    if (unserved) {
      const id = unserved.node.unserved.get(method)!;
      throw new DocsError('not_implemented', `${id} (${method} /v1${pathname}) is an operation of the GitBook API that this server does not implement`);
    }
    const first = all.find((f) => f.node.methods.size);
    if (!first) throw new DocsError('not_found', `no route for ${method} /v1${pathname}`);
    const allow = [...first.node.methods.keys()];
    const e = new DocsError('method_not_allowed', `${method} is not allowed on /v1${pathname} (allowed: ${allow.join(', ')})`);
    (e as any).allow = allow;
    throw e;
  }

  private walk(node: Node, segs: string[], i: number, params: Record<string, string>, out: Found[]): void {
    if (i === segs.length) {
      if (node.methods.size || node.unserved.size) out.push({ node, params });
      return;
    }
    const s = node.statics.get(segs[i]!);
    if (s) this.walk(s, segs, i + 1, params, out);
    const p = node.param;
    if (!p) return;
    if (p.rest) this.walk(p.node, segs, segs.length, { ...params, [p.name]: segs.slice(i).join('/') }, out);
    else this.walk(p.node, segs, i + 1, { ...params, [p.name]: segs[i]! }, out);
  }
}
