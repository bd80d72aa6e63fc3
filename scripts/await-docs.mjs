#!/usr/bin/env node
// Turns calls of the test helper `docs([...])` (test/helpers/cli.ts), synchronous until the
// in-process CLI runner (test/helpers/in-process-cli.ts) made it async, into `await docs([...])`
// in test files, with the TypeScript parser:
// - `docs(x).json` becomes `(await docs(x)).json`;
// - the function around a call becomes `async` (a declared return type T, Promise<T>); when that
//   function is a named local one (`function run()`, `const run = () => ...`, `{ raw: () => ... }`),
//   its own calls are awaited the same way, and so on;
// - an awaited call, a method (`s.docs(`) or another `docs` (a parameter, a property) is left alone.
// Idempotent. What it cannot decide, `npm run typecheck` then names: `.map(() => docs(...))` now
// gives promises (wrap in Promise.all), a sync callback API (e.g. a `for` over `forEach`).
//   node scripts/await-docs.mjs [file...]     (default: test/**/*.test.ts and *.stress.ts)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const walk = (d) =>
  readdirSync(d, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(d, e.name)) : /\.(test|stress)\.ts$/.test(e.name) ? [join(d, e.name)] : [],
  );
const files = process.argv.length > 2 ? process.argv.slice(2) : walk('test');

function pass(file, text, names) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits = [];
  const asyncified = new Set();
  const newNames = new Set();
  const enclosing = (node) => {
    for (let n = node.parent; n; n = n.parent) if (ts.isFunctionLike(n) && 'body' in n) return n;
    return undefined;
  };
  const makeAsync = (fn) => {
    if (asyncified.has(fn)) return;
    asyncified.add(fn);
    // Its name, when it is a local function others call.
    if (ts.isFunctionDeclaration(fn) && fn.name) newNames.add(fn.name.text);
    if (
      (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) &&
      (ts.isVariableDeclaration(fn.parent) || ts.isPropertyAssignment(fn.parent)) &&
      ts.isIdentifier(fn.parent.name)
    )
      newNames.add(fn.parent.name.text);
    if (ts.isMethodDeclaration(fn) && ts.isIdentifier(fn.name)) newNames.add(fn.name.text);
    if (fn.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword)) return;
    edits.push([fn.getStart(sf), 0, 'async ']);
    // A declared return type T becomes Promise<T>.
    if (fn.type && !/^Promise</.test(fn.type.getText(sf))) {
      edits.push([fn.type.getStart(sf), 0, 'Promise<']);
      edits.push([fn.type.getEnd(), 0, '>']);
    }
  };
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && names.has(node.expression.text)) {
      let outer = node;
      while (ts.isParenthesizedExpression(outer.parent)) outer = outer.parent;
      if (!ts.isAwaitExpression(outer.parent)) {
        const fn = enclosing(node);
        const needsParens =
          ts.isPropertyAccessExpression(outer.parent) ||
          ts.isElementAccessExpression(outer.parent) ||
          (ts.isCallExpression(outer.parent) && outer.parent.expression === outer);
        if (needsParens) {
          edits.push([node.getStart(sf), 0, '(await ']);
          edits.push([node.getEnd(), 0, ')']);
        } else edits.push([node.getStart(sf), 0, 'await ']);
        if (fn) makeAsync(fn);
      } else {
        const fn = enclosing(node);
        if (fn) makeAsync(fn);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  edits.sort((a, b) => b[0] - a[0]);
  let out = text;
  for (const [pos, del, ins] of edits) out = out.slice(0, pos) + ins + out.slice(pos + del);
  return { out, newNames };
}

let changed = 0;
for (const f of files) {
  const text = readFileSync(f, 'utf8');
  if (!/import\s*\{[^}]*\bdocs\b[^}]*\}\s*from\s*'[^']*helpers\/cli\.js'/.test(text)) continue;
  let cur = text;
  const names = new Set(['docs']);
  for (let i = 0; i < 10; i++) {
    const { out, newNames } = pass(f, cur, names);
    const grew = [...newNames].some((n) => !names.has(n));
    for (const n of newNames) names.add(n);
    if (out === cur && !grew) break;
    cur = out;
  }
  if (cur !== text) {
    writeFileSync(f, cur);
    changed++;
    console.log(`${f}: awaited ${[...names].join(', ')}`);
  }
}
console.log(`${changed} file(s) changed`);
