import jsepModule from 'jsep';
import { invalid } from '../kernel/errors.js';

// Conditions decide which sections and site spaces a visitor sees. They are parsed with jsep
// (never evaluated here) and must stay within this grammar, so that whatever renders the site
// can evaluate them safely:
//
//   expr     := expr ('&&' | '||') expr | '!' expr | '(' expr ')' | operand (cmp operand)?
//   cmp      := '==' | '!=' | '===' | '!==' | '<' | '<=' | '>' | '>='
//   operand  := literal | claim | claim '.includes(' literal ')' | '[' literal, ... ']'
//   literal  := string | number | true | false | null
//   claim    := 'visitor.claims' ('.' name | '[' string ']')+
//
// Anything else (other identifiers, calls, assignments, arithmetic, `this`, templates) is a 400.
const jsep = ((jsepModule as any).default ?? jsepModule) as typeof jsepModule;

export const CONDITION_GRAMMAR =
  "visitor claims (visitor.claims.x, visitor.claims.unsigned.x, visitor.claims['x']), literals (strings, numbers, true, false, null, [arrays]), comparisons (== != === !== < <= > >=), claim.includes(literal), &&, ||, ! and parentheses";

const COMPARISONS = new Set(['==', '!=', '===', '!==', '<', '<=', '>', '>=']);

type N = { type: string; [k: string]: any };

function claimPath(n: N): string[] | undefined {
  if (n.type !== 'MemberExpression') return undefined;
  const name = n.computed ? (n.property.type === 'Literal' && typeof n.property.value === 'string' ? n.property.value : undefined) : n.property.name;
  if (name === undefined) return undefined;
  if (n.object.type === 'Identifier') return n.object.name === 'visitor' ? [name] : undefined;
  const base = claimPath(n.object);
  return base && [...base, name];
}

const isClaim = (n: N) => {
  const p = claimPath(n);
  return !!p && p.length >= 2 && p[0] === 'claims';
};

const isLiteral = (n: N): boolean => n.type === 'Literal' || (n.type === 'ArrayExpression' && n.elements.every((e: N) => e && e.type === 'Literal'));

function operand(n: N): boolean {
  if (isLiteral(n) || isClaim(n)) return true;
  // claim.includes(literal): the one call allowed, for array claims.
  return (
    n.type === 'CallExpression' &&
    n.callee.type === 'MemberExpression' &&
    !n.callee.computed &&
    n.callee.property.name === 'includes' &&
    isClaim(n.callee.object) &&
    n.arguments.length === 1 &&
    n.arguments[0].type === 'Literal'
  );
}

function check(n: N): void {
  if (n.type === 'BinaryExpression' && (n.operator === '&&' || n.operator === '||')) return (check(n.left), check(n.right));
  if (n.type === 'UnaryExpression' && n.operator === '!') return check(n.argument);
  if (n.type === 'BinaryExpression' && COMPARISONS.has(n.operator)) {
    for (const side of [n.left, n.right]) if (!operand(side)) throw new Error(`unsupported ${describe(side)}`);
    return;
  }
  if (!operand(n)) throw new Error(`unsupported ${describe(n)}`);
}

function describe(n: N): string {
  if (n.type === 'Identifier') return `name '${n.name}'`;
  if (n.type === 'BinaryExpression') return `operator '${n.operator}'`;
  if (n.type === 'UnaryExpression') return `operator '${n.operator}'`;
  if (n.type === 'MemberExpression') return 'reference (only visitor.claims... may be read)';
  if (n.type === 'CallExpression') return 'call (only claim.includes(literal) is allowed)';
  return `expression (${n.type})`;
}

/** A condition checked against the grammar above; 400 naming `field` and what is wrong. */
export function checkCondition(value: string, field = 'condition'): string {
  if (value.length > 1024) throw invalid(`${field}: must be at most 1024 characters`);
  if (!value.trim()) throw invalid(`${field}: must not be empty (use null to remove a condition)`);
  let ast: N;
  try {
    ast = jsep(value) as N;
  } catch (err) {
    throw invalid(`${field}: not a valid expression: ${(err as Error).message}`);
  }
  try {
    if (ast.type === 'Compound') throw new Error('unsupported sequence of expressions');
    check(ast);
  } catch (err) {
    throw invalid(`${field}: ${(err as Error).message}; accepted: ${CONDITION_GRAMMAR}`);
  }
  return value;
}
