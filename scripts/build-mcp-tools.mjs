// Writes generated/mcp/tools.json: one MCP tool per registered operation (name, description from
// the spec's summary, inputSchema from its path, query and body schemas), built from the compiled
// registry and the contract artifacts, so `docs mcp` answers tools/list without loading any
// handler or compiling any schema. Runs after tsc (it reads dist/src).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const load = (p) => import(pathToFileURL(join(root, 'dist', 'src', p)).href);
const { AREAS } = await load('operations.js');
const { operationSpec } = await load('contract/spec.js');
const { toolFor, areaName } = await load('mcp/tool-schema.js');

const tools = AREAS.flatMap((a) => a.operations.map((id) => toolFor(operationSpec(id), areaName(a.load))));
const out = join(root, 'generated', 'mcp');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'tools.json'), JSON.stringify(tools));
console.log(`mcp: ${tools.length} tools -> ${out}`);
