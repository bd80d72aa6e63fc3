#!/usr/bin/env node
// Codemod: table names as strings → the owning area's typed table handles (src/store/port.ts `Table`).
//
//   tx.get<SpaceRecord>('spaces', id)        →  tx.get(Spaces, id)
//   tx.find<TeamRecord>('teams', 'organization', org)  →  tx.find(Teams, 'organization', org)
//   tx.put('meta', downloadSecretRow())      →  tx.put(MetaDownloadSecret, downloadSecretRow())
//
// and adds `import { Spaces } from '<relative>/spaces/tables.js'` where the file lacks it.
//
// It rewrites every string literal (or constant of a string literal type) naming a table that is
// used where a `Table` is expected: arguments of the Store port's methods, and any parameter,
// property or return value typed `Table<...>`. So after a helper is changed by hand to take a
// `Table`, running this again rewrites its callers. The type arguments of a rewritten port call
// are dropped (the handle carries the row type). Constants holding a table name that are left
// unused are removed.
//
// Idempotent: a second run finds nothing to do. A statement under `// @ts-expect-error` is skipped. Files under src/store/ are left alone (the store
// itself names tables by strings). What it cannot rewrite (a table name computed at run time, a
// `meta` row it cannot tell) is listed at the end, for a hand fix.
//
// Usage: node scripts/codemods/table-handles.mjs [--check] [files...]
//   --check  change nothing; exit 1 when something would change.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Table name → [handle, the module declaring it]. */
const HANDLES = {
  users: ['Users', 'src/users/tables.ts'],
  tokens: ['Tokens', 'src/auth/tokens.ts'],
  invitations: ['Invitations', 'src/invites/tables.ts'],
  inviteLinks: ['InviteLinks', 'src/invites/tables.ts'],
  leases: ['Leases', 'src/kernel/leases.ts'],
  organizations: ['Organizations', 'src/organizations/tables.ts'],
  members: ['Members', 'src/organizations/tables.ts'],
  collections: ['Collections', 'src/collections/tables.ts'],
  spaces: ['Spaces', 'src/spaces/tables.ts'],
  revisions: ['Revisions', 'src/spaces/tables.ts'],
  pageContents: ['PageContents', 'src/content/tables.ts'],
  pageNodes: ['PageNodes', 'src/content/tables.ts'],
  storageUploads: ['StorageUploads', 'src/content/tables.ts'],
  teams: ['Teams', 'src/teams/tables.ts'],
  grants: ['Grants', 'src/tree/grants.ts'],
  teamMembers: ['TeamMembers', 'src/teams/tables.ts'],
  samlProviders: ['SamlProviders', 'src/saml/tables.ts'],
  agentInstructions: ['AgentInstructions', 'src/agent-instructions/tables.ts'],
  agentTasks: ['AgentTasks', 'src/agents/tables.ts'],
  agentConversations: ['AgentConversations', 'src/agents/tables.ts'],
  openapiSpecs: ['OpenapiSpecs', 'src/openapi/tables.ts'],
  openapiSources: ['OpenapiSources', 'src/openapi/tables.ts'],
  openapiVersions: ['OpenapiVersions', 'src/openapi/tables.ts'],
  integrations: ['Integrations', 'src/integrations/tables.ts'],
  integrationInstallations: ['IntegrationInstallations', 'src/integrations/tables.ts'],
  integrationEvents: ['IntegrationEvents', 'src/integrations/tables.ts'],
  conversations: ['Conversations', 'src/conversations/tables.ts'],
  askQuestions: ['AskQuestions', 'src/ask/tables.ts'],
  askResponses: ['AskResponses', 'src/ask/tables.ts'],
  styleguideRuns: ['StyleguideRuns', 'src/styleguides/tables.ts'],
  conversationIssues: ['ConversationIssues', 'src/conversations/tables.ts'],
  conversationClusters: ['ConversationClusters', 'src/conversations/tables.ts'],
  translations: ['Translations', 'src/translations/tables.ts'],
  importRuns: ['ImportRuns', 'src/imports/tables.ts'],
  gitSync: ['GitSync', 'src/git/tables.ts'],
  sites: ['Sites', 'src/sites/tables.ts'],
  siteSections: ['SiteSections', 'src/sites/tables.ts'],
  siteSectionGroups: ['SiteSectionGroups', 'src/sites/tables.ts'],
  siteSpaces: ['SiteSpaces', 'src/sites/tables.ts'],
  siteShareLinks: ['SiteShareLinks', 'src/sites/tables.ts'],
  siteRedirects: ['SiteRedirects', 'src/sites/tables.ts'],
  customFonts: ['CustomFonts', 'src/sites/tables.ts'],
  customHostnames: ['CustomHostnames', 'src/sites/tables.ts'],
  siteMcpServers: ['SiteMcpServers', 'src/sites/tables.ts'],
  siteInsightBatches: ['SiteInsightBatches', 'src/sites/tables.ts'],
  siteChannels: ['SiteChannels', 'src/sites/tables.ts'],
  siteExternalLinks: ['SiteExternalLinks', 'src/sites/tables.ts'],
  siteAgentSettings: ['SiteAgentSettings', 'src/sites/tables.ts'],
  auditEvents: ['AuditEvents', 'src/audit/tables.ts'],
  auditRecent: ['AuditRecent', 'src/audit/tables.ts'],
  auditHosts: ['AuditHosts', 'src/audit/tables.ts'],
  auditLog: ['AuditLog', 'src/audit/tables.ts'],
  glossaryEntries: ['GlossaryEntries', 'src/translations/tables.ts'],
  changeRequests: ['ChangeRequests', 'src/change-requests/tables.ts'],
  changeRequestReviews: ['ChangeRequestReviews', 'src/change-requests/reviews.ts'],
  changeRequestReviewers: ['ChangeRequestReviewers', 'src/change-requests/reviews.ts'],
  comments: ['Comments', 'src/comments/tables.ts'],
  commentReplies: ['CommentReplies', 'src/comments/tables.ts'],
};

/**
 * `meta` holds rows of different shapes, one handle each: told apart by the call's type
 * argument, or else by the text of its other arguments (the row's id or the row).
 */
const META = [
  { handle: ['MetaOwner', 'src/users/instance.ts'], typeArg: /^(OwnerMeta|\{\s*id: string; user: string;?\s*\})$/, arg: /^'owner'$/ },
  { handle: ['MetaVisitorKey', 'src/auth/visitor-keys.ts'], typeArg: /^VisitorKeyMeta$/, arg: /^KEY_ROW$/ },
  {
    handle: ['MetaDownloadSecret', 'src/content/downloads.ts'],
    typeArg: /^\{\s*id: string; secret: string;?\s*\}$/,
    arg: /^(META_ID|downloadSecretRow\(\)|'download-signing-key')$/,
  },
];

const PORT = path.join(ROOT, 'src/store/port.ts');
const PORT_METHODS = new Set(['get', 'find', 'all', 'put', 'delete']);

const args = process.argv.slice(2);
const check = args.includes('--check');
const only = args.filter((a) => !a.startsWith('--')).map((f) => path.resolve(f));

const config = ts.getParsedCommandLineOfConfigFile(
  path.join(ROOT, 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  },
);
const program = ts.createProgram(config.fileNames, config.options);
const checker = program.getTypeChecker();

const rel = (f) => path.relative(ROOT, f).split(path.sep).join('/');
const leftForHand = [];
let changedFiles = 0;
let rewrites = 0;

/** Is `type` (or a member of a union) a table handle type (`Table<T, K>`)? */
function isTableType(type) {
  if (!type) return false;
  if (type.isUnion()) return type.types.some(isTableType);
  return checker.getPropertiesOfType(type).some((p) => p.getName().startsWith('__@rowType@'));
}

/** The call a node is an argument of, if it is a call to a Store port method. */
function portCall(node) {
  const call = node.parent;
  if (!call || !ts.isCallExpression(call) || !call.arguments.includes(node)) return undefined;
  if (!ts.isPropertyAccessExpression(call.expression) || !PORT_METHODS.has(call.expression.name.text)) return undefined;
  const sym = checker.getSymbolAtLocation(call.expression.name);
  // ReadTx/WriteTx of the port; not the store's own NamedReadTx/NamedWriteTx, which take strings.
  const isPort = (d) => path.resolve(d.getSourceFile().fileName) === PORT && ts.isInterfaceDeclaration(d.parent) && /^(Read|Write)Tx$/.test(d.parent.name.text);
  return sym?.declarations?.some(isPort) ? call : undefined;
}

function metaHandle(node, sf) {
  const call = node.parent;
  if (!call || !ts.isCallExpression(call)) return undefined;
  const typeArg = call.typeArguments?.[0]?.getText(sf).replace(/\s+/g, ' ');
  const others = call.arguments.filter((a) => a !== node).map((a) => a.getText(sf));
  for (const rule of META) {
    if (typeArg !== undefined && rule.typeArg.test(typeArg)) return rule.handle;
    if (others.some((t) => rule.arg.test(t))) return rule.handle;
  }
  return undefined;
}

/** The table a node names: a string literal, or an expression of a string literal type. */
function tableNameOf(node) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isIdentifier(node) || ts.isPropertyAccessExpression(node)) {
    const t = checker.getTypeAtLocation(node);
    if (t.isStringLiteral()) return t.value;
  }
  return undefined;
}

function importPath(from, module) {
  const p = path.relative(path.dirname(from), path.join(ROOT, module)).split(path.sep).join('/').replace(/\.ts$/, '.js');
  return p.startsWith('.') ? p : `./${p}`;
}

for (const sf of program.getSourceFiles()) {
  const file = path.resolve(sf.fileName);
  if (sf.isDeclarationFile || file.includes(`${path.sep}node_modules${path.sep}`) || !file.startsWith(ROOT)) continue;
  if (rel(file).startsWith('src/store/')) continue;
  if (only.length && !only.includes(file)) continue;

  const edits = []; // { start, end, text }
  const needed = new Map(); // handle → module
  const rewrittenConsts = new Map(); // symbol → count of rewritten references
  const droppedTypeNames = new Set(); // names in the type arguments removed

  // A line under `// @ts-expect-error` is an expected error (test/store/table-handles.test.ts): left as it is.
  const lines = sf.text.split('\n');
  const expectedError = (node) => /\/\/\s*@ts-expect-error/.test(lines[sf.getLineAndCharacterOfPosition(node.getStart(sf)).line - 1] ?? '');
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isTypeNode(node)) return;
    if (ts.isStatement(node) && expectedError(node)) return;
    const asArg = portCall(node);
    if (asArg && asArg.arguments[0] === node && tableNameOf(node) === undefined) {
      const t = checker.getTypeAtLocation(node);
      if (!isTableType(t) && !(t.flags & ts.TypeFlags.Any))
        leftForHand.push(
          `${rel(file)}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}: the table is not a handle (computed at run time?): ${asArg.getText(sf).slice(0, 120)}`,
        );
    }
    const isLiteral = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node);
    const isRef = ts.isIdentifier(node) && !ts.isPropertyAccessExpression(node.parent) && !ts.isVariableDeclaration(node.parent);
    if ((isLiteral || isRef) && !ts.isAsExpression(node.parent) && !ts.isTypeAssertionExpression(node.parent) && !ts.isSatisfiesExpression(node.parent)) {
      const name = tableNameOf(node);
      const call = portCall(node);
      const expectsTable = isTableType(checker.getContextualType(node));
      const isTableArg = call && call.arguments[0] === node;
      if (name !== undefined && (expectsTable || isTableArg) && (name in HANDLES || name === 'meta')) {
        const handle = name === 'meta' ? metaHandle(node, sf) : HANDLES[name];
        if (!handle) {
          leftForHand.push(
            `${rel(file)}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}: a 'meta' row the codemod cannot tell (add a rule to META): ${node.parent.getText(sf).slice(0, 120)}`,
          );
        } else {
          edits.push({ start: node.getStart(sf), end: node.getEnd(), text: handle[0] });
          if (path.join(ROOT, handle[1]) !== file) needed.set(handle[0], handle[1]);
          if (isRef) {
            const sym = checker.getSymbolAtLocation(node);
            if (sym) rewrittenConsts.set(sym, (rewrittenConsts.get(sym) ?? 0) + 1);
          }
          // A port call's type arguments named the row type; the handle carries it now.
          if (isTableArg && call.typeArguments) {
            edits.push({ start: call.expression.getEnd(), end: call.arguments.pos - 1, text: '' });
            const names = (n) => (ts.isIdentifier(n) && droppedTypeNames.add(n.text), ts.forEachChild(n, names));
            call.typeArguments.forEach(names);
          }
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  if (!edits.length) continue;

  // Constants holding a table name, declared here and now unused: removed.
  for (const [sym, n] of rewrittenConsts) {
    const decl = sym.valueDeclaration;
    if (!decl || decl.getSourceFile() !== sf || !ts.isVariableDeclaration(decl)) continue;
    const stmt = decl.parent?.parent;
    if (!stmt || !ts.isVariableStatement(stmt) || stmt.declarationList.declarations.length !== 1) continue;
    if (stmt.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    let refs = 0;
    const count = (node) => {
      if (ts.isIdentifier(node) && node !== decl.name && checker.getSymbolAtLocation(node) === sym) refs++;
      ts.forEachChild(node, count);
    };
    count(sf);
    if (refs === n) {
      const text = sf.text;
      let end = stmt.getEnd();
      if (text[end] === '\n') end++;
      edits.push({ start: stmt.getFullStart() === 0 ? 0 : stmt.getStart(sf), end, text: '' });
    }
  }

  // Imports of the handles the file now uses.
  const byModule = new Map();
  for (const [handle, module] of needed) {
    const locals = sf.locals; // internal but stable: the file's own declarations and imports
    const existing = locals?.get(handle);
    if (existing) {
      const d = existing.declarations?.[0];
      const fromHandleModule =
        d &&
        ts.isImportSpecifier(d) &&
        path.resolve(path.dirname(file), d.parent.parent.parent.moduleSpecifier.text.replace(/\.js$/, '.ts')) === path.join(ROOT, module);
      if (fromHandleModule) continue;
      throw new Error(`${rel(file)}: already declares '${handle}', which is not the table handle of ${module}; rename it and run again`);
    }
    byModule.set(module, [...(byModule.get(module) ?? []), handle]);
  }
  const imports = sf.statements.filter(ts.isImportDeclaration);
  const newLines = [];
  for (const [module, handles] of byModule) {
    const spec = importPath(file, module);
    const same = imports.find(
      (i) =>
        i.moduleSpecifier.text === spec &&
        i.importClause &&
        !i.importClause.isTypeOnly &&
        i.importClause.namedBindings &&
        ts.isNamedImports(i.importClause.namedBindings),
    );
    if (same) {
      const els = same.importClause.namedBindings.elements;
      edits.push({ start: els.end, end: els.end, text: `${els.hasTrailingComma ? ' ' : ', '}${handles.sort().join(', ')}` });
    } else newLines.push(`import { ${handles.sort().join(', ')} } from '${spec}';`);
  }
  if (newLines.length) {
    const last = imports.at(-1);
    if (last) edits.push({ start: last.getEnd(), end: last.getEnd(), text: `\n${newLines.sort().join('\n')}` });
    else edits.push({ start: 0, end: 0, text: `${newLines.sort().join('\n')}\n` });
  }

  edits.sort((a, b) => b.start - a.start || b.end - a.end);
  let text = sf.text;
  for (const e of edits) text = text.slice(0, e.start) + e.text + text.slice(e.end);
  text = dropUnusedImports(text, droppedTypeNames, file);
  changedFiles++;
  rewrites += edits.length;
  if (!check) fs.writeFileSync(file, text);
  console.log(`${check ? 'would rewrite' : 'rewrote'} ${rel(file)} (${edits.length} edits)`);
}

/** Removes the import specifiers of `names` that the rewritten text no longer uses (the row types the type arguments named). */
function dropUnusedImports(text, names, file) {
  if (!names.size) return text;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const used = new Set();
  const scan = (n) => {
    if (ts.isImportDeclaration(n)) return;
    if (ts.isIdentifier(n)) used.add(n.text);
    ts.forEachChild(n, scan);
  };
  scan(sf);
  const edits = [];
  for (const imp of sf.statements.filter(ts.isImportDeclaration)) {
    const clause = imp.importClause;
    const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings : undefined;
    if (!named) continue;
    const drop = named.elements.filter((e) => names.has(e.name.text) && !used.has(e.name.text));
    if (!drop.length) continue;
    const keep = named.elements.filter((e) => !drop.includes(e));
    if (!keep.length && !clause.name) {
      let end = imp.getEnd();
      if (text[end] === '\n') end++;
      edits.push({ start: imp.getStart(sf), end, text: '' });
    } else {
      const typeOnly = clause.isTypeOnly ? 'type ' : '';
      const def = clause.name ? `${clause.name.text}${keep.length ? ', ' : ''}` : '';
      const list = keep.length ? `{ ${keep.map((e) => e.getText(sf)).join(', ')} }` : '';
      edits.push({ start: clause.getStart(sf), end: clause.getEnd(), text: `${typeOnly}${def}${list}` });
    }
  }
  edits.sort((a, b) => b.start - a.start);
  for (const e of edits) text = text.slice(0, e.start) + e.text + text.slice(e.end);
  return text;
}

if (leftForHand.length) console.log(`\nLeft for a hand fix (${leftForHand.length}):\n${leftForHand.join('\n')}`);
console.log(`\n${changedFiles} files, ${rewrites} edits${check ? ' (nothing written: --check)' : ''}`);
if (check && changedFiles) process.exit(1);
