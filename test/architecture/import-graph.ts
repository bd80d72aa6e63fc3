import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

// The import graph of the project's own code (src/, server/, commands/), read with the
// TypeScript parser (syntax only, no type checking: ~1 s for every file). Each edge says whether
// it survives compilation: `import type`, `export type`, imports whose every name is marked
// `type`, and `import('x').T` in a type position are erased, so they cost nothing at run time.

export interface Edge {
  from: string;
  /** A project file (repo-relative, `.ts`), or the specifier itself for a package or `node:` module. */
  to: string;
  line: number;
  typeOnly: boolean;
  dynamic: boolean;
}

export interface Graph {
  files: string[];
  edges: Edge[];
  /** Whether a file declares operations (calls `defineOperation`). */
  declaresOperations: Set<string>;
}

const ROOTS = ['src', 'server', 'commands'];

function walk(root: string, dir: string, out: string[]): void {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) walk(root, path, out);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
}

function resolveSpecifier(root: string, from: string, spec: string): string {
  if (!spec.startsWith('.')) return spec;
  const abs = resolve(root, dirname(from), spec);
  const rel = relative(root, abs).split('\\').join('/');
  const ts = rel.replace(/\.(m?js)$/, '.ts');
  if (existsSync(join(root, ts))) return ts;
  if (existsSync(join(root, rel.replace(/\.(m?js)$/, '.d.ts')))) return rel.replace(/\.(m?js)$/, '.d.ts');
  return rel;
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import './x.js'`: a side effect, kept
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const named = clause.namedBindings;
  return !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
}

export function importGraph(root: string): Graph {
  const files: string[] = [];
  for (const r of ROOTS) walk(root, r, files);
  files.sort();
  const edges: Edge[] = [];
  const declaresOperations = new Set<string>();
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    if (/\bdefineOperation\(/.test(text)) declaresOperations.add(file);
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    // Only `import(` can appear below the top level: without it, the top-level statements suffice.
    const deep = /\bimport\s*\(/.test(text);
    const add = (node: ts.Node, spec: string, typeOnly: boolean, dynamic: boolean) =>
      edges.push({
        from: file,
        to: resolveSpecifier(root, file, spec),
        line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
        typeOnly,
        dynamic,
      });
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) add(node, node.moduleSpecifier.text, isTypeOnlyImport(node), false);
      else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
        add(node, node.moduleSpecifier.text, node.isTypeOnly, false);
      else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression))
        add(node, node.moduleReference.expression.text, node.isTypeOnly, false);
      else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const arg = node.arguments[0];
        if (arg && ts.isStringLiteralLike(arg)) add(node, arg.text, false, true);
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal))
        add(node, node.argument.literal.text, true, false);
      if (deep) ts.forEachChild(node, visit);
    };
    for (const statement of source.statements) visit(statement);
  }
  return { files, edges, declaresOperations };
}

/** Strongly connected components of more than one file (Tarjan), each in a cycle order. */
export function cycles(files: readonly string[], edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) if (next.has(e.to)) next.get(e.from)!.push(e.to);
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(loopThrough(component, next));
    }
  };
  for (const f of files) if (!index.has(f)) connect(f);
  return found;
}

/** One actual loop inside a component, starting at its first file: a → b → ... → a. */
function loopThrough(component: string[], next: Map<string, string[]>): string[] {
  const inside = new Set(component);
  const start = [...component].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of next.get(v)!) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, start];
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  return [...component, component[0]!];
}
