import type { Operation } from './kernel/operation.js';
import * as collections from './collections/operations.js';
import * as organizations from './organizations/operations.js';
import * as spaces from './spaces/operations.js';
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
  // Collections
  collections.getCollectionById,
  collections.deleteCollectionById,
  collections.updateCollectionById,
  collections.listSpacesInCollectionById,
  collections.moveCollection,
  collections.transferCollection,
  collections.listCollectionsInOrganizationById,
  collections.createCollection,
  // Spaces
  spaces.getSpaceById,
  spaces.deleteSpaceById,
  spaces.updateSpaceById,
  spaces.duplicateSpace,
  spaces.restoreSpace,
  spaces.moveSpace,
  spaces.transferSpace,
  spaces.listSpacesInOrganizationById,
  spaces.createSpace,
];

export const OPERATIONS_BY_ID = new Map(OPERATIONS.map((o) => [o.operationId, o]));
