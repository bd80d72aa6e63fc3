import type { Transport } from '../../src/transport/types.js';
import { collectPages, type ListBody } from './pages.js';

// Choices for the pickers of commands whose SPACE or COLLECTION argument was left out on a
// terminal: what the caller can see, across their organizations, labelled with where it is.

interface Listed {
  id: string;
  title: string;
}

/** Every item of a list operation, following next.page (guarded against a looping cursor). */
export async function listAll<T>(transport: Transport, operationId: string, path: Record<string, string>, query: Record<string, unknown> = {}): Promise<T[]> {
  const get = async (page?: string) => (await transport.call(operationId, { path, query: { ...query, limit: 1000, ...(page ? { page } : {}) } })).body as ListBody<T>;
  return (await collectPages(await get(), get)).items;
}

async function acrossOrganizations(transport: Transport, operationId: string) {
  const orgs = await listAll<Listed>(transport, 'listOrganizationsForAuthenticatedUser', {});
  const out: { name: string; value: string }[] = [];
  for (const org of orgs) {
    for (const item of await listAll<Listed>(transport, operationId, { organizationId: org.id })) {
      out.push({ name: orgs.length > 1 ? `${item.title} (${org.title})` : item.title, value: item.id });
    }
  }
  return out;
}

export const chooseSpace = (transport: Transport) => acrossOrganizations(transport, 'listSpacesInOrganizationById');
export const chooseCollection = (transport: Transport) => acrossOrganizations(transport, 'listCollectionsInOrganizationById');
