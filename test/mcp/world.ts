import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';
import { operationSpec } from '../../src/contract/spec.js';
import { markdownToDocument } from '../../src/documents/markdown.js';
import { areaName } from '../../src/mcp/tool-schema.js';
import { AREAS, OPERATION_IDS } from '../../src/operations.js';

// The scenario both MCP transports (stdio `docs mcp`, HTTP /mcp) must pass with the SDK's client.

export const text = (r: any): string => r.content.map((c: any) => c.text).join('\n');

/** GET operations of the areas whose modules live in these folders. */
export function readOperations(folders?: string[]): string[] {
  return AREAS.filter((a) => !folders || folders.includes(areaName(a.load)))
    .flatMap((a) => a.operations)
    .filter((id) => operationSpec(id).method === 'GET');
}

/** Lists, reads, writes, refuses: as the owner (`owner`) and as a reader (`reader`). */
export async function ownerScenario(owner: Client): Promise<{ orgId: string; spaceId: string }> {
  const { tools } = await owner.listTools();
  expect(tools.length).toBe(OPERATION_IDS.length);
  expect(new Set(tools.map((t) => t.name))).toEqual(new Set(OPERATION_IDS));
  const createSpace = tools.find((t) => t.name === 'createSpace')!;
  expect(createSpace.description).toContain('POST /orgs/{organizationId}/spaces');
  expect(createSpace.inputSchema.required).toContain('organizationId');

  // A read.
  const orgs = await owner.callTool({ name: 'listOrganizationsForAuthenticatedUser', arguments: {} });
  expect(orgs.isError).toBeFalsy();
  const orgId = (orgs.structuredContent as any).items[0].id as string;

  // A write (a nested body), then a read of what it made.
  const made = await owner.callTool({ name: 'createSpace', arguments: { organizationId: orgId, body: { title: 'Made by an agent' } } });
  expect(made.isError, text(made)).toBeFalsy();
  const spaceId = (made.structuredContent as any).id as string;
  const got = await owner.callTool({ name: 'getSpaceById', arguments: { spaceId } });
  expect((got.structuredContent as any).title).toBe('Made by an agent');

  // A write with flat body fields: the agent instructions, then the prompt that shows them.
  const instructions = await markdownToDocument('# Tone\n\nAnswer briefly.\n');
  const set = await owner.callTool({ name: 'updateOrganizationAgentInstructions', arguments: { organizationId: orgId, instructions } });
  expect(set.isError, text(set)).toBeFalsy();
  const prompt = await owner.getPrompt({ name: 'agent-instructions', arguments: { organizationId: orgId } });
  expect((prompt.messages[0]!.content as any).text).toContain('Answer briefly.');

  // A page as a resource: a template gives the space pages.
  const applied = await owner.callTool({ name: 'applyTemplateToSpace', arguments: { spaceId, id: 'getting-started' } });
  if (!applied.isError) {
    const pages = (await owner.callTool({ name: 'listPages', arguments: { spaceId } })).structuredContent as any;
    const page = pages.pages.find((p: any) => p.type === 'document');
    const uri = `docs://spaces/${spaceId}/pages/${page.id}`;
    const read = await owner.readResource({ uri });
    expect(read.contents[0]).toMatchObject({ uri, mimeType: 'text/markdown' });
    const direct = (await owner.callTool({ name: 'getPageById', arguments: { spaceId, pageId: page.id, format: 'markdown' } })).structuredContent as any;
    expect((read.contents[0] as any).text).toBe(direct.markdown);
    expect(direct.markdown.length).toBeGreaterThan(10);
    const listed = await owner.listResources();
    expect(listed.resources.map((r) => r.uri)).toContain(uri);
  } else throw new Error('applyTemplateToSpace: ' + text(applied));
  const templates = await owner.listResourceTemplates();
  expect(templates.resourceTemplates[0]!.uriTemplate).toBe('docs://spaces/{spaceId}/pages/{pageId}');

  // Validation: a tool error naming the field, and nothing made.
  const before = (await owner.callTool({ name: 'listSpacesInOrganizationById', arguments: { organizationId: orgId } })).structuredContent as any;
  const bad = await owner.callTool({ name: 'createSpace', arguments: { organizationId: orgId, body: { title: 42 } } });
  expect(bad.isError).toBe(true);
  expect(text(bad)).toContain('body.title: must be string');
  const stray = await owner.callTool({ name: 'createCollection', arguments: { organizationId: orgId, title: 'x', colour: 'red' } });
  expect(stray.isError).toBe(true);
  expect(text(stray)).toContain('body.colour: is not an accepted field');
  const missing = await owner.callTool({ name: 'getSpaceById', arguments: {} });
  expect(text(missing)).toContain('path.spaceId: is required');
  const noField = await owner.callTool({ name: 'updateOrganizationAgentInstructions', arguments: { organizationId: orgId } });
  expect(text(noField)).toContain('body.instructions: is required');
  const after = (await owner.callTool({ name: 'listSpacesInOrganizationById', arguments: { organizationId: orgId } })).structuredContent as any;
  expect(after.items.length).toBe(before.items.length);

  // An unknown tool: a protocol error.
  await expect(owner.callTool({ name: 'dropEverything', arguments: {} })).rejects.toThrow(/unknown tool dropEverything/);
  return { orgId, spaceId };
}

/** A reader may read but not write: the refusal is a tool error with the API's message. */
export async function readerScenario(reader: Client, orgId: string, spaceId: string): Promise<void> {
  const got = await reader.callTool({ name: 'getSpaceById', arguments: { spaceId } });
  expect(got.isError, text(got)).toBeFalsy();
  const refused = await reader.callTool({ name: 'createSpace', arguments: { organizationId: orgId, body: { title: 'Not allowed' } } });
  expect(refused.isError).toBe(true);
  expect(JSON.parse((refused.content as any)[1].text).error.code).toBe(403);
  const renamed = await reader.callTool({ name: 'updateSpaceById', arguments: { spaceId, body: { title: 'Renamed' } } });
  expect(renamed.isError).toBe(true);
  expect(text(renamed)).toMatch(/needs the admin level/);
}
