import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operationSpec } from '../../src/contract/spec.js';
import { packageRoot } from '../../src/kernel/root.js';
import { areaName, toolFor } from '../../src/mcp/tool-schema.js';
import { selectTools, toInput } from '../../src/mcp/tools.js';
import { AREAS, OPERATION_IDS } from '../../src/operations.js';

describe('MCP tool list (generated/mcp/tools.json)', () => {
  it('is the registry and the contract as they are now (the build made it from them)', () => {
    const built = JSON.parse(readFileSync(join(packageRoot(), 'generated', 'mcp', 'tools.json'), 'utf8'));
    const fresh = AREAS.flatMap((a) => a.operations.map((id) => toolFor(operationSpec(id), areaName(a.load))));
    expect(built).toEqual(JSON.parse(JSON.stringify(fresh)));
    expect(built.map((t: any) => t.name)).toEqual(OPERATION_IDS);
  });

  it('names every area by its folder', () => {
    expect(AREAS.map((a) => areaName(a.load))).toContain('change-requests');
    // Several areas may load from one folder (reviews from change-requests; redirects, fonts,
    // delivery and insights from sites): each name is a folder of src/.
    for (const name of new Set(AREAS.map((a) => areaName(a.load)))) expect(existsSync(join(packageRoot(), 'src', name)), name).toBe(true);
    expect(AREAS.filter((a) => areaName(a.load) === 'sites').length).toBeGreaterThan(1);
  });

  it('merges path, query and body into one object schema; no $ref points outside it', () => {
    for (const t of selectTools()) {
      expect(t.inputSchema.type).toBe('object');
      const text = JSON.stringify(t.inputSchema);
      for (const [, name] of text.matchAll(/"\$ref":"#\/\$defs\/([^"]+)"/g)) expect(t.inputSchema.$defs?.[name!], `${t.name}: ${name}`).toBeDefined();
      expect(text).not.toContain('#/components/');
    }
    const get = selectTools().find((t) => t.name === 'getPageById')!;
    expect(get.inputSchema.required).toEqual(['spaceId', 'pageId']);
    expect(Object.keys(get.inputSchema.properties)).toEqual(['spaceId', 'pageId', 'format', 'evaluated', 'metadata', 'computed']);
  });

  it('splits a call back into path, query and body, and refuses arguments it does not have', () => {
    const tools = selectTools();
    const col = tools.find((t) => t.name === 'createCollection')!;
    expect(toInput(col, { organizationId: 'o1', title: 'T' })).toEqual({ path: { organizationId: 'o1' }, query: {}, body: { title: 'T' } });
    const page = tools.find((t) => t.name === 'getPageById')!;
    expect(toInput(page, { spaceId: 's', pageId: 'p', format: 'markdown' })).toEqual({
      path: { spaceId: 's', pageId: 'p' },
      query: { format: 'markdown' },
      body: undefined,
    });
    expect(() => toInput(page, { spaceId: 's', pageId: 'p', title: 'x' })).toThrow('title: is not an argument of getPageById');
    // A required body of fields, none given: `{}`, so that validation names the missing field.
    const instr = tools.find((t) => t.name === 'updateOrganizationAgentInstructions')!;
    expect(toInput(instr, { organizationId: 'o' }).body).toEqual({});
    const space = tools.find((t) => t.name === 'createSpace')!;
    expect(toInput(space, { organizationId: 'o', body: { title: 'S' } }).body).toEqual({ title: 'S' });
  });

  it('--read-only keeps GETs; --tools keeps areas (cr is change-requests); an unknown area is refused', () => {
    const ro = selectTools({ readOnly: true });
    expect(ro.length).toBe(OPERATION_IDS.filter((id) => operationSpec(id).method === 'GET').length);
    const cr = selectTools({ areas: ['cr'] });
    expect(cr.map((t) => t.name)).toContain('mergeChangeRequest');
    expect(cr.every((t) => t.area === 'change-requests')).toBe(true);
    expect(() => selectTools({ areas: ['spacez'] })).toThrow(/tools: unknown area spacez/);
  });
});
