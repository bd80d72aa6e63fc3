import jsepModule from 'jsep';

// Evaluates the conditions of sections, site spaces and pages against a visitor's claims. The
// grammar is the one src/sites/conditions.ts accepts on write (claims, literals, comparisons,
// claim.includes(literal), && || ! and parentheses); the expression is parsed with jsep and its
// tree walked here, never `eval`: whatever is not in the grammar makes the condition false, as
// does any error, so a condition can only ever hide content, never break a page.

const jsep = ((jsepModule as any).default ?? jsepModule) as typeof jsepModule;
type N = { type: string; [k: string]: any };

const FAIL = Symbol('fail');
const parsed = new Map<string, N | typeof FAIL>();

function parse(condition: string): N | typeof FAIL {
  let ast = parsed.get(condition);
  if (ast === undefined) {
    try {
      ast = jsep(condition) as N;
    } catch {
      ast = FAIL;
    }
    if (parsed.size > 5000) parsed.clear();
    parsed.set(condition, ast);
  }
  return ast;
}

const own = (o: unknown, k: string) => !!o && typeof o === 'object' && Object.hasOwn(o, k);

/** The value a `visitor.claims...` reference reads (undefined when absent); FAIL when not a claim. */
function claim(n: N, visitor: { claims: Record<string, unknown> }): unknown {
  const path: string[] = [];
  let cur = n;
  while (cur.type === 'MemberExpression') {
    const name = cur.computed
      ? cur.property.type === 'Literal' && typeof cur.property.value === 'string'
        ? cur.property.value
        : undefined
      : cur.property.name;
    if (name === undefined) return FAIL;
    path.unshift(name);
    cur = cur.object;
  }
  if (cur.type !== 'Identifier' || cur.name !== 'visitor' || path[0] !== 'claims' || path.length < 2) return FAIL;
  let v: unknown = visitor.claims;
  // Own properties only: `visitor.claims.constructor` reads nothing.
  for (const k of path.slice(1)) v = own(v, k) ? (v as any)[k] : undefined;
  return v;
}

function value(n: N, visitor: { claims: Record<string, unknown> }): unknown {
  switch (n.type) {
    case 'Literal':
      return n.value;
    case 'ArrayExpression':
      return n.elements.map((e: N) => (e && e.type === 'Literal' ? e.value : FAIL));
    case 'MemberExpression':
      return claim(n, visitor);
    case 'CallExpression': {
      if (
        n.callee.type !== 'MemberExpression' ||
        n.callee.computed ||
        n.callee.property.name !== 'includes' ||
        n.arguments.length !== 1 ||
        n.arguments[0].type !== 'Literal'
      )
        return FAIL;
      const on = claim(n.callee.object, visitor);
      const arg = n.arguments[0].value;
      return Array.isArray(on) ? on.includes(arg) : typeof on === 'string' && typeof arg === 'string' ? on.includes(arg) : false;
    }
    case 'UnaryExpression':
      if (n.operator !== '!') return FAIL;
      return !truth(n.argument, visitor);
    case 'BinaryExpression': {
      if (n.operator === '&&') return truth(n.left, visitor) && truth(n.right, visitor);
      if (n.operator === '||') return truth(n.left, visitor) || truth(n.right, visitor);
      const a = value(n.left, visitor);
      const b = value(n.right, visitor);
      if (a === FAIL || b === FAIL) return FAIL;
      const x = a as any;
      const y = b as any;
      switch (n.operator) {
        case '==':
          return x == y; // eslint-disable-line eqeqeq
        case '!=':
          return x != y; // eslint-disable-line eqeqeq
        case '===':
          return x === y;
        case '!==':
          return x !== y;
        // Ordering compares numbers with numbers and strings with strings only.
        case '<':
          return typeof x === typeof y && (typeof x === 'number' || typeof x === 'string') && x < y;
        case '<=':
          return typeof x === typeof y && (typeof x === 'number' || typeof x === 'string') && x <= y;
        case '>':
          return typeof x === typeof y && (typeof x === 'number' || typeof x === 'string') && x > y;
        case '>=':
          return typeof x === typeof y && (typeof x === 'number' || typeof x === 'string') && x >= y;
      }
      return FAIL;
    }
  }
  return FAIL;
}

function truth(n: N, visitor: { claims: Record<string, unknown> }): boolean {
  const v = value(n, visitor);
  if (v === FAIL) throw new Error('outside the grammar');
  return !!v;
}

/** Whether a visitor with these claims satisfies the condition (no condition: yes; an invalid one: no). */
export function satisfies(condition: string | undefined, visitor: { claims: Record<string, unknown> }): boolean {
  if (condition === undefined || condition === null) return true;
  const ast = parse(condition);
  if (ast === FAIL) return false;
  try {
    return truth(ast, visitor);
  } catch {
    return false;
  }
}
