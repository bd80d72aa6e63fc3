import { DocsError } from '../kernel/errors.js';
import { contractRoutes } from './spec.js';

// Routes every registered operation by the contract's method + path. A segment trie: static
// segments win over `{param}` segments, so `/orgs/{organizationId}/members` never shadows
// a static sibling. Used by the HTTP server and by `docs api` in-process, so both agree.

interface Node {
  statics: Map<string, Node>;
  param?: { name: string; node: Node };
  methods: Map<string, string>; // method -> operationId
}

const newNode = (): Node => ({ statics: new Map(), methods: new Map() });

export interface RouteMatch {
  operationId: string;
  path: Record<string, string>;
}

export class Router {
  private readonly root = newNode();

  constructor(registered: Iterable<string>) {
    const wanted = new Set(registered);
    for (const [method, path, operationId] of contractRoutes()) {
      if (!wanted.has(operationId)) continue;
      let node = this.root;
      for (const seg of path.split('/').filter(Boolean)) {
        const m = /^\{(.+)\}$/.exec(seg);
        if (m) {
          node.param ??= { name: m[1]!, node: newNode() };
          if (node.param.name !== m[1]) throw new Error(`conflicting parameter names at ${path}`);
          node = node.param.node;
        } else {
          let next = node.statics.get(seg);
          if (!next) node.statics.set(seg, (next = newNode()));
          node = next;
        }
      }
      node.methods.set(method, operationId);
    }
  }

  // Matches by method and pathname: clients ask for the same few resources again and again, and
  // a hit skips splitting, decoding and walking the trie. Bounded (cleared when full); only
  // matches are kept, never the 404/405 errors.
  private readonly recent = new Map<string, RouteMatch>();
  private static readonly RECENT_MAX = 10_000;

  /** `pathname` is relative to /v1 and still percent-encoded. Throws 404 / 405. */
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
    const segs = pathname.split('/').filter(Boolean);
    const params: Record<string, string> = {};
    const node = this.walk(this.root, segs, 0, params);
    if (!node) throw new DocsError('not_found', `no route for ${method} /v1${pathname}`);
    const operationId = node.methods.get(method);
    if (!operationId) {
      const e = new DocsError('method_not_allowed', `${method} is not allowed on /v1${pathname} (allowed: ${[...node.methods.keys()].join(', ')})`);
      (e as any).allow = [...node.methods.keys()];
      throw e;
    }
    return { operationId, path: params };
  }

  private walk(node: Node, segs: string[], i: number, params: Record<string, string>): Node | undefined {
    if (i === segs.length) return node.methods.size ? node : undefined;
    let seg: string;
    try {
      seg = decodeURIComponent(segs[i]!);
    } catch {
      throw new DocsError('invalid', `path: segment ${JSON.stringify(segs[i])} is not valid percent-encoding`);
    }
    const s = node.statics.get(seg);
    if (s) {
      const found = this.walk(s, segs, i + 1, params);
      if (found) return found;
    }
    if (node.param) {
      const found = this.walk(node.param.node, segs, i + 1, params);
      if (found) {
        params[node.param.name] = seg;
        return found;
      }
    }
    return undefined;
  }
}
