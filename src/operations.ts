import type { Operation } from './kernel/operation.js';
import * as openapi from './openapi/operations.js';
import * as organizations from './organizations/operations.js';
import * as users from './users/operations.js';

// Every operation this project serves, by area. The HTTP router, the CLI transports and the
// served-operations snapshot test all read this one list.
export const OPERATIONS: Operation[] = [
  // Users
  users.getAuthenticatedUser,
  users.getUserById,
  // Organizations
  organizations.listOrganizationsForAuthenticatedUser,
  organizations.getOrganizationById,
  organizations.createOrganization,
  // OpenAPI specs and versions
  openapi.listOpenAPISpecs,
  openapi.createOpenAPISpec,
  openapi.getOpenAPISpecBySlug,
  openapi.createOrUpdateOpenAPISpecBySlug,
  openapi.deleteOpenAPISpecBySlug,
  openapi.updateOpenAPISpecBySlug,
  openapi.listOpenAPISpecVersions,
  openapi.getLatestOpenAPISpecVersion,
  openapi.getLatestOpenAPISpecVersionContent,
  openapi.getOpenAPISpecVersionById,
  openapi.getOpenAPISpecVersionContentById,
];

export const OPERATIONS_BY_ID = new Map(OPERATIONS.map((o) => [o.operationId, o]));
